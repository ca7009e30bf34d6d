import Foundation
import LintTestSupport
import RestorationLint
import TestSupport
import Testing

/// One version, `PackageVersion.current`: what `--version`, `--help` and the SARIF output say,
/// and what the CHANGELOG's latest release and the README name.
@Suite struct VersionTests {
  private func text(_ file: String) throws -> String {
    try String(
      contentsOf: BuiltExecutable.packageRoot.appendingPathComponent(file), encoding: .utf8)
  }

  @Test func theToolPrintsItsVersion() throws {
    let version = try runTool(["--version"])
    #expect(version.status == 0)
    #expect(version.standardOutput == PackageVersion.current + "\n")
    let help = try runTool(["--help"])
    #expect(help.standardOutput.contains("(version \(PackageVersion.current))"))
  }

  @Test func theLatestReleaseOfTheChangelogIsTheVersion() throws {
    // `## [0.1.0] - 2026-11-26`: the first heading of a release, not `[Unreleased]`.
    let releases = try text("CHANGELOG.md").split(separator: "\n").filter {
      $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]")
    }
    let latest = try #require(releases.first, "CHANGELOG.md names no release")
    #expect(latest.hasPrefix("## [\(PackageVersion.current)] - "), "\(latest)")
    #expect(try text("README.md").contains("Version \(PackageVersion.current);"))
  }

  @Test func theSARIFDriverNamesTheVersion() throws {
    let sarif = try runTool(["lint", "--format", "sarif", LintFixtures.project])
    let log = try #require(
      try JSONSerialization.jsonObject(with: Data(sarif.standardOutput.utf8)) as? [String: Any])
    let run = try #require((log["runs"] as? [[String: Any]])?.first)
    let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
    #expect(driver["version"] as? String == PackageVersion.current)
    #expect(driver["semanticVersion"] as? String == PackageVersion.current)
  }
}
