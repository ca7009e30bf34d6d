import Foundation
import NotesCore
import StateRestoration
import StateRestorationTesting
import StateRestorationUI
import TestSupport
import Testing

/// The Notes app's archives, recorded as fixtures in `__RestorationArchives__` by the version of
/// the app that preserved them, and restored by every run with the current code.
@Suite struct RecordedArchiveTests {
  private let archives = RecordedArchives()
  /// What `main.swift` launches the app with.
  private let applicationInfo = ApplicationInfo(bundleIdentifier: "com.example.Notes")

  /// A new app over a fresh notes file in a new folder below `root`, as `main.swift` launches
  /// it.
  private func makeHarness(in root: URL) throws -> ApplicationHarness {
    let folder = root.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let notes = try NoteStore(path: folder.appendingPathComponent("notes.json").path)
    return ApplicationHarness(applicationInfo: applicationInfo) { NotesAppDelegate(notes: notes) }
  }

  private func navigation(_ application: Application) throws -> NavigationController {
    try #require(application.keyWindow?.rootViewController as? NavigationController)
  }

  /// Note 2 open in its editor with "Buy milk" typed and not saved, then Home.
  @Test func theHalfTypedEditorIsRecorded() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let harness = try makeHarness(in: root)
    harness.launch()
    let session = try #require(NotesSession(application: harness.application))
    for command in [.open(row: 2), .edit, .type("Buy milk")] as [NotesCommand] {
      try session.perform(command)
    }
    harness.application.enterBackground()
    let outcome = try archives.record(
      harness.store.contents[.archive] ?? [], named: "editor",
      appVersion: applicationInfo.bundleVersion)
    if case .recordedNew = outcome { Issue.record("\(outcome): commit it") }
  }

  @Test func everyRecordedArchiveRestoresWithTheCurrentCode() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let replays = try archives.replay(
      { try makeHarness(in: root) },
      check: { archive, application, _ in
        guard archive.fileName.hasPrefix("editor-") else { return }
        let stack = try navigation(application).viewControllers
        let editor = try #require(stack.last as? NoteEditorViewController)
        #expect(editor.textView.text == "Shopping list\nbread\neggs\nBuy milk")
        #expect(editor.hasUnsavedChanges)
      })
    #expect(replays.contains { $0.archive.fileName == "editor-1.data" })
    for replay in replays { #expect(replay.passed, "\(replay)") }
  }
}
