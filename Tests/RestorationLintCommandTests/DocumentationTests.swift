import Foundation
import LintTestSupport
import RestorationLint
import TestSupport
import Testing

/// `docs/Lint.md` shows a real run and lists every rule: these tests keep it true.
@Suite struct DocumentationTests {
  private static let page = BuiltExecutable.packageRoot.appendingPathComponent("docs/Lint.md")

  private func lines() throws -> [String] {
    try String(contentsOf: Self.page, encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  @Test func theProjectRunIsTheLiveOutput() throws {
    let folder = "Tests/RestorationLintCommandTests/Fixtures/Project"
    let lines = try lines()
    let command = "$ swift run restoration-archive-tool lint \(folder)"
    let start = try #require(lines.firstIndex(of: command), "docs/Lint.md has no run of \(folder)")
    let shown = Array(lines[(start + 1)...].prefix { $0 != "```" })
    let absolute = BuiltExecutable.packageRoot.appendingPathComponent(folder).path
    let result = try runTool(["lint", absolute])
    #expect(result.status == 1)
    var live = result.standardOutput.replacingOccurrences(of: absolute, with: folder)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if live.last == "" { live.removeLast() }
    #expect(
      shown == live,
      "docs/Lint.md's run differs from the live output; paste this in:\n\(live.joined(separator: "\n"))"
    )
  }

  @Test func theTableListsEveryRuleWithItsSeverity() throws {
    var rows: [String: String] = [:]
    for line in try lines() where line.hasPrefix("| `") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count >= 2 else { continue }
      rows[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells[1]
    }
    for code in LintFinding.Code.allCases {
      #expect(rows[code.rawValue] == code.defaultSeverity.rawValue, "\(code.rawValue)")
    }
    #expect(rows.count == LintFinding.Code.allCases.count)
  }
}
