public import RestorationLint
public import StoryboardImport

/// Checks a project's Swift sources together, with its storyboards and XIBs: the rules that
/// need more than one file.
///
/// A class is the sum of its declaration and its extensions in every file; a storyboard
/// scene's custom class is matched with the Swift class of that name. The app delegate's opt-in
/// and hooks are found by their signatures (`application(_:shouldSaveSecureApplicationState:)`,
/// `application(_:viewControllerWithRestorationIdentifierPath:coder:)`...) in whichever type and
/// file declare them, since a delegate often spreads over extensions or inherits its adoption.
/// A restoration factory is followed into the initializer its arguments' labels call, and into
/// the methods and functions that initializer and the factory call on the new controller,
/// within the module: one that sets the identifier and class there is not reported, and only
/// what is set on the new controller counts.
///
/// ```swift
/// let facts = files.map { SwiftFileFacts(source: $0.bytes, file: $0.path) }
/// let findings = SwiftProjectLinter(files: facts, interfaceDocuments: storyboards).findings()
/// ```
public struct SwiftProjectLinter {
  private let files: [SwiftFileFacts]
  private let index: ProjectIndex

  /// Indexes a module's Swift files and its Interface Builder files.
  ///
  /// - Parameters:
  ///   - files: The Swift files of the module.
  ///   - interfaceDocuments: Its storyboards and XIBs.
  public init(files: [SwiftFileFacts], interfaceDocuments: [InterfaceDocument]) {
    self.files = files
    index = ProjectIndex(files: files, documents: interfaceDocuments)
  }

  /// Runs every Swift rule: the one-file findings each file already has, and the rules that
  /// cross files.
  ///
  /// - Returns: The findings, grouped by file in the order given, in line order.
  /// - Complexity: Linear in the size of the facts, plus the calls followed from each
  ///   restoration factory and each controller shown (each function once per object followed).
  public func findings() -> [LintFinding] {
    let findings = files.flatMap(\.findings) + crossFileFindings()
    let order = Dictionary(
      files.enumerated().map { ($1.file, $0) }, uniquingKeysWith: { first, _ in first })
    return findings.enumerated().sorted {
      (order[$0.element.file] ?? Int.max, $0.element.line ?? 0, $0.offset)
        < (order[$1.element.file] ?? Int.max, $1.element.line ?? 0, $1.offset)
    }.map(\.element)
  }

  /// The findings of the rules that cross files, without the one-file findings.
  ///
  /// - Returns: The findings, rule by rule.
  public func crossFileFindings() -> [LintFinding] {
    index.crossFileFindings()
  }

  /// Whether the Swift sources answer an Interface Builder finding: a XIB controller whose
  /// class sets a restoration class (or an app delegate that re-creates controllers), or a
  /// XIB's File's Owner whose class sets its restoration identifier and class in code.
  ///
  /// - Parameters:
  ///   - finding: A storyboard's or XIB's finding.
  ///   - document: Its document.
  /// - Returns: Whether to drop it.
  public func isAnswered(_ finding: LintFinding, in document: InterfaceDocument) -> Bool {
    switch finding.code {
    case .nibControllerNeedsRestorationClass:
      guard let id = finding.objectID, let controller = document.viewController(withID: id),
        let name = controller.customClass
      else { return index.hasAppDelegateHook }
      return index.hasAppDelegateHook || index.setsOwnRestorationClass(name)
    case .nibOwnerNeedsIdentifier:
      guard let name = document.fileOwner?.customClass else { return false }
      return index.setsOwnIdentifier(name)
        && (index.hasAppDelegateHook || index.setsOwnRestorationClass(name))
    default:
      return false
    }
  }
}
