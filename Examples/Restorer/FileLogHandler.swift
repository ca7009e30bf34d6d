import Foundation
import Logging
import Synchronization

/// An append-only log file shared by the handlers of one process.
final class LogFile: Sendable {
  private let handle: Mutex<FileHandle?>

  init(path: String) {
    let url = URL(fileURLWithPath: path)
    try? FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    if !FileManager.default.fileExists(atPath: path) {
      _ = FileManager.default.createFile(atPath: path, contents: nil)
    }
    let handle = try? FileHandle(forWritingTo: url)
    _ = try? handle?.seekToEnd()
    self.handle = Mutex(handle)
  }

  func append(_ line: String) {
    handle.withLock { handle in
      try? handle?.write(contentsOf: Data((line + "\n").utf8))
    }
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
