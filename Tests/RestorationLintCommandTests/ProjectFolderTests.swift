import Foundation
import LintTestSupport
import RestorationLint
import TestSupport
import Testing

/// `restoration-archive-tool lint` on the `Project` fixture: storyboards, Swift files, an
/// Info.plist, an Objective-C file, a Pods folder and a configuration file, checked as a whole.
@Suite struct ProjectFolderTests {
  /// The tool's output with the fixtures folder's path removed, as if run from there.
  private func lint(_ arguments: [String]) throws -> ProcessResult {
    var result = try runTool(["lint"] + arguments + [LintFixtures.project])
    let prefix = LintFixtures.command.path + "/"
    result.standardOutput = result.standardOutput.replacingOccurrences(of: prefix, with: "")
    return result
  }

  @Test func theTextIsTheExpectedOutput() throws {
    let result = try lint([])
    let expected = try String(
      contentsOfFile: LintFixtures.path("Project.expected.txt"), encoding: .utf8)
    #expect(result.standardOutput == expected)
    #expect(result.standardError.isEmpty)
    #expect(result.status == 1)
  }

  @Test func buildProductsDependenciesAndExcludedPathsAreNotRead() throws {
    let output = try lint([]).standardOutput
    #expect(!output.contains("Pods/"))
    #expect(!output.contains("Vendor/"))
    #expect(!output.contains("Generated/"))
    #expect(output.contains("Project/Atlas/Legacy/ATLMapView.m: not checked: Objective-C"))
    #expect(output.contains("Project/Atlas/Legacy/ATLMapView.h: not checked: Objective-C"))
    #expect(output.contains("; 2 Objective-C files not checked\n"))
  }

