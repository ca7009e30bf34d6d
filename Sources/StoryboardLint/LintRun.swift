internal import Foundation
public import StoryboardImport

/// The linter run over several files, as the `lint` command does: the reports, the files that
/// could not be read, the text or JSON to print, and the exit status.
public struct LintRun: Sendable {
  /// The process exit status of a run.
  public enum ExitStatus: Int32, Sendable, Hashable, CaseIterable {
    /// No errors (warnings and notes only).
    case clean = 0
    /// At least one error (or warning, when warnings count as errors).
    case errorsFound = 1
    /// A file is missing or cannot be read as a storyboard or XIB.
    case unreadableFile = 2
  }

  /// The reports of the files that could be read, in the order given.
  public var reports: [LintReport]
  /// The files that could not be read, in the order given.
  public var failures: [StoryboardImportError]

  /// Lints files.
  ///
  /// - Parameters:
  ///   - files: Paths of storyboards and XIBs.
  ///   - linter: The linter.
  public init(files: [String], linter: StoryboardLinter = StoryboardLinter()) {
    var reports: [LintReport] = []
    var failures: [StoryboardImportError] = []
    for file in files {
      do {
        reports.append(try linter.lint(fileAtPath: file))
      } catch {
        failures.append(error)
      }
    }
    self.init(reports: reports, failures: failures)
  }

  /// Creates a run from its results.
  ///
  /// - Parameters:
  ///   - reports: The reports.
  ///   - failures: The files that could not be read.
  public init(reports: [LintReport], failures: [StoryboardImportError]) {
    self.reports = reports
    self.failures = failures
  }

  /// The number of findings of a severity over all files.
  ///
  /// - Parameter severity: The severity.
  /// - Returns: The count.
  public func count(of severity: LintFinding.Severity) -> Int {
    reports.reduce(0) { $0 + $1.count(of: severity) }
  }

  /// The exit status: unreadable files first, then errors.
  ///
  /// - Parameter warningsAsErrors: Whether warnings fail the run too.
  /// - Returns: The status.
  public func exitStatus(warningsAsErrors: Bool = false) -> ExitStatus {
    if !failures.isEmpty { return .unreadableFile }
    let failing = count(of: .error) + (warningsAsErrors ? count(of: .warning) : 0)
    return failing > 0 ? .errorsFound : .clean
  }

  /// One line per file that could not be read, `TOOL: file:line: reason`, as command-line
  /// tools report an error of their own (unlike the findings, which concern the files).
  ///
  /// - Parameter toolName: The name of the program that prints the lines.
  /// - Returns: The lines, without newlines.
  public func failureLines(toolName: String) -> [String] {
    failures.map { "\(toolName): \($0)" }
  }

  // MARK: Text

  /// The report for a terminal: per file, its restoration paths and its findings (one line
  /// each, `file:line: severity: message [code]`), then a summary.
  public var text: String {
    var out = ""
    for report in reports {
      out += "\(report.file): \(report.kind.rawValue), \(report.format)\n"
      if report.paths.isEmpty {
        out += "  restoration paths: none\n"
      } else {
        out += "  restoration paths:\n"
        let width = report.paths.map(\.path.count).max() ?? 0
        for entry in report.paths {
          let padding = String(repeating: " ", count: width - entry.path.count)
          var location = "line \(entry.line)"
          if let segueLine = entry.segueLine {
            location += ", pushed by the segue at line \(segueLine)"
          }
          out += "    \(entry.path)\(padding)  \(entry.object), \(location)\n"
        }
      }
      for finding in report.findings { out += "\(finding)\n" }
    }
    out += summary + "\n"
    return out
  }

  /// Such as `2 files: 1 error, 3 warnings, 0 notes; 1 file could not be read`.
  public var summary: String {
    func counted(_ count: Int, _ noun: String) -> String {
      "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
    var line = [
      counted(count(of: .error), "error"), counted(count(of: .warning), "warning"),
      counted(count(of: .note), "note"),
    ].joined(separator: ", ")
    line = "\(counted(reports.count, "file")) checked: \(line)"
    if !failures.isEmpty {
      line += "; \(counted(failures.count, "file")) could not be read"
    }
    return line
  }

  // MARK: JSON

  private struct JSONOutput: Encodable {
    struct Unreadable: Encodable {
      var file: String
      var line: Int?
      var code: String
      var message: String
    }

    struct Summary: Encodable {
      var files: Int
      var errors: Int
      var warnings: Int
      var notes: Int
      var unreadableFiles: Int
    }

    var files: [LintReport]
    var unreadable: [Unreadable]
    var summary: Summary
  }

  /// The report as JSON: `files` (each with `file`, `kind`, `format`, `paths`, `findings`),
  /// `unreadable` and `summary`, with keys sorted so the output is stable.
  ///
  /// - Returns: The JSON text, ending with a newline.
  public func json() -> String {
    let output = JSONOutput(
      files: reports,
      unreadable: failures.map {
        .init(file: $0.file, line: $0.line, code: $0.code.rawValue, message: $0.message)
      },
      summary: .init(
        files: reports.count, errors: count(of: .error), warnings: count(of: .warning),
        notes: count(of: .note), unreadableFiles: failures.count)
    )
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // Strings, integers and arrays of them cannot fail to encode; the fallback keeps the
    // output valid JSON all the same.
    guard let data = try? encoder.encode(output) else { return "{}\n" }
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}
