import Foundation
public import StateRestoration
public import StateRestorationUI

/// The running Notes app as text: it performs commands on the screen on top and prints the
/// screen, what the launch restored, and what going home preserved.
public final class NotesSession {
  /// The application, launched.
  public let application: Application
  /// The navigation controller that holds the screens.
  public let navigation: NavigationController

  /// The width of the printed screen's rules.
  static let width = 60

  /// Creates a session over a launched application.
  ///
  /// - Parameters:
  ///   - application: The application, launched.
  ///   - navigation: Its navigation controller.
  public init(application: Application, navigation: NavigationController) {
    self.application = application
    self.navigation = navigation
  }

  /// Creates a session over a launched application whose delegate is a ``NotesAppDelegate``;
  /// nil for another app's.
  ///
  /// - Parameter application: The application, launched.
  public convenience init?(application: Application) {
    guard let delegate = application.delegate as? NotesAppDelegate else { return nil }
    self.init(application: application, navigation: delegate.navigation)
  }

  // MARK: Commands

  /// Performs one command.
  ///
  /// - Parameter command: The command.
  /// - Throws: ``NotesCommandError`` when the command does not fit the screen on top or the
  ///   app's state (a note to open that does not exist, a save that cannot be written, an edit
  ///   on the list); nothing is done then.
  public func perform(_ command: NotesCommand) throws(NotesCommandError) {
    do {
      try run(command)
    } catch {
      throw NotesCommandError("\(command): \(error.description)")
    }
  }

  private func run(_ command: NotesCommand) throws(NotesCommandError) {
    switch command {
    case .background:
      let report = application.enterBackground()
      if case .failed(let error) = report?.outcome {
        throw NotesCommandError("the state was not preserved: \(error)")
      }
      return
    case .foreground:
      application.enterForeground()
      return
    case .wait(let seconds):
      Thread.sleep(forTimeInterval: seconds)
      return
    default:
      break
    }
    guard application.state == .active else {
      throw NotesCommandError("the app is in the background; bring it back with 'foreground'")
    }
    switch (command, navigation.topViewController) {
    case (.open(let row), let list as NoteListViewController):
      try Self.check(row, in: list)
      list.openNote(atRow: row - 1)
    case (.scroll(let row), let list as NoteListViewController):
      try Self.check(row, in: list)
      list.tableView.scrollToRow(at: IndexPath(row: row - 1, section: 0))
    case (.edit, let detail as NoteDetailViewController):
      detail.edit()
    case (.type(let text), let editor as NoteEditorViewController):
      editor.type(text)
    case (.left(let count), let editor as NoteEditorViewController):
      editor.moveCaretLeft(by: count)
    case (.save, let editor as NoteEditorViewController):
      do {
        try editor.save()
      } catch {
        throw NotesCommandError(error.description)
      }
    case (.back, _) where navigation.viewControllers.count > 1:
      navigation.popViewController()
    case (_, let top):
      throw NotesCommandError("\(Self.screenName(top)) is on screen; \(Self.whereItWorks(command))")
    }
  }

  /// Checks that a row number (from 1) is on the list.
  private static func check(_ row: Int, in list: NoteListViewController) throws(NotesCommandError) {
    let count = list.notes.notes.count
    if row > count {
      throw NotesCommandError("the list has \(count) \(count == 1 ? "note" : "notes")")
    }
  }

  private static func screenName(_ controller: ViewController?) -> String {
    switch controller {
    case is NoteListViewController: "the list"
    case is NoteDetailViewController: "a note"
    case is NoteEditorViewController: "the editor"
    default: "nothing"
    }
  }

  private static func whereItWorks(_ command: NotesCommand) -> String {
    switch command {
    case .open, .scroll: "it works on the list"
    case .edit: "it works on a note"
    case .type, .left, .save: "it works in the editor"
    case .back: "there is no screen to go back to"
    case .background, .foreground, .wait: "it works anywhere"
    }
  }

  // MARK: Screens

  /// The screen on top, as text.
  public var screen: String {
    let rule = String(repeating: "-", count: Self.width)
    let lines: [String]
    var footer: String
    switch navigation.topViewController {
    case let list as NoteListViewController:
      lines = listLines(list)
      footer = "Commands: open N, scroll N, home"
    case let detail as NoteDetailViewController:
      lines = textLines(detail.note?.text ?? "(this note was deleted)")
      footer = "Commands: edit, back, home"
    case let editor as NoteEditorViewController:
      lines = textLines(Self.showingCaret(editor.textView))
      footer = "Commands: type TEXT, left N, save, back, home"
      if editor.hasUnsavedChanges { footer = "Not saved. " + footer }
    default:
      lines = []
      footer = ""
    }
    var header = breadcrumb
    if let list = navigation.topViewController as? NoteListViewController {
      let rows = rowRange(list)
      let space = max(1, Self.width - header.count - rows.count)
      header += String(repeating: " ", count: space) + rows
    }
    // Notes come from a file: nothing in one may drive the terminal.
    return LaunchSnapshot.printable(
      ([header, rule] + lines + [rule, footer]).joined(separator: "\n"))
  }

