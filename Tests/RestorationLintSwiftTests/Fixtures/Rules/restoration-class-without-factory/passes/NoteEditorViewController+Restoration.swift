// swift-format-ignore-file
import UIKit

extension NoteEditorViewController: UIViewControllerRestoration {
  static func viewController(
    withRestorationIdentifierPath identifierComponents: [String], coder: NSCoder
  ) -> UIViewController? {
    NoteEditorViewController()
  }
}
