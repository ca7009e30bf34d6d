// swift-format-ignore-file
import UIKit

/// An item's screen, which reads its item through the store's helper.
final class ItemViewController: UIViewController {
  var item = Item(name: "")

  override func encodeRestorableState(with coder: NSCoder) {
    super.encodeRestorableState(with: coder)
    coder.encode(item, forKey: "item")
  }

  override func decodeRestorableState(with coder: NSCoder) {
    super.decodeRestorableState(with: coder)
    guard let item = Store.object(decodedFrom: coder, key: "item") as? Item else { return }
    self.item = item
  }
}

/// A saved item.
final class Item: NSObject {
  let name: String
  init(name: String) { self.name = name }
}
