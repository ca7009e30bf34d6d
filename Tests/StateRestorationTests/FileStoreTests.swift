import Foundation
import StateRestoration
import Synchronization
import TestSupport
import Testing

@Suite struct FileStoreTests {
  @Test func archiveLivesWhereUIKitKeepsItWithPrivatePermissions() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let store = try FileArchiveStore(stateRoot: root.path, bundleIdentifier: "com.example.Restorer")
    let report = makeEngine(store: store, delegate: TestDelegate())
      .preserveApplicationState(roots: TalkDemo().roots)
    let expected = root.path + "/Saved Application State/com.example.Restorer.savedState/data.data"
    #expect(store.path(of: .archive) == expected)
    #expect(FileManager.default.fileExists(atPath: expected))
    let size = try #require(FileManager.default.attributesOfItem(atPath: expected)[.size] as? Int)
    #expect(report.outcome == .saved(bytes: size))
    let fileMode = try #require(
      FileManager.default.attributesOfItem(atPath: expected)[.posixPermissions] as? Int
    )
    #expect(fileMode == 0o600)
    let folderMode = try #require(
      FileManager.default.attributesOfItem(atPath: store.folder)[.posixPermissions] as? Int
    )
    #expect(folderMode == 0o700)
    // No temporary files are left behind.
    let names = try FileManager.default.contentsOfDirectory(atPath: store.folder)
    #expect(names == ["data.data"])
  }

  @Test func restoreFromDiskThenTheArchiveIsGone() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let saved = TalkDemo()
    saved.first.state = ["sliderValue": 12]
    let store = try FileArchiveStore(stateRoot: root.path, bundleIdentifier: "com.example.Restorer")
    makeEngine(store: store, delegate: TestDelegate()).preserveApplicationState(roots: saved.roots)

    // A new store object, as a new process would make.
    let relaunchStore = try FileArchiveStore(
      stateRoot: root.path, bundleIdentifier: "com.example.Restorer")
    let launched = TalkDemo(pushCity: false)
    let report = makeEngine(store: relaunchStore, delegate: TestDelegate())
      .restoreApplicationState(roots: launched.roots)
    #expect(report.outcome == .restored)
    #expect(launched.first.decodedState == ["sliderValue": 12])
    #expect(!FileManager.default.fileExists(atPath: relaunchStore.path(of: .archive)))
    #expect(!FileManager.default.fileExists(atPath: relaunchStore.path(of: .inProgressMarker)))
  }

  @Test func overwritingReplacesTheWholeFile() throws {
    try withStore { store in
      try store.write(Array(repeating: 1, count: 10_000), to: .archive)
      try store.write([2, 2, 2], to: .archive)
      #expect(try store.read(.archive, maxSize: 1 << 20) == [2, 2, 2])
      try store.remove(.archive)
      try store.remove(.archive)  // removing twice is fine
      #expect(try store.read(.archive, maxSize: 1 << 20) == nil)
    }
  }

  @Test func aPreserveFlushesTheFolderOnceAndRemovingNothingFlushesNothing() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let store = try FileArchiveStore(stateRoot: root.path, bundleIdentifier: "app")
    let flushed = PathLog()
    try PlatformObservers.$folderFlushed.withValue(flushed.observer) {
      // No crash guard marker exists: the preserve's removal of it has nothing to flush.
      let report = makeEngine(store: store, delegate: TestDelegate())
        .preserveApplicationState(roots: TalkDemo().roots)
      guard case .saved = report.outcome else {
        Issue.record("not saved: \(report.outcome)")
        return
      }
      RestorationEngine.waitForBackgroundFreeing()
      #expect(flushed.paths == [store.folder])
      try store.remove(.snapshot)
      RestorationEngine.waitForBackgroundFreeing()
      #expect(flushed.paths == [store.folder])
      try store.remove(.archive)
    }
    RestorationEngine.waitForBackgroundFreeing()
    #expect(flushed.paths == [store.folder, store.folder])
    #expect(try store.read(.archive, maxSize: 1 << 20) == nil)
  }

  /// A restore from disk flushes the folder twice: once as it arms the crash guard's marker,
  /// once as it removes the marker and the archive together at the end.
  @Test func aRestoreFlushesTheFolderOnceToArmTheMarkerAndOnceToRemoveItWithTheArchive() throws {
    try withStore { store in
      makeEngine(store: store, delegate: TestDelegate()).preserveApplicationState(
        roots: TalkDemo().roots)
      let flushed = PathLog()
      // On the calling thread, where the observer sees the marker's write too.
      let engine = makeEngine(
        store: store, delegate: TestDelegate(),
        settings: RestorationSettings(usesBackgroundQueues: false))
      let report = PlatformObservers.$folderFlushed.withValue(flushed.observer) {
        engine.restoreApplicationState(roots: TalkDemo(pushCity: false).roots)
      }
      #expect(report.outcome == .restored)
      RestorationEngine.waitForBackgroundFreeing()
      #expect(flushed.paths == [store.folder, store.folder])
      try expectOnlySpareOnceFreed(store)
    }
  }

  /// A restore's removal of the archive keeps its file as the spare, and the next preserve
  /// writes into it; a spare in use stays, and the archive is freed instead.
  @Test func aRestoreLeavesTheArchivesFileToTheNextPreserve() throws {
    try withStore { store in
      let live = store.path(of: .archive)
      let spare = try #require(store.sparePath(of: .archive))
      let engine = makeEngine(store: store, delegate: TestDelegate())
      engine.preserveApplicationState(roots: TalkDemo().roots)
      let preserved = try fileNumber(live)
      #expect(
        engine.restoreApplicationState(roots: TalkDemo(pushCity: false).roots).outcome == .restored)
      #expect(!FileManager.default.fileExists(atPath: live))
      #expect(try fileNumber(spare) == preserved)
      engine.preserveApplicationState(roots: TalkDemo().roots)
      #expect(try fileNumber(live) == preserved)
      #expect(!FileManager.default.fileExists(atPath: spare))

      // A spare that a reader holds is left alone: the removed archive is freed instead.
      try store.write([1], to: .archive)
      let kept = try fileNumber(spare)
      let reader = try FileHandle(forReadingFrom: URL(fileURLWithPath: spare))
      defer { try? reader.close() }
      #expect(flock(reader.fileDescriptor, LOCK_SH) == 0)
      try store.remove(.archive)
      #expect(try fileNumber(spare) == kept)
      #expect(!FileManager.default.fileExists(atPath: live))
      try reader.close()
      try store.removeSpares()
      try expectEmptyOnceFreed(store)
    }
  }

  /// Removing several items at once removes each, the missing ones quietly, with one flush.
  @Test func removingSeveralItemsFlushesTheFolderOnce() throws {
    try withStore { store in
      for item in [ArchiveStoreItem.archive, .inProgressMarker, .discardNote] {
        try store.write([1, 2, 3], to: item)
      }
      let flushed = PathLog()
      try PlatformObservers.$folderFlushed.withValue(flushed.observer) {
        try store.remove([.archive, .inProgressMarker, .snapshot, .discardNote])
      }
      RestorationEngine.waitForBackgroundFreeing()
      #expect(flushed.paths == [store.folder])
      try expectOnlySpareOnceFreed(store)
    }
  }

  /// A removal's folder flush runs on the queue that frees files; with the switch off, on the
  /// calling thread before the removal returns.
  @Test(arguments: [true, false])
  func aRemovalFlushesTheFolderInTheBackground(inBackground: Bool) throws {
    try withStore { store in
      store.freesReplacedFilesInBackground = inBackground
      try store.write([1], to: .inProgressMarker)
      let caller = pthread_self()
      let flushers = Mutex<[pthread_t]>([])
      let observer = PathObserver { _ in
        flushers.withLock { $0.append(pthread_self()) }
      }
      try PlatformObservers.$folderFlushed.withValue(observer) {
        try store.remove(.inProgressMarker)
        #expect(!FileManager.default.fileExists(atPath: store.path(of: .inProgressMarker)))
        if !inBackground { #expect(flushers.withLock { $0.count } == 1) }
      }
      RestorationEngine.waitForBackgroundFreeing()
      let threads = flushers.withLock { $0 }
      #expect(threads.count == 1)
      #expect(threads.allSatisfy { pthread_equal($0, caller) == 0 } == inBackground)
    }
  }

  /// A store without its own removal of several items removes each in turn, and reports the
  /// first failure once it has tried them all.
  @Test func theDefaultRemovalOfSeveralItemsTriesEachAndThrowsTheFirstFailure() {
    let store = RefusingStore()
    for item in ArchiveStoreItem.allCases { store.contents[item] = [1] }
    let error = #expect(throws: RestorationError.self) {
      try store.remove([.archive, .snapshot, .inProgressMarker, .discardNote])
    }
    #expect(error?.message == "refused snapshot.data")
    #expect(store.contents.keys.sorted { $0.rawValue < $1.rawValue } == [.discardNote, .snapshot])
  }

  /// A replaced or removed item, the archive as the tiny marker, is handed to a background
  /// queue to be freed, under a temporary name that the stale-file cleanup knows; with the
  /// switch off, nothing is handed over.
  @Test(arguments: [true, false])
  func replacedArchivesAreFreedInTheBackground(inBackground: Bool) throws {
    try withStore { store in
      store.freesReplacedFilesInBackground = inBackground
      // Kept as a spare otherwise, to be written into, not freed.
      store.reusesReplacedFiles = false
      let retired = PathLog()
      let archivePrefix = store.path(of: .archive) + ".\(getpid())."
      let markerPrefix = store.path(of: .inProgressMarker) + ".\(getpid())."
      try PlatformObservers.$fileRetired.withValue(retired.observer) {
        try store.write(Array(repeating: 1, count: 100_000), to: .archive)
        #expect(retired.paths.isEmpty)  // nothing was replaced
        let reader = try FileHandle(forReadingFrom: URL(fileURLWithPath: store.path(of: .archive)))
        defer { try? reader.close() }
        try store.write(Array(repeating: 2, count: 100), to: .archive)
        #expect(try reader.readToEnd() == Data(repeating: 1, count: 100_000))
        #expect(retired.paths.count == (inBackground ? 1 : 0))
        try store.write([7], to: .inProgressMarker)
        try store.write([8], to: .inProgressMarker)
        try store.remove(.inProgressMarker)
        #expect(!FileManager.default.fileExists(atPath: store.path(of: .inProgressMarker)))
        #expect(retired.paths.count == (inBackground ? 3 : 0))
        try store.remove(.archive)
        #expect(!FileManager.default.fileExists(atPath: store.path(of: .archive)))
        try store.remove(.archive)  // gone already: nothing to hand over
      }
      let names = retired.paths
      #expect(names.count == (inBackground ? 4 : 0))
      let prefixes = [archivePrefix, markerPrefix, markerPrefix, archivePrefix]
      for (name, prefix) in zip(names, prefixes) {
        #expect(name.hasPrefix(prefix) && name.hasSuffix(".tmp"), "\(name)")
      }
      try expectEmptyOnceFreed(store)
    }
  }

  @Test func oversizedFileIsRejectedBeforeReading() throws {
    try withStore { store in
      try store.write(Array(repeating: 0, count: 2_000), to: .archive)
      let error = #expect(throws: RestorationError.self) {
        try store.read(.archive, maxSize: 1_000)
      }
      #expect(error?.code == .limitExceeded)
      #expect(error?.file == store.path(of: .archive))
    }
  }

  @Test(arguments: [
    "", ".", "..", "com/example", "../escape", "a\u{0}b", "line\nbreak", "back\\slash",
  ])
  func bundleIdentifiersThatCannotNameAFolderAreRejected(_ identifier: String) {
    let error = #expect(throws: RestorationError.self) {
      try FileArchiveStore(stateRoot: "/tmp", bundleIdentifier: identifier)
    }
    #expect(error?.code == .invalidIdentifier)
  }

  @Test(arguments: [
    "", ".", "..", "a/b", "../escape", "a\u{0}b", "tab\there", "back\\slash",
  ])
  func sceneIdentifiersThatCannotNameAFolderAreRejected(_ identifier: String) {
    let error = #expect(throws: RestorationError.self) {
      try FileArchiveStore(
        stateRoot: "/tmp", bundleIdentifier: "com.example", sceneIdentifier: identifier)
    }
    #expect(error?.code == .invalidIdentifier)
    #expect(error?.description.contains("scene identifier") == true)
  }

  @Test func eachSceneHasItsOwnPrivateFolder() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let first = try FileArchiveStore(
      stateRoot: root.path, bundleIdentifier: "com.example.Restorer", sceneIdentifier: "main")
    let second = try FileArchiveStore(
      stateRoot: root.path, bundleIdentifier: "com.example.Restorer", sceneIdentifier: "inspector")
    try first.write([1], to: .archive)
    try second.write([2], to: .archive)
    #expect(
      first.folder
        == root.path + "/Saved Application State/com.example.Restorer.savedState/Scenes/main")
    #expect(try first.read(.archive, maxSize: 10) == [1])
    #expect(try second.read(.archive, maxSize: 10) == [2])
    for folder in [first.folder, second.folder] {
      let mode = try #require(
        FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int)
      #expect(mode == 0o700)
    }
  }

  @Test func aRewriteReplacesTheFileInsteadOfWritingIntoIt() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let store = try FileArchiveStore(stateRoot: root.path, bundleIdentifier: "com.example.Restorer")
    try store.write(Array(repeating: 1, count: 4096), to: .archive)
    // A reader that opened the old file keeps reading the old bytes, whole: the new archive is
    // another file renamed over the old name, never the file under that name overwritten in
    // place. (The old file is kept, and written into at a later write unless a reader holds a
    // lock on it: `aReaderHoldingASharedLockKeepsItsFileWhole`.)
    let reader = try FileHandle(forReadingFrom: URL(fileURLWithPath: store.path(of: .archive)))
    defer { try? reader.close() }
    let before = try FileManager.default.attributesOfItem(atPath: store.path(of: .archive))
    try store.write(Array(repeating: 2, count: 100), to: .archive)
    let after = try FileManager.default.attributesOfItem(atPath: store.path(of: .archive))
    #expect(before[.systemFileNumber] as? Int != after[.systemFileNumber] as? Int)
    #expect(try reader.readToEnd() == Data(repeating: 1, count: 4096))
    #expect(try store.read(.archive, maxSize: 10_000) == Array(repeating: 2, count: 100))
  }

  /// A write goes into the file the write before it replaced, swapped into place: the live
  /// archive is never written into, and each file is reused every other write.
  @Test(arguments: [false, true])
  func aRewriteWritesIntoTheFileItsPredecessorReplaced(withoutExchange: Bool) throws {
    try withStore { store in
      let live = store.path(of: .archive)
      let spare = try #require(store.sparePath(of: .archive))
      #expect(spare == live + ".spare")
      try PlatformOverrides.$withoutExchange.withValue(withoutExchange) {
        try store.write(Array(repeating: 1, count: 4096), to: .archive)
        let first = try fileNumber(live)
        #expect(!FileManager.default.fileExists(atPath: spare))
        // Nothing to reuse yet: a new file, and the replaced one becomes the spare.
        try store.write(Array(repeating: 2, count: 100), to: .archive)
        let second = try fileNumber(live)
        #expect(second != first)
        #expect(try fileNumber(spare) == first)
        // Written into the first file, cut to its new length, and swapped into place.
        try store.write(Array(repeating: 3, count: 50), to: .archive)
        #expect(try fileNumber(live) == first)
        #expect(try fileNumber(spare) == second)
        #expect(try store.read(.archive, maxSize: 1 << 20) == Array(repeating: 3, count: 50))
        #expect(try Data(contentsOf: URL(fileURLWithPath: spare)) == Data(repeating: 2, count: 100))
        try store.write(Array(repeating: 4, count: 8192), to: .archive)
        #expect(try fileNumber(live) == second)
        #expect(try store.read(.archive, maxSize: 1 << 20) == Array(repeating: 4, count: 8192))
      }
      for path in [live, spare] {
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "\(path)")
      }
      // Removing the item makes its file the spare; the spare it replaces is freed.
      let last = try fileNumber(live)
      try store.remove(.archive)
      #expect(!FileManager.default.fileExists(atPath: live))
      #expect(try fileNumber(spare) == last)
      try store.removeSpares()
      try expectEmptyOnceFreed(store)
    }
  }

  /// A removal makes the removed file the spare, and frees the spare it replaces, in the
  /// background or at once.
  @Test(arguments: [true, false])
  func aRemovedArchiveReplacesTheSpare(inBackground: Bool) throws {
    try withStore { store in
      store.freesReplacedFilesInBackground = inBackground
      let live = store.path(of: .archive)
      let spare = try #require(store.sparePath(of: .archive))
      try store.write([1], to: .archive)
      try store.write([2], to: .archive)
      let second = try fileNumber(live)
      #expect(FileManager.default.fileExists(atPath: spare))
      try store.remove(.archive)
      #expect(try fileNumber(spare) == second)
      #expect(try Data(contentsOf: URL(fileURLWithPath: spare)) == Data([2]))
      try expectOnlySpareOnceFreed(store)
    }
  }

  /// A reader that holds a shared lock on the file it opened keeps reading it whole however
  /// many writes follow: a write does not reuse a locked spare, and goes to a new file.
  @Test func aReaderHoldingASharedLockKeepsItsFileWhole() throws {
    try withStore { store in
      let live = store.path(of: .archive)
      try store.write(Array(repeating: 1, count: 4096), to: .archive)
      let first = try fileNumber(live)
      let reader = try FileHandle(forReadingFrom: URL(fileURLWithPath: live))
      defer { try? reader.close() }
      #expect(flock(reader.fileDescriptor, LOCK_SH) == 0)
      for value in 2...4 {
        try store.write(Array(repeating: UInt8(value), count: 100), to: .archive)
        #expect(try fileNumber(live) != first)
      }
      #expect(try reader.readToEnd() == Data(repeating: 1, count: 4096))
      #expect(try store.read(.archive, maxSize: 1 << 20) == Array(repeating: 4, count: 100))
    }
  }

  /// A read takes a shared lock, so a writer reuses no file while it is read: it waits while
  /// a writer holds the file it has just swapped into place.
  @Test func aReadWaitsForTheWriterThatHoldsTheFile() throws {
    try withStore { store in
      try store.write([1, 2, 3], to: .archive)
      let writer = try FileHandle(forUpdating: URL(fileURLWithPath: store.path(of: .archive)))
      defer { try? writer.close() }
      #expect(flock(writer.fileDescriptor, LOCK_EX) == 0)
      let clock = ContinuousClock()
      let start = clock.now
      DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(300)) {
        flock(writer.fileDescriptor, LOCK_UN)
      }
      #expect(try store.read(.archive, maxSize: 16) == [1, 2, 3])
      #expect(clock.now - start >= .milliseconds(250))
    }
  }

  /// A spare that is not the store's own file with one name is never written into: not through
  /// a symbolic link, nor into a file that has another name or other permissions.
  @Test func aSpareThatIsNotAPlainFileOfItsOwnIsLeftAlone() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let store = try FileArchiveStore(stateRoot: root.path, bundleIdentifier: "app")
    let spare = try #require(store.sparePath(of: .archive))
    let outside = root.path + "/outside"
    #expect(FileManager.default.createFile(atPath: outside, contents: Data([9, 9, 9])))
    try store.write([1], to: .archive)
    // Two writes with the spare in place: the outside file stays as it was.
    func expectOutsideUntouched(writing values: [UInt8]) throws {
      for value in values { try store.write([value], to: .archive) }
      #expect(try Data(contentsOf: URL(fileURLWithPath: outside)) == Data([9, 9, 9]))
      #expect(try store.read(.archive, maxSize: 16) == [values.last ?? 0])
    }
    try FileManager.default.createSymbolicLink(atPath: spare, withDestinationPath: outside)
    try expectOutsideUntouched(writing: [2, 3])
    try FileManager.default.removeItem(atPath: spare)
    try FileManager.default.linkItem(atPath: outside, toPath: spare)
    try expectOutsideUntouched(writing: [4, 5])

    // A spare whose permissions were changed would pass them on to the archive: not used.
    try FileManager.default.removeItem(atPath: spare)
    try store.write([6], to: .archive)
    let opened = try fileNumber(spare)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: spare)
    try store.write([7], to: .archive)
    #expect(try fileNumber(store.path(of: .archive)) != opened)
    let mode =
      try FileManager.default.attributesOfItem(atPath: store.path(of: .archive))[
        .posixPermissions] as? Int
    #expect(mode == 0o600)
    #expect(try store.read(.archive, maxSize: 16) == [7])
  }

  /// Only the archive and the snapshot, which can be large, keep a spare; none is kept with
  /// the switch off.
  @Test func onlyLargeItemsKeepASpareAndOnlyWhenAsked() throws {
    try withStore { store in
      for item in ArchiveStoreItem.allCases {
        try store.write([1], to: item)
        try store.write([2], to: item)
      }
      RestorationEngine.waitForBackgroundFreeing()
      var names = Set(try FileManager.default.contentsOfDirectory(atPath: store.folder))
      let items = Set(ArchiveStoreItem.allCases.map(\.rawValue))
      #expect(names == items.union(["data.data.spare", "snapshot.data.spare"]))
      #expect(store.sparePath(of: .inProgressMarker) == nil)

      // Turned off, the store still removes the spares it kept before, and keeps no more.
      store.reusesReplacedFiles = false
      try store.remove(ArchiveStoreItem.allCases)
      try expectEmptyOnceFreed(store)
      for item in ArchiveStoreItem.allCases {
        try store.write([1], to: item)
        try store.write([2], to: item)
      }
      RestorationEngine.waitForBackgroundFreeing()
      names = Set(try FileManager.default.contentsOfDirectory(atPath: store.folder))
      #expect(names == items)
    }
  }

  @Test func temporaryFilesOfDeadWritersAreRemovedAndLiveOnesKept() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let store = try FileArchiveStore(stateRoot: root.path, bundleIdentifier: "com.example.Restorer")
    try store.write([0], to: .archive)
    // A process id that is not running (the kernel caps ids far below it) and one that always
    // is (init).
    let dead = "data.data.2147483000.12345.tmp"
    let live = "data.data.1.777.tmp"
    for name in [dead, live] {
      #expect(
        FileManager.default.createFile(atPath: store.folder + "/" + name, contents: Data([9])))
    }
    try store.write([1], to: .archive)
    // The archive the write replaced is kept as the spare, to write the next one into.
    RestorationEngine.waitForBackgroundFreeing()
    let names = Set(try FileManager.default.contentsOfDirectory(atPath: store.folder))
    #expect(names == ["data.data", "data.data.spare", live])
  }

  @Test func unwritableFolderGivesAClearError() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    // A file where the folder should be: nothing can be created under it.
    let blocker = root.appendingPathComponent("Saved Application State")
    try Data("x".utf8).write(to: blocker)
    let store = try FileArchiveStore(stateRoot: root.path, bundleIdentifier: "app")
    let report = makeEngine(store: store, delegate: TestDelegate())
      .preserveApplicationState(roots: TalkDemo().roots)
    guard case .failed(let error) = report.outcome else {
      Issue.record("expected a failure, got \(report.outcome)")
      return
    }
    #expect(error.code == .storageFailed)
    #expect(error.description.contains("Saved Application State"))
  }
}

