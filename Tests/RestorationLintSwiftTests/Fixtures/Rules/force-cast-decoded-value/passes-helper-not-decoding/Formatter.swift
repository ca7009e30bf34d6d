// swift-format-ignore-file
import UIKit

/// Builds a label from a coder's class, for logs: nothing is decoded, so a cast of its result
/// is no archive's value.
enum Formatter {
  static func summary(of coder: NSCoder, prefix: String) -> Any {
    "\(prefix) \(type(of: coder)) \(coder.allowsKeyedCoding)"
  }
}

final class LogViewController: UIViewController {
  var lastSummary = ""

  override func decodeRestorableState(with coder: NSCoder) {
    super.decodeRestorableState(with: coder)
    lastSummary = Formatter.summary(of: coder, prefix: "restored") as! String
  }
}
