// The one file that talks to the operating system. Everything else stays portable.
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
  static func writeFileAtomically(
    _ path: String,
    bytes: [UInt8],
    mode: mode_t = 0o600
  ) throws(RestorationError) {
    let folder = parentFolder(of: path)
    let temporary = "\(path).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
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
    guard rename(temporary, path) == 0 else {
      let error = RestorationError(
        .storageFailed,
        "cannot rename into place: \(errorDescription())",
        file: path
      )
      unlink(temporary)
      throw error
    }
    syncFolder(folder)
  }

  /// Removes the temporary files that writers killed mid-write left in a folder.
  ///
  /// A temporary file is named `<target>.<pid>.<random>.tmp` (``writeFileAtomically(_:bytes:mode:)``);
  /// one whose process no longer exists can never be renamed into place. Files of live processes
  /// are left alone: another process of the app may be writing at this instant.
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

  /// Removes a file; a missing file is not an error.
  static func removeFile(_ path: String) throws(RestorationError) {
    if unlink(path) != 0, errno != ENOENT {
      throw RestorationError(.storageFailed, "cannot remove: \(errorDescription())", file: path)
    }
    syncFolder(parentFolder(of: path))
  }

  /// Whether a file exists.
  static func fileExists(_ path: String) -> Bool {
    access(path, F_OK) == 0
  }

  /// Creates a folder and its missing parents; new folders get `mode`.
  static func createFolder(_ path: String, mode: mode_t = 0o700) throws(RestorationError) {
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
    var status = stat()
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
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }
}
