// swift-format-ignore-file
import UIKit

/// A map created in code, re-created by its restoration class.
final class MapViewController: UIViewController, UIViewControllerRestoration {
  static func viewController(
    withRestorationIdentifierPath identifierComponents: [String], coder: NSCoder
  ) -> UIViewController? {
    let map = MapViewController(nibName: nil, bundle: nil)
    makeRestorable(map, as: identifierComponents.last)
    return map
  }

  /// Gives a controller created in code its identifier and this class.
  static func makeRestorable(_ controller: UIViewController, as identifier: String?) {
    controller.restorationIdentifier = identifier
    controller.restorationClass = MapViewController.self
  }
}
