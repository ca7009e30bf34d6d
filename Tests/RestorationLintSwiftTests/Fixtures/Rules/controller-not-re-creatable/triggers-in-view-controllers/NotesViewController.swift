// swift-format-ignore-file
import UIKit

/// The list of notes; a tap replaces the stack with the note's page.
final class NotesViewController: UITableViewController {
  func showNote() {
    let page = NotePageViewController()
    page.restorationIdentifier = "NotePage"
    navigationController?.viewControllers = [self, page]
  }
}

/// One note, created in code.
final class NotePageViewController: UIViewController {}
