import Foundation
import LintTestSupport
import RestorationLint
import Testing

/// A further fixture folder of a rule on scenes, activities or SwiftUI: a project with its
/// Xcode project or `Info.plist`, and every finding it must give, file by file.
struct SceneRuleVariant: Sendable, CustomTestStringConvertible {
  var code: LintFinding.Code
  var folder: String
  /// `file:line` of each finding, relative to the folder; empty for a folder that must give
  /// none of any rule.
  var findings: [String]
  var severity: LintFinding.Severity?

  var testDescription: String { "\(code.rawValue)/\(folder)" }

  static let all: [SceneRuleVariant] = [
    // A type several files use, misspelled once in an enum case's raw value.
    .init(
      code: .activityTypeMisspelled, folder: "triggers-as-an-enum-case",
      findings: ["Notebook/NoteViewController.swift:20", "Notebook/NotesViewController.swift:9"],
      severity: .error),
    // Build settings expanded from the project, or matched around when unknown.
    .init(
      code: .activityTypeNotDeclared, folder: "passes-build-setting-from-a-configuration-file",
      findings: []),
    .init(code: .activityTypeNotDeclared, folder: "passes-built-at-run-time", findings: []),
    .init(
      code: .activityTypeNotDeclared, folder: "passes-constants-in-an-extension-and-an-enum",
      findings: []),
    .init(code: .activityTypeNotDeclared, folder: "passes-folder-without-project", findings: []),
    .init(
      code: .activityTypeNotDeclared, folder: "passes-other-platforms-type-in-if", findings: []),
    .init(
      code: .activityTypeNotDeclared, folder: "passes-swiftui-partial-info-plist", findings: []),
    .init(code: .activityTypeNotDeclared, folder: "passes-system-types", findings: []),
    .init(
      code: .activityTypeNotDeclared, folder: "triggers-folder-without-project",
      findings: ["Notebook/NoteViewController.swift:20"], severity: .warning),
    .init(
      code: .activityTypeNotDeclared, folder: "triggers-swiftui-generated-info-plist",
      findings: ["Sketches/ContentView.swift:19", "Sketches/SketchView.swift:15"],
      severity: .warning),
    .init(code: .activityTypesReadUnsafely, folder: "passes-read-with-a-fallback", findings: []),
    .init(
      code: .activityTypesReadUnsafely, folder: "triggers-as-apples-sample-reads-it",
      findings: ["Notebook/SceneDelegate.swift:8"], severity: .error),
    .init(
      code: .activityTypesReadUnsafely, folder: "triggers-fatal-error-when-missing",
      findings: ["Shared/ActivityType.swift:10"], severity: .error),
    .init(
      code: .restorationActivityMadeCurrent, folder: "triggers-in-a-helper",
      findings: ["Notebook/SceneDelegate.swift:39"], severity: .warning),
    .init(
      code: .restorationActivityNeverRead, folder: "passes-restore-interaction-state",
      findings: []),
    .init(code: .restoredActivityTrusted, folder: "passes-another-type-ignored", findings: []),
    .init(code: .restoredActivityTrusted, folder: "passes-index-checked", findings: []),
    .init(code: .restoredActivityTrusted, folder: "passes-on-continue-user-activity", findings: []),
    .init(
      code: .restoredActivityTrusted, folder: "passes-user-info-given-to-a-helper", findings: []),
    .init(
      code: .restoredActivityTrusted, folder: "triggers-fatal-error-for-another-type",
      findings: ["Notebook/SceneDelegate.swift:30"], severity: .error),
    .init(
      code: .restoredActivityTrusted, folder: "triggers-index-unchecked",
      findings: ["Notebook/NotesViewController.swift:11"], severity: .warning),
    .init(
      code: .restoredActivityTrusted, folder: "triggers-on-continue-user-activity",
      findings: ["Sketches/ContentView.swift:20"], severity: .error),
    .init(
      code: .restoredActivityTrusted, folder: "triggers-user-info-forced",
      findings: ["Notebook/NotesViewController.swift:10"], severity: .error),
    .init(
      code: .restoredActivityTrusted, folder: "triggers-user-info-given-to-a-helper",
      findings: ["Notebook/SceneDelegate.swift:30"], severity: .warning),
    // Into an initializer the activity is given to.
    .init(
      code: .restoredActivityTrusted, folder: "triggers-read-in-an-initializer",
      findings: ["Notebook/NoteViewController.swift:16"], severity: .error),
    .init(code: .restoredActivityTrusted, folder: "passes-read-in-an-initializer", findings: []),
    // scene(_:restoreInteractionStateWith:), in an extension, switching on the type.
    .init(
      code: .restoredActivityTrusted, folder: "triggers-restore-interaction-state-in-an-extension",
      findings: ["Notebook/SceneDelegate.swift:44"], severity: .error),
    .init(
      code: .restoredActivityTrusted, folder: "passes-restore-interaction-state-in-an-extension",
      findings: []),
    .init(
      code: .sceneConfigurationUnresolved, folder: "passes-delegate-class-set-in-code",
      findings: []),
    .init(
      code: .sceneConfigurationUnresolved, folder: "passes-objc-named-delegate-class",
      findings: []),
    .init(
      code: .sceneConfigurationUnresolved, folder: "passes-role-checked-first", findings: []),
    .init(
      code: .sceneConfigurationUnresolved, folder: "triggers-delegate-class-of-another-module",
      findings: ["Notebook/Info.plist:39"], severity: .error),
    .init(
      code: .sceneConfigurationUnresolved, folder: "triggers-delegate-class-without-module",
      findings: ["Notebook/Info.plist:39"], severity: .error),
    .init(
      code: .sceneConfigurationUnresolved,
      folder: "triggers-delegate-not-a-window-scene-delegate",
      findings: ["Notebook/Info.plist:39"], severity: .error),
    .init(
      code: .sceneConfigurationUnresolved, folder: "triggers-hard-coded-role",
      findings: ["Notebook/AppDelegate.swift:18"], severity: .error),
    .init(
      code: .viewControllerRestorationInSceneApp, folder: "passes-without-scene-manifest",
      findings: []),
    .init(
      code: .viewControllerRestorationInSceneApp, folder: "triggers-opt-in",
      findings: ["Notebook/AppDelegate.swift:13"], severity: .note),
  ]
}

