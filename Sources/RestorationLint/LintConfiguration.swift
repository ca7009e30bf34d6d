internal import Foundation
internal import Yams

/// What a project's `.restoration-lint.yml` says: rules turned off, severities changed, paths
/// left out or read alone.
///
/// ```yaml
/// disabled_rules:
///   - launch-screen
/// severities:
///   decoded-key-never-encoded: error
/// excluded:
///   - Legacy            # a folder (or file), relative to the project folder
///   - "**/Generated/*.swift"
/// included:             # when given, only these are read
///   - App
/// ```
///
/// A key, rule name or severity the lint does not know is an error, not ignored, so that a typo
/// cannot silently leave a rule on. In `excluded` and `included`, `*` matches within a path
/// component, `**` across components and `?` one character; a pattern without them is a path
/// prefix.
public struct LintConfiguration: Sendable, Hashable {
  /// The configuration file's name, looked for at the root of each folder linted.
  public static let fileName = ".restoration-lint.yml"
  /// Configuration files larger than this are not hand-written configurations.
  public static let maximumFileSize = 256 * 1024

  /// Rules whose findings are dropped.
  public var disabledRules: Set<LintFinding.Code>
  /// Severities that replace the rules' own.
  public var severities: [LintFinding.Code: LintFinding.Severity]
  /// Paths and patterns, relative to the folder linted, left out of the run.
  public var excludedPaths: [String]
  /// Paths and patterns, relative to the folder linted: when there are any, only the files they
  /// match are read (and not excluded ones).
  public var includedPaths: [String]

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - disabledRules: Rules whose findings are dropped.
  ///   - severities: Severities that replace the rules' own.
  ///   - excludedPaths: Paths and patterns left out.
  ///   - includedPaths: Paths and patterns read alone, when there are any.
  public init(
    disabledRules: Set<LintFinding.Code> = [],
    severities: [LintFinding.Code: LintFinding.Severity] = [:],
    excludedPaths: [String] = [],
    includedPaths: [String] = []
  ) {
    self.disabledRules = disabledRules
    self.severities = severities
    self.excludedPaths = excludedPaths
    self.includedPaths = includedPaths
  }

  private static let keys = ["disabled_rules", "severities", "excluded", "included"]

  /// Reads a configuration's YAML text.
  ///
  /// - Parameters:
  ///   - yaml: The text.
  ///   - file: The name errors give the file.
  /// - Throws: ``LintError`` for text that is not YAML, not a mapping of the known
  ///   keys, or that names an unknown rule or severity.
  public init(yaml: String, file: String) throws(LintError) {
    self.init()
    let root: Node?
    do {
      root = try Yams.compose(yaml: yaml)
    } catch let error as YamlError {
      throw Self.error(error, file: file)
    } catch {
      throw LintError(.invalidConfiguration, "is not YAML: \(error)", file: file)
    }
    guard let root else { return }
    guard let mapping = root.mapping else {
      throw LintError(
        .invalidConfiguration,
        "must be a mapping with the keys \(Self.keys.joined(separator: ", "))",
        file: file, line: root.mark?.line)
    }
    for (keyNode, value) in mapping {
      let key = keyNode.string ?? ""
      let line = keyNode.mark?.line
      switch key {
      case "disabled_rules":
        for item in try Self.list(value, key: key, file: file) {
          disabledRules.insert(try Self.rule(item, file: file))
        }
      case "severities":
        guard let entries = value.mapping else {
          throw LintError(
            .invalidConfiguration, "'severities' must map rule names to error, warning or note",
            file: file, line: value.mark?.line ?? line)
        }
        for (ruleNode, severityNode) in entries {
          let rule = try Self.rule(ruleNode, file: file)
          guard let name = severityNode.string,
            let severity = LintFinding.Severity(rawValue: name)
          else {
            throw LintError(
              .invalidConfiguration,
              "the severity of '\(rule.rawValue)' must be error, warning or note, not '\(severityNode.string ?? "a list or mapping")'",
              file: file, line: severityNode.mark?.line)
          }
          severities[rule] = severity
        }
      case "excluded", "included":
        for item in try Self.list(value, key: key, file: file) {
          guard let path = item.string, !path.isEmpty else {
            throw LintError(
              .invalidConfiguration, "'\(key)' must list paths", file: file,
              line: item.mark?.line)
          }
          if key == "excluded" { excludedPaths.append(path) } else { includedPaths.append(path) }
        }
      default:
        throw LintError(
          .invalidConfiguration,
          "unknown key '\(key)': the configuration knows \(Self.keys.joined(separator: ", "))",
          file: file, line: line)
      }
    }
  }

