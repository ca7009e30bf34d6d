public import StoryboardImport

/// What the linter found in one storyboard or XIB: the identifier paths its objects get, and
/// the problems.
public struct LintReport: Sendable, Hashable, Codable {
  /// An object that restoration would preserve, at its identifier path.
  public struct PathEntry: Sendable, Hashable, Codable {
    /// How the object gets into the hierarchy.
    public enum Origin: String, Sendable, Hashable, Codable {
      /// At launch, from the initial view controller (or a root scene when there is none).
      case launch
      /// Pushed onto a navigation stack by a segue.
      case segue
    }

    /// The identifier path, as UIKit forms it: `TabBarControllerID/:[0]:/CountryNCID`.
    public var path: String
    /// The element, such as `navigationController 'CountryNCID'`.
    public var object: String
    /// Its class: the custom class, or UIKit's.
    public var className: String
    /// The line of the element.
    public var line: Int
    /// How it gets into the hierarchy.
    public var origin: Origin
    /// For an object reached by a segue, the segue's line.
    public var segueLine: Int?

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - path: The identifier path.
    ///   - object: The element.
    ///   - className: Its class.
    ///   - line: Its line.
    ///   - origin: How it gets into the hierarchy.
    ///   - segueLine: The line of the segue that shows it.
    public init(
      path: String,
      object: String,
      className: String,
      line: Int,
      origin: Origin,
      segueLine: Int? = nil
    ) {
      self.path = path
      self.object = object
      self.className = className
      self.line = line
      self.origin = origin
      self.segueLine = segueLine
    }
  }

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
