// swift-format-ignore-file
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
  var window: UIWindow?

  func application(_ application: UIApplication, shouldSaveSecureApplicationState coder: NSCoder)
    -> Bool
  { true }

  func application(
    _ application: UIApplication, shouldRestoreSecureApplicationState coder: NSCoder
  ) -> Bool { true }

  /// Re-creates the settings, the about screen and the profile.
  func application(
    _ application: UIApplication,
    viewControllerWithRestorationIdentifierPath identifierComponents: [String], coder: NSCoder
  ) -> UIViewController? {
    switch identifierComponents.last {
    case "Settings":
      let settings = SettingsViewController()
      settings.restorationIdentifier = "Settings"
      return settings
    case "About", "Licenses", "Profile":
      return identifierComponents.last == "Profile" ? ProfileViewController() : AboutViewController()
    default:
      return nil
    }
  }
}
