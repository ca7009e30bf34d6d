// swift-format-ignore-file
import UIKit

/// A map created in code; only the initializer of one place makes it restorable.
final class MapViewController: UIViewController, UIViewControllerRestoration {
  convenience init(place: String) {
    self.init(nibName: nil, bundle: nil)
    title = place
    restorationIdentifier = "Map"
    restorationClass = MapViewController.self
  }

  static func viewController(
    withRestorationIdentifierPath identifierComponents: [String], coder: NSCoder
  ) -> UIViewController? {
    let map = MapViewController(nibName: nil, bundle: nil)
    return map
  }
}
