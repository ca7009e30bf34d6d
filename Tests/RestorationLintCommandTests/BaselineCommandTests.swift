import Foundation
import LintTestSupport
import TestSupport
import Testing

/// `--write-baseline` and `--baseline`, as a team adopts the lint on an existing app, and
/// `--include` and `--exclude`.
@Suite struct BaselineCommandTests {
  /// A copy of the LintDemo project (four findings) in a temporary folder, the current folder
  /// of the tool's runs.
  private struct Project {
    let folder: URL

    init() throws {
      folder = try makeTemporaryFolder()
      try FileManager.default.copyItem(
        at: BuiltExecutable.packageRoot.appendingPathComponent("Examples/LintDemo"),
        to: folder.appendingPathComponent("App"))
    }

    func lint(_ arguments: [String]) throws -> ProcessResult {
      try run(
        "/bin/sh",
        ["-c", "cd \"$0\" && tool=\"$1\" && shift && exec \"$tool\" lint \"$@\"", folder.path]
          + [try toolPath()] + arguments)
    }

    private func toolPath() throws -> String {
      try BuiltExecutable.path(named: "restoration-archive-tool")
    }

    func edit(_ file: String, _ change: (String) -> String) throws {
      let url = folder.appendingPathComponent(file)
      let text = try String(contentsOf: url, encoding: .utf8)
      let changed = change(text)
      #expect(changed != text)
      try changed.write(to: url, atomically: true, encoding: .utf8)
    }
  }

  @Test func editsAboveAFindingDoNotBringItBack() throws {
    let project = try Project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let written = try project.lint(["--write-baseline", "baseline.json", "App"])
    #expect(written.status == 1)
    #expect(
      written.standardError
        == "restoration-archive-tool: wrote 4 findings to the baseline baseline.json\n")
    let baseline = try String(
      contentsOf: project.folder.appendingPathComponent("baseline.json"), encoding: .utf8)
    #expect(baseline.contains("\"file\" : \"App/CountryViewController.swift\""))
    #expect(
      baseline.contains(
        #""lineText" : "country = coder.decodeObject(forKey: \"country\") as! String""#))

    // Lines added above every finding move them all.
    for file in ["App/AppDelegate.swift", "App/CountryViewController.swift"] {
      try project.edit(file) {
        $0.replacingOccurrences(of: "import UIKit\n", with: "import UIKit\n\n// Moved.\n\n")
      }
    }
    try project.edit("App/Restorer.storyboard") {
      $0.replacingOccurrences(of: "<scenes>\n", with: "<scenes>\n<!-- moved -->\n")
    }
    let moved = try project.lint(["--baseline", "baseline.json", "App"])
    #expect(moved.status == 0)
    #expect(moved.standardError.isEmpty)
    #expect(
      moved.standardOutput
        == "3 files checked (1 storyboard, 2 Swift files): 0 errors, 0 warnings; 4 findings of the baseline not shown\n"
    )

    // A new finding, and a changed line, are reported; the others stay accepted.
    try project.edit("App/CountryViewController.swift") {
      $0.replacingOccurrences(of: "as! String\n", with: "as! String?\n")
    }
    let changed = try project.lint(["--baseline", "baseline.json", "App"])
    #expect(changed.status == 0)
    let lines = changed.standardOutput.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.first?.hasSuffix("[force-cast-decoded-optional]") == true)
    #expect(lines.last?.hasSuffix("; 3 findings of the baseline not shown") == true)
  }

  @Test func eachEntryAcceptsOneFinding() throws {
    let project = try Project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    _ = try project.lint(["--write-baseline", "baseline.json", "App"])
    // The same mistake again, on a line with the same text: one more finding than accepted.
    try project.edit("App/CountryViewController.swift") {
      $0.replacingOccurrences(
        of: "    country = coder.decodeObject(forKey: \"country\") as! String\n",
        with:
          "    country = coder.decodeObject(forKey: \"country\") as! String\n    country = coder.decodeObject(forKey: \"country\") as! String\n"
      )
    }
    let result = try project.lint(["--baseline", "baseline.json", "App"])
    #expect(result.status == 1)
    let findings = result.standardOutput.split(separator: "\n").filter { $0.contains(": error: ") }
    #expect(findings.count == 1)
  }

  @Test func aMissingOrDamagedBaselineStopsTheRun() throws {
    let project = try Project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let missing = try project.lint(["--baseline", "nope.json", "App"])
    #expect(missing.status == 2)
    #expect(
      missing.standardError
        == "restoration-archive-tool: nope.json: cannot be read (no such file, or no permission)\n")
    #expect(missing.standardOutput.isEmpty)
    try "{}".write(
      to: project.folder.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
    let damaged = try project.lint(["--baseline", "bad.json", "App"])
    #expect(damaged.status == 2)
    #expect(
      damaged.standardError.hasPrefix("restoration-archive-tool: bad.json: is not a baseline"))
  }

  @Test func includeAndExcludeChooseTheFiles() throws {
    let project = try Project()
    defer { try? FileManager.default.removeItem(at: project.folder) }
    let included = try project.lint(["--include", "*Controller.swift", "App"])
    #expect(
      included.standardOutput.hasSuffix("1 file checked (1 Swift file): 1 error, 0 warnings\n"))
    let excluded = try project.lint([
      "--exclude", "AppDelegate.swift", "--exclude", "**/*.storyboard", "App",
    ])
    #expect(
      excluded.standardOutput.hasSuffix("1 file checked (1 Swift file): 1 error, 0 warnings\n"))
    // Both: the exclusion wins.
    let both = try project.lint([
      "--include", "*.swift", "--exclude", "CountryViewController.swift", "App",
    ])
    #expect(both.standardOutput.hasSuffix("1 file checked (1 Swift file): 0 errors, 2 warnings\n"))
    // The configuration's `included` list, too.
    try "included:\n  - Restorer.storyboard\n".write(
      to: project.folder.appendingPathComponent("App/.restoration-lint.yml"), atomically: true,
      encoding: .utf8)
    let configured = try project.lint(["App"])
    #expect(
      configured.standardOutput.hasSuffix("1 file checked (1 storyboard): 0 errors, 1 warning\n"))
  }
}
