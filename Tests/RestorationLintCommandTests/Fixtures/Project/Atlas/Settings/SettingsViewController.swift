// swift-format-ignore-file
import UIKit

/// The settings tab: its switches live in user defaults.
final class SettingsViewController: UIViewController {
  override func viewDidLoad() {
    super.viewDidLoad()
    restorationIdentifier = "Settings"
  }
}
