public import StateRestoration
public import StateRestorationUI

/// The Notes app's delegate: it opts in to state preservation and restoration, registers the
/// restoration classes, builds the window, and holds the notes that the restoration classes look
/// notes up in.
///
/// Without the two opt-in answers nothing is saved and nothing is restored, as in UIKit. The
/// launch UI is built in `applicationWillFinishLaunching(_:)`, so that `main.swift` and a test's
/// `ApplicationHarness` launch the app the same way.
open class NotesAppDelegate: ApplicationDelegate {
  /// The app's data.
  public let notes: NoteStore
  /// The window's navigation controller, whose root is the list of notes.
  public let navigation: NavigationController
  /// The classes registered at launch, which re-create the screens made in code.
  public let restorationClasses: [any ViewControllerRestoration.Type]

  /// Creates the delegate and its launch UI.
  ///
  /// - Parameters:
  ///   - notes: The app's data.
  ///   - restorationClasses: The classes to register at launch; by default the note's screen
  ///     and the editor, the two screens created in code.
  public required init(
    notes: NoteStore,
    restorationClasses: [any ViewControllerRestoration.Type] = [
      NoteDetailViewController.self, NoteEditorViewController.self,
    ]
  ) {
    self.notes = notes
    self.restorationClasses = restorationClasses
    // Restoration finds the navigation controller and the list by their restoration
    // identifiers, and pushes the restored screens on top.
    navigation = NavigationController(
      rootViewController: NoteListViewController(notes: notes), restorationIdentifier: "Notes")
  }

  /// Registers the restoration classes and adds the window, before restoration runs.
  ///
  /// An archive can only create registered classes: without a registration, its screen is left
  /// out of the restored navigation stack, and the report's `restoredEverything` is false.
  open func applicationWillFinishLaunching(_ application: Application) {
    for restorationClass in restorationClasses {
      application.register(restorationClass: restorationClass)
    }
    application.addWindow(Window(rootViewController: navigation))
  }

  /// Opts in to preservation.
  open func application(_ application: Application, shouldSaveApplicationState coder: StateCoder)
    -> Bool
  { true }

  /// Opts in to restoration.
  open func application(
    _ application: Application,
    shouldRestoreApplicationState coder: StateDecoder
  ) -> Bool { true }
}

extension StateDecoder {
  /// The notes of the app being restored, for the restoration classes.
  var notes: NoteStore? { (application?.delegate as? NotesAppDelegate)?.notes }

  /// The note a restored screen showed and the notes, unless the note was deleted since: its
  /// screen then stays out, and the debug log says why.
  func restoredNote(forKey key: String, screen: String) -> (id: Int, notes: NoteStore)? {
    guard let noteID = decode(Int.self, forKey: key), let notes else { return nil }
    guard notes.note(withID: noteID) != nil else {
      debugLog("Note \(noteID) is no longer in the notes file; its \(screen) is not restored")
      return nil
    }
    return (noteID, notes)
  }
}
