/// A problem the linter found in a storyboard or XIB's restoration setup, with the file, line
/// and object it concerns.
public struct LintFinding: Sendable, Hashable, Codable, CustomStringConvertible {
  /// How bad it is.
  public enum Severity: String, Sendable, Hashable, Codable, Comparable, CaseIterable {
    /// Worth knowing; restoration works as the file says.
    case note
    /// Probably a mistake: part of the state is not preserved, or not re-created.
    case warning
    /// Restoration cannot work as the file intends.
    case error

    private var rank: Int {
      switch self {
      case .note: 0
      case .warning: 1
      case .error: 2
      }
    }

    /// Notes before warnings before errors.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
  }

  /// What was found; stable, for filtering and for tools.
  public enum Code: String, Sendable, Hashable, Codable, CaseIterable {
    /// A controller with an identifier under a container or presenter without one: the chain
    /// from the root is broken and the controller is never preserved.
    case gapInChain = "gap-in-chain"
    /// A view with an identifier inside a controller without one: never preserved.
    case viewInUnidentifiedController = "view-in-unidentified-controller"
    /// A restoration identifier on a table or collection view cell (or a view inside one)
    /// instead of the table or collection view.
    case identifierOnCell = "identifier-on-cell"
    /// A container (tab bar, navigation, split, or a parent of embedded children) without an
    /// identifier: nothing below it is preserved.
    case containerWithoutIdentifier = "container-without-identifier"
    /// A tab without an identifier: tabs are matched by identifier, so it comes back in its
    /// default state and cannot be the restored selection.
    case tabWithoutIdentifier = "tab-without-identifier"
    /// The root controller without an identifier: nothing in its window is preserved.
    case rootWithoutIdentifier = "root-without-identifier"
    /// Another controller in the chain without an identifier: it is left out, maybe on purpose.
    case controllerWithoutIdentifier = "controller-without-identifier"
    /// A storyboard identifier with "Use Storyboard ID" unchecked and no restoration identifier.
    case useStoryboardIdentifierUnchecked = "use-storyboard-id-unchecked"
    /// Two tabs with the same identifier: the tab bar matches its selection by identifier.
    case duplicateSiblingIdentifier = "duplicate-sibling-identifier"
    /// Two views of one controller with the same identifier, so the same identifier path.
    case duplicatePath = "duplicate-path"
    /// Two controllers with the same storyboard identifier.
    case duplicateStoryboardIdentifier = "duplicate-storyboard-identifier"
    /// A controller shown by a segue with an identifier but no storyboard identifier: nothing
    /// can re-create it from the storyboard at launch.
    case segueDestinationWithoutStoryboardIdentifier = "segue-destination-without-storyboard-id"
    /// A controller shown by a segue from a preserved controller, without an identifier.
    case segueDestinationWithoutIdentifier = "segue-destination-without-identifier"
    /// A controller in a XIB with an identifier: a XIB cannot re-create it, a restoration class
    /// or the app delegate must.
    case nibControllerNeedsRestorationClass = "nib-controller-needs-restoration-class"
    /// Views with identifiers in a XIB: preserved only if File's Owner gets an identifier in code.
    case nibOwnerNeedsIdentifier = "nib-owner-needs-identifier"
    /// A launch screen, which is never restored.
    case launchScreen = "launch-screen"
    /// No restoration identifier anywhere in the file.
    case noRestorationIdentifiers = "no-restoration-identifiers"
    /// A storyboard without initial view controller: each top-level scene is taken as a root.
    case noInitialViewController = "no-initial-view-controller"
    /// A scene with an identifier that no relationship or segue reaches from the initial one.
    case unreachableScene = "unreachable-scene"
    /// A relationship or segue to another storyboard, which is not checked here.
    case storyboardReference = "storyboard-reference"
    /// A problem in the file itself, such as a segue to an object that is not there.
    case fileIssue = "file-issue"

    // MARK: Swift sources

    /// A decoded value force-cast to a non-optional type (`decodeObject(forKey:) as! T`): a
    /// crash at launch when the archive lacks the key.
    case forceCastDecodedValue = "force-cast-decoded-value"
    /// A decoded value force-cast to an optional type (`as! T?`): nil passes, a value of
    /// another type crashes.
    case forceCastDecodedOptional = "force-cast-decoded-optional"
    /// A `restorationClass` whose class declares no restoration factory
    /// (`viewController(withRestorationIdentifierPath:coder:)`).
    case restorationClassWithoutFactory = "restoration-class-without-factory"
    /// A controller created in code with a restoration identifier and pushed or presented,
    /// which no restoration class or app-delegate hook can re-create.
    case controllerNotRecreatable = "controller-not-re-creatable"
    /// A restoration factory that creates a controller without setting its restoration
    /// identifier or class again.
    case factoryWithoutRestorationIdentity = "factory-without-restoration-identity"
    /// A restoration identifier or class set only in `viewDidLoad` (or later).
    case restorationIdentitySetLate = "restoration-identity-set-late"
    /// A restorable table or collection view whose data source does not adopt
    /// `UIDataSourceModelAssociation`.
    case dataSourceWithoutModelAssociation = "data-source-without-model-association"
    /// The window or its root controller built in `didFinishLaunching`, after restoration ran.
    case rootBuiltInDidFinishLaunching = "root-built-in-did-finish-launching"
    /// The deprecated `shouldSaveApplicationState`/`shouldRestoreApplicationState` opt-in
    /// without the secure pair.
    case deprecatedRestorationOptIn = "deprecated-restoration-opt-in"
    /// An `encodeRestorableState`/`decodeRestorableState` override that never calls `super`.
    case restorableStateWithoutSuper = "restorable-state-without-super"
    /// A key decoded from a coder that nothing in the module encodes.
    case decodedKeyNeverEncoded = "decoded-key-never-encoded"
    /// A Swift file the parser could not read completely: findings in it may be missing.
    case swiftSyntaxError = "swift-syntax-error"
    /// A `restoration-lint:disable:next` comment naming a rule that does not exist.
    case unknownRuleInComment = "unknown-rule-in-comment"
  }

  /// How bad it is.
  public var severity: Severity
  /// What was found.
  public var code: Code
  /// What is wrong and what to do, in words.
  public var message: String
  /// The file.
  public var file: String
  /// The line of the element concerned.
  public var line: Int?
  /// The element concerned, such as `navigationController 'CountryNCID'`.
  public var object: String?
  /// Its Interface Builder object ID.
  public var objectID: String?

  /// Creates a finding.
  ///
  /// - Parameters:
  ///   - severity: How bad it is.
  ///   - code: What was found.
  ///   - message: What is wrong and what to do.
  ///   - file: The file.
  ///   - line: The line of the element concerned.
  ///   - object: The element concerned.
  ///   - objectID: Its object ID.
  public init(
    _ severity: Severity,
    _ code: Code,
    _ message: String,
    file: String,
    line: Int? = nil,
    object: String? = nil,
    objectID: String? = nil
  ) {
    self.severity = severity
    self.code = code
    self.message = message
    self.file = file
    self.line = line
    self.object = object
    self.objectID = objectID
  }

  /// `file:line: severity: message [code]`, as compilers write it, so editors can jump to it.
  public var description: String {
    "\(file)\(line.map { ":\($0)" } ?? ""): \(severity.rawValue): \(message) [\(code.rawValue)]"
  }
}
