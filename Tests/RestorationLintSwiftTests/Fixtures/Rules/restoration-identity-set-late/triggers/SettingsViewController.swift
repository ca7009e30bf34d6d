// swift-format-ignore-file
import UIKit

/// The settings tab, created in code by the tab bar controller.
final class SettingsViewController: UIViewController {
  override func viewDidLoad() {
    super.viewDidLoad()
    restorationIdentifier = "Settings"
  }
}
