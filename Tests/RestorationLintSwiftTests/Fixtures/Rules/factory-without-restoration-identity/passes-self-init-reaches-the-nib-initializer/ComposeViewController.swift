// swift-format-ignore-file
import UIKit

/// The composer: every way of making one goes through init(nibName:bundle:), which makes it
/// restorable; UIKit's init() calls it too.
final class ComposeViewController: UIViewController {
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
}

extension ComposeViewController: UIViewControllerRestoration {
  static func viewController(
    withRestorationIdentifierPath identifierComponents: [String], coder: NSCoder
  ) -> UIViewController? {
    self.init()
  }
}
