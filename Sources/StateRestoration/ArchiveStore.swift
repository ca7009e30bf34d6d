/// The files a restoration store keeps for one app.
public enum ArchiveStoreItem: String, Sendable, Hashable, CaseIterable {
  /// The archive itself (UIKit's `data.data`).
  case archive = "data.data"
  /// The crash guard's marker (UIKit's `inprogress.data`).
  case inProgressMarker = "inprogress.data"
  /// Why the last archive was discarded, so the next launch can say so.
  case discardNote = "discarded.data"
  /// A text snapshot of the UI taken at background time, shown at a restoring launch.
  case snapshot = "snapshot.data"
}

/// Where the engine keeps its archive, its crash-guard marker and its notes.
///
/// ``FileArchiveStore`` keeps them on disk, in UIKit's layout; ``InMemoryArchiveStore`` keeps
/// them in memory, for tests that simulate a process dying and the app launching again.
public protocol ArchiveStore: AnyObject {
  /// A description of where the items live, for log lines and reports.
  var location: String { get }

  /// Reads an item.
  ///
  /// - Parameters:
  ///   - item: The item.
  ///   - maxSize: The largest size accepted, in bytes.
  /// - Returns: The item's bytes, or nil if it does not exist.
  /// - Throws: ``RestorationError`` when the item exists but cannot be read.
  func read(_ item: ArchiveStoreItem, maxSize: Int) throws(RestorationError) -> [UInt8]?

  /// Replaces an item, atomically: a reader sees the old bytes or the new ones, never a mix.
  ///
  /// - Parameters:
  ///   - bytes: The new contents.
  ///   - item: The item.
  /// - Throws: ``RestorationError`` when the item cannot be written; the old one is kept.
  func write(_ bytes: [UInt8], to item: ArchiveStoreItem) throws(RestorationError)

  /// Removes an item; removing a missing item does nothing.
  ///
  /// - Parameter item: The item.
  /// - Throws: ``RestorationError`` when the item exists but cannot be removed.
  func remove(_ item: ArchiveStoreItem) throws(RestorationError)

  /// Removes several items; removing a missing item does nothing.
  ///
  /// The engine removes the crash guard's marker and the archive together once a restoration
  /// is complete: a store that flushes its folder after a removal can flush it once for both.
  /// The default removes each item in turn.
  ///
  /// - Parameter items: The items.
  /// - Throws: ``RestorationError`` for the first item that exists but cannot be removed; the
  ///   others are removed all the same.
  func remove(_ items: [ArchiveStoreItem]) throws(RestorationError)

  /// Whether the engine writes the crash guard's marker on a background queue while it reads
  /// the archive, at the start of a restore.
  ///
  /// Worth it for a store whose writes wait for a disk: the restore no longer waits for that
  /// write before reading the archive. The engine never calls the store from two threads at
  /// once, and waits for the write to finish before it calls any of the app's code, so a
  /// restoration that crashes the app still finds the marker at the next launch. Only with
  /// ``RestorationSettings/usesBackgroundQueues``, and not while the engine has a
  /// ``RestorationEngine/phaseObserver``, which is told of each phase once the marker is armed.
  /// The default is false: every call is made on the thread that restores.
  var writesMarkerInBackground: Bool { get }
}

extension ArchiveStore {
  /// Removes each item in turn.
  public func remove(_ items: [ArchiveStoreItem]) throws(RestorationError) {
    var failure: RestorationError?
    for item in items {
      do throws(RestorationError) {
        try remove(item)
      } catch {
        failure = failure ?? error
      }
    }
    if let failure { throw failure }
  }

  /// False: the store is called only on the thread that restores.
  public var writesMarkerInBackground: Bool { false }
}

/// A store that keeps its items in memory.
///
/// Hand the same store to a new engine to simulate the app launching again after its process
/// died; ``contents`` and ``init(contents:)`` capture and replay the exact bytes "on disk" at any
/// instant, for example the instant a simulated crash happens.
public final class InMemoryArchiveStore: ArchiveStore {
  /// The items and their bytes.
  public var contents: [ArchiveStoreItem: [UInt8]]

  /// How many times each item was written, for assertions.
  public private(set) var writeCounts: [ArchiveStoreItem: Int] = [:]

  /// Creates a store.
  ///
  /// - Parameter contents: Items to start with.
  public init(contents: [ArchiveStoreItem: [UInt8]] = [:]) {
    self.contents = contents
  }

