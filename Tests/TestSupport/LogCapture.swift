package import Logging
import Synchronization

/// Collects what a logger writes, so that a test can assert the lines the engine logs (UIKit's
/// messages, warnings, timings).
package final class LogCapture: Sendable {
  private let storage = Mutex<[(Logger.Level, String)]>([])

  /// Creates an empty capture.
  package init() {}

  /// Every line, in order.
  package var lines: [String] { storage.withLock { $0.map(\.1) } }

  /// The warning-level lines, in order.
  package var warnings: [String] { lines(at: .warning) }

  /// The debug-level lines, in order.
  package var debugLines: [String] { lines(at: .debug) }

  /// The lines logged at one level, in order.
  ///
  /// - Parameter level: The level.
  /// - Returns: Its lines.
  package func lines(at level: Logger.Level) -> [String] {
    storage.withLock { $0.filter { $0.0 == level }.map(\.1) }
  }

  /// Records a line.
  ///
  /// - Parameters:
  ///   - level: Its level.
  ///   - message: Its text.
  package func append(_ level: Logger.Level, _ message: String) {
    storage.withLock { $0.append((level, message)) }
  }

  /// A logger that writes here.
  ///
  /// - Returns: The logger.
  package func makeLogger() -> Logger {
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
