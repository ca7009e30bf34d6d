public import Foundation
public import StateRestoration
public import StateRestorationUI

/// The list of notes, the navigation controller's root.
///
/// It exists before launch, so restoration finds it by its identifier path and needs no
/// restoration class. Its table's data source adopts ``DataSourceModelAssociation`` with the
/// notes' identities, so the selection and the scroll position come back to the same notes
/// even when notes were added or deleted between launches.
public final class NoteListViewController: ViewController, TableViewDataSource,
  TableViewDelegate, DataSourceModelAssociation
{
  /// How many rows the list shows at once.
  public static let visibleRowCount = 6

  /// The app's data.
  public let notes: NoteStore
  /// The table; its restoration identifier makes the engine save its selection and scroll.
  public let tableView = TableView(restorationIdentifier: "NoteTable")

  /// Creates the list.
  ///
  /// - Parameter notes: The app's data.
  public init(notes: NoteStore) {
    self.notes = notes
    super.init(restorationIdentifier: "NoteList")
    title = "Notes"
  }

  /// Builds the view: the table fills it.
  public override func loadView() {
    tableView.bounds = Size(width: 60, height: Double(Self.visibleRowCount))
    let root = View()
    root.addSubview(tableView)
    setView(root)
  }

  /// Connects the table to the notes; a selection or scroll waiting from restoration is
  /// applied as soon as the data is there.
  public override func viewDidLoad() {
    super.viewDidLoad()
    tableView.delegate = self
    tableView.dataSource = self
  }

  /// Reloads the rows: a note saved in the editor may have a new title.
  public override func viewWillAppear() {
    super.viewWillAppear()
    tableView.reloadData()
  }

  /// Opens the note on a row, as a tap on it does: the row is selected and the note pushed.
  ///
  /// - Parameter row: The row, from 0.
  public func openNote(atRow row: Int) {
    let indexPath = IndexPath(row: row, section: 0)
    tableView.scrollToMakeVisible(indexPath)
    tableView.userSelectItem(at: indexPath)
  }

  /// The note on a row.
  ///
  /// - Parameter indexPath: The row.
  /// - Returns: The note, or nil.
  public func note(at indexPath: IndexPath) -> Note? {
    guard indexPath.section == 0, notes.notes.indices.contains(indexPath.row) else { return nil }
    return notes.notes[indexPath.row]
  }

  // MARK: TableViewDataSource

  /// The number of notes.
  public func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
    notes.notes.count
  }

  /// The note's title.
  public func tableView(_ tableView: TableView, titleForRowAt indexPath: IndexPath) -> String {
    note(at: indexPath)?.title ?? ""
  }

  // MARK: TableViewDelegate

  /// Pushes the selected note's screen.
  public func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {
    guard let note = note(at: indexPath) else { return }
    navigationController?.pushViewController(
      NoteDetailViewController(noteID: note.id, notes: notes))
  }

  // MARK: DataSourceModelAssociation

  /// A note's identity, which survives edits, insertions and deletions.
  public func modelIdentifierForElement(at indexPath: IndexPath, in view: View) -> String? {
    note(at: indexPath).map { String($0.id) }
  }

  /// Where the note with an identity is now; nil when it was deleted.
  public func indexPathForElement(withModelIdentifier identifier: String, in view: View)
    -> IndexPath?
  {
    guard let id = Int(identifier), let row = notes.index(ofNoteWithID: id) else { return nil }
    return IndexPath(row: row, section: 0)
  }
}

/// One note's screen, created in code when a row is tapped.
///
/// Nothing exists at its identifier path at launch, so its restoration class creates it again;
/// the archive holds only the note's identity, and the text comes from the notes file.
public final class NoteDetailViewController: ViewController, ViewControllerRestoration {
  static let noteIDKey = "noteID"

  /// The identity of the note shown.
  public let noteID: Int
  /// The app's data.
  public let notes: NoteStore

  /// Creates the screen of a note.
  ///
  /// - Parameters:
  ///   - noteID: The note's identity.
  ///   - notes: The app's data.
  public init(noteID: Int, notes: NoteStore) {
    self.noteID = noteID
    self.notes = notes
    super.init(restorationIdentifier: "NoteDetail")
    // The engine records the class in the archive and calls it at the next launch; the class
    // must also be registered with the application.
    restorationClass = NoteDetailViewController.self
  }

  /// The note, or nil when it was deleted.
  public var note: Note? { notes.note(withID: noteID) }