/// An in-memory store that refuses to remove the snapshot and the crash guard's note.
private final class RefusingStore: ArchiveStore {
  var contents: [ArchiveStoreItem: [UInt8]] = [:]
  var location: String { "refusing" }

  func read(_ item: ArchiveStoreItem, maxSize: Int) throws(RestorationError) -> [UInt8]? {
    contents[item]
  }

  func write(_ bytes: [UInt8], to item: ArchiveStoreItem) throws(RestorationError) {
    contents[item] = bytes
  }

  func remove(_ item: ArchiveStoreItem) throws(RestorationError) {
    guard item != .snapshot, item != .discardNote else {
      throw RestorationError(.storageFailed, "refused \(item.rawValue)")
    }
    contents[item] = nil
  }
}

/// The paths an observer of the file primitives was called with (``PlatformObservers``).
private final class PathLog: Sendable {
  private let log = Mutex<[String]>([])

  var observer: PathObserver {
    PathObserver { path in self.log.withLock { $0.append(path) } }
  }

  var paths: [String] { log.withLock { $0 } }
}

/// Runs `body` with a store of the app `app` in a new temporary folder, removed afterwards.
private func withStore(_ body: (FileArchiveStore) throws -> Void) throws {
  let root = try makeTemporaryFolder()
  defer { try? FileManager.default.removeItem(at: root) }
  try body(try FileArchiveStore(stateRoot: root.path, bundleIdentifier: "app"))
}

/// A file's number on its file system (its inode).
private func fileNumber(_ path: String) throws -> Int {
  try #require(FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int)
}

/// Expects the store's folder to hold only the archive's spare once the background queues have
/// freed what they hold, then removes the spare.
private func expectOnlySpareOnceFreed(
  _ store: FileArchiveStore, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  RestorationEngine.waitForBackgroundFreeing()
  let names = try FileManager.default.contentsOfDirectory(atPath: store.folder)
  #expect(names == ["data.data.spare"], sourceLocation: sourceLocation)
  try store.removeSpares()
  try expectEmptyOnceFreed(store, sourceLocation: sourceLocation)
}

/// Expects the store's folder to be empty once the background queues have freed what they hold.
private func expectEmptyOnceFreed(
  _ store: FileArchiveStore, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  RestorationEngine.waitForBackgroundFreeing()
  let names = try FileManager.default.contentsOfDirectory(atPath: store.folder)
  #expect(names.isEmpty, "left: \(names)", sourceLocation: sourceLocation)
}
