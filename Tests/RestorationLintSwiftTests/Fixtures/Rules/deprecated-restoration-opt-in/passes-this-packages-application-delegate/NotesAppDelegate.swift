// swift-format-ignore-file
import StateRestoration
import StateRestorationUI

/// An app written for this package, whose one opt-in has UIKit's old name: not UIKit code.
final class NotesAppDelegate: ApplicationDelegate {
  func application(_ application: Application, shouldSaveApplicationState coder: StateCoder)
    -> Bool
  { true }

  func application(_ application: Application, shouldRestoreApplicationState coder: StateDecoder)
    -> Bool
  { true }
}

extension StateDecoder {
  /// A value decoded for a key the caller names.
  func text(forKey key: String) -> String {
    decode(String.self, forKey: key) ?? ""
  }
}
