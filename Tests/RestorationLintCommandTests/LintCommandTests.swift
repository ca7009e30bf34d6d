import ArgumentParser
import Foundation
import LintTestSupport
import RestorationLint
import RestorationLintCommand
import StoryboardTestSupport
import TestSupport
import Testing

/// The lint run over several files: text, JSON and exit status, in process.
@Suite struct LintResultTests {
  @Test func theExitStatusSaysUnreadableFilesThenErrors() throws {
    let clean = try ProjectLinter.iOS().lint([Fixtures.local("SplitAndEmbed.storyboard")])
    #expect(clean.exitStatus() == .clean)
    let warnings = try ProjectLinter.iOS().lint([Fixtures.local("Segues.storyboard")])
    #expect(warnings.exitStatus() == .clean)
    #expect(warnings.exitStatus(warningsAsErrors: true) == .errorsFound)
    let errors = try ProjectLinter.iOS().lint([Fixtures.local("Gap.storyboard")])
    #expect(errors.exitStatus() == .errorsFound)
    let missing = try ProjectLinter.iOS().lint([
      Fixtures.local("Gap.storyboard"), "/nope/Missing.storyboard",
    ])
    #expect(missing.exitStatus() == .unreadableFile)
    #expect(missing.files.count == 1)
    #expect(
      missing.failureLines(toolName: "tool") == ["tool: /nope/Missing.storyboard: no such file"])
  }

  @Test func theTextListsPathsThenFindingsThenASummary() throws {
    let run = try ProjectLinter.iOS().lint([
      Fixtures.local("Gap.storyboard"), Fixtures.local("Truncated.storyboard"),
    ])
    let lines = run.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let file = Fixtures.local("Gap.storyboard")
    #expect(lines[0] == "\(file): storyboard, document format 3.0")
    #expect(lines[1] == "  restoration paths:")
    #expect(lines[2] == "    Tabs               tabBarController 'Tabs', line 7")
    #expect(lines[3] == "    Tabs/:[1]:/Second  viewController 'Second', line 35")
    #expect(
      lines[4].hasPrefix(
        "\(file):17: error: navigationController (id nav) has no restoration identifier, but its child tableViewController 'List' at line 26 has one"
      ))
    #expect(
      lines[5]
        == "1 file checked (1 storyboard): 1 error, 0 warnings, 0 notes; 1 file could not be read")
    #expect(lines.count == 7 && lines[6].isEmpty)
  }

  @Test func theJSONHasSortedKeysAndTheSameContent() throws {
    let run = try ProjectLinter.iOS().lint([Fixtures.local("Tabs.storyboard"), "/nope/Missing.xib"])
    let text = run.json()
    let again = try ProjectLinter.iOS().lint([
      Fixtures.local("Tabs.storyboard"), "/nope/Missing.xib",
    ])
    #expect(text == again.json())
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let summary = try #require(object["summary"] as? [String: Any])
    #expect(
      summary.compactMapValues { $0 as? Int } == [
        "files": 1, "errors": 1, "warnings": 1, "notes": 0, "notChecked": 0, "unreadableFiles": 1,
        "belowMinimumSeverity": 0, "inBaseline": 0,
      ])
    #expect(summary["minimumSeverity"] as? String == "note")
    let files = try #require(object["files"] as? [[String: Any]])
    let findings = try #require(files.first?["findings"] as? [[String: Any]])
    #expect(
      findings.map { $0["code"] as? String } == [
        "tab-without-identifier", "duplicate-sibling-identifier",
      ])
    #expect(findings.map { $0["line"] as? Int } == [18, 28])
    let unreadable = try #require(object["unreadable"] as? [[String: Any]])
    #expect(unreadable.first?["code"] as? String == "fileNotFound")
    // Keys in a stable, sorted order, at every level; slashes are not escaped.
    #expect(text.hasPrefix("{\n  \"files\" : [\n    {\n      \"file\" : "))
    let findingKeys = [
      "\"code\"", "\"file\"", "\"line\"", "\"message\"", "\"object\"", "\"objectID\"",
      "\"severity\"",
    ]
    let firstFinding = try #require(text.range(of: "\"findings\" : ["))
    let positions = findingKeys.compactMap {
      text.range(of: $0, range: firstFinding.upperBound..<text.endIndex)?.lowerBound
    }
    #expect(positions.count == findingKeys.count && positions == positions.sorted())
    #expect(text.contains("\"Tabs/:[1]:/Page\""))
  }

  @Test func theCommandsHelpDocumentsTheExitStatus() {
    let help = Lint.helpMessage()
    #expect(
      help.contains(
        "USAGE: lint <paths> ... [--format <format>] [--json] [--config <file>] [--min-severity <severity>] [--warnings-as-errors]"
      ))
    for line in [
      "0   no errors", "1   at least one error", "2   a file is missing", "64  the command line",
    ] {
      #expect(help.contains(line))
    }
  }

  @Test func theCommandNeedsAFile() {
    #expect(throws: (any Error).self) { try Lint.parse([]) }
    #expect(throws: Never.self) { try Lint.parse(["Main.storyboard", "--json"]) }
  }
}

