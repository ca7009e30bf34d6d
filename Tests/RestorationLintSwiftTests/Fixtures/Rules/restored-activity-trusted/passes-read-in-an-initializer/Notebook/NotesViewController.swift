// swift-format-ignore-file
import UIKit

/// The list of notes; a note opened from a restored or continued activity is pushed.
final class NotesViewController: UITableViewController {
  private let store = NoteStore.shared

  func restore(from activity: NSUserActivity) {
    guard activity.activityType == ActivityType.editing,
      let editor = NoteViewController(restoring: activity, from: store)
    else { return }
    navigationController?.pushViewController(editor, animated: false)
  }

  override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
    store.notes.count
  }

  override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath)
    -> UITableViewCell
  {
    let cell = UITableViewCell(style: .default, reuseIdentifier: nil)
    cell.textLabel?.text = store.notes[indexPath.row].title
    return cell
  }

  override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
    let note = store.notes[indexPath.row]
    navigationController?.pushViewController(NoteViewController(note: note), animated: true)
  }
}
