import Foundation
import TestSupport
import Testing

/// The README's archive tool block is real output: this runs the session the README describes
/// (open Costa Rica, Home) and then the README's command as written, finding the app's archive
/// by `--bundle-id` in the default state folder, so that a change to the app, the engine or the
/// tool cannot leave the README behind.
@Suite struct ReadmeDumpExampleTests {
  /// The command of the README's archive tool block.
  static let command =
    "$ swift run restoration-archive-tool paths --tree --bundle-id com.example.Restorer"

  /// The output lines that follow the README's command in its block.
  private func readmeBlock() throws -> [String] {
    let readme = try String(
      contentsOf: BuiltExecutable.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let start = try #require(
      lines.firstIndex(of: Self.command), "README.md has no block for \(Self.command)")
    return Array(lines[(start + 1)...].prefix { $0 != "```" })
  }

  /// The scene session a section header names (`==> scene session ID: PATH <==`), or nil.
  private func session(inHeader line: String) -> String? {
    let prefix = "==> scene session "
    guard line.hasPrefix(prefix) else { return nil }
    return String(line.dropFirst(prefix.count).prefix { $0 != ":" })
  }

  @Test func theArchiveToolBlockIsWhatTheDescribedSessionSaves() throws {
    // The default state folder is $XDG_STATE_HOME/swift-state-restoration, for the app and the
    // tool alike: the README's commands name no folder.
    let home = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: home) }
    let folder = home.appendingPathComponent("swift-state-restoration")
    let app = RestorerProcess(stateDirectory: folder)
    let session = try app.run(keys: "down*52 enter h")
    #expect(session.status == 0, "\(session.standardError)")

    let tool = try BuiltExecutable.path(
      named: "restoration-archive-tool", variable: "RESTORATION_ARCHIVE_TOOL")
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_STATE_HOME"] = home.path
    let arguments = Self.command.split(separator: " ").dropFirst(4).map(String.init)
    let paths = try TestSupport.run(tool, arguments, environment: environment)
    #expect(paths.status == 0, "\(paths.standardError)")
    #expect(paths.standardError.isEmpty)
    var live = paths.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init)
    if live.last == "" { live.removeLast() }

    let block = try readmeBlock()
    #expect(block.contains { $0.hasSuffix("[1] CountryDetail") })  // the capital that was open
    // The header names the window's session, whose identifier is new at each run, and its
    // archive under the state folder: the README shows a user's, under ~/.local/state.
    let liveSession = try #require(
      live.first.flatMap(session(inHeader:)), "no section header: \(paths.standardOutput)")
    let readmeSession = try #require(
      block.first.flatMap(session(inHeader:)), "README.md's block has no section header")
    live[0] = live[0].replacingOccurrences(of: liveSession, with: readmeSession)
      .replacingOccurrences(of: home.path, with: "~/.local/state")
    #expect(
      live == block,
      "README.md's block differs from the live output; paste this in:\n\(paths.standardOutput)")
  }

  /// What the README's archive tool section says: a launch that restores the archive deletes
  /// it, so the tool then finds no saved state, unless the launch was in developer mode.
  @Test func theArchiveIsGoneAfterARestoringLaunchUnlessDeveloperModeKeepsIt() throws {
    let readme = try String(
      contentsOf: BuiltExecutable.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let section = try #require(readme.components(separatedBy: "## The archive tool").last)
      .components(separatedBy: "\n## ")[0]
    #expect(section.contains("`no saved state`"))
    #expect(section.contains("`--developer-mode`, which keeps it"))

    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = RestorerProcess(stateDirectory: folder)
    let tool = try BuiltExecutable.path(
      named: "restoration-archive-tool", variable: "RESTORATION_ARCHIVE_TOOL")
    let arguments = [
      "paths", "--bundle-id", "com.example.Restorer", "--state-dir", folder.path,
    ]
    for developerMode in [false, true] {
      let options = developerMode ? ["--developer-mode"] : []
      _ = try app.run(keys: "down*52 enter h", options)
      #expect(try TestSupport.run(tool, arguments).status == 0)
      // Restores Costa Rica, then the keys run out: the app exits without going Home.
      let restoring = try app.run(keys: "down", options)
      #expect(restoring.standardOutput.contains("Costa Rica"))
      let paths = try TestSupport.run(tool, arguments)
      if developerMode {
        #expect(paths.status == 0, "\(paths.standardError)")
        #expect(paths.standardOutput.contains("CountryDetail"))
      } else {
        #expect(paths.status != 0)
        #expect(paths.standardError.contains("no saved state"), "\(paths.standardError)")
      }
    }
  }
}
