// swift-format-ignore-file
import UIKit

/// The list of notes; a tap presents the note's page in a navigation controller.
final class NotesViewController: UITableViewController {
  func showNote() {
    let page = NotePageViewController()
    page.restorationIdentifier = "NotePage"
    let navigation = UINavigationController(rootViewController: page)
    present(navigation, animated: true)
  }
}

/// One note, created in code.
final class NotePageViewController: UIViewController {}