  @Test func theJSONMatchesItsSchema() throws {
    let result = try lint(["--format", "json"])
    #expect(result.status == 1)
    #expect(try schemaErrors(of: result.standardOutput, schema: LintFixtures.outputSchema) == "")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(
      object["filesByKind"] as? [String: Int] == ["storyboard": 2, "swift": 5, "infoPlist": 1])
    let summary = try #require(
      (object["summary"] as? [String: Any])?.compactMapValues { $0 as? Int })
    #expect(summary["errors"] == 1 && summary["warnings"] == 5 && summary["notChecked"] == 2)
    #expect(summary["notes"] == 0 && summary["belowMinimumSeverity"] == 1)
  }

  @Test func theSchemaListsEveryRuleAndReason() throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: LintFixtures.outputSchema))
    let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let definitions = try #require(schema["$defs"] as? [String: Any])
    let finding = try #require(definitions["finding"] as? [String: Any])
    let properties = try #require(finding["properties"] as? [String: Any])
    let code = try #require(properties["code"] as? [String: Any])
    #expect(code["enum"] as? [String] == LintFinding.Code.allCases.map(\.rawValue))
    let notChecked = try #require(
      ((schema["properties"] as? [String: Any])?["notChecked"] as? [String: Any])?["items"]
        as? [String: Any])
    let reason = (notChecked["properties"] as? [String: Any])?["reason"] as? [String: Any]
    #expect(reason?["enum"] as? [String] == UncheckedFile.Reason.allCases.map(\.rawValue))
  }

  @Test func theSARIFMatchesTheOASISSchema() throws {
    let result = try runTool(["lint", "--format", "sarif", LintFixtures.project])
    #expect(result.status == 1)
    #expect(try schemaErrors(of: result.standardOutput, schema: LintFixtures.sarifSchema) == "")
    let log = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    let run = try #require((log["runs"] as? [[String: Any]])?.first)
    let results = try #require(run["results"] as? [[String: Any]])
    #expect(results.count == 6)
    let rules = try #require(
      ((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
    #expect(rules.count == LintFinding.Code.allCases.count)
    for result in results {
      let index = try #require(result["ruleIndex"] as? Int)
      #expect(rules[index]["id"] as? String == result["ruleId"] as? String)
    }
    let first = try #require(results.first?["locations"] as? [[String: Any]])
    let physical = try #require(first.first?["physicalLocation"] as? [String: Any])
    // An absolute path is a file URI; a relative one stays relative, for code scanning.
    let uri = (physical["artifactLocation"] as? [String: Any])?["uri"] as? String
    #expect(uri == "file://\(LintFixtures.project)/Atlas/AppDelegate+Restoration.swift")
    #expect((physical["region"] as? [String: Int])?["startLine"] == 5)
    #expect(LintResult.uri("./App/My File.swift") == "App/My%20File.swift")
  }

  @Test func anInvalidSARIFLogFailsTheSchema() throws {
    // The check can fail: a log without its runs is refused.
    #expect(
      try schemaErrors(of: #"{"version": "2.1.0"}"#, schema: LintFixtures.sarifSchema) != "")
    #expect(
      try schemaErrors(of: #"{"files": []}"#, schema: LintFixtures.outputSchema) != "")
  }

  @Test func githubAnnotationsAreWorkflowCommands() throws {
    let result = try lint(["--format", "github", "--min-severity", "note"])
    #expect(result.status == 1)
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(
      lines.contains {
        $0.hasPrefix(
          "::error file=Project/Atlas/Countries/CountriesViewController.swift,line=18,title=restoration-lint decoded-key-never-encoded::class 'CountriesViewController' decodes key \"countries\""
        )
      })
    #expect(
      lines.contains {
        $0.hasPrefix("::notice file=Project/Atlas/LaunchScreen.storyboard,title=")
      })
    #expect(
      lines.contains(
        "::notice file=Project/Atlas/Legacy/ATLMapView.m::Objective-C (the lint reads Swift, storyboards, XIBs and Info.plist files)"
      ))
    #expect(
      lines.last?.hasPrefix("8 files checked (2 storyboards, 5 Swift files, 1 Info.plist)") == true)
  }

  @Test func notesAreListedOnlyWhenAskedFor() throws {
    let byDefault = try lint([])
    #expect(!byDefault.standardOutput.contains(": note: "))
    #expect(byDefault.standardOutput.contains("; 1 note not shown (--min-severity note shows it)"))
    let notes = try lint(["--min-severity", "note"])
    #expect(
      notes.standardOutput.contains(
        "Project/Atlas/LaunchScreen.storyboard: note: this file is a launch screen"))
    #expect(notes.standardOutput.contains(": 1 error, 5 warnings, 1 note; 2 Objective-C"))
    // Errors only: the run still fails on the error; the warnings are counted.
    let errors = try lint(["--min-severity", "error"])
    #expect(errors.status == 1)
    #expect(!errors.standardOutput.contains(": warning: "))
    #expect(
      errors.standardOutput.contains(
        ": 1 error; 5 warnings and 1 note not shown (--min-severity note shows them)"))
    let wrong = try lint(["--min-severity", "info"])
    #expect(wrong.status == 64)
  }

  @Test func cellXIBsAndPlainStoryboardsAreQuietByDefault() throws {
    // A table cell's XIB and a storyboard without identifiers: nothing to preserve, and no
    // line about it unless notes are asked for.
    let folder = LintFixtures.path("Cells")
    let quiet = try runTool(["lint", folder])
    #expect(quiet.status == 0)
    #expect(
      quiet.standardOutput
        == "2 files checked (1 storyboard, 1 XIB): 0 errors, 0 warnings; 2 notes not shown (--min-severity note shows them)\n"
    )
    let notes = try runTool(["lint", "--min-severity", "note", folder])
    #expect(
      notes.standardOutput.split(separator: "\n").filter {
        $0.hasSuffix("[no-restoration-identifiers]")
      }.count == 2)
  }

  @Test func escapesKeepAnnotationsOnOneLine() {
    #expect(LintResult.escapeData("50%\nnext") == "50%25%0Anext")
  }

  @Test func warningsAsErrorsAndUsageErrors() throws {
    let clean = try runTool([
      "lint", LintFixtures.rule("force-cast-decoded-optional", "triggers"),
    ])
    #expect(clean.status == 0)
    let strict = try runTool([
      "lint", "--warnings-as-errors",
      LintFixtures.rule("force-cast-decoded-optional", "triggers"),
    ])
    #expect(strict.status == 1)
    let wrong = try runTool(["lint", "--format", "xml", LintFixtures.project])
    #expect(wrong.status == 64)
    let both = try runTool(["lint", "--json", "--format", "sarif", LintFixtures.project])
    #expect(both.status == 64)
  }
}
