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

  /// Finds the controllers the storyboard made: it never creates one.
  func application(
    _ application: UIApplication,
    viewControllerWithRestorationIdentifierPath identifierComponents: [String], coder: NSCoder
  ) -> UIViewController? {
    guard let last = identifierComponents.last else { return nil }
    return window?.rootViewController?.children.first { $0.restorationIdentifier == last }
  }
}
