// swift-format-ignore-file
import UIKit

/// The list of notes, with the note's page as a child below it.
final class NotesViewController: UIViewController {
  func showNote() {
    let page = NotePageViewController()
    page.restorationIdentifier = "NotePage"
    addChild(page)
    view.addSubview(page.view)
    page.didMove(toParent: self)
  }
}

/// One note, created in code.
final class NotePageViewController: UIViewController {}
