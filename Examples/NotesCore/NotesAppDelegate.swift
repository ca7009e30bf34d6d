public import StateRestoration
public import StateRestorationUI

/// The Notes app's delegate: it opts in to state preservation and restoration, and holds the
/// notes that the restoration classes look notes up in.
///
/// Without the two opt-in answers nothing is saved and nothing is restored, as in UIKit.
open class NotesAppDelegate: ApplicationDelegate {
  /// The app's data.
  public let notes: NoteStore

  /// Creates the delegate.
  ///
  /// - Parameter notes: The app's data.
  public init(notes: NoteStore) {
    self.notes = notes
  }

  /// Does nothing: the app builds its window before launching (see `Examples/Notes/main.swift`).
  open func applicationWillFinishLaunching(_ application: Application) {}

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
