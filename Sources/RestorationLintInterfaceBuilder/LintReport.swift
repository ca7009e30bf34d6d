public import RestorationLint
public import StoryboardImport

/// What the linter found in one storyboard or XIB: the identifier paths its objects get, and
/// the problems.
public struct LintReport: Sendable, Hashable, Codable {
  /// An object that restoration would preserve, at its identifier path.
  public typealias PathEntry = LintedFile.PathEntry

  /// The file.
  public var file: String
  /// Storyboard or XIB.
  public var kind: InterfaceDocument.Kind
  /// The XML format, such as `document format 3.0`.
  public var format: String
  /// The identifier paths, parents first: the launch hierarchy, then what segues push.
  public var paths: [PathEntry]
  /// The problems, in file order.
  public var findings: [LintFinding]

  /// Creates a report.
  ///
  /// - Parameters:
  ///   - file: The file.
  ///   - kind: Storyboard or XIB.
  ///   - format: The XML format.
  ///   - paths: The identifier paths.
  ///   - findings: The problems.
  public init(
    file: String,
    kind: InterfaceDocument.Kind,
    format: String,
    paths: [PathEntry],
    findings: [LintFinding]
  ) {
    self.file = file
    self.kind = kind
    self.format = format
    self.paths = paths
    self.findings = findings
  }

  /// The number of findings of a severity.
  ///
  /// - Parameter severity: The severity.
  /// - Returns: The count.
  public func count(of severity: LintFinding.Severity) -> Int {
    findings.count { $0.severity == severity }
  }

  /// The findings with a code.
  ///
  /// - Parameter code: The code.
  /// - Returns: The findings, in file order.
  public func findings(_ code: LintFinding.Code) -> [LintFinding] {
    findings.filter { $0.code == code }
  }
}
