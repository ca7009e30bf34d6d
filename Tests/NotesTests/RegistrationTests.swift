import Foundation
import NotesCore
import StateRestoration
import StateRestorationTesting
import StateRestorationUI
import TestSupport
import Testing

/// The Notes app without the editor's registration, as if `register(restorationClass:)` had
/// been left out of its launch.
private final class NotesAppDelegateWithoutTheEditor: NotesAppDelegate {
  required init(
    notes: NoteStore, restorationClasses: [any ViewControllerRestoration.Type] = []
  ) {
    super.init(notes: notes, restorationClasses: [NoteDetailViewController.self])
  }
}

/// The README's test of the Notes app, which launches the delegate `main.swift` launches.
///
/// The generic parameter is named as the delegate class, so that the lines below are the
/// README's, word for word (`ReadmeNotesExcerptTests` checks it), and run unchanged with a
/// delegate that leaves a registration out.
private func theReadmesTest<NotesAppDelegate: NotesCore.NotesAppDelegate>(
  _: NotesAppDelegate.Type, folder: URL
) throws {
  let notes = try NoteStore(path: folder.appendingPathComponent("notes.json").path)
  let harness = ApplicationHarness { NotesAppDelegate(notes: notes) }  // as main.swift launches
  harness.launch()
  let session = try #require(NotesSession(application: harness.application))
  for command in [.open(row: 2), .edit, .type("Buy milk")] as [NotesCommand] {
    try session.perform(command)  // as the user taps and types
  }
  let restart = harness.restartAndRestore()  // Home, the process is killed, launch again
  #expect(restart.report.restoredEverything, "\(restart.report)")
}

/// Why the delegate registers the restoration classes: an archive re-creates only registered
/// classes, and a screen whose class is missing is left out at launch.
@Suite struct RegistrationTests {
  static let editorPath = "Notes/:[2]:/NoteEditor"

  @Test func theReadmesTestPasses() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try theReadmesTest(NotesAppDelegate.self, folder: folder)
  }

  @Test func theReadmesTestFailsWhenARegistrationIsRemoved() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // A known issue that is not recorded is a failure: the README's test must catch this.
    try withKnownIssue("the editor's screen is not restored") {
      try theReadmesTest(NotesAppDelegateWithoutTheEditor.self, folder: folder)
    } matching: { issue in
      issue.description.contains("restoredEverything")
    }
  }

  /// A harness over a notes file in `folder`: each "process" opens the file again.
  private func makeHarness(
    folder: URL, registering restorationClasses: [any ViewControllerRestoration.Type]
  ) -> ApplicationHarness {
    let path = folder.appendingPathComponent("notes.json").path
    return ApplicationHarness {
      do {
        return NotesAppDelegate(
          notes: try NoteStore(path: path), restorationClasses: restorationClasses)
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
    #expect(restart.report.restoredEverything, "\(restart.report)")
    #expect(restart.report.warnings == [])
    let stack = try navigation(restart.application).viewControllers
    #expect(stack.count == 3)
    let editor = try #require(stack.last as? NoteEditorViewController)
    #expect(editor.textView.text == "Shopping list\nbread\neggs\nBuy milk")
    #expect(editor.hasUnsavedChanges)
    let list = try #require(stack.first as? NoteListViewController)
    #expect(list.tableView.indexPathForSelectedRow == IndexPath(row: 1, section: 0))
  }

  @Test func withoutRegisteringTheEditorItsScreenIsDroppedWithAWarning() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = LogCapture()
    let harness = makeHarness(folder: folder, registering: [NoteDetailViewController.self])
    harness.logger = log.makeLogger()
    try typeInNote2(harness)

    let restart = harness.restartAndRestore()
    // The preservation says so in its report (and in a log warning), but writes the archive.
    let issues = try #require(restart.preservation?.issues(of: .restorationClassNotRegistered))
    #expect(issues.map(\.identifierPath) == [Self.editorPath])
    // The launch restores everything else, and says what it left out.
    #expect(restart.report.outcome == .restored)
    #expect(!restart.report.restoredEverything)
    // The editor, and its text view with it.
    #expect(
      restart.report.unrestored.map(\.status) == [
        .skipped(.restorationClassNotRegistered("NoteEditorViewController")),
        .skipped(.missingParent(Self.editorPath)),
      ])
    #expect(restart.report.unrestored.first?.identifierPath == Self.editorPath)
    let warning =
      "\(Self.editorPath): restoration class 'NoteEditorViewController' is not registered; not restored"
    #expect(restart.report.warnings == [warning])
    #expect(log.warnings.contains(warning))
    let stack = try navigation(restart.application).viewControllers
    #expect(stack.count == 2)
    #expect(stack.last is NoteDetailViewController)
    #expect(!stack.contains { $0 is NoteEditorViewController })
  }

  @Test func theHarnessKeepsWhatItsProcessesLogInsteadOfPrintingIt() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let harness = makeHarness(folder: folder, registering: [NoteDetailViewController.self])
    try typeInNote2(harness)
    harness.restartAndRestore()
    let expected =
      "warning: \(Self.editorPath): restoration class 'NoteEditorViewController' is not registered; not restored"
    #expect(harness.loggedMessages.contains(expected), "\(harness.loggedMessages)")
  }

  @Test func withoutAnyRegistrationOnlyTheListComesBack() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let harness = makeHarness(folder: folder, registering: [])
    harness.logger = LogCapture().makeLogger()
    try typeInNote2(harness)

    let restart = harness.restartAndRestore()
    #expect(restart.report.outcome == .restored)
    // The note's screen, the editor and the editor's text view.
    #expect(restart.report.unrestored.count == 3, "\(restart.report)")
    let stack = try navigation(restart.application).viewControllers
    #expect(stack.count == 1)
    let list = try #require(stack.first as? NoteListViewController)
    // The list itself existed at launch, so its selection still comes back.
    #expect(list.tableView.indexPathForSelectedRow == IndexPath(row: 1, section: 0))
  }
}
