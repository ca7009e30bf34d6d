// swift-format-ignore-file
import UIKit

/// A search screen that keeps its query.
final class SearchViewController: UIViewController {
  var query = ""

  override func encodeRestorableState(with coder: NSCoder) {
    super.encodeRestorableState(with: coder)
    coder.encode(query, forKey: "query")
  }

  override func decodeRestorableState(with coder: NSCoder) {
    super.decodeRestorableState(with: coder)
    query = coder.decodeObject(forKey: "query") as? String ?? ""
  }
}
