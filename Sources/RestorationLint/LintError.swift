/// Why a lint run could not start or finish: its configuration or baseline file is wrong, or
/// the baseline cannot be written.
///
/// `description` gives one line, `file:line: message`, in the form compilers use.
public struct LintError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A stable classification of the failure.
  public enum Code: String, Sendable, Hashable, CaseIterable, Codable {
    /// The configuration file is not YAML, or not the configuration's shape.
    case invalidConfiguration
    /// The configuration names a rule that does not exist.
    case unknownRule
    /// The configuration file is missing, too large, a link or unreadable.
    case unreadableConfiguration
    /// The baseline file is missing, too large or unreadable.
    case unreadableBaseline
    /// The baseline file is not a baseline, or of an unknown version.
    case invalidBaseline
    /// The baseline file to write cannot be written.
    case unwritableBaseline
  }

  /// The classification of the failure.
  public var code: Code
  /// What went wrong, in words.
  public var message: String
  /// The file concerned.
  public var file: String
  /// The line, when known.
  public var line: Int?

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - code: The classification.
  ///   - message: What went wrong.
  ///   - file: The file concerned.
  ///   - line: The line, when known.
  public init(_ code: Code, _ message: String, file: String, line: Int? = nil) {
    self.code = code
    self.message = message
    self.file = file
    self.line = line
  }

  /// One line: `file:line: message`.
  public var description: String {
    if let line { return "\(file):\(line): \(message)" }
    return "\(file): \(message)"
  }
}
