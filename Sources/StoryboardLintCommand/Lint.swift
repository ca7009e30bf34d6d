public import ArgumentParser
internal import Foundation
internal import StoryboardLint

/// The `lint` command: checks the state restoration setup of storyboards and XIBs.
///
/// Mount it as a subcommand of any ArgumentParser tool
/// (`subcommands: [Lint.self]`); `restoration-archive-tool lint` runs it.
public struct Lint: ParsableCommand {
  /// The command's name, help and exit codes.
  public static let configuration = CommandConfiguration(
    commandName: "lint",
    abstract: "Check the state restoration setup of storyboards and XIBs.",
    discussion: """
      For each file, prints the restoration identifier paths its launch hierarchy gets (as UIKit \
      forms them: the initial view controller's tree, with :[i]: index components for tab, \
      navigation and split children, views attached to their controller), the paths of \
      controllers that segues push, and the problems found, one per line as \
      'file:line: severity: message [code]': gaps in the chain of identifiers, identifiers on \
      table view cells, containers and tabs without identifiers, 'Use Storyboard ID' left \
      unchecked, duplicate identifiers, segue destinations without Storyboard ID, XIB \
      controllers that need a restoration class.

      Exit status:
        0   no errors (warnings and notes only)
        1   at least one error (or warning, with --warnings-as-errors)
        2   a file is missing or cannot be read as a storyboard or XIB (one line
            each on standard error, after the tool's name)
        64  the command line is wrong
      """
  )

  /// The files to check.
  @Argument(help: "The .storyboard and .xib files to check.")
  public var files: [String]

  /// Whether to print JSON.
  @Flag(help: "Print JSON (keys sorted, so the output is stable) instead of text.")
  public var json = false

  /// Whether warnings fail the run.
  @Flag(help: "Exit with status 1 on warnings too.")
  public var warningsAsErrors = false

  /// Creates the command with no arguments; ArgumentParser fills them in.
  public init() {}

  /// The name errors of the tool itself begin with: the program's, as the tool that mounts
  /// this command names its own errors (`restoration-archive-tool: FILE: WHAT`).
  static var toolName: String {
    guard let program = CommandLine.arguments.first, !program.isEmpty else { return "lint" }
    return URL(fileURLWithPath: program).lastPathComponent
  }

  /// Lints the files, prints the report, and exits with the documented status.
  public func run() throws {
    let result = LintRun(files: files)
    print(json ? result.json() : result.text, terminator: "")
    for line in result.failureLines(toolName: Self.toolName) {
      FileHandle.standardError.write(Data((line + "\n").utf8))
    }
    let status = result.exitStatus(warningsAsErrors: warningsAsErrors)
    if status != .clean { throw ExitCode(status.rawValue) }
  }
}
