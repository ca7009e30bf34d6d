extension LintFinding.Code {
  /// What a rule reads: Interface Builder files, Swift sources, or the lint's own comments.
  public enum Source: String, Sendable, Hashable, Codable, CaseIterable {
    /// Storyboards and XIBs.
    case interfaceBuilder
    /// Swift sources, with storyboards and XIBs for the rules that cross them.
    case swift
    /// The lint's own inline comments, in either kind of file.
    case comment
  }

  /// What the rule reads.
  public var source: Source {
    switch self {
    case .gapInChain, .viewInUnidentifiedController, .identifierOnCell,
      .containerWithoutIdentifier, .tabWithoutIdentifier, .rootWithoutIdentifier,
      .controllerWithoutIdentifier, .useStoryboardIdentifierUnchecked,
      .duplicateSiblingIdentifier, .duplicatePath, .duplicateStoryboardIdentifier,
      .segueDestinationWithoutStoryboardIdentifier, .segueDestinationWithoutIdentifier,
      .nibControllerNeedsRestorationClass, .nibOwnerNeedsIdentifier, .launchScreen,
      .noRestorationIdentifiers, .noInitialViewController, .unreachableScene,
      .storyboardReference, .fileIssue:
      .interfaceBuilder
    case .forceCastDecodedValue, .forceCastDecodedOptional, .restorationClassWithoutFactory,
      .controllerNotRecreatable, .factoryWithoutRestorationIdentity, .restorationIdentitySetLate,
      .dataSourceWithoutModelAssociation, .rootBuiltInDidFinishLaunching,
      .deprecatedRestorationOptIn, .restorableStateWithoutSuper, .decodedKeyNeverEncoded,
      .swiftSyntaxError:
      .swift
    case .unknownRuleInComment: .comment
    }
  }

  /// The severity the rule's findings have unless a configuration changes it (a few
  /// Interface Builder rules lower or raise it for particular cases, as their messages say).
  public var defaultSeverity: LintFinding.Severity {
    switch self {
    case .gapInChain, .viewInUnidentifiedController, .identifierOnCell, .duplicateSiblingIdentifier,
      .duplicatePath, .duplicateStoryboardIdentifier, .forceCastDecodedValue,
      .restorationClassWithoutFactory, .rootBuiltInDidFinishLaunching, .unknownRuleInComment:
      .error
    case .containerWithoutIdentifier, .tabWithoutIdentifier, .rootWithoutIdentifier,
      .useStoryboardIdentifierUnchecked, .segueDestinationWithoutStoryboardIdentifier,
      .segueDestinationWithoutIdentifier, .nibControllerNeedsRestorationClass, .fileIssue,
      .forceCastDecodedOptional, .controllerNotRecreatable, .factoryWithoutRestorationIdentity,
      .restorationIdentitySetLate, .dataSourceWithoutModelAssociation,
      .deprecatedRestorationOptIn, .restorableStateWithoutSuper, .decodedKeyNeverEncoded:
      .warning
    case .controllerWithoutIdentifier, .nibOwnerNeedsIdentifier, .launchScreen,
      .noRestorationIdentifiers, .noInitialViewController, .unreachableScene,
      .storyboardReference, .swiftSyntaxError:
      .note
    }
  }

  /// What the rule catches, in one sentence.
  public var summary: String {
    switch self {
    case .gapInChain:
      "A controller with a restoration identifier under a container or presenter without one."
    case .viewInUnidentifiedController:
      "A view with a restoration identifier in a controller without one."
    case .identifierOnCell:
      "A restoration identifier on a table or collection view cell, or a view inside one."
    case .containerWithoutIdentifier:
      "A tab bar, navigation or split controller, or a parent of embedded children, without identifier."
    case .tabWithoutIdentifier: "A tab of a tab bar controller without identifier."
    case .rootWithoutIdentifier: "The root view controller without identifier."
    case .controllerWithoutIdentifier: "Another controller in the chain without identifier."
    case .useStoryboardIdentifierUnchecked:
      "A Storyboard ID with \"Use Storyboard ID\" unchecked and no restoration identifier."
    case .duplicateSiblingIdentifier: "Two tabs with the same restoration identifier."
    case .duplicatePath: "Two views of one controller with the same restoration identifier."
    case .duplicateStoryboardIdentifier: "Two controllers with the same Storyboard ID."
    case .segueDestinationWithoutStoryboardIdentifier:
      "A segue's destination with a restoration identifier but no Storyboard ID."
    case .segueDestinationWithoutIdentifier:
      "A segue's destination without identifier, shown from a preserved controller."
    case .nibControllerNeedsRestorationClass:
      "A controller in a XIB with an identifier, whose class sets no restoration class and no app-delegate hook exists."
    case .nibOwnerNeedsIdentifier:
      "Views with identifiers in a XIB whose File's Owner gets no identifier in code."
    case .launchScreen: "A launch screen."
    case .noRestorationIdentifiers: "No restoration identifier anywhere in the file."
    case .noInitialViewController: "A storyboard without initial view controller."
    case .unreachableScene: "A scene with an identifier that no segue or relationship reaches."
    case .storyboardReference: "A segue or relationship to another storyboard."
    case .fileIssue: "A problem in the file itself, such as a segue to a missing object."
    case .forceCastDecodedValue:
      "A decoded value force-cast to a non-optional type: `coder.decodeObject(forKey:) as! T`."
    case .forceCastDecodedOptional:
      "A decoded value force-cast to an optional type: `as! T?`."
    case .restorationClassWithoutFactory:
      "`restorationClass` set to a class that declares no `viewController(withRestorationIdentifierPath:coder:)`."
    case .controllerNotRecreatable:
      "A controller created in code with a restoration identifier and pushed or presented, without restoration class or app-delegate hook."
    case .factoryWithoutRestorationIdentity:
      "A restoration factory that creates the controller without setting its restoration identifier or class again."
    case .restorationIdentitySetLate:
      "A restoration identifier or class set only in `viewDidLoad`, `viewWillAppear` or `viewDidAppear`."
    case .dataSourceWithoutModelAssociation:
      "A restorable table or collection view whose data source does not adopt `UIDataSourceModelAssociation`."
    case .rootBuiltInDidFinishLaunching:
      "The window or its root view controller built in `didFinishLaunching` in an app that restores."
    case .deprecatedRestorationOptIn:
      "`shouldSaveApplicationState`/`shouldRestoreApplicationState` without the secure pair."
    case .restorableStateWithoutSuper:
      "An `encodeRestorableState(with:)` or `decodeRestorableState(with:)` override that never calls `super`."
    case .decodedKeyNeverEncoded: "A coder key decoded that nothing in the module encodes."
    case .swiftSyntaxError: "A Swift file with syntax errors."
    case .unknownRuleInComment:
      "A `restoration-lint:disable:next` comment naming a rule that does not exist."
    }
  }

  /// Why it matters on a device, in one sentence.
  public var consequence: String {
    switch self {
    case .gapInChain:
      "The controller and everything below it are never preserved."
    case .viewInUnidentifiedController: "The view's state is never preserved."
    case .identifierOnCell:
      "Cells are reused; the table's scroll position and selection are not preserved."
    case .containerWithoutIdentifier: "Nothing inside the container is preserved."
    case .tabWithoutIdentifier:
      "The tab comes back in its default state and cannot be the restored selection."
    case .rootWithoutIdentifier: "Nothing in the window is preserved."
    case .controllerWithoutIdentifier:
      "The controller is left out of preservation, and so is everything below it."
    case .useStoryboardIdentifierUnchecked: "The controller has no restoration identifier."
    case .duplicateSiblingIdentifier: "The restored selection may be the wrong tab."
    case .duplicatePath: "One view's state overwrites the other's."
    case .duplicateStoryboardIdentifier: "The wrong controller may be re-created."
    case .segueDestinationWithoutStoryboardIdentifier:
      "Nothing can re-create the controller at launch: it is not restored."
    case .segueDestinationWithoutIdentifier:
      "The screen the user was on is not restored."
    case .nibControllerNeedsRestorationClass:
      "Nothing re-creates the controller at launch: it is not restored."
    case .nibOwnerNeedsIdentifier: "The views' state is not preserved."
    case .launchScreen, .noRestorationIdentifiers, .noInitialViewController,
      .storyboardReference:
      "Nothing is lost; it says what the lint did not check."
    case .unreachableScene: "Its identifier path depends on where the app puts it."
    case .fileIssue: "Interface Builder or UIKit may not load the file as intended."
    case .forceCastDecodedValue:
      "A crash at launch on every device whose archive lacks the key or holds another type."
    case .forceCastDecodedOptional:
      "A crash at launch when the archive holds a value of another type."
    case .restorationClassWithoutFactory:
      "UIKit logs a warning and the controller never comes back."
    case .controllerNotRecreatable:
      "The screen is preserved but not re-created: the user lands on its parent."
    case .factoryWithoutRestorationIdentity:
      "Restored once, then not preserved (or not re-created) the next time."
    case .restorationIdentitySetLate:
      "A controller whose view has not loaded is not preserved, and restoration looks it up before it loads."
    case .dataSourceWithoutModelAssociation:
      "Selection and scroll position come back by index: the wrong row once the data changes."
    case .rootBuiltInDidFinishLaunching:
      "Restoration has already run: the new window or root replaces the restored hierarchy."
    case .deprecatedRestorationOptIn:
      "The archive is read without secure coding; the deprecated methods are not called where the secure ones exist."
    case .restorableStateWithoutSuper:
      "UIKit's own state for the controller or view is not saved or not restored."
    case .decodedKeyNeverEncoded: "The value is always missing at restore: the code reads nil or 0."
    case .swiftSyntaxError: "Findings in the file may be missing."
    case .unknownRuleInComment: "The comment disables nothing."
    }
  }
}
