// swift-format-ignore-file
import UIKit

/// Reads a value written by the previous version of the app, under another key.
final class LegacyViewController: UIViewController {
  var name = ""

  override func decodeRestorableState(with coder: NSCoder) {
    super.decodeRestorableState(with: coder)
    // restoration-lint:disable:next decoded-key-never-encoded -- written by version 1
    name = coder.decodeObject(forKey: "legacyName") as? String ?? ""
  }
}
