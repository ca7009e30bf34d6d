import Foundation
import NotesCore
import StateRestoration
import StateRestorationTesting
import StateRestorationUI
import TestSupport
import Testing

/// Builds the Notes app's launch UI as `Examples/Notes/main.swift` does, registering the given
/// restoration classes, from will-finish-launching: the harness makes a new application for
/// each process and launches it at once.
private final class HarnessNotesDelegate: NotesAppDelegate {
  let restorationClasses: [any ViewControllerRestoration.Type]

  init(notes: NoteStore, registering restorationClasses: [any ViewControllerRestoration.Type]) {
    self.restorationClasses = restorationClasses
    super.init(notes: notes)
  }

  override func applicationWillFinishLaunching(_ application: Application) {
    for restorationClass in restorationClasses {
      application.register(restorationClass: restorationClass)
    }
    let navigation = NavigationController(
      rootViewController: NoteListViewController(notes: notes), restorationIdentifier: "Notes")
    application.addWindow(Window(rootViewController: navigation))
  }
}

/// Why `register(restorationClass:)` is in `main.swift`: an archive re-creates only registered
/// classes, and a screen whose class is missing is left out at launch, with no error.
@Suite struct RegistrationTests {
  static let editorPath = "Notes/:[2]:/NoteEditor"

  /// A harness over a notes file in `folder`: each "process" opens the file again.
  private func makeHarness(
    folder: URL, registering restorationClasses: [any ViewControllerRestoration.Type]
  ) -> ApplicationHarness {
    let path = folder.appendingPathComponent("notes.json").path
    return ApplicationHarness {
      do {
        return HarnessNotesDelegate(
          notes: try NoteStore(path: path), registering: restorationClasses)
      } catch {
        Issue.record("the notes file: \(error)")
        return OptingInApplicationDelegate()
      }
    }
  }

  private func navigation(_ application: Application) throws -> NavigationController {
    try #require(application.keyWindow?.rootViewController as? NavigationController)
  }

  /// Opens note 2, starts editing and types, as `notes open 2 edit type "Buy milk"` does.
  private func typeInNote2(_ harness: ApplicationHarness) throws {
    harness.launch()
    let navigation = try navigation(harness.application)
    let list = try #require(navigation.topViewController as? NoteListViewController)
    list.openNote(atRow: 1)
    let detail = try #require(navigation.topViewController as? NoteDetailViewController)
    detail.edit()
    let editor = try #require(navigation.topViewController as? NoteEditorViewController)
    editor.type("Buy milk")
  }

  @Test func registeredClassesBringBackTheEditorWithItsText() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let harness = makeHarness(
      folder: folder,
      registering: [NoteDetailViewController.self, NoteEditorViewController.self])
    try typeInNote2(harness)

    let restart = harness.restartAndRestore()
    #expect(restart.preservation?.issues == [])
    #expect(restart.leakedObjects == [])
    #expect(restart.report.outcome == .restored)
    #expect(restart.report.entries.allSatisfy { $0.status == .restored }, "\(restart.report)")
    let stack = try navigation(restart.application).viewControllers
    #expect(stack.count == 3)
    let editor = try #require(stack.last as? NoteEditorViewController)
    #expect(editor.textView.text == "Shopping list\nbread\neggs\nBuy milk")
    #expect(editor.hasUnsavedChanges)
    let list = try #require(stack.first as? NoteListViewController)
    #expect(list.tableView.indexPathForSelectedRow == IndexPath(row: 1, section: 0))
  }

  @Test func withoutRegisteringTheEditorItsScreenIsDroppedAndTheLaunchStillSucceeds() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let harness = makeHarness(folder: folder, registering: [NoteDetailViewController.self])
    try typeInNote2(harness)

    let restart = harness.restartAndRestore()
    // The preservation says so in its report (and in a log warning), but writes the archive.
    let issues = try #require(restart.preservation?.issues(of: .restorationClassNotRegistered))
    #expect(issues.map(\.identifierPath) == [Self.editorPath])
    // The launch restores everything else: nothing fails, the editor is simply not there.
    #expect(restart.report.outcome == .restored)
    #expect(
      restart.report.status(of: Self.editorPath)
        == .skipped(.restorationClassNotRegistered("NoteEditorViewController")))
    let stack = try navigation(restart.application).viewControllers
    #expect(stack.count == 2)
    #expect(stack.last is NoteDetailViewController)
    #expect(!stack.contains { $0 is NoteEditorViewController })
  }

  @Test func withoutAnyRegistrationOnlyTheListComesBack() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let harness = makeHarness(folder: folder, registering: [])
    try typeInNote2(harness)

    let restart = harness.restartAndRestore()
    #expect(restart.report.outcome == .restored)
    let stack = try navigation(restart.application).viewControllers
    #expect(stack.count == 1)
    let list = try #require(stack.first as? NoteListViewController)
    // The list itself existed at launch, so its selection still comes back.
    #expect(list.tableView.indexPathForSelectedRow == IndexPath(row: 1, section: 0))
  }
}
