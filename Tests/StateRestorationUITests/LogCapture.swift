import Logging
import Synchronization

/// Collects what a logger writes, so a test can assert the lines UIKit would print.
final class LogCapture: Sendable {
  private let storage = Mutex<[(Logger.Level, String)]>([])

  /// The debug-level lines, in order.
  var debugLines: [String] { storage.withLock { $0.filter { $0.0 == .debug }.map(\.1) } }

  func append(_ level: Logger.Level, _ message: String) {
    storage.withLock { $0.append((level, message)) }
  }

  /// A logger that writes here.
  func makeLogger() -> Logger {
    Logger(label: "test") { _ in CaptureHandler(capture: self) }
  }
}

private struct CaptureHandler: LogHandler {
  let capture: LogCapture
  var metadata: Logger.Metadata = [:]
  var logLevel: Logger.Level = .info

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    capture.append(event.level, event.message.description)
  }
}
