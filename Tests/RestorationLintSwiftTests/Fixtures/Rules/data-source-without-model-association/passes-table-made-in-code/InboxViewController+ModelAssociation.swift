// swift-format-ignore-file
import UIKit

/// The inbox's rows come back by message, not by index.
extension InboxViewController: UIDataSourceModelAssociation {
  func modelIdentifierForElement(at idx: IndexPath, in view: UIView) -> String? {
    nil
  }

  func indexPathForElement(withModelIdentifier identifier: String, in view: UIView) -> IndexPath? {
    nil
  }
}
