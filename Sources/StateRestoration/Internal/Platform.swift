// The one file that talks to the operating system. Everything else stays portable.
import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a whole regular file for the package's tools, with the engine's checks: the size is
/// checked before anything is read, so a huge file fails at once instead of filling memory.
///
/// - Parameters:
///   - path: The file.
///   - maxSize: The largest size accepted.
/// - Returns: The bytes, or nil when the file does not exist.
/// - Throws: ``RestorationError`` naming the path and the system's reason.
package func readFileContents(at path: String, maxSize: Int) throws(RestorationError) -> [UInt8]? {
  try Platform.readFile(path, maxSize: maxSize)
}

/// Writes all of `bytes` to a file descriptor, writing again after a partial write or an
/// interruption.
///
/// - Returns: 0 once every byte is written, else the `errno` of the write that failed.
package func writeFully(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
  var offset = 0
  while offset < bytes.count {
    let count = write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
    if count < 0 {
      if errno == EINTR { continue }
      return errno
    }
    offset += count
  }
  return 0
}

/// What the file primitives do on a task, for tests of what cannot be seen in the files:
/// that a folder flush, which costs as much as a small write, is not made for nothing, and that
/// a replaced archive is freed off the calling thread.
package enum PlatformObservers {
  /// Called with each folder flushed on the current task.
  @TaskLocal package static var folderFlushed: PathObserver?
  /// Called with the temporary name of each file handed to a background queue to be freed.
  @TaskLocal package static var fileRetired: PathObserver?
}

/// A function of a path, as ``PlatformObservers`` holds it.
///
/// A class rather than the optional function itself: Swift 6.3.1's optimizer miscompiles
/// `TaskLocal.withValue` for a value of optional function type, which crashed every test that
/// set one in a release build.
package final class PathObserver: Sendable {
  private let observe: @Sendable (String) -> Void

  /// Creates an observer that calls `observe` with each path.
  package init(_ observe: @escaping @Sendable (String) -> Void) {
    self.observe = observe
  }

  /// Calls the function with a path.
  package func callAsFunction(_ path: String) { observe(path) }
}

/// Changes to what the file primitives do on a task, for tests of paths a system may take.
package enum PlatformOverrides {
  /// Whether writes into a spare file swap it into place without `renameat2`'s exchange, as on
  /// a system or file system without it.
  @TaskLocal package static var withoutExchange = false
}

/// Holds the queue that frees files in the background for `duration`, so the files handed to it
/// meanwhile wait: for tests of what becomes of a file not freed yet when its process exits.
package func delayBackgroundFileRemovals(by duration: Duration) {
  Platform.onRemovalsQueue { Platform.sleep(for: duration) }
}

/// Pauses each write into a spare file halfway, for `duration`, in this process: for tests of
/// what a process killed in the middle of such a write leaves (see
/// ``FileArchiveStore/reusesReplacedFiles``).
package func pauseSpareWritesHalfway(for duration: Duration) {
  Platform.spareWritePause.withLock { $0 = duration }
}

/// File and process primitives the engine needs, with errors that name the path and the reason.
enum Platform {
  /// The description of the current `errno`.
  static func errorDescription(_ code: Int32 = errno) -> String {
    guard let message = strerror(code) else { return "error \(code)" }
    return String(cString: message)
  }

  /// The value of an environment variable.
  static func environment(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
  }

  /// The process identifier.
  static var processIdentifier: Int32 { getpid() }

  /// The kernel's release string, such as `6.1.0-18-amd64`.
  static var systemVersion: String {
    var info = utsname()
    guard uname(&info) == 0 else { return "unknown" }
    let release = withUnsafeBytes(of: &info.release) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    let name = withUnsafeBytes(of: &info.sysname) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    return "\(name) \(release)"
  }

