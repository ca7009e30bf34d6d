// swift-format-ignore-file
import UIKit

/// The inbox: a table made in code, restorable, whose rows come back by index.
final class InboxViewController: UIViewController, UITableViewDataSource {
  private var messages: [String] = []
  private let table = UITableView(frame: .zero, style: .plain)

  override func viewDidLoad() {
    super.viewDidLoad()
    table.restorationIdentifier = "InboxTable"
    table.dataSource = self
    view.addSubview(table)
  }

  func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
    messages.count
  }

  func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
    let cell = tableView.dequeueReusableCell(withIdentifier: "Message", for: indexPath)
    cell.textLabel?.text = messages[indexPath.row]
    return cell
  }
}
