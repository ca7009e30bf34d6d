// swift-format-ignore-file
import UIKit

/// A map created in code, re-created by its restoration class.
final class MapViewController: UIViewController, UIViewControllerRestoration {
  static func viewController(
    withRestorationIdentifierPath identifierComponents: [String], coder: NSCoder
  ) -> UIViewController? {
    let map = makeMap()
    map.restorationClass = MapViewController.self
    return map
  }

  /// Every map is made here.
  static func makeMap() -> MapViewController {
    let map = MapViewController(nibName: nil, bundle: nil)
    map.restorationIdentifier = "Map"
    return map
  }
}