  /// `memory`.
  public var location: String { "memory" }

  /// Reads an item.
  public func read(_ item: ArchiveStoreItem, maxSize: Int) throws(RestorationError) -> [UInt8]? {
    guard let bytes = contents[item] else { return nil }
    guard bytes.count <= maxSize else {
      throw RestorationError(
        .limitExceeded,
        "item is \(bytes.count) bytes, above the limit of \(maxSize)",
        file: "memory:\(item.rawValue)"
      )
    }
    return bytes
  }

  /// Replaces an item.
  public func write(_ bytes: [UInt8], to item: ArchiveStoreItem) throws(RestorationError) {
    contents[item] = bytes
    writeCounts[item, default: 0] += 1
  }

  /// Removes an item.
  public func remove(_ item: ArchiveStoreItem) throws(RestorationError) {
    contents[item] = nil
  }
}

/// A store that keeps its items on disk, where UIKit keeps them:
/// `<state root>/Saved Application State/<bundle id>.savedState/data.data`, or, for one scene
/// of an app with several, `…/<bundle id>.savedState/Scenes/<scene id>/data.data`.
///
/// The folder is created with mode 0700 and the files with mode 0600. Every write goes to a
/// temporary file in the same folder, is flushed, renamed into place and the folder flushed, so
/// a process killed at any instant leaves the old archive or the new one, whole; two processes
/// writing at once leave one of the two, whole (the last to rename wins). The temporary files of
/// writers killed mid-write are removed at the next write, and so are replaced archives that a
/// killed process had not freed yet (``freesReplacedFilesInBackground``). The archive and the
/// snapshot keep the file each write replaced, to write the next version into
/// (``reusesReplacedFiles``).
public final class FileArchiveStore: ArchiveStore {
  /// The folder holding the items.
  public let folder: String

  /// Whether the disk space of an item that is replaced or removed is freed on a background
  /// queue, rather than before the write or removal returns.
  ///
  /// Freeing a file of a few megabytes can take as long as writing one (0.8 ms for 2 MB on the
  /// Linux machine with ext4 where the README's benchmarks ran), and even a small file that was
  /// just written took 0.28 ms to remove, against 0.067 ms to rename. A preserve replaces the
  /// last archive, and a restore removes the archive and the crash guard's marker. The file's
  /// name is gone, or replaced, before the call returns either way. A removal's flush of the
  /// folder, which makes the names' removal survive a power loss (0.35 to 0.4 ms at the end of
  /// a restore there), runs on the same queue: a power loss in that moment can bring back what
  /// a restore removed, which then counts as one crash of the crash guard and is restored
  /// again. A write's flush stays on the calling thread: a write returns durable. A process
  /// that exits finishes the freeing first; one killed before it leaves a temporary file that
  /// the next write removes.
  /// ``RestorationEngine/waitForBackgroundFreeing()`` waits for the freeing. True by default,
  /// whatever ``RestorationSettings/usesBackgroundQueues`` says.
  public var freesReplacedFilesInBackground = true

  /// Whether a write of the archive or the snapshot keeps the file it replaces, as the item's
  /// spare, and writes the next version into that file's disk blocks instead of new ones.
  ///
  /// Writing over allocated blocks skips allocating new ones and freeing old ones at the
  /// flush: for a 2 MB archive the write and its flush took 1.8 ms instead of 2.8 ms on the
  /// Linux machine with ext4 where the README's benchmarks ran. The spare is
  /// `<item's file>.spare`, for example `data.data.spare`, with the same permissions; the
  /// folder then holds two copies of the item, the live one and the one before it. Removing an
  /// archive or the snapshot makes its file the spare, so that a restore, which removes the
  /// archive, leaves its blocks to the next preserve; ``removeSpares()`` removes them. The
  /// first write of an item goes to a new file, whose predecessor, if any, becomes the spare.
  ///
  /// The archive under its own name is never written into: the new version is written into
  /// the spare, flushed, and the two names are swapped atomically. A reader of the files other
  /// than this store should hold a shared `flock` while it reads: a spare that someone holds a
  /// lock on is left alone, and the write goes to a new file. True by default.
  public var reusesReplacedFiles = true

