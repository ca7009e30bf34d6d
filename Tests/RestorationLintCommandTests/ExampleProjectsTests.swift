import Foundation
import LintTestSupport
import TestSupport
import Testing

/// The examples and sources of this package lint clean.
///
/// The code written for this package uses its own API, whose names are UIKit's: the lint must
/// not read it as UIKit code. Every example and the package's own sources lint clean, notes
/// included; the examples with planted mistakes are the README's and the docs' runs.
@Suite struct ExampleProjectsTests {
  @Test func theExamplesAndSourcesOfThisPackageLintClean() throws {
    let folders = [
      "Examples/Notes", "Examples/NotesCore", "Examples/Restorer", "Examples/RestorerCore",
      "Sources",
    ]
    let root = BuiltExecutable.packageRoot
    let result = try runTool(
      ["lint", "--min-severity", "note"] + folders.map { root.appendingPathComponent($0).path })
    #expect(result.status == 0)
    #expect(result.standardError.isEmpty)
    let findings = result.standardOutput.split(separator: "\n").filter {
      $0.contains(": error: ") || $0.contains(": warning: ") || $0.contains(": note: ")
    }
    #expect(findings.isEmpty, "\(findings.joined(separator: "\n"))")
    #expect(result.standardOutput.contains(": 0 errors, 0 warnings, 0 notes"))
    // Enough files were read for the check to mean something.
    let summary = try #require(result.standardOutput.split(separator: "\n").last)
    let count = try #require(Int(summary.prefix { $0.isNumber }))
    #expect(count > 100, "\(summary)")
  }
}
