import Foundation
import TestSupport
import Testing

/// The README's `dump` block is real output: this runs the session it describes (open Costa Rica,
/// go back, Home) and dumps the archive, so a change to the app, the engine or the dump cannot
/// leave the README behind.
@Suite struct ReadmeDumpExampleTests {
  /// The lines that name the machine and the moment of the run, which no two runs share.
  private static func isMachineOrTime(_ line: String) -> Bool {
    line.contains("UIApplicationStateRestorationTimestamp")
      || line.contains("UIApplicationStateRestorationSystemVersion")
  }

  /// The output block that follows the README's `dump` command.
  private func readmeBlock() throws -> [String] {
    let readme = try String(
      contentsOf: BuiltExecutable.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let command = try #require(
      lines.firstIndex { $0.hasPrefix("swift run restoration-archive-tool dump") },
      "README.md has no dump command")
    let open = try #require(lines[command...].firstIndex(of: "```"))  // the command block ends
    let start = try #require(lines[(open + 1)...].firstIndex(of: "```")) + 1
    return Array(lines[start...].prefix { $0 != "```" })
  }

  @Test func theDumpBlockIsWhatTheDescribedSessionSaves() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = RestorerProcess(stateDirectory: folder)
    let session = try app.run(keys: "down*52 enter esc h")
    #expect(session.status == 0, "\(session.standardError)")

    let tool = try BuiltExecutable.path(
      named: "restoration-archive-tool", variable: "RESTORATION_ARCHIVE_TOOL")
    let dump = try TestSupport.run(tool, ["dump", app.archivePath])
    #expect(dump.status == 0, "\(dump.standardError)")
    var live = dump.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init)
    if live.last == "" { live.removeLast() }

    let block = try readmeBlock()
    #expect(block.contains { $0.contains("\"Costa Rica\"") })
    #expect(
      live.filter { !Self.isMachineOrTime($0) } == block.filter { !Self.isMachineOrTime($0) },
      "README.md's dump block differs from the live output; paste this in:\n\(dump.standardOutput)")
  }
}
