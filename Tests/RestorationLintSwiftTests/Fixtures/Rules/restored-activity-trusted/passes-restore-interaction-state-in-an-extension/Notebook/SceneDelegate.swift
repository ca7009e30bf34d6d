// swift-format-ignore-file
import UIKit

final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
  var window: UIWindow?

  func scene(
    _ scene: UIScene, willConnectTo session: UISceneSession,
    options connectionOptions: UIScene.ConnectionOptions
  ) {
    guard let windowScene = scene as? UIWindowScene else { return }
    let notes = NotesViewController()
    let window = UIWindow(windowScene: windowScene)
    window.rootViewController = UINavigationController(rootViewController: notes)
    if let activity = connectionOptions.userActivities.first {
      notes.restore(from: activity)
    }
    self.window = window
    window.makeKeyAndVisible()
  }

  func scene(_ scene: UIScene, continue userActivity: NSUserActivity) {
    guard let navigation = window?.rootViewController as? UINavigationController,
      let notes = navigation.viewControllers.first as? NotesViewController
    else { return }
    notes.restore(from: userActivity)
  }

  func stateRestorationActivity(for scene: UIScene) -> NSUserActivity? {
    scene.userActivity
  }
}

extension SceneDelegate {
  /// UIKit hands the restored activity back once the scene is connected.
  func scene(_ scene: UIScene, restoreInteractionStateWith stateRestorationActivity: NSUserActivity) {
    guard let navigation = window?.rootViewController as? UINavigationController,
      let notes = navigation.viewControllers.first as? NotesViewController
    else { return }
    switch stateRestorationActivity.activityType {
    case ActivityType.editing:
      notes.restore(from: stateRestorationActivity)
    default:
      // Saved by another version of the app: the list is shown as it is.
      return
    }
  }
}
