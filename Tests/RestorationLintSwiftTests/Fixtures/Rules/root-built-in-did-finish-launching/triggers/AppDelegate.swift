// swift-format-ignore-file
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
  var window: UIWindow?

  func application(
    _ application: UIApplication,
    didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
  ) -> Bool {
    window = UIWindow(frame: UIScreen.main.bounds)
    window?.rootViewController = UINavigationController()
    window?.makeKeyAndVisible()
    return true
  }

  func application(_ application: UIApplication, shouldSaveSecureApplicationState coder: NSCoder)
    -> Bool
  { true }

  func application(
    _ application: UIApplication, shouldRestoreSecureApplicationState coder: NSCoder
  ) -> Bool { true }
}
