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

  /// Re-creates the settings and the about screen; nothing else.
  func application(
    _ application: UIApplication,
    viewControllerWithRestorationIdentifierPath identifierComponents: [String], coder: NSCoder
  ) -> UIViewController? {
    switch identifierComponents.last {
    case "Settings":
      let settings = SettingsViewController()
      settings.restorationIdentifier = "Settings"
      return settings
    case "About", "Licenses":
      return AboutViewController()
    default:
      return nil
    }
  }
}