/// The rules on scenes, activities and SwiftUI read a project as its targets: these fixtures are
/// projects (an app and a share extension in one `project.pbxproj`, only the app declaring
/// `NSUserActivityTypes`; a SwiftUI app with a generated `Info.plist`; a folder without project).
@Suite struct SceneRuleFixtureTests {
  private func lint(_ folder: String) throws -> LintResult {
    let result = try ProjectLinter.iOS().lint([folder])
    #expect(result.unreadable.isEmpty, "\(result.unreadable)")
    return result
  }

  @Test(arguments: SceneRuleVariant.all)
  func furtherFixturesGiveTheirFindingsOrNone(_ variant: SceneRuleVariant) throws {
    let folder = LintFixtures.rule(variant.code.rawValue, variant.folder)
    let result = try lint(folder)
    #expect(result.files.contains { $0.kind == .swift })
    let found = result.findings.filter { $0.code == variant.code }
    #expect(
      found.map { "\($0.file.dropFirst(folder.count + 1)):\($0.line ?? 0)" }.sorted()
        == variant.findings.sorted(), "\(result.text)")
    if let severity = variant.severity {
      #expect(found.allSatisfy { $0.severity == severity })
    }
    // A passing fixture is an app's code without mistakes: no rule reports anything in it.
    if variant.findings.isEmpty {
      #expect(result.findings.isEmpty, "\(result.text)")
    }
  }

  @Test func theTwoTargetsOfTheProjectAreReadWithTheirOwnInfoPlist() throws {
    // The shared file is compiled by the share extension too, whose Info.plist has no key.
    let folder = LintFixtures.rule("activity-types-read-unsafely", "triggers")
    let found = try #require(try lint(folder).findings.first)
    #expect(found.message.contains("(here: target 'NotebookShare', whose Info.plist has no "))
    #expect(!found.message.contains("target 'Notebook',"))
    #expect(found.object == "ActivityType")
  }

  @Test func aTypeBuiltAtRunTimeIsListedAsNotDecided() throws {
    let folder = LintFixtures.rule("activity-type-not-declared", "passes-built-at-run-time")
    let result = try lint(folder)
    #expect(result.findings.isEmpty)
    #expect(
      result.undecided.map { "\($0.file.dropFirst(folder.count + 1)):\($0.line ?? 0)" }.sorted()
        == ["Notebook/NoteViewController.swift:20", "Notebook/NotesViewController.swift:9"])
    #expect(result.undecided.allSatisfy { $0.code == .activityTypeNotDeclared })
    #expect(result.undecided.allSatisfy { $0.message.contains("is built at run time") })
    #expect(result.text.contains("2 checks not decided (a value built at run time)"))
  }

  @Test func theMisspellingNamesTheDeclaredTypeAndTheBuildSettingIsExpanded() throws {
    // The Info.plist lists $(PRODUCT_BUNDLE_IDENTIFIER).editing; the project sets the setting.
    let folder = LintFixtures.rule("activity-type-misspelled", "triggers")
    let found = try #require(try lint(folder).findings.first)
    #expect(found.message.contains("\"com.example.notebook.editting\""))
    #expect(found.message.contains("it lists \"com.example.notebook.editing\", one character away"))
  }

  @Test func theUndeclaredTypeSaysThatFieldReportsDisagree() throws {
    let folder = LintFixtures.rule("activity-type-not-declared", "triggers")
    let found = try #require(try lint(folder).findings.first)
    #expect(found.message.contains("field reports disagree on whether same-device"))
  }
}
