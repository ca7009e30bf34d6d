import Foundation
import StateRestoration
import StateRestorationTesting
import StateRestorationUI
import TestSupport
import Testing

/// An app of one navigation controller over a screen; `screen` names the screen's identifier.
private final class OneScreenDelegate: OptingInApplicationDelegate {
  let screen: String
  let migrations: [RestorationMigration]

  init(screen: String, migrations: [RestorationMigration] = []) {
    (self.screen, self.migrations) = (screen, migrations)
  }

  override func applicationWillFinishLaunching(_ application: Application) {
    application.engine.registry.migrations = migrations
    let navigation = NavigationController(restorationIdentifier: "Root")
    navigation.setViewControllers([ViewController(restorationIdentifier: screen)])
    application.addWindow(Window(rootViewController: navigation))
  }
}

/// `RecordedArchives`: recording into a folder, when asked or when missing, and replaying every
/// archive of the folder with the current code.
@Suite struct RecordedArchivesTests {
  private func harness(screen: String, migrations: [RestorationMigration] = [])
    -> ApplicationHarness
  {
    ApplicationHarness { OneScreenDelegate(screen: screen, migrations: migrations) }
  }

  /// The archive of the app, as it preserves it at Home.
  private func archive(screen: String) -> [UInt8] {
    let harness = harness(screen: screen)
    harness.launch()
    harness.application.enterBackground()
    return harness.store.contents[.archive] ?? []
  }

  @Test func aMissingArchiveIsRecordedAndAnExistingOneKeptUnlessRecordingIsAsked() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let archives = RecordedArchives(folder: folder.appendingPathComponent("A"), environment: [:])
    let first = archive(screen: "Screen")
    let file = archives.file(named: "screen", appVersion: "1.0")
    #expect(file.lastPathComponent == "screen-1.0.data")
    #expect(try archives.record(first, named: "screen", appVersion: "1.0") == .recordedNew(file))
    #expect(try archives.record([1, 2, 3], named: "screen", appVersion: "1.0") == .kept(file))
    #expect(try [UInt8](Data(contentsOf: file)) == first)

    // Asked by name, it is recorded again; an earlier version's archive is never touched.
    let asked = RecordedArchives(
      folder: archives.folder, environment: [RecordedArchives.recordingVariable: "other, screen"])
    #expect(asked.recording == ["other", "screen"])
    #expect(try asked.record([1, 2, 3], named: "screen", appVersion: "1.0") == .recorded(file))
    let next = archives.file(named: "screen", appVersion: "2.0")
    #expect(try asked.record([4], named: "screen", appVersion: "2.0") == .recordedNew(next))
    #expect(try asked.archives().map(\.fileName) == ["screen-1.0.data", "screen-2.0.data"])
    #expect(try asked.archives().map(\.bytes) == [[1, 2, 3], [4]])

    let all = RecordedArchives(folder: folder, environment: ["RECORD_RESTORATION_ARCHIVES": "1"])
    #expect(all.recording == [])
    let none = RecordedArchives(folder: folder, environment: ["RECORD_RESTORATION_ARCHIVES": "0"])
    #expect(none.recording == nil)
    #expect(RecordedArchives(folder: folder, environment: [:]).recording == nil)
  }

  @Test func namesThatCannotBeFileNamesAndEmptyArchivesAreRefused() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let archives = RecordedArchives(folder: folder, environment: [:])
    for (name, version) in [("../x", "1"), ("", "1"), ("a", "1/2"), (".hidden", "1")] {
      #expect(throws: RecordedArchivesError.self) {
        try archives.record([1], named: name, appVersion: version)
      }
    }
    do {
      try archives.record([], named: "empty", appVersion: "1")
      Issue.record("an empty archive was recorded")
    } catch {
      #expect(error.description.hasSuffix("empty-1.data: the scenario preserved no archive"))
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
  }

  @Test func nextToATestFileIsTheFoldersUsualPlace() {
    let archives = RecordedArchives(nextTo: "/p/Tests/AppTests/AppTests.swift", environment: [:])
    #expect(archives.folder.path == "/p/Tests/AppTests/__RestorationArchives__")
  }

  @Test func everyArchiveIsReplayedAndARenamedScreenFailsNamingItsPath() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let archives = RecordedArchives(folder: folder, environment: [:])
    #expect(throws: RecordedArchivesError.self) {
      try archives.replay { harness(screen: "Screen") }
    }
    try archives.record(archive(screen: "Screen"), named: "screen", appVersion: "1")
    try archives.record(archive(screen: "Other"), named: "other", appVersion: "1")

    let same = try archives.replay { harness(screen: "Screen") }
    #expect(same.map(\.archive.fileName) == ["other-1.data", "screen-1.data"])
    #expect(!same[0].passed)
    #expect(same[1].passed, "\(same[1])")
    #expect(same[1].report.restoredEverything)

    // The next version renames the screen: the archive of the earlier one loses it.
    let renamed = try archives.replay { harness(screen: "Renamed") }
    #expect(
      renamed[1].problems == [
        "Root/:[0]:/Screen [ViewController] not restored: skipped: no restoration class, the delegate returned nil, and its restored container 'Root' is a navigation controller whose stack has no child 'Screen' at index 0; the stack is archived, but nothing re-created this child (give it a restoration class or a storyboard, or create it in the app delegate)"
      ])
    #expect("\(renamed[1])".hasPrefix("screen-1.data:\n  Root/:[0]:/Screen [ViewController]"))

    // With the migration, it comes back; a check sees the restored app.
    let migration = RestorationMigration.renameIdentifier("Screen", to: "Renamed", appVersion: "2")
    let migrated = try archives.replay(
      { harness(screen: "Renamed", migrations: [migration]) },
      expectsUnrestored: { $0.identifierPath == "Root/:[0]:/Other" },
      check: { archive, application, report in
        let navigation = try #require(application.keyWindow?.rootViewController)
        #expect(navigation.children.first?.restorationIdentifier == "Renamed")
        if archive.fileName == "screen-1.data" {
          #expect(report.entry(for: "Root/:[0]:/Renamed")?.migrations == [migration])
        }
      })
    #expect(migrated.allSatisfy { $0.passed }, "\(migrated)")

    // A check that throws fails the replay, and says why.
    struct Wrong: Error {}
    let failing = try archives.replay(
      { harness(screen: "Screen") }, check: { _, _, _ in throw Wrong() })
    #expect(failing[1].problems == ["the check failed: Wrong()"])
  }
}
