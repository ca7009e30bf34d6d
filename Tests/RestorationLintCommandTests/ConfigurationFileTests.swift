import Foundation
import LintTestSupport
import RestorationLint
import TestSupport
import Testing

/// A configuration file and inline comments, on whole runs.
@Suite struct ConfigurationFileTests {
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
    let fixture = LintFixtures.rule("force-cast-decoded-optional", "triggers")
    let result = try ProjectLinter.iOS(configurationFile: configuration.path).lint([fixture])
    #expect(result.findings.map(\.severity) == [.error])
    #expect(result.exitStatus() == .errorsFound)
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
                      <!-- restoration-lint:disable:next view-in-unidentified-controler -->
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
    let unknown = try ProjectLinter.iOS().lint([folder.path])
    let codes = unknown.findings.map { "\($0.line ?? 0) \($0.code.rawValue)" }
    #expect(codes.contains("6 unknown-rule-in-comment"))
    #expect(codes.contains("7 view-in-unidentified-controller"))

    let fixed = storyboard.replacingOccurrences(
      of: "view-in-unidentified-controler", with: "view-in-unidentified-controller")
    try fixed.write(
      to: folder.appendingPathComponent("Main.storyboard"), atomically: true, encoding: .utf8)
    let suppressed = try ProjectLinter.iOS().lint([folder.path]).findings.map(\.code)
    #expect(!suppressed.contains(.unknownRuleInComment))
    #expect(!suppressed.contains(.viewInUnidentifiedController))
  }
}
