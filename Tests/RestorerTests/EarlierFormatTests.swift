import Foundation
import StateRestoration
import TestSupport
import Testing

/// Archives the Restorer app saved with release 0.1.0's format, 2.0: an app updated to a later
/// format restores them, and the archive tool reads them as they were.
@Suite struct EarlierFormatTests {
  private static func fixture(_ name: String) -> URL {
    BuiltExecutable.packageRoot.appendingPathComponent("Tests/RestorerTests/Fixtures/format-2.0")
      .appendingPathComponent(name)
  }

  @Test(arguments: [
    ("country-detail.data", "Capital:  San Jose"), ("countries-list.data", "rows 64-81 of 252"),
    ("web-view.data", "zoom 156%"), ("settings.data", "[2 Settings]"),
  ])
  func anArchiveOfReleaseZeroOneRestoresInTheApp(file: String, screen: String) throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = RestorerProcess(stateDirectory: folder)
    try placeArchive(Self.fixture(file), at: app.archivePath)
    let result = try app.run(keys: "")
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("Restored "))
    #expect(result.standardOutput.contains(screen))
    #expect(!result.standardOutput.contains("not restored"))
  }

  @Test func anArchiveOfReleaseZeroOneReadsAsItWasWritten() throws {
    let bytes = [UInt8](try Data(contentsOf: Self.fixture("country-detail.data")))
    let archive = try RestorationArchive(decoding: bytes)
    #expect(archive.version == RestorationArchive.Version(major: 2, minor: 0))
    let tab = "TabBarControllerID"
    #expect(
      archive.rootIdentifierPaths == [
        tab, "\(tab)/:[0]:/CountryNCID", "\(tab)/:[1]:/SettingsNCID",
        "\(tab)/:[0]:/CountryNCID/:[0]:/CountryTVCID", "\(tab)/:[0]:/CountryNCID/:[1]:/CountryVCID",
        "\(tab)/:[1]:/SettingsNCID/:[0]:/SettingsVCID",
        "\(tab)/:[0]:/CountryNCID/:[0]:/CountryTVCID/CountryTVID",
      ])
  }

  /// The archive tool prints them as the release that wrote them did.
  @Test(arguments: ["country-detail", "web-view"])
  func theArchiveToolDumpsThemAsBefore(name: String) throws {
    let tool = try BuiltExecutable.path(
      named: "restoration-archive-tool", variable: "RESTORATION_ARCHIVE_TOOL")
    let result = try run(tool, ["dump", Self.fixture("\(name).data").path])
    #expect(result.status == 0, "\(result.standardError)")
    let expected = try String(contentsOf: Self.fixture("\(name).dump.txt"), encoding: .utf8)
    #expect(result.standardOutput == expected)
  }
}
