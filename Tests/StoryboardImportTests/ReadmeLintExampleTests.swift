import Foundation
import TestSupport
import Testing

// The README shows `lint`'s output as real output; these tests run the same commands and compare,
// so that a change to the linter or its wording cannot leave the README behind.

/// A `$ swift run restoration-archive-tool lint FILE` block of the README: the file as written,
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
    let result = try runProduct("restoration-archive-tool", ["lint", absolute])
    #expect(result.standardError.isEmpty, "\(result.standardError)")
    let text = result.standardOutput.replacingOccurrences(of: absolute, with: file)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return (result.status, lines)
  }
}

@Suite struct ReadmeLintExampleTests {
  @Test(.enabled(if: Fixtures.xcodeFilesAvailable, Fixtures.skipMessage))
  func theRestorerBlockIsTheLiveOutput() throws {
    let file =
      "../shared/fixtures/xcode/kharrison__CodeExamples/Restorer__Restorer__Base.lproj__MainStoryboard.storyboard"
    // The README's path is the fixture the other tests read (`../shared` may be a symbolic
    // link, as it is on CI).
    #expect(
      Fixtures.packageRoot.appendingPathComponent(file).resolvingSymlinksInPath().path
        == URL(fileURLWithPath: Fixtures.restorer).resolvingSymlinksInPath().path)
    let block = try #require(
      try ReadmeLintBlock.named(file), "README has no lint block for \(file)")
    let (status, lines) = try block.run()
    #expect(status == 0)
    #expect(
      lines == block.output,
      "README.md's block differs from the live output; paste this in:\n\(lines.joined(separator: "\n"))"
    )
  }

  @Test func theGapBlockShowsLinesOfTheLiveOutput() throws {
    // This block elides the paths with `...`: its other lines must be output lines, in order.
    let file = "Tests/StoryboardImportTests/Fixtures/Gap.storyboard"
    let block = try #require(
      try ReadmeLintBlock.named(file), "README has no lint block for \(file)")
    let (status, lines) = try block.run()
    #expect(status == 1)
    var remaining = lines[...]
    for line in block.output where line != "..." {
      guard let found = remaining.firstIndex(of: line) else {
        Issue.record(
          "README.md line not in the live output (or out of order): \(line)\nOutput:\n\(lines.joined(separator: "\n"))"
        )
        return
      }
      remaining = remaining[(found + 1)...]
    }
    #expect(block.output.last == lines.last)
  }
}
