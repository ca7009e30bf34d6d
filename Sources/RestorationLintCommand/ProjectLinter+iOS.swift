public import RestorationLint
internal import RestorationLintInterfaceBuilder
internal import RestorationLintSwift

extension ProjectLinter {
  /// The rule sets `restoration-archive-tool lint` runs on an iOS project, in order: storyboards
  /// and XIBs, then Swift sources (which read the storyboards' scenes), then `Info.plist` files.
  public static var iOSRuleSets: [any LintRuleSet] {
    [InterfaceBuilderRuleSet(), SwiftRuleSet(), InfoPlistRuleSet()]
  }
}