/// `restoration-archive-tool lint` on good and bad files.
@Suite struct LintEndToEndTests {
  @Test func aGoodStoryboardExitsZeroAndPrintsItsPaths() throws {
    let file = Fixtures.local("SplitAndEmbed.storyboard")
    let result = try runTool(["lint", file])
    #expect(result.status == 0)
    #expect(result.standardError.isEmpty)
    #expect(result.standardOutput.contains("    Split/:[1]:/Detail/:[0]:/Map "))
    #expect(
      result.standardOutput.hasSuffix(
        "1 file checked (1 storyboard): 0 errors, 0 warnings\n"))
  }

  @Test func plantedMistakesExitOneWithOneLineEach() throws {
    let gap = Fixtures.local("Gap.storyboard")
    let cells = Fixtures.local("CellIdentifier.storyboard")
    let result = try runTool(["lint", gap, cells])
    #expect(result.status == 1)
    let lines = result.standardOutput.split(separator: "\n")
    #expect(lines.contains { $0.hasPrefix("\(gap):17: error: ") && $0.hasSuffix("[gap-in-chain]") })
    #expect(
      lines.contains {
        $0.hasPrefix("\(cells):11: error: ") && $0.hasSuffix("[identifier-on-cell]")
      })
    #expect(lines.last == "2 files checked (2 storyboards): 2 errors, 1 warning")
  }

  @Test func everyFindingLineSaysWhichObjectItIsAbout() throws {
    // Each message is a sentence with its subject: the object (by class, identifier, storyboard
    // identifier or object ID), or the file; never a bare "has ..." or "is ...".
    let fixtures = [
      "CellIdentifier.storyboard", "Container.storyboard", "ControllerInNib.xib",
      "DuplicateViews.storyboard", "Gap.storyboard", "Segues.storyboard", "Tabs.storyboard",
      "UnidentifiedRoot.storyboard", "UseStoryboardID.storyboard",
    ].map(Fixtures.local)
    let result = try runTool(["lint"] + fixtures)
    let findings = result.standardOutput.split(separator: "\n").filter {
      $0.contains(": error: ") || $0.contains(": warning: ") || $0.contains(": note: ")
    }
    #expect(findings.count == 12)
    // The Swift rules' fixtures, each folder a module of its own, and the project folder.
    let rules = LintFixtures.rules
    var swiftFindings: [Substring] = []
    for rule in try FileManager.default.contentsOfDirectory(atPath: rules.path).sorted() {
      let folder = rules.appendingPathComponent(rule)
      for variant in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
        let path = folder.appendingPathComponent(variant).path
        let output = try runTool(["lint", path]).standardOutput
        swiftFindings += output.split(separator: "\n").filter { $0.contains(".swift:") }
      }
    }
    swiftFindings += try runTool(["lint", LintFixtures.project])
      .standardOutput.split(separator: "\n").filter { $0.contains(".swift:") }
    #expect(swiftFindings.count >= 20)
    // A Swift finding starts with the type whose code it is about (or names the comment, the
    // parser or the top-level code), not with a verb.
    let subjects = [
      "class '", "struct '", "enum '", "actor '", "type '", "top-level code ",
      "the restoration factory of ", "the Swift parser ", "'restoration-lint:",
    ]
    for line in swiftFindings {
      let message = try #require(line.split(separator: ": ", maxSplits: 2).last)
      #expect(subjects.contains { message.hasPrefix($0) }, "\(line)")
    }
    for line in findings + swiftFindings {
      let message = try #require(line.split(separator: ": ", maxSplits: 2).last)
      let firstWord = message.prefix { $0 != " " }
      #expect(
        ![
          "has", "is", "restoration", "a", "sets", "shows", "overrides", "opts", "decodes",
          "builds", "force-casts", "this",
        ].contains(firstWord), "\(line)")
      // Nothing said twice, such as the identifier in the subject and again after it.
      let identifiers = message.split(separator: "'").enumerated().filter { $0.offset % 2 == 1 }
      #expect(
        Set(identifiers.map(\.element)).count == identifiers.count
          || line.contains("same restoration identifier as"), "\(line)")
    }
  }

  @Test func warningsFailOnlyWhenAsked() throws {
    let file = Fixtures.local("Segues.storyboard")
    #expect(try runTool(["lint", file]).status == 0)
    #expect(
      try runTool(["lint", "--warnings-as-errors", file]).status == 1
    )
  }

  @Test func aMissingOrMalformedFileIsOneClearLineAndStatusTwo() throws {
    // The tool's own errors start with its name, as those of its other subcommands do.
    let missing = try runTool(["lint", "/nope/Main.storyboard"])
    #expect(missing.status == 2)
    #expect(
      missing.standardError == "restoration-archive-tool: /nope/Main.storyboard: no such file\n")
    let dump = try runTool(["dump", "/nope/data.data"])
    #expect(dump.standardError.hasPrefix("restoration-archive-tool: /nope/data.data: "))

    let truncated = Fixtures.local("Truncated.storyboard")
    let malformed = try runTool(
      ["lint", truncated, Fixtures.local("Gap.storyboard")])
    #expect(malformed.status == 2)
    let errorLines = malformed.standardError.split(separator: "\n")
    #expect(errorLines.count == 1)
    #expect(
      errorLines.first?.hasPrefix("restoration-archive-tool: \(truncated):4: not well-formed XML")
        == true)
    #expect(malformed.standardOutput.contains("Gap.storyboard:17: error:"))
  }

  @Test func jsonGoesToStandardOutput() throws {
    let result = try runTool(
      ["lint", "--json", Fixtures.local("UseStoryboardID.storyboard")])
    #expect(result.status == 1)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect((object["summary"] as? [String: Any])?["errors"] as? Int == 1)
  }

  @Test func helpAndUsageErrors() throws {
    let help = try runTool(["lint", "--help"])
    #expect(help.status == 0)
    #expect(help.standardOutput.contains("2   a file is missing or cannot be read"))
    let usage = try runTool(["lint"])
    #expect(usage.status == 64)
    #expect(usage.standardError.contains("Missing expected argument '<paths> ...'"))
  }
}
