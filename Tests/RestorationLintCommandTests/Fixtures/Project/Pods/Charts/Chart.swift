// swift-format-ignore-file
import UIKit

final class ChartViewController: UIViewController {
  override func decodeRestorableState(with coder: NSCoder) {
    _ = coder.decodeObject(forKey: "points") as! [Double]
  }
}
