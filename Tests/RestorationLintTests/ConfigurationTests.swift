import Foundation
import RestorationLint
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
    ("disabled_rules: [no-such-rule]", LintError.Code.unknownRule, 1),
    ("severities:\n  gap-in-chain: fatal", .invalidConfiguration, 2),
    ("severities:\n  no-such-rule: error", .unknownRule, 2),
    ("excluded: Vendor\nrules: []", .invalidConfiguration, 2),
    ("disabled_rules: [a, b", .invalidConfiguration, 2),
    ("- just\n- a list", .invalidConfiguration, 1),
  ])
  func mistakesAreErrorsWithTheLine(_ yaml: String, _ code: LintError.Code, _ line: Int) {
    #expect {
      try LintConfiguration(yaml: yaml, file: "conf.yml")
    } throws: { error in
      guard let error = error as? LintError else { return false }
      return error.code == code && error.line == line && error.file == "conf.yml"
    }
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

}
