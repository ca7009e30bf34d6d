// swift-format-ignore-file
import UIKit

/// A map created in code, re-created by its restoration class.
final class MapViewController: UIViewController, UIViewControllerRestoration {
  static func viewController(
    withRestorationIdentifierPath identifierComponents: [String], coder: NSCoder
  ) -> UIViewController? {
    let map = MapViewController(restorable: true)
    return map
  }
}
