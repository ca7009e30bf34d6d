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
  static func run(_ arguments: [String]) throws -> ProcessResult {
    var environment = ProcessInfo.processInfo.environment
    environment["COLUMNS"] = "100"
    return try TestSupport.run(path(), arguments, environment: environment)
  }
}
