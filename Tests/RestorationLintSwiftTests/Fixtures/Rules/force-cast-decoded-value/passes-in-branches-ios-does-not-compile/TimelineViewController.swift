// swift-format-ignore-file
import UIKit

/// A timeline shared with the Mac app: the Mac's code and an old reading are compiled out.
final class TimelineViewController: UIViewController {
  var filter = ""
  var zoom = 1.0

  override func encodeRestorableState(with coder: NSCoder) {
    super.encodeRestorableState(with: coder)
    coder.encode(filter, forKey: "filter")
    coder.encode(zoom, forKey: "zoom")
  }

  override func decodeRestorableState(with coder: NSCoder) {
    super.decodeRestorableState(with: coder)
    #if false
      filter = coder.decodeObject(forKey: "filter") as! String
    #else
      filter = coder.decodeObject(forKey: "filter") as? String ?? ""
    #endif
    #if os(macOS)
      zoom = coder.decodeObject(forKey: "zoom") as! Double
    #elseif os(iOS)
      zoom = coder.decodeDouble(forKey: "zoom")
    #else
      zoom = coder.decodeObject(forKey: "zoom") as! Double
    #endif
    #if !canImport(UIKit) || canImport(AppKit) && !os(iOS)
      filter = coder.decodeObject(forKey: "legacyFilter") as! String
    #endif
  }
}
