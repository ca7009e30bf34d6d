// swift-format-ignore-file
import UIKit

/// One country's page, created in code.
final class CountryViewController: UIViewController {
  let country: String

  init(country: String) {
    self.country = country
    super.init(nibName: nil, bundle: nil)
    restorationIdentifier = "Country"
  }

  required init?(coder: NSCoder) {
    country = ""
    super.init(coder: coder)
  }
}
