// swift-format-ignore-file
import StateRestoration
import StateRestorationUI

/// A note's screen in this package's UI library: its initializer passes the identifier to
/// super.init(restorationIdentifier:), which UIKit's controllers do not have.
final class NoteDetailViewController: ViewController, ViewControllerRestoration {
  let noteID: Int

  init(noteID: Int, restorationIdentifier: String?) {
    self.noteID = noteID
    super.init(restorationIdentifier: restorationIdentifier)
    restorationClass = NoteDetailViewController.self
  }

  static func viewController(
    withRestorationIdentifierPath identifierComponents: [String], coder: StateDecoder
  ) -> ViewController? {
    let noteID = coder.decode(Int.self, forKey: "noteID") ?? 0
    return NoteDetailViewController(noteID: noteID, restorationIdentifier: identifierComponents.last)
  }
}
