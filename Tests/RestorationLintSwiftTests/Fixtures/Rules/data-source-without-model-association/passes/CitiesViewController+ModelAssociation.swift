// swift-format-ignore-file
import UIKit

extension CitiesViewController: UIDataSourceModelAssociation {
  func modelIdentifierForElement(at idx: IndexPath, in view: UIView) -> String? {
    cities[idx.row]
  }

  func indexPathForElement(withModelIdentifier identifier: String, in view: UIView) -> IndexPath? {
    cities.firstIndex(of: identifier).map { IndexPath(row: $0, section: 0) }
  }
}
