// swift-format-ignore-file
import UIKit

enum Keys {
  static let selection = "selection"
}

/// A picker that keeps its selected row.
final class PickerViewController: UIViewController {
  var selected = 0

  override func encodeRestorableState(with coder: NSCoder) {
    super.encodeRestorableState(with: coder)
    coder.encode(selected, forKey: "selected")
  }

  override func decodeRestorableState(with coder: NSCoder) {
    super.decodeRestorableState(with: coder)
    selected = coder.decodeInteger(forKey: Keys.selection)
  }
}
