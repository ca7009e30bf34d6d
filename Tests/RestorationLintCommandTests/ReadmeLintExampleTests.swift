import Foundation
import LintTestSupport
import RestorationLint
import RestorationLintInterfaceBuilder
import StoryboardImport
import StoryboardTestSupport
import TestSupport
import Testing

// The README shows `lint`'s output as real output; these tests run the same commands and compare,
// so that a change to the linter or its wording cannot leave the README behind.

/// A `$ swift run restoration-archive-tool lint PATH` block of the README: the path as written,
/// and the output lines that follow the command.
private struct ReadmeLintBlock {
  var file: String
  var output: [String]

  static let command = "$ swift run restoration-archive-tool lint "

  /// The block whose command lints `file`, or nil when the README has none.
  static func named(_ file: String) throws -> ReadmeLintBlock? {
    let readme = try String(
      contentsOf: Fixtures.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let start = lines.firstIndex(of: command + file) else { return nil }
    let output = lines[(start + 1)...].prefix { $0 != "```" }
    return ReadmeLintBlock(file: file, output: Array(output))
  }

  /// Runs the command from the package's folder, as the README does: the tool is given the
  /// path from there, and prints it as given.
  func run() throws -> (status: Int32, lines: [String]) {
    let absolute = Fixtures.packageRoot.appendingPathComponent(file).path
    let result = try runTool(["lint", absolute])
    #expect(result.standardError.isEmpty, "\(result.standardError)")
    let text = result.standardOutput.replacingOccurrences(of: absolute, with: file)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return (result.status, lines)
  }
}

@Suite struct ReadmeLintExampleTests {
  /// A project folder committed in `Examples/`, so the README's command works on a fresh clone:
  /// the Restorer's storyboard and two Swift files, with a planted mistake in each.
  static let project = "Examples/LintDemo"
  static let restorerExample = "Examples/LintDemo/Restorer.storyboard"

  @Test func theProjectBlockIsTheLiveOutput() throws {
    let block = try #require(
      try ReadmeLintBlock.named(Self.project), "README has no lint block for \(Self.project)")
    let (status, lines) = try block.run()
    // An error among the findings: the exit status says so.
    #expect(status == 1)
    #expect(
      lines == block.output,
      "README.md's block differs from the live output; paste this in:\n\(lines.joined(separator: "\n"))"
    )
  }

  @Test func theRestorerExamplesPathsAreTheOnesTheEnginePreserves() throws {
    // The block shows the paths the engine archives for this storyboard, and its one mistake.
    let document = try InterfaceDocument(
      contentsOfFile: Fixtures.packageRoot.appendingPathComponent(Self.restorerExample).path)
    let report = StoryboardLinter().lint(document)
    let launch = report.paths.filter { $0.origin == .launch }.map(\.path)
    let archived = try archivedLaunchPaths(of: document)
    #expect(Set(archived) == Set(launch))
    #expect(archived.count == launch.count)
    #expect(report.findings.map(\.code) == [.useStoryboardIdentifierUnchecked])
  }
}
