// swift-format-ignore-file
import UIKit

/// The list of notes; a tap pushes the note's page.
final class NotesViewController: UITableViewController {
  func showNote() {
    let page = NotePageViewController()
    page.restorationIdentifier = "NotePage"
    page.restorationClass = NotePageViewController.self
    navigationController?.pushViewController(page, animated: true)
  }
}

/// One note, created in code.
final class NotePageViewController: UIViewController {}
