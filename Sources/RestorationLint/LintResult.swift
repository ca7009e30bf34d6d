internal import Foundation

/// What a lint run found: each checked file's report, the files listed but not checked, and
/// the files that could not be read; and the same in each output format.
public struct LintResult: Sendable {
  /// The process exit status of a run.
  public enum ExitStatus: Int32, Sendable, Hashable, CaseIterable {
    /// No errors (warnings and notes only).
    case clean = 0
    /// At least one error (or warning, when warnings count as errors).
    case errorsFound = 1
    /// A file is missing or cannot be read, or the configuration is wrong.
    case unreadableFile = 2
  }

  /// The checked files, in the order given (a folder's files sorted by path).
  public var files: [LintedFile]
  /// Files found but not checked (Objective-C, too large, for another platform).
  public var unchecked: [UncheckedFile]
  /// Files and folders that could not be read.
  public var unreadable: [UnreadableFile]
  /// The least severity shown; findings below it are only counted.
  public var minimumSeverity: LintFinding.Severity = .note
  /// The findings below ``minimumSeverity``, not listed, by severity.
  public var belowMinimumSeverity: [LintFinding.Severity: Int] = [:]
  /// The findings a baseline holds, not listed.
  public var inBaseline = 0
  /// Every finding of the run, before a baseline or the minimum severity left any out, when the
  /// linter was asked to record them (``ProjectLinter/recordsBaseline``).
  public var recordedBaseline: LintBaseline?

  /// Creates a result.
  ///
  /// - Parameters:
  ///   - files: The checked files.
  ///   - unchecked: Files found but not checked.
  ///   - unreadable: Files that could not be read.
  public init(files: [LintedFile], unchecked: [UncheckedFile], unreadable: [UnreadableFile]) {
    self.files = files
    self.unchecked = unchecked
    self.unreadable = unreadable
  }

  /// Every finding, file by file.
  public var findings: [LintFinding] { files.flatMap(\.findings) }

  /// The number of findings of a severity.
  ///
  /// - Parameter severity: The severity.
  /// - Returns: The count.
  public func count(of severity: LintFinding.Severity) -> Int {
    files.reduce(0) { total, file in total + file.findings.count { $0.severity == severity } }
  }

  /// The number of checked files of each kind.
  public var fileCounts: [LintedFileKind: Int] {
    files.reduce(into: [:]) { $0[$1.kind, default: 0] += 1 }
  }

  /// The exit status: unreadable files first, then errors.
  ///
  /// - Parameter warningsAsErrors: Whether warnings fail the run too.
  /// - Returns: The status.
  public func exitStatus(warningsAsErrors: Bool = false) -> ExitStatus {
    if !unreadable.isEmpty { return .unreadableFile }
    let failing = count(of: .error) + (warningsAsErrors ? count(of: .warning) : 0)
    return failing > 0 ? .errorsFound : .clean
  }

  /// One line per file that could not be read, `TOOL: file:line: reason`, as command-line
  /// tools report an error of their own (unlike the findings, which concern the files).
  ///
  /// - Parameter toolName: The name of the program that prints the lines.
  /// - Returns: The lines, without newlines.
  public func failureLines(toolName: String) -> [String] {
    unreadable.map { "\(toolName): \($0)" }
  }

  // MARK: Text

  /// The report for a terminal and for editors: for each file named on the command line, its
  /// restoration paths; every finding on one line, `file:line: severity: message [rule]`; the
  /// files not checked; then the summary.
  public var text: String {
    var out = ""
    for file in files {
      if file.listsPaths, let paths = file.paths {
        out += "\(file.file): \(file.kind == .xib ? "xib" : "storyboard"), \(file.format ?? "")\n"
        if paths.isEmpty {
          out += "  restoration paths: none\n"
        } else {
          out += "  restoration paths:\n"
          let width = paths.map(\.path.count).max() ?? 0
          for entry in paths {
            let padding = String(repeating: " ", count: width - entry.path.count)
            var location = "line \(entry.line)"
            if let segueLine = entry.segueLine {
              location += ", pushed by the segue at line \(segueLine)"
            }
            out += "    \(entry.path)\(padding)  \(entry.object), \(location)\n"
          }
        }
      }
      for finding in file.findings { out += "\(finding)\n" }
    }
    for file in unchecked { out += "\(file.file): not checked: \(file.message)\n" }
    out += summary + "\n"
    return out
  }

