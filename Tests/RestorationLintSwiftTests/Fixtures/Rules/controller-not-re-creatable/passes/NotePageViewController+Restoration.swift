// swift-format-ignore-file
import UIKit

extension NotePageViewController: UIViewControllerRestoration {
  static func viewController(
    withRestorationIdentifierPath identifierComponents: [String], coder: NSCoder
  ) -> UIViewController? {
    let page = NotePageViewController()
    page.restorationIdentifier = identifierComponents.last
    page.restorationClass = NotePageViewController.self
    return page
  }
}
