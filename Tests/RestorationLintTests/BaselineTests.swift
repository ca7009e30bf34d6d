import Foundation
import RestorationLint
import TestSupport
import Testing

/// A baseline matches findings by rule, file and line text, one finding per entry.
@Suite struct BaselineTests {
  private func finding(_ code: LintFinding.Code, _ file: String, line: Int) -> LintFinding {
    LintFinding(.warning, code, "message", file: file, line: line)
  }

  @Test func aBaselineIsReadBackAsWritten() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("baseline.json").path
    let baseline = LintBaseline(findings: [
      .init(rule: "gap-in-chain", file: "b.storyboard", lineText: "<a/>"),
      .init(rule: "force-cast-decoded-value", file: "a.swift", lineText: "x as! Int"),
    ])
    try baseline.write(toFile: path)
    let read = try LintBaseline(contentsOfFile: path)
    #expect(read == baseline)
    // Sorted by file, so that the file diffs well.
    #expect(read.findings.map(\.file) == ["a.swift", "b.storyboard"])
    #expect(try String(contentsOfFile: path, encoding: .utf8) == baseline.json())
  }

  @Test(arguments: [
    ("", LintError.Code.invalidBaseline),
    ("{\"findings\": []}", .invalidBaseline),
    ("{\"version\": 2, \"findings\": []}", .invalidBaseline),
    ("[1, 2]", .invalidBaseline),
  ])
  func aFileThatIsNotABaselineIsAnError(_ text: String, _ code: LintError.Code) throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("baseline.json").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    #expect {
      try LintBaseline(contentsOfFile: path)
    } throws: { error in
      (error as? LintError)?.code == code && (error as? LintError)?.file == path
    }
    #expect {
      try LintBaseline(contentsOfFile: path + ".missing")
    } throws: { error in
      (error as? LintError)?.code == .unreadableBaseline
    }
  }
}

/// `included` in the configuration, as `--include` on the command line.
@Suite struct IncludedPathTests {
  @Test func includedPathsAreReadAndMatched() throws {
    let configuration = try LintConfiguration(
      yaml: "included:\n  - App\n  - \"**/*Controller.swift\"\n", file: "c.yml")
    #expect(configuration.includedPaths == ["App", "**/*Controller.swift"])
    #expect(configuration.includes("App/Main.storyboard"))
    #expect(configuration.includes("Other/MapViewController.swift"))
    #expect(!configuration.includes("Other/Map.swift"))
    #expect(LintConfiguration().includes("Anything/At/All.swift"))
  }
}
