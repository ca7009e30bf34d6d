import Foundation
import PackagePlugin

/// `swift package restoration-lint`: runs `restoration-archive-tool lint` on the package it is
/// called in, with the lint's own options.
///
/// Without paths it lints the whole package folder; `--target NAME` (repeatable) lints those
/// targets' folders; other paths are relative to the package folder. Everything else is passed
/// to `lint` as is: `--format sarif`, `--min-severity note`, `--baseline FILE`...
@main
struct RestorationLintPlugin: CommandPlugin {
  /// The lint's options that take a value, so that the value is not taken for a path.
  private static let optionsWithValues: Set<String> = [
    "--format", "--config", "--min-severity", "--include", "--exclude", "--baseline",
    "--write-baseline",
  ]

  func performCommand(context: PluginContext, arguments: [String]) async throws {
    var extractor = ArgumentExtractor(arguments)
    let targetNames = extractor.extractOption(named: "target")
    let options = extractor.remainingArguments
    let package = context.package.directoryURL.standardizedFileURL
    var paths: [String] = []
    for target in try context.package.targets(named: targetNames) {
      paths.append(Self.relative(target.directoryURL.standardizedFileURL, to: package))
    }
    if paths.isEmpty, !Self.hasPath(options) { paths = ["."] }

    let process = Process()
    process.executableURL = try context.tool(named: "restoration-archive-tool").url
    process.arguments = ["lint"] + options + paths
    // Relative paths, so that the findings, SARIF locations and baselines name files as the
    // repository does.
    process.currentDirectoryURL = package
    try process.run()
    process.waitUntilExit()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      throw LintFailure(status: process.terminationStatus)
    }
  }

  /// Whether the arguments name a file or folder, besides the options and their values.
  private static func hasPath(_ arguments: [String]) -> Bool {
    var skipsValue = false
    for argument in arguments {
      if skipsValue {
        skipsValue = false
      } else if argument.hasPrefix("-") {
        skipsValue = optionsWithValues.contains(argument)
      } else {
        return true
      }
    }
    return false
  }

  private static func relative(_ url: URL, to package: URL) -> String {
    let base = package.path.hasSuffix("/") ? package.path : package.path + "/"
    return url.path.hasPrefix(base) ? String(url.path.dropFirst(base.count)) : url.path
  }
}

/// The lint failed: findings at the failing severity (status 1), or a file or configuration
/// that could not be read (2 or more); the lint has said which.
struct LintFailure: Error, CustomStringConvertible {
  /// The lint's exit status.
  var status: Int32

  var description: String {
    status == 1
      ? "restoration-archive-tool lint found errors (exit status 1)"
      : "restoration-archive-tool lint could not run (exit status \(status))"
  }
}
