// swift-format-ignore-file
import UIKit

/// The list of notes; a tap pushes the note's page and prepares the toolbar.
final class NotesViewController: UITableViewController {
  func showNote() {
    let page = NotePageViewController()
    page.restorationIdentifier = "NotePage"
    prepareToolbar()
    navigationController?.pushViewController(page, animated: true)
  }

  private func prepareToolbar() {
    let toolbar = ToolbarViewController()
    toolbar.restorationIdentifier = "Toolbar"
    toolbar.restorationClass = ToolbarViewController.self
  }
}

/// One note, created in code.
final class NotePageViewController: UIViewController {}

/// The toolbar below the notes, re-created by its restoration class.
final class ToolbarViewController: UIViewController, UIViewControllerRestoration {
  static func viewController(
    withRestorationIdentifierPath identifierComponents: [String], coder: NSCoder
  ) -> UIViewController? {
    let toolbar = ToolbarViewController()
    toolbar.restorationIdentifier = identifierComponents.last
    toolbar.restorationClass = ToolbarViewController.self
    return toolbar
  }
}
