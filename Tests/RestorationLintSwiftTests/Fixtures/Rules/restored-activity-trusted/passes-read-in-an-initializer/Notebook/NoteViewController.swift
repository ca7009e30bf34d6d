// swift-format-ignore-file
import UIKit

/// One note. Its activity is the scene's: UIKit saves it for restoration, and Handoff offers it.
final class NoteViewController: UIViewController {
  let note: Note

  init(note: Note) {
    self.note = note
    super.init(nibName: nil, bundle: nil)
    title = note.title
  }

  /// The note an activity names, from the store.
  convenience init?(restoring activity: NSUserActivity, from store: NoteStore) {
    guard let identifier = activity.userInfo?[Note.identifierKey] as? String,
      let note = store.note(withIdentifier: identifier)
    else { return nil }
    self.init(note: note)
  }

  required init?(coder: NSCoder) {
    fatalError("NoteViewController is created in code")
  }

  override func viewDidAppear(_ animated: Bool) {
    super.viewDidAppear(animated)
    let activity = NSUserActivity(activityType: ActivityType.editing)
    activity.title = note.title
    activity.userInfo = [Note.identifierKey: note.id]
    view.window?.windowScene?.userActivity = activity
    activity.becomeCurrent()
  }
}
