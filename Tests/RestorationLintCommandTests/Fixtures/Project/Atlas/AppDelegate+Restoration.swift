// swift-format-ignore-file
import UIKit

extension AppDelegate {
  func application(_ application: UIApplication, shouldSaveApplicationState coder: NSCoder)
    -> Bool
  { true }

  func application(
    _ application: UIApplication, shouldRestoreSecureApplicationState coder: NSCoder
  ) -> Bool { true }
}
