import Foundation
import ProjectLint
import StoryboardLint
import TestSupport
import Testing

/// `.restoration-lint.yml` and the inline `restoration-lint:disable:next` comments.
@Suite struct ConfigurationTests {
  @Test func disabledRulesSeveritiesAndExclusionsAreRead() throws {
    let configuration = try LintConfiguration(
      yaml: """
        disabled_rules: [launch-screen, unreachable-scene]
        severities:
          decoded-key-never-encoded: error
        excluded:
          - Vendor/
          - "**/Generated/*.swift"
        """, file: "test.yml")
    #expect(configuration.disabledRules == [.launchScreen, .unreachableScene])
    #expect(configuration.severities == [.decodedKeyNeverEncoded: .error])
    #expect(configuration.excludes("Vendor"))
    #expect(configuration.excludes("Vendor/Sub/File.swift"))
    #expect(!configuration.excludes("VendorKit/File.swift"))
    #expect(configuration.excludes("App/Generated/Strings.swift"))
    #expect(configuration.excludes("Generated/Strings.swift"))
    #expect(!configuration.excludes("App/Generated/Sub/Strings.swift"))
    #expect(!configuration.excludes("App/Strings.swift"))
    let findings = configuration.apply(to: [
      LintFinding(.note, .launchScreen, "x", file: "a"),
      LintFinding(.warning, .decodedKeyNeverEncoded, "y", file: "b"),
    ])
    #expect(findings.map(\.code) == [.decodedKeyNeverEncoded])
    #expect(findings.first?.severity == .error)
  }

  @Test(arguments: [
    ("disabled_rules: [no-such-rule]", ProjectLintError.Code.unknownRule, 1),
    ("severities:\n  gap-in-chain: fatal", .invalidConfiguration, 2),
    ("severities:\n  no-such-rule: error", .unknownRule, 2),
    ("excluded: Vendor\nrules: []", .invalidConfiguration, 2),
    ("disabled_rules: [a, b", .invalidConfiguration, 2),
    ("- just\n- a list", .invalidConfiguration, 1),
  ])
  func mistakesAreErrorsWithTheLine(_ yaml: String, _ code: ProjectLintError.Code, _ line: Int) {
    #expect {
      try LintConfiguration(yaml: yaml, file: "conf.yml")
    } throws: { error in
      guard let error = error as? ProjectLintError else { return false }
      return error.code == code && error.line == line && error.file == "conf.yml"
    }
  }

  @Test func aWrongConfigurationStopsTheRunWithStatusTwo() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try "disabled_rules:\n  - gap-in-chains\n".write(
      to: folder.appendingPathComponent(".restoration-lint.yml"), atomically: true,
      encoding: .utf8)
    let result = try runTool(["lint", folder.path])
    #expect(result.status == 2)
    #expect(
      result.standardError
        == "restoration-archive-tool: \(folder.path)/.restoration-lint.yml:2: 'gap-in-chains' is not a rule of the lint (the rules are listed in docs/Lint.md)\n"
    )
    #expect(result.standardOutput.isEmpty)
  }

  @Test func anExplicitConfigurationReplacesTheFoldersOwn() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let configuration = folder.appendingPathComponent("strict.yml")
    try "severities:\n  force-cast-decoded-optional: error\n".write(
      to: configuration, atomically: true, encoding: .utf8)
    let fixture = ProjectFixtures.rule("force-cast-decoded-optional", "triggers")
    let result = try ProjectLinter(configurationFile: configuration.path).lint([fixture])
    #expect(result.findings.map(\.severity) == [.error])
    #expect(result.exitStatus() == .errorsFound)
  }

  static let comments: [(String, Set<LintFinding.Code>?)] = [
    ("// restoration-lint:disable:next gap-in-chain", [.gapInChain]),
    (
      "// restoration-lint:disable:next gap-in-chain, duplicate-path -- why",
      [.gapInChain, .duplicatePath]
    ),
    ("<!-- restoration-lint:disable:next launch-screen - reason -->", [.launchScreen]),
    ("// an ordinary comment", nil),
    ("// write `restoration-lint:disable:next RULE` above the line", nil),
  ]

  @Test(arguments: comments)
  func commentsNameTheRulesTheyDisable(_ text: String, _ expected: Set<LintFinding.Code>?) {
    if let expected {
      #expect(SuppressionComment.parse(text) == .disableNext(expected))
    } else {
      #expect(SuppressionComment.parse(text) == nil)
    }
  }

  @Test(arguments: [
    "// restoration-lint:disable:next", "// restoration-lint:disable gap-in-chain",
    "// restoration-lint:disable:next gap-in-chian",
  ])
  func badCommentsAreInvalid(_ text: String) {
    guard case .invalid? = SuppressionComment.parse(text) else {
      Issue.record("\(text) was accepted")
      return
    }
  }

  @Test func anUnknownRuleInAStoryboardCommentIsAnError() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let storyboard = """
      <?xml version="1.0" encoding="UTF-8"?>
      <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" initialViewController="a">
          <scenes>
              <scene sceneID="s">
                  <objects>
                      <!-- restoration-lint:disable:next root-without-identifer -->
                      <viewController id="a" sceneMemberID="viewController">
                          <view key="view" restorationIdentifier="Body" id="v"/>
                      </viewController>
                  </objects>
              </scene>
          </scenes>
      </document>
      """
    try storyboard.write(
      to: folder.appendingPathComponent("Main.storyboard"), atomically: true, encoding: .utf8)
    let unknown = try ProjectLinter().lint([folder.path])
    let codes = unknown.findings.map { "\($0.line ?? 0) \($0.code.rawValue)" }
    #expect(codes.contains("6 unknown-rule-in-comment"))
    #expect(codes.contains("7 root-without-identifier"))

    let fixed = storyboard.replacingOccurrences(
      of: "root-without-identifer", with: "root-without-identifier")
    try fixed.write(
      to: folder.appendingPathComponent("Main.storyboard"), atomically: true, encoding: .utf8)
    let suppressed = try ProjectLinter().lint([folder.path]).findings.map(\.code)
    #expect(!suppressed.contains(.unknownRuleInComment))
    #expect(!suppressed.contains(.rootWithoutIdentifier))
  }
}