  /// Reads a whole file.
  ///
  /// - Returns: The bytes, or nil if the file does not exist.
  /// - Throws: ``RestorationError`` for any other failure, or a file above `maxSize`.
  static func readFile(_ path: String, maxSize: Int) throws(RestorationError) -> [UInt8]? {
    // O_NONBLOCK: opening a FIFO without a writer for reading would wait for one forever; it
    // opens at once instead and is refused below as not a regular file. Reads of regular files
    // ignore the flag.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    if descriptor < 0 {
      if errno == ENOENT { return nil }
      throw RestorationError(.storageFailed, "cannot open: \(errorDescription())", file: path)
    }
    defer { close(descriptor) }
    lockShared(descriptor)
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw RestorationError(.storageFailed, "cannot stat: \(errorDescription())", file: path)
    }
    switch status.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: throw RestorationError(.storageFailed, "is a folder, not a file", file: path)
    default: throw RestorationError(.storageFailed, "is not a regular file", file: path)
    }
    let size = Int(status.st_size)
    guard size <= maxSize else {
      throw RestorationError(
        .limitExceeded,
        "file is \(size) bytes, above the limit of \(maxSize)",
        file: path
      )
    }
    // Read into uninitialized room: zeroing it first wrote every byte once more.
    var failure: Int32 = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
      var total = 0
      while total < size {
        let count = read(descriptor, buffer.baseAddress.map { $0 + total }, size - total)
        if count < 0 {
          if errno == EINTR { continue }
          failure = errno
          break
        }
        // The file shrank while we read it; what we have is all there is.
        if count == 0 { break }
        total += count
      }
      initialized = total
    }
    guard failure == 0 else {
      throw RestorationError(
        .storageFailed, "cannot read: \(errorDescription(failure))", file: path)
    }
    return bytes
  }

  /// Takes a shared lock on an open file, so that no writer reuses it as its spare while it is
  /// read (see ``writeIntoSpare(_:bytes:mode:replacing:)``).
  ///
  /// A writer holds its exclusive lock for the moment between swapping its file into place and
  /// closing it: the lock is tried again for up to a second, then the file is read without it.
  /// A file system without locks is read without it at once.
  private static func lockShared(_ descriptor: Int32) {
    for _ in 0..<1000 {
      if flock(descriptor, LOCK_SH | LOCK_NB) == 0 { return }
      guard errno == EWOULDBLOCK || errno == EINTR else { return }
      usleep(1000)
    }
  }

  /// Replaces a file atomically and durably: a temporary file in the same folder is written,
  /// flushed to disk, renamed over the target, and the folder is flushed, so that a crash at any
  /// instant leaves either the old file or the new one, whole.
  ///
  /// - Parameters:
  ///   - path: The file.
  ///   - bytes: Its new contents.
  ///   - mode: The permissions of a new file.
  ///   - freeingReplacedInBackground: Free the replaced file's disk space on a background queue:
  ///     a rename over a file frees its blocks before it returns, which for an archive of a few
  ///     megabytes can take as long as writing the new one (see ``retire(_:)``).
  ///   - spare: Where to keep the replaced file, to write the next version into (see
  ///     ``writeIntoSpare(_:bytes:mode:replacing:)``); nil frees it.
  /// - Throws: ``RestorationError`` (``RestorationError/Code/storageFailed``) naming the file
  ///   and the system's reason; the old file is kept.
  static func writeFileAtomically(
    _ path: String,
    bytes: [UInt8],
    mode: mode_t = 0o600,
    freeingReplacedInBackground: Bool = false,
    spare: String? = nil
  ) throws(RestorationError) {
    let folder = parentFolder(of: path)
    if let spare, try writeIntoSpare(spare, bytes: bytes, mode: mode, replacing: path) {
      syncFolder(folder)
      return
    }
    let temporary = temporaryName(for: path)
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard descriptor >= 0 else {
      throw RestorationError(
        .storageFailed,
        "cannot create temporary file: \(errorDescription())",
        file: temporary
      )
    }
    let failure = writeAndFlush(bytes, to: descriptor, named: temporary)
    close(descriptor)
    if let failure {
      unlink(temporary)
      throw failure
    }
    // The replaced file becomes the spare when there is none, else it is freed.
    let kept = spare.map { link(path, $0) == 0 } ?? false
    let retired = !kept && freeingReplacedInBackground ? retire(path) : nil
    guard rename(temporary, path) == 0 else {
      let error = RestorationError(
        .storageFailed,
        "cannot rename into place: \(errorDescription())",
        file: path
      )
      unlink(temporary)
      if let retired { unlink(retired) }
      if kept, let spare { unlink(spare) }
      throw error
    }
    syncFolder(folder)
    if let retired { removeInBackground(retired) }
  }

  /// Writes all of `bytes` to a new or truncated-to-be file and flushes it to disk.
  ///
  /// - Returns: The failure, naming the file and the system's reason; nil on success.
  private static func writeAndFlush(
    _ bytes: [UInt8], to descriptor: Int32, named name: String
  ) -> RestorationError? {
    let code = bytes.withUnsafeBytes { writeFully($0, to: descriptor) }
    if code != 0 {
      return RestorationError(
        .storageFailed, "cannot write: \(errorDescription(code))", file: name)
    }
    // A reused file may be longer than the new contents.
    if ftruncate(descriptor, off_t(bytes.count)) != 0 {
      return RestorationError(.storageFailed, "cannot truncate: \(errorDescription())", file: name)
    }
    if fsync(descriptor) != 0 {
      return RestorationError(.storageFailed, "cannot flush: \(errorDescription())", file: name)
    }
    return nil
  }

  /// Writes the new contents of `path` into the spare file, the one an earlier write replaced,
  /// and swaps the two: `path` gets the new contents, the spare the replaced file.
  ///
  /// Writing over a file's blocks instead of into new ones made the write and its flush 1.8 ms
  /// instead of 2.8 ms for a 2 MB archive on the Linux machine with ext4 where the README's
  /// benchmarks ran: a new file's blocks are allocated, and the old file's freed, at the
  /// flush, in the journal's commit. The spare is used only while this writer holds its
  /// exclusive lock, and only if it is still the spare, a regular file with no other name, of
  /// this user, with the permissions a new file gets: a reader that holds a shared lock
  /// (``readFile(_:maxSize:)`` does), another writer, or a stranger's file make the write fall
  /// back to a new temporary file. The lock is held until the swap, so no writer ever writes
  /// into the file a reader sees under `path`.
  ///
  /// - Returns: Whether the spare took the write; false when the write must go to a new file.
  /// - Throws: ``RestorationError`` when the spare could not be written; it is then removed.
  private static func writeIntoSpare(
    _ spare: String, bytes: [UInt8], mode: mode_t, replacing path: String
  ) throws(RestorationError) -> Bool {
    let descriptor = openSpare(spare)
    guard descriptor >= 0 else { return false }
    // Closing releases the lock, once the spare has been swapped into place.
    defer { close(descriptor) }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
    var opened = stat()
    var named = stat()
    guard fstat(descriptor, &opened) == 0, lstat(spare, &named) == 0,
      opened.st_dev == named.st_dev, opened.st_ino == named.st_ino,
      opened.st_mode & S_IFMT == S_IFREG, opened.st_mode & 0o7777 == mode,
      opened.st_nlink == 1, opened.st_uid == geteuid()
    else { return false }
    if let pause = spareWritePause.withLock({ $0 }) {
      let half = bytes.count / 2
      _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, half) }
      sleep(for: pause)
      lseek(descriptor, 0, SEEK_SET)
    }
    if let failure = writeAndFlush(bytes, to: descriptor, named: spare) {
      unlink(spare)
      throw failure
    }
    if exchange(spare, path) { return true }
    // No file to swap with, or no swap on this system: the spare is renamed into place, and the
    // replaced file, if any, takes the spare's name afterwards.
    let kept = retire(path)
    guard rename(spare, path) == 0 else {
      let code = errno
      if let kept { unlink(kept) }
      // Removed meanwhile (the store's items were removed): the write starts again elsewhere.
      if code == ENOENT { return false }
      unlink(spare)
      throw RestorationError(
        .storageFailed, "cannot rename into place: \(errorDescription(code))", file: path)
    }
    if let kept, rename(kept, spare) != 0 { unlink(kept) }
    return true
  }

  /// Opens a spare to write into or to replace, as the writer and a removal both do: without
  /// following a symbolic link, and without waiting on a FIFO.
  ///
  /// - Returns: The descriptor, or -1 with `errno` set.
  private static func openSpare(_ spare: String) -> Int32 {
    open(spare, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
  }

  /// How long each write into a spare pauses halfway, or nil
  /// (``pauseSpareWritesHalfway(for:)``).
  static let spareWritePause = Mutex<Duration?>(nil)

  /// Swaps two files' names atomically (Linux's `renameat2` with `RENAME_EXCHANGE`).
  ///
  /// - Returns: false when either file is missing, or the system or file system cannot swap.
  private static func exchange(_ first: String, _ second: String) -> Bool {
    guard !PlatformOverrides.withoutExchange, let renameExchange else { return false }
    return renameExchange(atCurrentFolder, first, atCurrentFolder, second, exchangeFlag) == 0
  }

  private typealias RenameAt2 =
    @convention(c) (
      Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UInt32
    ) -> Int32

  /// `renameat2`, looked up at run time: the C library declares it only for GNU sources, which
  /// Swift's import of it does not define.
  private static let renameExchange: RenameAt2? = {
    #if canImport(Glibc) || canImport(Musl)
      guard let symbol = dlsym(nil, "renameat2") else { return nil }
      return unsafeBitCast(symbol, to: RenameAt2.self)
    #else
      return nil
    #endif
  }()
  /// `AT_FDCWD` and `RENAME_EXCHANGE`, from Linux's headers.
  private static let atCurrentFolder: Int32 = -100
  private static let exchangeFlag: UInt32 = 2

  /// Makes a process that exits normally first finish the removals it queued, so that it
  /// leaves no temporary file behind; a killed process leaves them to the next write.
  ///
  /// The wait is bounded, and skipped in a child made by `fork()`, which inherits the handler
  /// and the count of pending work but not the threads that would finish it.
  private static let finishesRemovalsAtExit: Void = {
    // Read now: set lazily, it would hold a forked child's own process in the child.
    _ = registeringProcess
    atexit {
      guard getpid() == Platform.registeringProcess else { return }
      BackgroundRelease.waitUntilReleased(timeout: .now() + .seconds(5))
    }
  }()

  /// The process that registered ``finishesRemovalsAtExit``.
  private static let registeringProcess = getpid()

  /// A name for a temporary file beside `path`: `<path>.<pid>.<random>.tmp`, which
  /// ``removeStaleTemporaryFiles(in:)`` removes once the process is gone.
  private static func temporaryName(for path: String) -> String {
    "\(path).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
  }

  /// Gives a file about to be replaced a second, temporary name, so that the rename over it
  /// frees nothing; ``removeInBackground(_:)`` then frees it off the calling thread.
  ///
  /// On the Linux machine with ext4 where the README's benchmarks ran, freeing a 2 MB file took
  /// 0.8 ms, as long as writing it, while a link or a rename took 0.05 ms. A crash leaves the
  /// second name behind, which the next write removes with the other temporary files.
  ///
  /// - Returns: The second name, or nil when there is no file or the file system has no links.
  private static func retire(_ path: String) -> String? {
    let name = temporaryName(for: path)
    return link(path, name) == 0 ? name : nil
  }

  /// Removes a file on a background queue (one the engine's background freeing waits for).
  private static func removeInBackground(_ path: String) {
    PlatformObservers.fileRetired?(path)
    onRemovalsQueue { _ = unlink(path) }
  }

  /// Runs `work` on ``removals``, which a process that exits normally finishes first.
  static func onRemovalsQueue(_ work: @escaping @Sendable () -> Void) {
    _ = finishesRemovalsAtExit
    BackgroundRelease.perform(on: removals, work)
  }

  /// Blocks the calling thread for `duration`.
  static func sleep(for duration: Duration) {
    let (seconds, attoseconds) = duration.components
    usleep(UInt32(clamping: seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
  }

  /// The queue that frees retired files, one at a time: they compete for the same disk.
  static let removals = DispatchQueue(label: "StateRestoration.FileRemovals", qos: .utility)

  /// Removes the temporary files that writers killed mid-write left in a folder.
  ///
  /// A temporary file is named `<target>.<pid>.<random>.tmp` (``temporaryName(for:)``): a new
  /// file being written, or an old one waiting to be freed (``retire(_:)``). One whose process
  /// no longer exists can never be renamed into place nor freed by its process. Files of live
  /// processes are left alone: another process of the app may be writing at this instant.
  ///
  /// - Parameter folder: The folder.
  /// - Returns: How many files were removed.
  @discardableResult
  static func removeStaleTemporaryFiles(in folder: String) -> Int {
    guard let directory = opendir(folder) else { return 0 }
    var stale: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard name.hasSuffix(".tmp") else { continue }
      let parts = name.split(separator: ".")
      // <target name parts...>.<pid>.<random>.tmp
      guard parts.count >= 4, let pid = Int32(parts[parts.count - 3]), pid > 0 else { continue }
      if pid != getpid(), kill(pid, 0) != 0, errno == ESRCH { stale.append(name) }
    }
    closedir(directory)
    for name in stale { unlink("\(folder)/\(name)") }
    return stale.count
  }

  /// A file to remove, and how (see ``removeFiles(_:in:)``).
  struct Removal {
    /// The file's path.
    var path: String
    /// Whether to free its disk space on a background queue: it is renamed to a temporary name
    /// (see ``retire(_:)``) and freed there, its own name gone when the removal returns.
    var freeingInBackground = false
    /// Where to keep the file instead, as the spare the next write goes into; nil removes it.
    ///
    /// See ``writeIntoSpare(_:bytes:mode:replacing:)``. The spare it replaces is freed as
    /// `freeingInBackground` says; a spare in use is left alone, and the file is removed.
    var spare: String?
  }

  /// Removes files of one folder; a missing file is not an error.
  ///
  /// The folder is flushed once, after every removal, and only when a file went: the engine
  /// removes the crash guard's marker and the archive together, and the marker after every
  /// preserve, when there is most often none, which then costs no flush.
  ///
  /// - Parameters:
  ///   - files: The files, each in `folder`.
  ///   - folder: The folder.
  ///   - flushingInBackground: Flush the folder on the background queue that frees files,
  ///     before it frees them, instead of before this returns: the names are gone for every
  ///     process at once, and reach the disk a moment later (0.35 to 0.4 ms on the machine of
  ///     the README's benchmarks, at the end of a restore).
  /// - Throws: ``RestorationError`` (``RestorationError/Code/storageFailed``) naming the first
  ///   file that could not be removed and the system's reason; the others are removed.
  static func removeFiles(
    _ files: [Removal], in folder: String, flushingInBackground: Bool = false
  ) throws(RestorationError) {
    var failure: RestorationError?
    var removedAny = false
    var retired: [String] = []
    for file in files {
      if let spare = file.spare {
        switch keep(file.path, asSpare: spare, freeing: file.freeingInBackground, into: &retired)
        {
        case .kept:
          removedAny = true
          continue
        case .missing: continue
        case .spareInUse: break
        }
      }
      if file.freeingInBackground {
        let name = temporaryName(for: file.path)
        if rename(file.path, name) == 0 {
          retired.append(name)
          removedAny = true
          continue
        }
        if errno == ENOENT { continue }
        // Anything else: the plain removal below says what failed.
      }
      if unlink(file.path) == 0 {
        removedAny = true
      } else if errno != ENOENT, failure == nil {
        failure = RestorationError(
          .storageFailed, "cannot remove: \(errorDescription())", file: file.path)
      }
    }
    if removedAny {
      if flushingInBackground {
        // Read here: a task-local value is not seen on the queue.
        let observer = PlatformObservers.folderFlushed
        onRemovalsQueue { syncFolder(folder, observer: observer) }
      } else {
        syncFolder(folder)
      }
    }
    for name in retired { removeInBackground(name) }
    if let failure { throw failure }
  }

  /// What became of a file that a removal kept as the spare.
  private enum Keeping {
    case kept, missing, spareInUse
  }

  /// Renames a file being removed to be the spare, the spare it replaces given a temporary
  /// name in `retired` to be freed, or removed at once unless `freeing` in the background.
  ///
  /// The spare is replaced only under its exclusive lock, as a writer uses it: a writer
  /// writing into it, or a reader reading it, leaves it where it is.
  private static func keep(
    _ path: String, asSpare spare: String, freeing: Bool, into retired: inout [String]
  ) -> Keeping {
    var status = stat()
    guard lstat(path, &status) == 0 else { return errno == ENOENT ? .missing : .spareInUse }
    let descriptor = openSpare(spare)
    // Closed on return, after the renames: the lock keeps writers off the old spare until its
    // name is the new one's.
    defer { if descriptor >= 0 { close(descriptor) } }
    if descriptor >= 0 {
      guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return .spareInUse }
      if freeing {
        let name = temporaryName(for: spare)
        guard rename(spare, name) == 0 else { return .spareInUse }
        retired.append(name)
      }
      // Not freed in the background: the rename below frees the old spare.
    } else if errno != ENOENT {
      // Not a file this store may replace (a symbolic link, a FIFO): left alone.
      return .spareInUse
    }
    if rename(path, spare) == 0 { return .kept }
    return errno == ENOENT ? .missing : .spareInUse
  }

  /// Whether a file exists.
  static func fileExists(_ path: String) -> Bool {
    access(path, F_OK) == 0
  }

  /// Creates a folder and its missing parents; new folders get `mode`.
  static func createFolder(_ path: String, mode: mode_t = 0o700) throws(RestorationError) {
    // Every write of a store calls this: once the folder exists, one call answers, where
    // creating each component in turn took one per component.
    var status = stat()
    if stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR { return }
    var current = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
      current += "/" + component
      if mkdir(current, mode) != 0 {
        let code = errno
        guard code == EEXIST else {
          throw RestorationError(
            .storageFailed,
            "cannot create folder: \(errorDescription(code))",
            file: current
          )
        }
      }
    }
    guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
      throw RestorationError(.storageFailed, "exists but is not a folder", file: path)
    }
  }

  /// The permission bits of a file, for tests and diagnostics.
  static func permissions(of path: String) -> Int? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return Int(status.st_mode & 0o7777)
  }

  private static func parentFolder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// Flushes a folder's entries, so a rename or unlink survives a power loss.
  private static func syncFolder(
    _ path: String,
    observer: PathObserver? = PlatformObservers.folderFlushed
  ) {
    observer?(path)
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }
}
