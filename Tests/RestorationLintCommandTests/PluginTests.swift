import Foundation
import LintTestSupport
import TestSupport
import Testing

/// `swift package restoration-lint`, the SwiftPM command plugin, run for real on this package.
///
/// The plugin needs `restoration-archive-tool` built; `swift test` has just built it in the
/// same build folder, so the plugin's build finds it up to date and only compiles the plugin
/// itself (once). `swift test` holds that folder's lock while the tests run, hence
/// `--ignore-lock`: the build it would wait for is over. The plugin's build is always the debug
/// one, whatever the tests' configuration, so that it never rebuilds a tool the other tests run;
/// and the runs are one at a time, so that two never compile the plugin at once.
@Suite(.serialized) struct PluginTests {
  /// Runs `swift package restoration-lint ARGUMENTS` in the package's folder.
  private func plugin(_ arguments: [String]) throws -> ProcessResult {
    let swift = try #require(executableInPath(named: "swift"), "swift is not in PATH")
    let root = BuiltExecutable.packageRoot.path
    return try run(
      swift,
      [
        "package", "--package-path", root, "--scratch-path", try scratchPath(), "--ignore-lock",
        "restoration-lint",
      ] + arguments)
  }

  /// The build folder of the running tests: the one above `debug` or `release` (and above the
  /// target triple's folder, where SwiftPM puts them).
  private func scratchPath() throws -> String {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    for _ in 0..<5 {
      folder = folder.deletingLastPathComponent()
      if FileManager.default.fileExists(
        atPath: folder.appendingPathComponent("workspace-state.json").path)
      {
        return folder.path
      }
    }
    return BuiltExecutable.packageRoot.appendingPathComponent(".build").path
  }

  @Test func itLintsPathsOfThePackageAsTheToolDoes() throws {
    let result = try plugin(["Examples/LintDemo"])
    // The lint found an error: the plugin fails, as the tool does.
    #expect(result.status != 0)
    #expect(result.standardError.contains("restoration-archive-tool lint found errors"))
    // The same lines as the README's run of the tool, paths relative to the package.
    let readme = try String(
      contentsOf: BuiltExecutable.packageRoot.appendingPathComponent("README.md"), encoding: .utf8
    ).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let command = try #require(
      readme.firstIndex(of: "$ swift run restoration-archive-tool lint Examples/LintDemo"))
    let shown = Array(readme[(command + 1)...].prefix { $0 != "```" })
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines == shown, "\(result.standardOutput)\n\(result.standardError)")
  }

  @Test func targetsAndOptionsArePassedOn() throws {
    let notes = try plugin(["--target", "NotesCore", "--min-severity", "note"])
    #expect(notes.status == 0, "\(notes.standardError)")
    #expect(
      notes.standardOutput == "5 files checked (5 Swift files): 0 errors, 0 warnings, 0 notes\n")

    let json = try plugin(["--format", "json", "Examples/LintDemo"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    let files = try #require(object["files"] as? [[String: Any]])
    #expect(
      files.compactMap { $0["file"] as? String }.allSatisfy { $0.hasPrefix("Examples/LintDemo/") })

    let wrong = try plugin(["--min-severity", "info", "Examples/LintDemo"])
    #expect(wrong.status != 0)
    #expect(wrong.standardError.contains("exit status 64"))
  }
}
