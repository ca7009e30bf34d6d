// swift-format-ignore-file
import UIKit

/// The note editor, created in code when the user taps a note.
final class NoteEditorViewController: UIViewController {
  init() {
    super.init(nibName: nil, bundle: nil)
    restorationIdentifier = "NoteEditor"
    restorationClass = NoteEditorViewController.self
  }

  required init?(coder: NSCoder) {
    super.init(coder: coder)
  }
}
