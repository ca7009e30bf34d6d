public import ArgumentParser
internal import Foundation
internal import RestorationLint

/// The `lint` command: checks the state restoration setup of storyboards, XIBs and Swift
/// sources, one file at a time or a whole project folder.
///
/// Mount it as a subcommand of any ArgumentParser tool
/// (`subcommands: [Lint.self]`); `restoration-archive-tool lint` runs it.
public struct Lint: ParsableCommand {
  /// The output formats.
  public enum Format: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Compiler-style lines, which editors jump to.
    case text
    /// JSON with sorted keys.
    case json
    /// SARIF 2.1.0, for GitHub code scanning and other CI systems.
    case sarif
    /// GitHub Actions workflow annotations.
    case github
  }

  /// The least severity a run lists.
  public enum MinimumSeverity: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Every finding.
    case note
    /// Warnings and errors (the default).
    case warning
    /// Errors only.
    case error

    var severity: LintFinding.Severity {
      switch self {
      case .note: .note
      case .warning: .warning
      case .error: .error
      }
    }
  }

  /// The command's name, help and exit codes.
  public static let configuration = CommandConfiguration(
    commandName: "lint",
    abstract: "Check a project's state restoration setup: storyboards, XIBs, Swift.",
    discussion: """
      A folder is searched for .storyboard, .xib, .swift and Info.plist files; .build, \
      DerivedData, Pods, Carthage, .git and .swiftpm folders and every symbolic link are \
      skipped. Swift sources are parsed with swift-syntax, as an iOS build compiles them (the \
      branches of #if that no iOS build compiles are skipped), and checked together with the \
      storyboards (a scene's custom class is the Swift class of that name). UIKit's rules apply \
      to UIKit code only. Objective-C files, and storyboards and XIBs for macOS, watchOS or \
      tvOS, are listed as not checked.

      Each problem is one line, 'file:line: severity: message [rule]'; notes are counted, and \
      listed with --min-severity note. For a storyboard or XIB named on the command line, the \
      restoration identifier paths of its launch hierarchy are listed first (as UIKit forms \
      them, with :[i]: index components). The rules, the configuration file and the formats \
      are described in docs/Lint.md.

      Configuration: a .restoration-lint.yml at the folder's root, with disabled_rules, \
      severities (rule: error|warning|note), excluded and included (paths or globs). In a Swift \
      file, '// restoration-lint:disable:next RULE' turns a rule off for the next line; in a \
      storyboard, the same in an XML comment. An unknown rule name is an error.

      Baseline: --write-baseline FILE records the run's findings; --baseline FILE then reports \
      only new ones, matching a finding by rule, file and the text of its line, so that edits \
      above it do not bring it back.

      Exit status:
        0   no errors (warnings and notes only)
        1   at least one error (or warning, with --warnings-as-errors)
        2   a file is missing or cannot be read, or the configuration
            or baseline is wrong
        64  the command line is wrong
      """
  )

  /// The files and folders to check.
  @Argument(help: "The project folders, .storyboard, .xib and .swift files to check.")
  public var paths: [String]

  /// The output format.
  @Option(
    help: ArgumentHelp(
      "The output: text (compiler-style lines), json, sarif (SARIF 2.1.0) or github (workflow annotations).",
      valueName: "format"))
  public var format: Format = .text

  /// Whether to print JSON; the same as `--format json`.
  @Flag(help: "Print JSON; the same as --format json.")
  public var json = false

  /// A configuration file for every path.
  @Option(
    help: ArgumentHelp(
      "A configuration file to use instead of each folder's .restoration-lint.yml.",
      valueName: "file"))
  public var config: String?

  /// The least severity listed.
  @Option(
    name: .customLong("min-severity"),
    help: ArgumentHelp(
      "List findings of this severity and above: note, warning (the default) or error; the others are counted in the summary.",
      valueName: "severity"))
  public var minimumSeverity: MinimumSeverity = .warning

  /// Whether warnings fail the run.
  @Flag(help: "Exit with status 1 on warnings too.")
  public var warningsAsErrors = false

  /// Globs of files to read alone.
  @Option(
    name: .customLong("include"),
    help: ArgumentHelp(
      "Read only the files of the folders given that this path or glob matches (relative to each folder; repeatable).",
      valueName: "glob"))
  public var includedPaths: [String] = []

  /// Globs of files to leave out.
  @Option(
    name: .customLong("exclude"),
    help: ArgumentHelp(
      "Leave out the files and folders that this path or glob matches (relative to each folder given; repeatable).",
      valueName: "glob"))
  public var excludedPaths: [String] = []

  /// A baseline to compare with.
  @Option(
    help: ArgumentHelp(
      "Report only the findings that this baseline file does not hold (matched by rule, file and the line's text).",
      valueName: "file"))
  public var baseline: String?

  /// A baseline to write.
  @Option(
    name: .customLong("write-baseline"),
    help: ArgumentHelp(
      "Write every finding of the run to this baseline file, for --baseline in later runs.",
      valueName: "file"))
  public var writeBaseline: String?

  /// Creates the command with no arguments; ArgumentParser fills them in.
  public init() {}

  /// The name errors of the tool itself begin with: the program's, as the tool that mounts
  /// this command names its own errors (`restoration-archive-tool: FILE: WHAT`).
  static var toolName: String {
    guard let program = CommandLine.arguments.first, !program.isEmpty else { return "lint" }
    return URL(fileURLWithPath: program).lastPathComponent
  }

  /// Checks the arguments.
  public func validate() throws {
    if json && format != .text && format != .json {
      throw ValidationError("Choose one of --json and --format \(format.rawValue).")
    }
  }

  /// Lints the paths, prints the report, and exits with the documented status.
  public func run() throws {
    let result: LintResult
    do {
      var linter = ProjectLinter(ruleSets: ProjectLinter.iOSRuleSets, configurationFile: config)
      linter.minimumSeverity = minimumSeverity.severity
      linter.includedPaths = includedPaths
      linter.excludedPaths = excludedPaths
      linter.baseline = try baseline.map { path throws(LintError) in
        try LintBaseline(contentsOfFile: path)
      }
      linter.recordsBaseline = writeBaseline != nil
      result = try linter.lint(paths)
      if let writeBaseline, let recorded = result.recordedBaseline {
        try recorded.write(toFile: writeBaseline)
        let count = recorded.findings.count
        Self.printError(
          "wrote \(count) finding\(count == 1 ? "" : "s") to the baseline \(writeBaseline)")
      }
    } catch {
      Self.printError("\(error)")
      throw ExitCode(LintResult.ExitStatus.unreadableFile.rawValue)
    }
    let output: String
    switch json ? .json : format {
    case .text: output = result.text
    case .json: output = result.json()
    case .sarif: output = result.sarif()
    case .github: output = result.githubAnnotations
    }
    print(output, terminator: "")
    for line in result.failureLines(toolName: Self.toolName) {
      FileHandle.standardError.write(Data((line + "\n").utf8))
    }
    let status = result.exitStatus(warningsAsErrors: warningsAsErrors)
    if status != .clean { throw ExitCode(status.rawValue) }
  }

  /// Writes `TOOL: message` on standard error.
  private static func printError(_ message: String) {
    FileHandle.standardError.write(Data("\(toolName): \(message)\n".utf8))
  }
}
