// swift-format-ignore-file
import UIKit

/// A timeline whose debug builds read the filter differently: DEBUG is a build's choice, so
/// that branch is read.
final class TimelineViewController: UIViewController {
  var filter = ""

  override func encodeRestorableState(with coder: NSCoder) {
    super.encodeRestorableState(with: coder)
    coder.encode(filter, forKey: "filter")
  }

  override func decodeRestorableState(with coder: NSCoder) {
    super.decodeRestorableState(with: coder)
    #if os(macOS)
      filter = ""
    #elseif DEBUG
      filter = coder.decodeObject(forKey: "filter") as! String
    #else
      filter = coder.decodeObject(forKey: "filter") as? String ?? ""
    #endif
  }
}
