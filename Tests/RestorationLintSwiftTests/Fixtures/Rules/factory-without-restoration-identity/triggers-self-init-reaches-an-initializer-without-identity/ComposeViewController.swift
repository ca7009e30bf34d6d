// swift-format-ignore-file
import UIKit

/// The composer: init() reaches init(nibName:bundle:), which sets nothing; only init(draft:)
/// makes it restorable, and the factory does not call that one.
final class ComposeViewController: UIViewController, UIViewControllerRestoration {
  var draft = ""

  override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
    super.init(nibName: nibNameOrNil, bundle: nibBundleOrNil)
  }

  required init?(coder: NSCoder) {
    super.init(coder: coder)
  }

  init(draft: String) {
    self.draft = draft
    super.init(nibName: nil, bundle: nil)
    restorationIdentifier = "Compose"
    restorationClass = ComposeViewController.self
  }

  static func viewController(
    withRestorationIdentifierPath identifierComponents: [String], coder: NSCoder
  ) -> UIViewController? {
    self.init()
  }
}
