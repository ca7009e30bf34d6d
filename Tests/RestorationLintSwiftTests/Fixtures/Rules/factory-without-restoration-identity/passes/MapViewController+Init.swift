// swift-format-ignore-file
import UIKit

extension MapViewController {
  /// The initializer every creation goes through: it makes the map restorable.
  convenience init(restorable: Bool) {
    self.init(nibName: nil, bundle: nil)
    if restorable { makeRestorable() }
  }

  private func makeRestorable() {
    restorationIdentifier = "Map"
    restorationClass = MapViewController.self
  }
}
