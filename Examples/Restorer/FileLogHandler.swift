import Foundation
import Logging
import StateRestoration
import StateRestorationStorage
import Synchronization

/// An append-only log file shared by the handlers of one process, private as the archive is
/// (`0600`, never written through a symbolic link), and emptied at opening once it passes
/// ``maxSize``, so that debug logging over many runs does not fill the disk.
final class LogFile: Sendable {
  /// The size past which the log starts again, in bytes.
  static let maxSize = 1 << 20
  private let descriptor: Int32

  init(path: String) {
    let url = URL(fileURLWithPath: path)
    let folder = try? PrivateFolder.open(
      root: url.deletingLastPathComponent().path, components: [], creating: true)
    descriptor = (try? folder?.openForAppending(url.lastPathComponent)) ?? -1
    var status = stat()
    if descriptor >= 0, fstat(descriptor, &status) == 0, status.st_size > Self.maxSize {
      _ = ftruncate(descriptor, 0)
    }
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  func append(_ line: String) {
    guard descriptor >= 0 else { return }
    // One write per line, appended: lines of two threads never interleave.
    _ = Array((line + "\n").utf8).withUnsafeBytes { writeFully($0, to: descriptor) }
  }
}

/// Writes log lines to a file, so logging never tears the terminal the app draws on.
struct FileLogHandler: LogHandler {
  let label: String
  let file: LogFile
  var metadata: Logger.Metadata = [:]
  var logLevel: Logger.Level = .debug

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    let time = Date().formatted(.iso8601)
    file.append(
      "\(time) restorer[\(ProcessInfo.processInfo.processIdentifier)] \(event.level): \(event.message)"
    )
  }
}

extension PrivateFolder {
  /// Opens a file of the folder for appending, creating it `0600`.
  ///
  /// - Returns: The descriptor; the caller closes it.
  /// - Throws: ``RestorationError`` naming the file: a link is refused.
  fileprivate func openForAppending(_ name: String) throws(RestorationError) -> Int32 {
    let filePath = "\(path)/\(name)"
    let file = openat(
      descriptor, name, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
      0o600)
    guard file >= 0 else { throw openFailure(filePath) }
    var status = stat()
    guard fstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
      status.st_uid == geteuid(), fchmod(file, 0o600) == 0
    else {
      close(file)
      throw RestorationError(
        .unsafeStorage, "is not a regular file of this user that can be made private",
        file: filePath)
    }
    return file
  }
}
