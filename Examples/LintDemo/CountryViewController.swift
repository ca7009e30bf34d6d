// swift-format-ignore-file
import UIKit

final class CountryViewController: UIViewController {
  var country: String?

  override func encodeRestorableState(with coder: NSCoder) {
    super.encodeRestorableState(with: coder)
    coder.encode(country, forKey: "country")
  }

  override func decodeRestorableState(with coder: NSCoder) {
    super.decodeRestorableState(with: coder)
    country = coder.decodeObject(forKey: "country") as! String
  }
}
