package import StateRestoration

// The file primitives the stores need, with errors that name the path and the reason.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a whole regular file for the package's tools, or nil when there is none; one above
/// `maxSize` fails before anything is read, instead of filling memory.
package func readFileContents(at path: String, maxSize: Int) throws(RestorationError) -> [UInt8]? {
  // O_NONBLOCK: a FIFO without a writer would block the open forever; it is refused as not a
  // regular file instead.
  let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
  if descriptor < 0 {
    if errno == ENOENT { return nil }
    throw RestorationError(
      .storageFailed, "cannot open: \(Platform.errorDescription())", file: path)
  }
  defer { close(descriptor) }
  return try Platform.readOpenFile(descriptor, path: path, maxSize: maxSize, ownedByUser: false)
}

/// Writes all of `bytes`, again after a partial write or an interruption: 0, or the `errno`.
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

extension Platform {
  /// The description of an `errno` value, by default the current one.
  static func errorDescription(_ code: Int32 = errno) -> String {
    guard let message = strerror(code) else { return "error \(code)" }
    return String(cString: message)
  }

  /// The current user's home folder as the user database records it, or nil.
  static var homeFromUserDatabase: String? {
    guard let entry = getpwuid(geteuid()), let folder = entry.pointee.pw_dir else { return nil }
    return String(cString: folder)
  }

  /// Reads the whole of an open file, which must be a regular file no larger than `maxSize`
  /// (checked before anything is read) and, with `ownedByUser`, the user's own.
  static func readOpenFile(
    _ descriptor: Int32, path: String, maxSize: Int, ownedByUser: Bool
  ) throws(RestorationError) -> [UInt8] {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw RestorationError(.storageFailed, "cannot stat: \(errorDescription())", file: path)
    }
    switch status.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: throw RestorationError(.storageFailed, "is a folder, not a file", file: path)
    default: throw RestorationError(.storageFailed, "is not a regular file", file: path)
    }
    if ownedByUser, status.st_uid != geteuid() {
      throw RestorationError(
        .unsafeStorage, "belongs to user \(status.st_uid), not to this user (\(geteuid()))",
        file: path)
    }
    let size = Int(status.st_size)
    guard size >= 0, size <= maxSize else {
      throw RestorationError(
        .limitExceeded, "file is \(size) bytes, above the limit of \(maxSize)", file: path)
    }
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
        // The file shrank while it was read: what was read is all there is.
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
}
