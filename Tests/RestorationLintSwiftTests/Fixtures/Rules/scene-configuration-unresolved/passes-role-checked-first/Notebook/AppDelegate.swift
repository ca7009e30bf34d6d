// swift-format-ignore-file
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
  func application(
    _ application: UIApplication,
    didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
  ) -> Bool {
    true
  }

  func application(
    _ application: UIApplication,
    configurationForConnecting connectingSceneSession: UISceneSession,
    options: UIScene.ConnectionOptions
  ) -> UISceneConfiguration {
    switch connectingSceneSession.role {
    case .carTemplateApplication:
      return UISceneConfiguration(name: "CarPlay", sessionRole: .carTemplateApplication)
    default:
      if connectingSceneSession.role == .windowApplication {
        return UISceneConfiguration(name: "Default Configuration", sessionRole: .windowApplication)
      }
      return UISceneConfiguration(name: nil, sessionRole: connectingSceneSession.role)
    }
  }
}