  /// Reads a configuration file.
  ///
  /// - Parameter path: The file's path.
  /// - Throws: ``LintError`` when the file cannot be read or is wrong.
  public init(contentsOfFile path: String) throws(LintError) {
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    guard let attributes else {
      throw LintError(.unreadableConfiguration, "no such file", file: path)
    }
    guard attributes[.type] as? FileAttributeType == .typeRegular else {
      throw LintError(
        .unreadableConfiguration, "is not a regular file (a link or a folder); not read",
        file: path)
    }
    let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
    guard size <= Self.maximumFileSize else {
      throw LintError(
        .unreadableConfiguration,
        "is \(size) bytes; a configuration is at most \(Self.maximumFileSize) bytes", file: path)
    }
    guard let data = FileManager.default.contents(atPath: path),
      let text = String(data: data, encoding: .utf8)
    else {
      throw LintError(
        .unreadableConfiguration, "cannot be read as UTF-8 text (check its permissions)",
        file: path)
    }
    try self.init(yaml: text, file: path)
  }

  /// The findings with the configuration applied: disabled rules dropped, severities changed.
  ///
  /// - Parameter findings: The findings.
  /// - Returns: What is left.
  public func apply(to findings: [LintFinding]) -> [LintFinding] {
    findings.compactMap { finding in
      guard !disabledRules.contains(finding.code) else { return nil }
      var changed = finding
      if let severity = severities[finding.code] { changed.severity = severity }
      return changed
    }
  }

  /// Whether a path, relative to the folder linted, is excluded.
  ///
  /// - Parameter relativePath: The path, with `/` between components.
  /// - Returns: Whether a pattern of ``excludedPaths`` matches it or a folder above it.
  public func excludes(_ relativePath: String) -> Bool {
    excludedPaths.contains { PathPattern($0).matches(relativePath) }
  }

  /// Whether a file, relative to the folder linted, is among those ``includedPaths`` name (any
  /// file, when they name none).
  ///
  /// - Parameter relativePath: The file's path, with `/` between components.
  /// - Returns: Whether a pattern of ``includedPaths`` matches it or a folder above it.
  public func includes(_ relativePath: String) -> Bool {
    includedPaths.isEmpty || includedPaths.contains { PathPattern($0).matches(relativePath) }
  }

  private static func list(_ node: Node, key: String, file: String) throws(LintError)
    -> [Node]
  {
    if let sequence = node.sequence { return Array(sequence) }
    if node.scalar != nil { return [node] }
    throw LintError(
      .invalidConfiguration, "'\(key)' must be a list", file: file, line: node.mark?.line)
  }

  private static func rule(_ node: Node, file: String) throws(LintError)
    -> LintFinding.Code
  {
    let name = node.string ?? ""
    guard let code = LintFinding.Code(rawValue: name) else {
      throw LintError(
        .unknownRule,
        "'\(name)' is not a rule of the lint (the rules are listed in docs/Lint.md)",
        file: file, line: node.mark?.line)
    }
    return code
  }

  private static func error(_ error: YamlError, file: String) -> LintError {
    switch error {
    case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
      .composer(_, let problem, let mark, _):
      LintError(
        .invalidConfiguration, "is not valid YAML: \(problem)", file: file, line: mark.line)
    default:
      LintError(
        .invalidConfiguration,
        "is not valid YAML: \(String(describing: error).split(separator: "\n").first ?? "")",
        file: file)
    }
  }
}
