// swift-format-ignore-file
import SafariServices
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

  /// Re-creates the article's Safari view from the link the article saved.
  func application(
    _ application: UIApplication,
    viewControllerWithRestorationIdentifierPath identifierComponents: [String], coder: NSCoder
  ) -> UIViewController? {
    switch identifierComponents.last {
    case "ArticleLink":
      guard let link = coder.decodeObject(of: NSURL.self, forKey: "link") as URL? else {
        return nil
      }
      let safari = SFSafariViewController(url: link)
      safari.restorationIdentifier = "ArticleLink"
      return safari
    default:
      return window?.rootViewController
    }
  }
}
