import Foundation
import LintTestSupport
import RestorationLint
import TestSupport
import Testing

/// One Swift rule, its fixture folders, and where the finding must be.
struct RuleCase: Sendable, CustomTestStringConvertible {
  var code: LintFinding.Code
  var file: String
  var line: Int
  var severity: LintFinding.Severity

  var testDescription: String { code.rawValue }

  static let all: [RuleCase] = [
    .init(
      code: .forceCastDecodedValue, file: "TickedViewController.swift", line: 15, severity: .error),
    .init(
      code: .forceCastDecodedOptional, file: "TickedViewController.swift", line: 15,
      severity: .warning),
    .init(
      code: .restorationClassWithoutFactory, file: "NoteEditorViewController.swift", line: 9,
      severity: .error),
    .init(
      code: .controllerNotRecreatable, file: "NotesViewController.swift", line: 9,
      severity: .warning),
    .init(
      code: .factoryWithoutRestorationIdentity, file: "MapViewController.swift", line: 6,
      severity: .warning),
    .init(
      code: .restorationIdentitySetLate, file: "SettingsViewController.swift", line: 8,
      severity: .warning),
    .init(
      code: .dataSourceWithoutModelAssociation, file: "CitiesViewController.swift", line: 5,
      severity: .warning),
    .init(
      code: .rootBuiltInDidFinishLaunching, file: "AppDelegate.swift", line: 12, severity: .error),
    .init(
      code: .deprecatedRestorationOptIn, file: "AppDelegate.swift", line: 10, severity: .warning),
    .init(
      code: .restorableStateWithoutSuper, file: "SearchViewController.swift", line: 8,
      severity: .warning),
    .init(
      code: .decodedKeyNeverEncoded, file: "PickerViewController.swift", line: 19,
      severity: .warning),
    .init(code: .swiftSyntaxError, file: "Broken.swift", line: 5, severity: .note),
    .init(
      code: .unknownRuleInComment, file: "LegacyViewController.swift", line: 10, severity: .error),
  ]
}

/// A further fixture folder of a rule (`triggers-...` or `passes-...`), for the ways a rule
/// follows the code: the initializer called, the object assigned, the ways a controller is shown.
struct RuleVariant: Sendable, CustomTestStringConvertible {
  var code: LintFinding.Code
  var folder: String
  var file: String
  /// The finding's line; nil for a folder that must give none.
  var line: Int?

  var testDescription: String { "\(code.rawValue)/\(folder)" }

  static let all: [RuleVariant] = [
    .init(
      code: .factoryWithoutRestorationIdentity, folder: "triggers-another-initializer",
      file: "MapViewController.swift", line: 13),
    .init(
      code: .factoryWithoutRestorationIdentity, folder: "triggers-identifier-cleared",
      file: "MapViewController.swift", line: 6),
    .init(
      code: .factoryWithoutRestorationIdentity, folder: "passes-given-to-a-function",
      file: "MapViewController.swift", line: nil),
    .init(
      code: .factoryWithoutRestorationIdentity, folder: "triggers-created-by-a-helper",
      file: "MapViewController.swift", line: 6),
    .init(
      code: .factoryWithoutRestorationIdentity, folder: "passes-created-by-a-helper",
      file: "MapViewController.swift", line: nil),
    .init(
      code: .controllerNotRecreatable, folder: "triggers-in-a-navigation-controller",
      file: "NotesViewController.swift", line: 10),
    .init(
      code: .controllerNotRecreatable, folder: "triggers-in-view-controllers",
      file: "NotesViewController.swift", line: 9),
    .init(
      code: .controllerNotRecreatable, folder: "triggers-as-a-child",
      file: "NotesViewController.swift", line: 9),
    .init(
      code: .controllerNotRecreatable, folder: "triggers-class-set-on-another-controller",
      file: "NotesViewController.swift", line: 10),
    .init(
      code: .controllerNotRecreatable, folder: "passes-in-a-navigation-controller",
      file: "NotesViewController.swift", line: nil),

    // Code that no iOS build compiles is not read; a branch a build may compile is.
    .init(
      code: .forceCastDecodedValue, folder: "passes-in-branches-ios-does-not-compile",
      file: "TimelineViewController.swift", line: nil),
    .init(
      code: .forceCastDecodedValue, folder: "triggers-in-a-debug-branch",
      file: "TimelineViewController.swift", line: 19),
    // UIKit's init() reaches the class's own init(nibName:bundle:).
    .init(
      code: .factoryWithoutRestorationIdentity,
      folder: "passes-self-init-reaches-the-nib-initializer",
      file: "ComposeViewController.swift", line: nil),
    .init(
      code: .factoryWithoutRestorationIdentity,
      folder: "passes-convenience-init-reaches-the-nib-initializer",
      file: "ComposeViewController.swift", line: nil),
    .init(
      code: .factoryWithoutRestorationIdentity,
      folder: "triggers-self-init-reaches-an-initializer-without-identity",
      file: "ComposeViewController.swift", line: 24),
    // What is set after if / else if / else counts for each branch.
    .init(
      code: .factoryWithoutRestorationIdentity, folder: "passes-assigned-in-branches",
      file: "ReaderViewController.swift", line: nil),
    .init(
      code: .factoryWithoutRestorationIdentity, folder: "triggers-assigned-in-branches",
      file: "ReaderViewController.swift", line: 17),
    // Code for another API with UIKit's names is not UIKit code.
    .init(
      code: .factoryWithoutRestorationIdentity, folder: "passes-this-packages-view-controller",
      file: "NoteDetailViewController.swift", line: nil),
    .init(
      code: .deprecatedRestorationOptIn, folder: "passes-this-packages-application-delegate",
      file: "NotesAppDelegate.swift", line: nil),
    // Only a coder's keys, spelled out, are checked.
    .init(
      code: .decodedKeyNeverEncoded, folder: "passes-codable-container-helper",
      file: "KeyedDecodingContainer+Lenient.swift", line: nil),
    .init(
      code: .decodedKeyNeverEncoded, folder: "passes-key-in-a-variable",
      file: "RestorationArchive+Reading.swift", line: nil),
    // A table or collection view made restorable in code.
    .init(
      code: .dataSourceWithoutModelAssociation, folder: "triggers-table-made-in-code",
      file: "InboxViewController.swift", line: 5),
    .init(
      code: .dataSourceWithoutModelAssociation,
      folder: "triggers-collection-view-in-a-lazy-property", file: "AlbumViewController.swift",
      line: 6),
    .init(
      code: .dataSourceWithoutModelAssociation, folder: "passes-table-made-in-code",
      file: "InboxViewController.swift", line: nil),
    .init(
      code: .dataSourceWithoutModelAssociation, folder: "passes-separate-data-source",
      file: "AlbumViewController.swift", line: nil),
    // A value a helper of the module decoded from the coder it was given.
    .init(
      code: .forceCastDecodedValue, folder: "triggers-through-a-helper",
      file: "ItemViewController.swift", line: 15),
    .init(
      code: .forceCastDecodedValue, folder: "passes-through-a-helper",
      file: "ItemViewController.swift", line: nil),
    .init(
      code: .forceCastDecodedValue, folder: "passes-helper-not-decoding",
      file: "Formatter.swift", line: nil),
    // A system class's controller, and an app delegate hook that does not re-create it.
    .init(
      code: .controllerNotRecreatable, folder: "triggers-system-class-hook-looks-up",
      file: "ArticleViewController.swift", line: 10),
    .init(
      code: .controllerNotRecreatable, folder: "passes-system-class-hook-creates-it",
      file: "ArticleViewController.swift", line: nil),
    .init(
      code: .controllerNotRecreatable, folder: "passes-system-class-without-identifier",
      file: "ArticleViewController.swift", line: nil),
    .init(
      code: .controllerNotRecreatable, folder: "triggers-hook-handles-other-identifiers",
      file: "HomeViewController.swift", line: 15),
    .init(
      code: .controllerNotRecreatable, folder: "triggers-hook-returns-nil-for-it",
      file: "HomeViewController.swift", line: 15),
    .init(
      code: .controllerNotRecreatable, folder: "passes-hook-handles-it",
      file: "HomeViewController.swift", line: nil),
    .init(
      code: .controllerNotRecreatable, folder: "passes-hook-instantiates-by-identifier",
      file: "HomeViewController.swift", line: nil),
  ]
}

