import Foundation
import TestSupport
import Testing

/// A passing test prints no log lines: tests that expect warnings capture them.
///
/// This runs the suites whose tests make the engine, the application and the harness warn, in
/// the test binary itself, and reads what they print; `.ci/run` checks the whole suite's output
/// the same way.
@Suite struct QuietOutputTests {
  /// Suites that make the engine, the application or the harness log warnings, all quick.
  static let warningSuites = [
    "CraftedArchiveTests", "CrashGuardHardeningTests", "DiscardRuleTests", "DecodeRuleTests",
    "RestoredEverythingTests", "WalkOrderTests", "RegistrationTests", "ReadmeUIExampleTests",
  ]

  /// A line that swift-log's default handler writes: a timestamp, then a level.
  static func isLogLine(_ line: Substring) -> Bool {
    line.wholeMatch(
      of: #/\d{4}-\d\d-\d\dT[0-9:]+[+-]\d{4} (trace|debug|info|notice|warning|error|critical) .*/#)
      != nil
  }

  @Test func theLogLineMatcherKnowsADefaultLogLine() {
    let line = "2026-11-27T21:51:37+0000 warning test: [StateRestoration] discarded as unreadable"
    #expect(Self.isLogLine(line[...]))
    #expect(!Self.isLogLine("✔ Test run with 4 tests in 1 suite passed after 0.014 seconds."))
  }

  #if os(Linux)
    @Test func suitesThatWarnPrintNoLogLines() throws {
      // On Linux the test binary is the running process, and runs a filtered set of suites.
      let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
      let filter = Self.warningSuites.joined(separator: "|")
      let run = try TestSupport.run(
        binary, ["--testing-library", "swift-testing", "--filter", filter])
      let output = run.standardOutput + "\n" + run.standardError
      #expect(output.contains("Test run with"), "the suites did not run: \(output.suffix(2000))")
      let logLines = output.split(separator: "\n").filter(Self.isLogLine)
      #expect(
        logLines.isEmpty,
        "\(logLines.count) log lines from tests, first:\n\(logLines.prefix(10).joined(separator: "\n"))"
      )
    }
  #endif
}
