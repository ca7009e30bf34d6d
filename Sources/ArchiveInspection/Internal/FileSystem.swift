import StateRestoration

// The one file of this module that talks to the operating system.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the files the tool inspects.
enum FileSystem {
  /// Reads a whole regular file of at most `maxSize` bytes.
  ///
  /// The size is checked before anything is read, so pointing the tool at a huge file fails at
  /// once instead of filling memory.
  ///
  /// - Throws: ``RestorationError``: ``RestorationError/Code/storageFailed`` naming the
  ///   system's reason (no such file, permission denied, a folder), or
  ///   ``RestorationError/Code/limitExceeded``.
  static func readFile(_ path: String, maxSize: Int) throws(RestorationError) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw RestorationError(.storageFailed, errorDescription(), file: path)
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw RestorationError(.storageFailed, errorDescription(), file: path)
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
        throw RestorationError(.storageFailed, errorDescription(), file: path)
      }
      if count == 0 { break }
      total += count
    }
    // The file shrank while it was read; what was read is all there is.
    if total < size { bytes.removeSubrange(total...) }
    return bytes
  }

  private static func errorDescription() -> String {
    let code = errno
    guard let message = strerror(code) else { return "error \(code)" }
    return String(cString: message)
  }
}
