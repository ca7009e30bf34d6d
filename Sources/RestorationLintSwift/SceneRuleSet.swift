public import RestorationLint
internal import StoryboardImport

/// The rules on the restoration apps with scenes use: `NSUserActivity`, the scene delegate's
/// `stateRestorationActivity(for:)`, the scene manifest, and SwiftUI's `@SceneStorage` and
/// `NavigationPath`.
///
/// It reads no file itself: it takes the Swift facts the ``SwiftRuleSet`` kept, the `Info.plist`
/// files and Xcode projects their rule sets kept, and the targets they make
/// (`LintProject.targets()`), so list it after those. A rule that needs a value built at run
/// time (an activity type made from the bundle identifier) records the check as not decided.
public struct SceneRuleSet: LintRuleSet {
  /// Creates the rule set.
  public init() {}

  /// Whether the set reads files of a kind: none; it works on what the other sets kept.
  ///
  /// - Parameter kind: The kind.
  /// - Returns: False.
  public func reads(_ kind: LintedFileKind) -> Bool { false }

  /// Never called, since the set reads no kind of file.
  ///
  /// - Parameter file: The file.
  /// - Returns: The file, as one this set cannot read.
  public func read(_ file: LintSourceFile) -> LintFileReading {
    .unreadable(
      UnreadableFile(file: file.display, code: "notRead", message: "is not read by the scene rules")
    )
  }

  /// Runs the rules on scenes, activities and SwiftUI over the project's targets.
  ///
  /// - Parameter project: The project.
  public func checkProject(_ project: inout LintProject) {
    let files = project.facts(SwiftFileFacts.self)
    guard !files.isEmpty else { return }
    let targets = project.targets()
    var rules = SceneRules(
      files: files, documents: project.facts(InterfaceDocument.self), targets: targets,
      hasObjectiveC: project.unchecked.contains { $0.reason == .objectiveC })
    rules.run()
    project.add(rules.findings)
    project.addUndecided(rules.undecided)
  }
}