/// Every Swift rule on a fixture that triggers it and on a near-identical one that must not.
@Suite struct RuleFixtureTests {
  @Test(arguments: RuleCase.all)
  func theTriggeringFixtureGivesOneFinding(_ rule: RuleCase) throws {
    var folder = LintFixtures.rule(rule.code.rawValue, "triggers")
    let temporary = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: temporary) }
    if rule.code == .swiftSyntaxError {
      // A file that does not parse cannot be committed (the format check parses every Swift
      // file): the passing fixture, broken here.
      let passing = LintFixtures.rule(rule.code.rawValue, "passes") + "/" + rule.file
      let text = try String(contentsOfFile: passing, encoding: .utf8)
      let broken = text.replacingOccurrences(of: "viewDidLoad()", with: "viewDidLoad(")
      #expect(broken != text)
      try broken.write(
        to: temporary.appendingPathComponent(rule.file), atomically: true, encoding: .utf8)
      folder = temporary.path
    }
    let result = try ProjectLinter.iOS().lint([folder])
    #expect(result.unreadable.isEmpty)
    let found = result.findings.filter { $0.code == rule.code }
    #expect(found.count == 1, "\(result.text)")
    #expect(found.first?.file == "\(folder)/\(rule.file)")
    #expect(found.first?.line == rule.line)
    #expect(found.first?.severity == rule.severity)
    #expect(rule.code.defaultSeverity == rule.severity)
  }

  @Test(arguments: RuleCase.all)
  func theNearIdenticalFixtureGivesNone(_ rule: RuleCase) throws {
    let result = try ProjectLinter.iOS().lint([LintFixtures.rule(rule.code.rawValue, "passes")])
    #expect(result.unreadable.isEmpty)
    #expect(result.files.count >= 1)
    #expect(!result.findings.contains { $0.code == rule.code }, "\(result.text)")
  }

  @Test(arguments: RuleVariant.all)
  func furtherFixturesGiveTheirFindingOrNone(_ variant: RuleVariant) throws {
    let folder = LintFixtures.rule(variant.code.rawValue, variant.folder)
    let result = try ProjectLinter.iOS().lint([folder])
    #expect(result.unreadable.isEmpty)
    #expect(result.files.count >= 1)
    let found = result.findings.filter { $0.code == variant.code }
    let expected = variant.line.map { [$0] } ?? []
    #expect(found.map { $0.line ?? 0 } == expected, "\(result.text)")
    #expect(found.allSatisfy { $0.file == "\(folder)/\(variant.file)" })
    // A passing fixture is an app's code without mistakes: no rule reports anything in it.
    if variant.line == nil {
      #expect(result.findings.isEmpty, "\(result.text)")
      #expect(FileManager.default.fileExists(atPath: "\(folder)/\(variant.file)"))
    }
  }

  @Test func everySwiftRuleHasItsFixtures() {
    let covered = Set(RuleCase.all.map(\.code))
    let swiftRules = LintFinding.Code.allCases.filter { $0.source != .interfaceBuilder }
    #expect(Set(swiftRules) == covered)
  }
}
