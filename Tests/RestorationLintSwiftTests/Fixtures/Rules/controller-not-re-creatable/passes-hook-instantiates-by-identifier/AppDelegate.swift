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

  /// Re-creates any controller of the main storyboard by its identifier.
  func application(
    _ application: UIApplication,
    viewControllerWithRestorationIdentifierPath identifierComponents: [String], coder: NSCoder
  ) -> UIViewController? {
    guard let last = identifierComponents.last else { return nil }
    if last == "Settings" {
      return SettingsViewController()
    }
    let storyboard = UIStoryboard(name: "Main", bundle: nil)
    return storyboard.instantiateViewController(withIdentifier: last)
  }
}
