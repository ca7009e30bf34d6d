// swift-format-ignore-file
import UIKit

/// Home: pushes the settings, and the profile, both created in code.
final class HomeViewController: UIViewController {
  func showSettings() {
    let settings = SettingsViewController()
    settings.restorationIdentifier = "Settings"
    navigationController?.pushViewController(settings, animated: true)
  }

  func showProfile() {
    let profile = ProfileViewController()
    profile.restorationIdentifier = "Profile"
    navigationController?.pushViewController(profile, animated: true)
  }
}

final class SettingsViewController: UIViewController {}
final class AboutViewController: UIViewController {}
final class ProfileViewController: UIViewController {}
