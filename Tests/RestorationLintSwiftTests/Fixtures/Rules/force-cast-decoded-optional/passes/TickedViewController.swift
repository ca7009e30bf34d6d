// swift-format-ignore-file
import UIKit

/// Keeps the ids of the rows the user ticked.
final class TickedViewController: UIViewController {
  var ticked: [Int] = []

  override func encodeRestorableState(with coder: NSCoder) {
    super.encodeRestorableState(with: coder)
    coder.encode(ticked, forKey: "ticked")
  }

  override func decodeRestorableState(with coder: NSCoder) {
    super.decodeRestorableState(with: coder)
    ticked = (coder.decodeObject(forKey: "ticked") as? [Int]) ?? []
  }
}
