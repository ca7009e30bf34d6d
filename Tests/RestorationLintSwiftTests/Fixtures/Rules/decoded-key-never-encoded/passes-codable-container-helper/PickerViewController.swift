// swift-format-ignore-file
import UIKit

/// A picker whose restoration keys are all encoded.
final class PickerViewController: UIViewController {
  var selection = 0

  override func encodeRestorableState(with coder: NSCoder) {
    super.encodeRestorableState(with: coder)
    coder.encode(selection, forKey: "selection")
  }

  override func decodeRestorableState(with coder: NSCoder) {
    super.decodeRestorableState(with: coder)
    selection = coder.decodeInteger(forKey: "selection")
  }
}