  /// Opens the editor on the note, as an Edit button does.
  public func edit() {
    navigationController?.pushViewController(NoteEditorViewController(noteID: noteID, notes: notes))
  }

  /// Writes the note's identity: the text is app data, in the notes file.
  public override func encodeRestorableState(with coder: StateCoder) throws {
    try super.encodeRestorableState(with: coder)
    coder.encode(noteID, forKey: Self.noteIDKey)
  }

  /// Creates the screen again, unless its note was deleted since: returning nil leaves it (and
  /// the editor above it) out, and the list is on top.
  public static func viewController(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> ViewController? {
    guard let note = coder.restoredNote(forKey: noteIDKey, screen: "screen") else { return nil }
    return NoteDetailViewController(noteID: note.id, notes: note.notes)
  }
}

/// The editor, created in code by the note's screen, with a restoration class.
///
/// Its unsaved text is UI state, not data: the controller archives it (the notes file changes
/// only on ``save()``), and its text view archives the caret and the editing state.
public final class NoteEditorViewController: ViewController, ViewControllerRestoration {
  static let noteIDKey = "noteID"
  static let draftKey = "draft"

  /// The identity of the note edited.
  public let noteID: Int
  /// The app's data.
  public let notes: NoteStore
  /// The text being edited; its restoration identifier makes the engine save its caret.
  public let textView = TextView(restorationIdentifier: "NoteText")

  /// Creates an editor on a note's current text, with the caret at the end.
  ///
  /// - Parameters:
  ///   - noteID: The note's identity.
  ///   - notes: The app's data.
  public init(noteID: Int, notes: NoteStore) {
    self.noteID = noteID
    self.notes = notes
    super.init(restorationIdentifier: "NoteEditor")
    restorationClass = NoteEditorViewController.self
    title = "Edit"
    let text = notes.note(withID: noteID)?.text ?? ""
    textView.text = text
    textView.selectedRange = text.count..<text.count
    textView.isEditing = true
  }

  /// Builds the view: the text view fills it.
  public override func loadView() {
    let root = View()
    root.addSubview(textView)
    setView(root)
  }

  /// Whether the text differs from the saved note.
  public var hasUnsavedChanges: Bool { textView.text != notes.note(withID: noteID)?.text }

  /// Types text at the caret, replacing the selection, as a keyboard does.
  ///
  /// - Parameter text: The text typed.
  public func type(_ text: String) {
    var characters = Array(textView.text)
    let range = clampedSelection(in: characters.count)
    characters.replaceSubrange(range, with: Array(text))
    textView.text = String(characters)
    let caret = range.lowerBound + text.count
    textView.selectedRange = caret..<caret
  }

  /// Moves the caret left, as the arrow key does.
  ///
  /// - Parameter count: How many characters; the caret stops at the start.
  public func moveCaretLeft(by count: Int) {
    let caret = max(0, clampedSelection(in: textView.text.count).lowerBound - max(0, count))
    textView.selectedRange = caret..<caret
  }

  /// Saves the text into the notes file and goes back to the note.
  ///
  /// - Throws: ``NoteStoreError`` when the file cannot be written; the editor stays open.
  public func save() throws(NoteStoreError) {
    try notes.update(noteWithID: noteID, text: textView.text)
    navigationController?.popViewController()
  }

  /// The selection within `count` characters; the end of the text when there is none.
  private func clampedSelection(in count: Int) -> Range<Int> {
    guard let range = textView.selectedRange else { return count..<count }
    return min(range.lowerBound, count)..<min(range.upperBound, count)
  }

  /// Writes the note's identity and the text as typed, saved or not.
  public override func encodeRestorableState(with coder: StateCoder) throws {
    try super.encodeRestorableState(with: coder)
    coder.encode(noteID, forKey: Self.noteIDKey)
    coder.encode(textView.text, forKey: Self.draftKey)
  }

  /// Reads the text back; the text view then restores its caret within it.
  public override func decodeRestorableState(with coder: StateDecoder) throws {
    try super.decodeRestorableState(with: coder)
    if let draft = coder.decode(String.self, forKey: Self.draftKey) { textView.text = draft }
  }

  /// Creates the editor again, unless its note was deleted since.
  public static func viewController(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> ViewController? {
    guard let note = coder.restoredNote(forKey: noteIDKey, screen: "editor") else { return nil }
    return NoteEditorViewController(noteID: note.id, notes: note.notes)
  }
}
