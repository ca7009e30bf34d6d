// swift-format-ignore-file
import UIKit

/// The composer, re-created through a convenience initializer that calls UIKit's init(), which
/// calls the override of init(nibName:bundle:) that makes it restorable.
final class ComposeViewController: UIViewController, UIViewControllerRestoration {
  var draft = ""

  override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
    super.init(nibName: nibNameOrNil, bundle: nibBundleOrNil)
    restorationIdentifier = "Compose"
    restorationClass = ComposeViewController.self
  }

  required init?(coder: NSCoder) {
    super.init(coder: coder)
  }

  convenience init(draft: String) {
    self.init()
    self.draft = draft
  }

  static func viewController(
    withRestorationIdentifierPath identifierComponents: [String], coder: NSCoder
  ) -> UIViewController? {
    let draft = coder.decodeObject(forKey: "draft") as? String ?? ""
    return ComposeViewController(draft: draft)
  }

  override func encodeRestorableState(with coder: NSCoder) {
    super.encodeRestorableState(with: coder)
    coder.encode(draft, forKey: "draft")
  }
}
