import Foundation
import LintTestSupport
import RestorationLint
import StoryboardTestSupport
import TestSupport
import Testing

/// A multi-platform project's storyboards for macOS and watchOS are listed as not checked, like
/// Objective-C; what the user asked for and could not be read still fails the run.
@Suite struct OtherPlatformTests {
  private static let folder = LintFixtures.path("MultiPlatform")

  @Test func storyboardsOfOtherPlatformsAreListedAndCounted() throws {
    let result = try runTool(["lint", Self.folder])
    #expect(result.status == 0)
    #expect(result.standardError.isEmpty)
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(
      lines.contains(
        "\(Self.folder)/ShelfMac/Base.lproj/Main.storyboard: not checked: an AppKit (macOS) storyboard (the lint reads iOS storyboards and XIBs)"
      ))
    #expect(
      lines.contains(
        "\(Self.folder)/ShelfWatch/Interface.storyboard: not checked: a WatchKit (watchOS) storyboard (the lint reads iOS storyboards and XIBs)"
      ))
    #expect(
      lines.last
        == "2 files checked (1 storyboard, 1 Swift file): 0 errors, 0 warnings; 2 storyboards or XIBs of another platform not checked"
    )
  }

  @Test func oneNamedOnTheCommandLineIsNotCheckedEither() throws {
    let file = "\(Self.folder)/ShelfMac/Base.lproj/Main.storyboard"
    let result = try runTool(["lint", file])
    #expect(result.status == 0)
    #expect(result.standardError.isEmpty)
    #expect(result.standardOutput.hasPrefix("\(file): not checked: an AppKit (macOS) storyboard"))
  }

  @Test func theJSONAndSARIFListThemAsNotChecked() throws {
    let json = try runTool(["lint", "--format", "json", Self.folder])
    #expect(json.status == 0)
    #expect(try schemaErrors(of: json.standardOutput, schema: LintFixtures.outputSchema) == "")
    #expect(json.standardOutput.contains("\"reason\" : \"otherPlatform\""))
    let sarif = try runTool(["lint", "--format", "sarif", Self.folder])
    #expect(try schemaErrors(of: sarif.standardOutput, schema: LintFixtures.sarifSchema) == "")
    #expect(sarif.standardOutput.contains("an AppKit (macOS) storyboard"))
  }

  @Test func aDamagedStoryboardInAFolderStillFailsTheRun() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.copyItem(
      atPath: Fixtures.local("Truncated.storyboard"),
      toPath: folder.appendingPathComponent("Main.storyboard").path)
    try FileManager.default.copyItem(
      atPath: "\(Self.folder)/ShelfMac",
      toPath: folder.appendingPathComponent("ShelfMac").path)
    let result = try runTool(["lint", folder.path])
    #expect(result.status == 2)
    #expect(
      result.standardError.hasPrefix(
        "restoration-archive-tool: \(folder.path)/Main.storyboard:4: not well-formed XML"))
  }
}
