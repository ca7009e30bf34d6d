// swift-format-ignore-file
import UIKit

/// The list of notes; a tap presents the note's page in a navigation controller.
final class NotesViewController: UITableViewController {
  func showNote() {
    let page = NotePageViewController()
    page.restorationIdentifier = "NotePage"
    page.restorationClass = NotePageViewController.self
    let navigation = UINavigationController(rootViewController: page)
    present(navigation, animated: true)
  }
}

/// One note, created in code.
final class NotePageViewController: UIViewController, UIViewControllerRestoration {
  static func viewController(
    withRestorationIdentifierPath identifierComponents: [String], coder: NSCoder
  ) -> UIViewController? {
    let page = NotePageViewController()
    page.restorationIdentifier = identifierComponents.last
    page.restorationClass = NotePageViewController.self
    return page
  }
}
