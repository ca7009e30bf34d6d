// The one file that talks to the operating system. Everything else stays portable.
import Dispatch

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

/// What the file primitives do on a task, for tests of what cannot be seen in the files:
/// that a folder flush, which costs as much as a small write, is not made for nothing, and that
/// a replaced archive is freed off the calling thread.
package enum PlatformObservers {
  /// Called with each folder flushed on the current task.
  @TaskLocal package static var folderFlushed: (@Sendable (String) -> Void)?
  /// Called with the temporary name of each file handed to a background queue to be freed.
  @TaskLocal package static var fileRetired: (@Sendable (String) -> Void)?
}

/// Holds the queue that frees files in the background for `duration`, so the files handed to it
/// meanwhile wait: for tests of what becomes of a file not freed yet when its process exits.
package func delayBackgroundFileRemovals(by duration: Duration) {
  BackgroundRelease.perform(on: Platform.removals) {
    let (seconds, attoseconds) = duration.components
    usleep(UInt32(clamping: seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
  }
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
    var bytes = [UInt8](repeating: 0, count: size)
    var total = 0
    while total < size {
      let count = bytes.withUnsafeMutableBytes { buffer in
        read(descriptor, buffer.baseAddress.map { $0 + total }, size - total)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw RestorationError(.storageFailed, "cannot read: \(errorDescription())", file: path)
      }
      if count == 0 { break }
      total += count
    }
    // The file shrank while we read it; what we have is all there is.
    if total < size { bytes.removeSubrange(total...) }
    return bytes
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
  /// - Throws: ``RestorationError`` (``RestorationError/Code/storageFailed``) naming the file
  ///   and the system's reason; the old file is kept.
  static func writeFileAtomically(
    _ path: String,
    bytes: [UInt8],
    mode: mode_t = 0o600,
    freeingReplacedInBackground: Bool = false
  ) throws(RestorationError) {
    let folder = parentFolder(of: path)
    let temporary = temporaryName(for: path)
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard descriptor >= 0 else {
      throw RestorationError(
        .storageFailed,
        "cannot create temporary file: \(errorDescription())",
        file: temporary
      )
    }
    var failure: RestorationError?
    var total = 0
    while total < bytes.count {
      let count = bytes.withUnsafeBytes { buffer in
        write(descriptor, buffer.baseAddress.map { $0 + total }, bytes.count - total)
      }
      if count < 0 {
        if errno == EINTR { continue }
        failure = RestorationError(
          .storageFailed, "cannot write: \(errorDescription())", file: temporary)
        break
      }
      total += count
    }
    if failure == nil, fsync(descriptor) != 0 {
      failure = RestorationError(
        .storageFailed, "cannot flush: \(errorDescription())", file: temporary)
    }
    close(descriptor)
    if let failure {
      unlink(temporary)
      throw failure
    }
    let retired = freeingReplacedInBackground ? retire(path) : nil
    guard rename(temporary, path) == 0 else {
      let error = RestorationError(
        .storageFailed,
        "cannot rename into place: \(errorDescription())",
        file: path
      )
      unlink(temporary)
      if let retired { unlink(retired) }
      throw error
    }
    syncFolder(folder)
    if let retired { removeInBackground(retired) }
  }

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
    _ = finishesRemovalsAtExit
    BackgroundRelease.perform(on: removals) { _ = unlink(path) }
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

  /// Removes files of one folder; a missing file is not an error.
  ///
  /// The folder is flushed once, after every removal, and only when a file went: the engine
  /// removes the crash guard's marker and the archive together, and the marker after every
  /// preserve, when there is most often none, which then costs no flush.
  ///
  /// - Parameters:
  ///   - files: Each file's path in `folder`, and whether to free its disk space on a
  ///     background queue: it is renamed to a temporary name (see ``retire(_:)``) and freed
  ///     there, its own name gone, durably, when this returns.
  ///   - folder: The folder.
  /// - Throws: ``RestorationError`` (``RestorationError/Code/storageFailed``) naming the first
  ///   file that could not be removed and the system's reason; the others are removed.
  static func removeFiles(
    _ files: [(path: String, freeingInBackground: Bool)], in folder: String
  ) throws(RestorationError) {
    var failure: RestorationError?
    var removedAny = false
    var retired: [String] = []
    for file in files {
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
    if removedAny { syncFolder(folder) }
    for name in retired { removeInBackground(name) }
    if let failure { throw failure }
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
  private static func syncFolder(_ path: String) {
    PlatformObservers.folderFlushed?(path)
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }
}
