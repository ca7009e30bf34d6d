// swift-format-ignore-file
import UIKit

final class AnalyticsViewController: UIViewController {
  override func decodeRestorableState(with coder: NSCoder) {
    _ = coder.decodeObject(forKey: "events") as! [String]
  }
}
