import Foundation
import TestSupport
import Testing

/// Archives the Notes app saved with release 0.1.0's format, 2.0, restored by the current app.
@Suite struct EarlierFormatTests {
  @Test(arguments: [
    ("editor.data", "Buy milk|"), ("list.data", "rows 3-8 of 12"),
  ])
  func anArchiveOfReleaseZeroOneRestoresInTheApp(file: String, screen: String) throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = NotesProcess(stateDirectory: folder)
    try placeArchive(
      BuiltExecutable.packageRoot.appendingPathComponent(
        "Tests/NotesTests/Fixtures/format-2.0/\(file)"),
      at: app.archivePath)
    let result = try app.run([])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("Launch: restored"))
    #expect(result.standardOutput.contains(screen))
  }
}
