// swift-format-ignore-file
import Social
import UIKit

/// Saves what another app shares as a new note.
final class ShareViewController: SLComposeServiceViewController {
  override func isContentValid() -> Bool {
    !contentText.isEmpty
  }

  override func didSelectPost() {
    NoteStore.shared.add(Note(id: UUID().uuidString, title: "Shared", text: contentText))
    extensionContext?.completeRequest(returningItems: [], completionHandler: nil)
  }
}