  /// The titles of the stack, bottom first: `Notes > Shopping list > Edit`.
  private var breadcrumb: String {
    navigation.viewControllers.map { controller in
      if let detail = controller as? NoteDetailViewController {
        return detail.note?.title ?? "(deleted)"
      }
      return controller.title ?? ""
    }
    .joined(separator: " > ")
  }

  private func rowRange(_ list: NoteListViewController) -> String {
    let rows = list.tableView.indexPathsForVisibleRows.map(\.row)
    guard let first = rows.first, let last = rows.last else { return "no notes" }
    return "rows \(first + 1)-\(last + 1) of \(list.notes.notes.count)"
  }

  private func listLines(_ list: NoteListViewController) -> [String] {
    let table = list.tableView
    let count = list.notes.notes.count
    let digits = String(count).count
    return table.indexPathsForVisibleRows.map { indexPath in
      let marker = table.indexPathForSelectedRow == indexPath ? " > " : "   "
      let number = String(indexPath.row + 1)
      let padding = String(repeating: " ", count: digits - number.count)
      return "\(marker)\(padding)\(number)  \(table.title(forRowAt: indexPath))"
    }
  }

  private func textLines(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  /// The text with `|` at the caret, or `[...]` around the selection, while editing.
  static func showingCaret(_ textView: TextView) -> String {
    guard textView.isEditing, let range = textView.selectedRange else { return textView.text }
    var characters = Array(textView.text)
    let upper = min(range.upperBound, characters.count)
    let lower = min(range.lowerBound, upper)
    if lower == upper {
      characters.insert("|", at: lower)
    } else {
      characters.insert("]", at: upper)
      characters.insert("[", at: lower)
    }
    return String(characters)
  }

  // MARK: Lifecycle

  /// What the launch did: restored, started fresh, and what did not come back and why.
  ///
  /// - Parameter report: The report `launch()` returned.
  /// - Returns: A line, and one more for each object that did not come back and each note.
  public func launchSummary(_ report: RestorationReport) -> String {
    switch report.outcome {
    case .nothingSaved:
      return "Launch: nothing was saved; a fresh start."
    case .restored:
      let restored = report.restoredPaths.count
      var lines =
        report.restoredEverything
        ? ["Launch: restored \(restored) objects."]
        : ["Launch: restored \(restored) of \(report.entries.count) saved objects."]
      for entry in report.unrestored {
        lines.append("  not restored: \(entry.identifierPath): \(entry.status)")
      }
      for note in report.entries.flatMap(\.notes) { lines.append("  note: \(note)") }
      return LaunchSnapshot.printable(lines.joined(separator: "\n"))
    case .discarded(let reason):
      return "Launch: the saved state was discarded \(reason); a fresh start."
    case .vetoedByDelegate:
      return "Launch: the app declined to restore; a fresh start."
    case .postponed(let error):
      return "Launch: a fresh start; the saved state is kept for a later launch: \(error)."
    }
  }

  /// What pressing Home did.
  ///
  /// - Parameters:
  ///   - report: The preservation report of `enterBackground()`.
  ///   - archivePath: Where the archive is.
  /// - Returns: Two lines: where the state went, and what happens next.
  /// - Throws: ``NotesCommandError`` when the state was not preserved.
  public static func homeSummary(
    _ report: PreservationReport?, archivePath: String
  ) throws(NotesCommandError) -> String {
    switch report?.outcome {
    case .saved(let bytes):
      return """
        Home: the state was preserved (\(bytes) bytes) in \(archivePath)
        The suspended app was then killed, as iOS does. Run notes again to resume.
        """
    case .failed(let error):
      throw NotesCommandError("home: the state was not preserved: \(error)")
    case .notOptedIn, .encoded, nil:
      throw NotesCommandError("home: the app did not opt in, so nothing was preserved")
    }
  }

  /// What ending the run without Home means.
  public var exitSummary: String {
    if application.state == .background {
      return
        "The process exits in the background, as iOS kills a suspended app: the state preserved there is kept."
    }
    return
      "The app exits in the foreground: this screen is not preserved (end with home to keep it)."
  }
}