  /// Creates a store for an app.
  ///
  /// - Parameters:
  ///   - stateRoot: The folder that holds `Saved Application State`.
  ///   - bundleIdentifier: The app's bundle identifier; it names a folder, so it must not
  ///     contain `/`, be `.` or `..`, or hold control characters.
  ///   - sceneIdentifier: A scene's identifier, for an app that saves each scene on its own;
  ///     it names a folder too, by the same rules. Nil for the app's one archive.
  /// - Throws: ``RestorationError`` (``RestorationError/Code/invalidIdentifier``) for an
  ///   identifier that cannot name a folder; nothing is created.
  public init(
    stateRoot: String,
    bundleIdentifier: String,
    sceneIdentifier: String? = nil
  ) throws(RestorationError) {
    try ApplicationInfo.validate(bundleIdentifier: bundleIdentifier)
    if let sceneIdentifier { try ApplicationInfo.validate(sceneIdentifier: sceneIdentifier) }
    let root = stateRoot.hasSuffix("/") ? String(stateRoot.dropLast()) : stateRoot
    let appFolder = "\(root)/Saved Application State/\(bundleIdentifier).savedState"
    folder = sceneIdentifier.map { "\(appFolder)/Scenes/\($0)" } ?? appFolder
  }

  /// The folder path.
  public var location: String { folder }

  /// The path of an item.
  ///
  /// - Parameter item: The item.
  /// - Returns: Its file path.
  public func path(of item: ArchiveStoreItem) -> String { "\(folder)/\(item.rawValue)" }

  /// Reads an item from disk.
  public func read(_ item: ArchiveStoreItem, maxSize: Int) throws(RestorationError) -> [UInt8]? {
    try Platform.readFile(path(of: item), maxSize: maxSize)
  }

  /// Replaces an item on disk, atomically and durably.
  ///
  /// Temporary files left by writers that were killed mid-write are removed first, so repeated
  /// kills never fill the folder.
  public func write(_ bytes: [UInt8], to item: ArchiveStoreItem) throws(RestorationError) {
    try Platform.createFolder(folder)
    Platform.removeStaleTemporaryFiles(in: folder)
    try Platform.writeFileAtomically(
      path(of: item), bytes: bytes, freeingReplacedInBackground: freesReplacedFilesInBackground,
      spare: reusesReplacedFiles ? sparePath(of: item) : nil)
  }

  /// The path of an item's spare, which ``reusesReplacedFiles`` keeps; nil for the small items,
  /// which have none.
  public func sparePath(of item: ArchiveStoreItem) -> String? {
    item == .archive || item == .snapshot ? path(of: item) + ".spare" : nil
  }

  /// Removes an item from disk.
  public func remove(_ item: ArchiveStoreItem) throws(RestorationError) {
    try remove([item])
  }

  /// Removes items from disk, flushing the folder once for all of them.
  ///
  /// With ``reusesReplacedFiles``, a removed archive or snapshot becomes its item's spare, for
  /// the next write to go into; without it, the item's spare, kept while the switch was on, is
  /// removed with it. ``removeSpares()`` removes the spares.
  public func remove(_ items: [ArchiveStoreItem]) throws(RestorationError) {
    var files: [Platform.Removal] = []
    for item in items {
      let spare = sparePath(of: item)
      files.append(
        Platform.Removal(
          path: path(of: item), freeingInBackground: freesReplacedFilesInBackground,
          spare: reusesReplacedFiles ? spare : nil))
      // Spares kept while the switch was on go with their items once it is off.
      if !reusesReplacedFiles, let spare {
        files.append(
          Platform.Removal(path: spare, freeingInBackground: freesReplacedFilesInBackground))
      }
    }
    try Platform.removeFiles(
      files, in: folder, flushingInBackground: freesReplacedFilesInBackground)
  }

  /// Removes the spares of the archive and the snapshot (see ``reusesReplacedFiles``), for an
  /// app that wants no copy of its saved state left on disk; the next write of each goes to a
  /// new file.
  public func removeSpares() throws(RestorationError) {
    try Platform.removeFiles(
      [ArchiveStoreItem.archive, .snapshot].compactMap { item in
        sparePath(of: item).map {
          Platform.Removal(path: $0, freeingInBackground: freesReplacedFilesInBackground)
        }
      }, in: folder, flushingInBackground: freesReplacedFilesInBackground)
  }

  /// True: writing the marker waits for the disk (see ``ArchiveStore/writesMarkerInBackground``).
  public var writesMarkerInBackground: Bool { true }
}
