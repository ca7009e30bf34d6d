import Foundation
import StateRestoration
import TestSupport
import Testing

/// Archives the Restorer app saved with format 1.0, which stored each record's whole path: an
/// app updated to format 2.0 restores them, and the archive tool reads them as they were.
@Suite struct EarlierFormatTests {
  private static func fixture(_ name: String) -> URL {
    BuiltExecutable.packageRoot.appendingPathComponent("Tests/RestorerTests/Fixtures/format-1.0")
      .appendingPathComponent(name)
  }

  @Test(arguments: [
    ("country-detail.data", "Country:  Algeria"), ("web-view.data", "zoom 125%"),
  ])
  func anArchiveOfFormatOneRestoresInTheApp(file: String, screen: String) throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = RestorerProcess(stateDirectory: folder)
    let archive = URL(fileURLWithPath: app.archivePath)
    try FileManager.default.createDirectory(
      at: archive.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: Self.fixture(file), to: archive)
    let result = try app.run(keys: "")
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("Restored "))
    #expect(result.standardOutput.contains(screen))
  }

  /// Read, the archive is the one the earlier reader read; written again, it keeps its format
  /// and reads back the same.
  @Test func anArchiveOfFormatOneReadsAndWritesBackInItsFormat() throws {
    let bytes = [UInt8](try Data(contentsOf: Self.fixture("country-detail.data")))
    let archive = try RestorationArchive(decoding: bytes)
    #expect(archive.version == RestorationArchive.Version(major: 1, minor: 0))
    #expect(
      archive.rootIdentifierPaths.prefix(2) == [
        "TabBarControllerID", "TabBarControllerID/:[0]:/CountryNCID",
      ])
    let again = try archive.encoded()
    #expect(try RestorationArchive(decoding: again) == archive)
    #expect(String(decoding: again, as: UTF8.self).contains("TabBarControllerID/:[0]:/CountryNCID"))
  }
}
