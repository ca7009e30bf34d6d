internal import Foundation

/// The findings a team has accepted, so that a run reports only new ones.
///
/// A finding matches an entry by its rule, its file and the text of its line (without the
/// spaces around it), not by its line number: an edit above a finding moves it without bringing
/// it back, while an edit of the line itself, or a second finding of the same rule on a line
/// with the same text, is reported. Each entry matches one finding.
///
/// The file is JSON, with the entries sorted so that it diffs well under version control:
///
/// ```json
/// {
///   "findings" : [
///     {
///       "file" : "App/CountryViewController.swift",
///       "lineText" : "country = coder.decodeObject(forKey: \"country\") as! String",
///       "rule" : "force-cast-decoded-value"
///     }
///   ],
///   "version" : 1
/// }
/// ```
public struct LintBaseline: Sendable, Hashable, Codable {
  /// One accepted finding.
  public struct Entry: Sendable, Hashable, Codable, Comparable {
    /// The rule.
    public var rule: String
    /// The file, as the run named it (relative to the current folder when it is inside it).
    public var file: String
    /// The text of the finding's line, trimmed; empty for a finding about the whole file.
    public var lineText: String

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - rule: The rule.
    ///   - file: The file.
    ///   - lineText: The text of the finding's line, trimmed.
    public init(rule: String, file: String, lineText: String) {
      self.rule = rule
      self.file = file
      self.lineText = lineText
    }

    /// File, then rule, then line text.
    public static func < (lhs: Self, rhs: Self) -> Bool {
      (lhs.file, lhs.rule, lhs.lineText) < (rhs.file, rhs.rule, rhs.lineText)
    }
  }

  /// The format's version; this reader knows 1.
  public var version = 1
  /// The accepted findings, sorted.
  public var findings: [Entry]

  /// Baseline files larger than this are not baselines.
  public static let maximumFileSize = 64 * 1024 * 1024

  /// Creates a baseline.
  ///
  /// - Parameter findings: The accepted findings.
  public init(findings: [Entry]) {
    self.findings = findings.sorted()
  }

  /// Reads a baseline file.
  ///
  /// - Parameter path: The file's path.
  /// - Throws: ``LintError`` when the file is missing, too large or not a baseline.
  public init(contentsOfFile path: String) throws(LintError) {
    switch ProjectFiles.read(path, limit: Self.maximumFileSize) {
    case .unreadable:
      throw LintError(
        .unreadableBaseline, "cannot be read (no such file, or no permission)", file: path)
    case .tooLarge:
      throw LintError(
        .unreadableBaseline, "is larger than \(Self.maximumFileSize / 1024 / 1024) MiB", file: path)
    case .bytes(let bytes):
      let decoded: LintBaseline
      do {
        decoded = try JSONDecoder().decode(LintBaseline.self, from: Data(bytes))
      } catch {
        throw LintError(
          .invalidBaseline,
          "is not a baseline (JSON with \"version\" and \"findings\", as --write-baseline writes)",
          file: path)
      }
      guard decoded.version == 1 else {
        throw LintError(
          .invalidBaseline,
          "is a baseline of version \(decoded.version); this lint reads version 1", file: path)
      }
      self = decoded
    }
  }

  /// The baseline as JSON, keys and entries sorted.
  ///
  /// - Returns: The text, ending with a newline.
  public func json() -> String {
    LintResult.encode(self)
  }

  /// Writes the baseline to a file, replacing it.
  ///
  /// - Parameter path: The file's path.
  /// - Throws: ``LintError`` when the file cannot be written.
  public func write(toFile path: String) throws(LintError) {
    do {
      try Data(json().utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw LintError(
        .unwritableBaseline, "cannot be written: \(error.localizedDescription)", file: path)
    }
  }

  /// The findings that no entry accounts for, each entry accounting for one finding.
  ///
  /// - Parameters:
  ///   - findings: The findings of a run.
  ///   - lineText: The trimmed text of a finding's line.
  /// - Returns: The findings not in the baseline, in their order, and how many were.
  func newFindings(
    _ findings: [LintFinding], lineText: (LintFinding) -> String
  ) -> (new: [LintFinding], matched: Int) {
    var remaining: [Entry: Int] = [:]
    for entry in self.findings { remaining[entry, default: 0] += 1 }
    var new: [LintFinding] = []
    var matched = 0
    for finding in findings {
      let entry = Self.entry(finding, lineText: lineText(finding))
      if let count = remaining[entry], count > 0 {
        remaining[entry] = count - 1
        matched += 1
      } else {
        new.append(finding)
      }
    }
    return (new, matched)
  }

  /// The entry that accepts a finding.
  static func entry(_ finding: LintFinding, lineText: String) -> Entry {
    Entry(rule: finding.code.rawValue, file: portable(finding.file), lineText: lineText)
  }

  /// A file's name as the baseline keeps it: without `./`, and relative to the current folder
  /// when it is inside it, so that a baseline works from another checkout of the project.
  static func portable(_ file: String) -> String {
    var name = Substring(file)
    while name.hasPrefix("./") { name = name.dropFirst(2) }
    let current = FileManager.default.currentDirectoryPath
    if name.hasPrefix("/"), !current.isEmpty {
      let prefix = current.hasSuffix("/") ? current : current + "/"
      if name.hasPrefix(prefix) { name = name.dropFirst(prefix.count) }
    }
    return String(name)
  }
}
