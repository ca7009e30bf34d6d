import Foundation
import Testing

/// The result of running a program.
struct ProcessResult {
  var status: Int32
  var standardOutput: String
  var standardError: String
}

/// Runs a program to completion and captures its output.
///
/// Standard error goes to a temporary file, so a child that writes a lot to both streams can
/// never block on a full pipe while standard output is being read.
func run(
  _ executable: String,
  _ arguments: [String],
  environment: [String: String]? = nil
) throws -> ProcessResult {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  if let environment { process.environment = environment }
  let output = Pipe()
  let errorURL = FileManager.default.temporaryDirectory
    .appendingPathComponent("stderr-\(UUID().uuidString)")
  _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
  defer { try? FileManager.default.removeItem(at: errorURL) }
  let errorHandle = try FileHandle(forWritingTo: errorURL)
  process.standardOutput = output
  process.standardError = errorHandle
  process.standardInput = FileHandle.nullDevice
  try process.run()
  let outputData = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  try errorHandle.close()
  let errorData = (try? Data(contentsOf: errorURL)) ?? Data()
  return ProcessResult(
    status: process.terminationStatus,
    standardOutput: String(decoding: outputData, as: UTF8.self),
    standardError: String(decoding: errorData, as: UTF8.self)
  )
}

/// The built `restoration-archive-tool`.
enum ArchiveTool {
  static let name = "restoration-archive-tool"

  /// Where to look for the executable, most specific first: `RESTORATION_ARCHIVE_TOOL`, the
  /// folder of the running test binary (SwiftPM builds executables beside it), and the package's
  /// `.build/debug`, found from this file's path.
  static var candidates: [URL] {
    var folders: [URL] = []
    let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    // Linux: `.build/debug/<package>PackageTests.xctest` is the binary itself; macOS: the binary
    // is inside `.build/debug/<package>PackageTests.xctest/Contents/MacOS/`.
    var folder = testBinary.deletingLastPathComponent()
    for _ in 0..<4 {
      folders.append(folder)
      folder = folder.deletingLastPathComponent()
    }
    folders.append(Bundle.main.bundleURL)
    folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
    let package = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent()  // Support
      .deletingLastPathComponent()  // ArchiveInspectionTests
      .deletingLastPathComponent()  // Tests
      .deletingLastPathComponent()
    folders.append(package.appendingPathComponent(".build/debug"))
    var urls = folders.map { $0.appendingPathComponent(name) }
    if let explicit = ProcessInfo.processInfo.environment["RESTORATION_ARCHIVE_TOOL"] {
      urls.insert(URL(fileURLWithPath: explicit), at: 0)
    }
    return urls
  }

  /// The executable's path.
  static func path() throws -> String {
    let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    return try #require(
      found?.path,
      "\(name) was not built; looked in \(candidates.map(\.path)). Build it with `swift build`."
    )
  }

  /// Runs the tool with a fixed terminal width, so that help text is stable.
  static func run(_ arguments: [String]) throws -> ProcessResult {
    var environment = ProcessInfo.processInfo.environment
    environment["COLUMNS"] = "100"
    return try ArchiveInspectionTests.run(path(), arguments, environment: environment)
  }
}

/// Runs a Python 3 script with arguments.
func python(_ script: String, _ arguments: [String] = []) throws -> ProcessResult {
  try run("/usr/bin/env", ["python3", "-c", script] + arguments)
}
