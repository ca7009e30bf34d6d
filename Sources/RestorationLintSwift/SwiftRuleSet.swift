public import RestorationLint
internal import StoryboardImport

/// The rules for Swift sources, as a `ProjectLinter` runs them: each file is parsed with
/// swift-syntax into ``SwiftFileFacts``, then ``SwiftProjectLinter`` runs the rules that cross
/// files, with the storyboards and XIBs the `InterfaceBuilderRuleSet` read before it.
///
/// List it after the Interface Builder rule set, so that it sees the scenes: it also drops the
/// XIB findings that the Swift sources answer (a controller whose class sets its restoration
/// class in code).
public struct SwiftRuleSet: LintRuleSet {
  /// Creates the rule set.
  public init() {}

  /// Whether the set reads files of a kind: Swift sources.
  ///
  /// - Parameter kind: The kind.
  /// - Returns: Whether it is a Swift source.
  public func reads(_ kind: LintedFileKind) -> Bool { kind == .swift }

  /// Parses one Swift file and runs the rules that need it only.
  ///
  /// - Parameter file: The file.
  /// - Returns: Its findings so far and its facts, or why it was not read.
  public func read(_ file: LintSourceFile) -> LintFileReading {
    let limit = SwiftFileFacts.maximumFileSize
    switch file.contents(limit: limit) {
    case .tooLarge: return file.tooLarge(limit: limit, "generated code")
    case .unreadable: return file.cannotBeOpened
    case .bytes(let bytes):
      let facts = SwiftFileFacts(source: bytes, file: file.display)
      return .checked(
        LintedFile(file: file.display, kind: .swift, findings: facts.findings),
        suppressions: facts.suppressions, facts: facts)
    }
  }

  /// Runs the rules that cross Swift files and Interface Builder files.
  ///
  /// - Parameter project: The project.
  public func checkProject(_ project: inout LintProject) {
    let files = project.facts(SwiftFileFacts.self)
    guard !files.isEmpty else { return }
    let documents = project.facts(InterfaceDocument.self)
    let linter = SwiftProjectLinter(files: files, interfaceDocuments: documents)
    project.add(linter.crossFileFindings())
    project.removeFindings { finding, facts in
      guard let document = facts as? InterfaceDocument else { return false }
      return linter.isAnswered(finding, in: document)
    }
  }
}
