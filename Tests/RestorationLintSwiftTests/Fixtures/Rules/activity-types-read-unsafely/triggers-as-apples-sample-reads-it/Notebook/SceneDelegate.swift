// swift-format-ignore-file
import UIKit

final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
  static let mainSceneActivityType = { () -> String in
    // Load the activity type from the Info.plist.
    let activityTypes = Bundle.main.infoDictionary?["NSUserActivityTypes"] as? [String]
    return activityTypes![0]
  }()

  var window: UIWindow?

  func scene(
    _ scene: UIScene, willConnectTo session: UISceneSession,
    options connectionOptions: UIScene.ConnectionOptions
  ) {
    guard let windowScene = scene as? UIWindowScene else { return }
    let notes = NotesViewController()
    let window = UIWindow(windowScene: windowScene)
    window.rootViewController = UINavigationController(rootViewController: notes)
    if let activity = connectionOptions.userActivities.first ?? session.stateRestorationActivity {
      notes.restore(from: activity)
    }
    self.window = window
    window.makeKeyAndVisible()
  }

  func stateRestorationActivity(for scene: UIScene) -> NSUserActivity? {
    scene.userActivity
  }
}