  /// Such as `12 files checked (2 storyboards, 1 XIB, 8 Swift files, 1 Info.plist): 1 error,
  /// 3 warnings, 0 notes; 2 Objective-C files not checked`.
  public var summary: String {
    func counted(_ count: Int, _ noun: String) -> String {
      "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
    let counts = fileCounts
    let kinds = LintedFileKind.allCases.compactMap { kind -> String? in
      guard let count = counts[kind], count > 0 else { return nil }
      return "\(count) \(kind.noun(count))"
    }
    var line = counted(files.count, "file") + " checked"
    if !kinds.isEmpty { line += " (\(kinds.joined(separator: ", ")))" }
    let shown = [LintFinding.Severity.error, .warning, .note].filter { $0 >= minimumSeverity }
    line += ": " + shown.map { counted(count(of: $0), $0.rawValue) }.joined(separator: ", ")
    let hidden = [LintFinding.Severity.warning, .note].compactMap { severity in
      belowMinimumSeverity[severity].flatMap { $0 > 0 ? counted($0, severity.rawValue) : nil }
    }
    if let lowest = [LintFinding.Severity.note, .warning].first(where: {
      (belowMinimumSeverity[$0] ?? 0) > 0
    }) {
      let total = belowMinimumSeverity.values.reduce(0, +)
      line +=
        "; \(hidden.joined(separator: " and ")) not shown (--min-severity \(lowest.rawValue) shows \(total == 1 ? "it" : "them"))"
    }
    if inBaseline > 0 {
      line += "; \(counted(inBaseline, "finding")) of the baseline not shown"
    }
    let objectiveC = unchecked.count { $0.reason == .objectiveC }
    if objectiveC > 0 {
      line += "; \(objectiveC) \(LintedFileKind.objectiveC.noun(objectiveC)) not checked"
    }
    let otherPlatforms = unchecked.count { $0.reason == .otherPlatform }
    if otherPlatforms > 0 {
      line +=
        "; \(otherPlatforms) \(otherPlatforms == 1 ? "storyboard or XIB" : "storyboards or XIBs") of another platform not checked"
    }
    let large = unchecked.count { $0.reason == .tooLarge }
    if large > 0 { line += "; \(counted(large, "file")) too large to check" }
    if !unreadable.isEmpty {
      line += "; \(counted(unreadable.count, "file")) could not be read"
    }
    return line
  }

  // MARK: JSON

  private struct JSONOutput: Encodable {
    struct Summary: Encodable {
      var files: Int
      var errors: Int
      var warnings: Int
      var notes: Int
      var notChecked: Int
      var unreadableFiles: Int
      var minimumSeverity: String
      var belowMinimumSeverity: Int
      var inBaseline: Int
    }

    var files: [LintedFile]
    var filesByKind: [String: Int]
    var notChecked: [UncheckedFile]
    var unreadable: [UnreadableFile]
    var summary: Summary
  }

  /// The report as JSON, keys sorted so the output is stable.
  ///
  /// The keys: `files` (each with `file`, `kind`, `findings`, and for storyboards and XIBs
  /// `format` and `paths`), `filesByKind`, `notChecked`, `unreadable` and `summary` (the
  /// counts, with the findings not listed: below the minimum severity, or in the baseline).
  /// `docs/lint-output.schema.json` is its JSON Schema.
  ///
  /// - Returns: The JSON text, ending with a newline.
  public func json() -> String {
    var byKind: [String: Int] = [:]
    for (kind, count) in fileCounts { byKind[kind.rawValue] = count }
    let output = JSONOutput(
      files: files, filesByKind: byKind, notChecked: unchecked, unreadable: unreadable,
      summary: .init(
        files: files.count, errors: count(of: .error), warnings: count(of: .warning),
        notes: count(of: .note), notChecked: unchecked.count, unreadableFiles: unreadable.count,
        minimumSeverity: minimumSeverity.rawValue,
        belowMinimumSeverity: belowMinimumSeverity.values.reduce(0, +), inBaseline: inBaseline))
    return Self.encode(output)
  }

  static func encode(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // Strings, integers and arrays of them cannot fail to encode; the fallback keeps the
    // output valid JSON all the same.
    guard let data = try? encoder.encode(value) else { return "{}\n" }
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}
