import Foundation
import TestSupport

/// The built `restoration-archive-tool`.
enum ArchiveTool {
  static let name = "restoration-archive-tool"

  /// The executable's path: `RESTORATION_ARCHIVE_TOOL`, or where SwiftPM built it.
  static func path() throws -> String {
    try BuiltExecutable.path(named: name, variable: "RESTORATION_ARCHIVE_TOOL")
  }

  /// Runs the tool with a fixed terminal width, so that help text is stable.
  ///
  /// - Parameters:
  ///   - arguments: The arguments.
  ///   - columns: The terminal's width.
  ///   - environment: Variables to set (or, with a nil value, to remove) in the test's
  ///     environment for the run.
  /// - Returns: Its status and output.
  /// - Throws: When the tool was not built or cannot be started.
  static func run(
    _ arguments: [String], columns: Int = 100, environment: [String: String?] = [:]
  ) throws -> ProcessResult {
    var variables = ProcessInfo.processInfo.environment
    variables["COLUMNS"] = String(columns)
    for (name, value) in environment { variables[name] = value }
    return try TestSupport.run(path(), arguments, environment: variables)
  }

  /// coreutils' `timeout`, to stop a run that would otherwise wait forever.
  static let timeoutCommand = ["/usr/bin/timeout", "/bin/timeout"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// Runs the tool under `timeout`, for inputs that used to make it wait forever: a test must
  /// fail then, not hang the whole run.
  ///
  /// SIGKILL, not SIGTERM: a child of the test runner can inherit a signal mask that blocks
  /// SIGTERM, and would then go on waiting.
  ///
  /// - Returns: Its result, or nil when it had to be stopped.
  static func run(_ arguments: [String], timeout seconds: Int) throws -> ProcessResult? {
    guard let timeoutCommand else { throw MissingExecutable(name: "timeout", searched: []) }
    let result = try TestSupport.run(
      timeoutCommand, ["--signal=KILL", String(seconds), try path()] + arguments)
    // `timeout` exits 137 (128 + SIGKILL) when it had to kill the command.
    return result.status == 137 ? nil : result
  }
}
