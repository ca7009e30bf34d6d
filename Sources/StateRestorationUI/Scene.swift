package import Logging
public import StateRestoration

/// One window of a running app that uses scenes (UIKit's `UIWindowScene`), connected to a
/// ``SceneSession``.
///
/// A scene restores on its own: its window and controllers are preserved into its session's
/// archive when it moves to the background and restored from it when it connects again, with a
/// crash guard of its own, so that a scene whose restoration crashes starts fresh while the
/// others still restore.
public final class Scene {
  /// Where a scene is in its lifecycle.
  public enum ActivationState: Sendable, Hashable {
    /// Not connected, or connecting.
    case unattached
    /// On screen.
    case foregroundActive
    /// In the background: its state has been preserved.
    case background
  }

  /// What came with a connection request.
  public struct ConnectionOptions {
    /// The activities the request asked the scene to continue.
    public var userActivities: [UserActivity]

    /// Creates options.
    public init(userActivities: [UserActivity] = []) {
      self.userActivities = userActivities
    }
  }

  /// The session the scene is connected to.
  public let session: SceneSession
  /// The scene's delegate, held strongly as UIKit's scene does.
  public let delegate: any SceneDelegate
  /// The engine that preserves and restores this scene, with the session's store.
  public let engine: RestorationEngine
  /// The scene's window; create it in ``SceneDelegate/scene(_:willConnectTo:options:)``.
  public var window: Window? {
    didSet {
      if oldValue !== window { oldValue?.windowScene = nil }
      window?.windowScene = self
    }
  }
  /// A title for people, shown by the app switcher.
  public var title: String?
  /// Where the scene is in its lifecycle.
  public internal(set) var activationState: ActivationState = .unattached
  /// The report of the scene's restoration at connection.
  public internal(set) var restorationReport: RestorationReport?
  /// The text snapshot the scene saved when it last moved to the background, shown while it
  /// restored (see ``Application/snapshotProvider``).
  public internal(set) var launchSnapshot: String?
  /// The report of the scene's last preservation.
  public internal(set) var preservationReport: PreservationReport?
  /// The application the scene belongs to.
  public internal(set) weak var application: Application?
  /// The values of the scene's ``SceneStorage`` properties, by key.
  var storageValues: [String: StateValue] = [:]
  /// Forwards the scene engine's delegate calls; the engine holds its delegate weakly.
  var adapter: EngineDelegateAdapter?
  /// The mark that its session's folder is in use, held while the scene is connected.
  var inUseMark: AnyObject?

  init(session: SceneSession, delegate: any SceneDelegate, engine: RestorationEngine) {
    self.session = session
    self.delegate = delegate
    self.engine = engine
  }
}

/// A scene's part in its lifecycle and in restoration (UIKit's `UIWindowSceneDelegate`).
///
/// Create the window and its controllers in ``scene(_:willConnectTo:options:)``: the scene's
/// restoration runs right after it. Return what the scene is doing from
/// ``stateRestorationActivity(for:)``; it comes back as the session's
/// ``SceneSession/stateRestorationActivity`` and through
/// ``scene(_:restoreInteractionStateWith:)`` when the session connects again.
public protocol SceneDelegate: AnyObject {
  /// Called when a scene connects, before its restoration: create its window here.
  func scene(_ scene: Scene, willConnectTo session: SceneSession, options: Scene.ConnectionOptions)

  /// Called after the scene was restored, with the activity its session kept.
  func scene(_ scene: Scene, restoreInteractionStateWith activity: UserActivity)

  /// The activity to keep for the session; asked when the scene moves to the background and
  /// when it disconnects.
  func stateRestorationActivity(for scene: Scene) -> UserActivity?

  /// Called when the scene moves to the background, before its state is preserved.
  func sceneDidEnterBackground(_ scene: Scene)

  /// Called when the scene comes back to the foreground.
  func sceneWillEnterForeground(_ scene: Scene)

  /// Called when the scene is disconnected; its session remains unless it was destroyed.
  func sceneDidDisconnect(_ scene: Scene)
}

extension SceneDelegate {
  /// Does nothing.
  public func scene(
    _ scene: Scene, willConnectTo session: SceneSession, options: Scene.ConnectionOptions
  ) {}
  /// Does nothing.
  public func scene(_ scene: Scene, restoreInteractionStateWith activity: UserActivity) {}
  /// No activity.
  public func stateRestorationActivity(for scene: Scene) -> UserActivity? { nil }
  /// Does nothing.
  public func sceneDidEnterBackground(_ scene: Scene) {}
  /// Does nothing.
  public func sceneWillEnterForeground(_ scene: Scene) {}
  /// Does nothing.
  public func sceneDidDisconnect(_ scene: Scene) {}
}

extension Scene {
  /// The top-level key of the archive under which a scene keeps its ``SceneStorage`` values.
  package static let storageKey = "StateRestorationUI.SceneStorage"

  /// The ``SceneStorage`` values of an archive that pass the checks of a user info.
  ///
  /// That is: no reference, the archive's nesting depth, ``UserActivity/maxUserInfoSize`` bytes
  /// in all; each other value is dropped with a warning. A value kept is saved again, so one
  /// that cannot be saved must not come in: a reference to a screen closed since would fail
  /// every save of the scene.
  ///
  /// - Parameters:
  ///   - stored: What the archive holds under the scene storage key.
  ///   - logger: Where the warnings go.
  /// - Returns: The values kept.
  package static func checkedStorageValues(
    _ stored: StateValue, logger: Logger
  ) -> [String: StateValue] {
    guard case .dictionary(let values) = stored else {
      logger.warning("The scene storage values are a \(stored.typeName), not a dictionary; ignored")
      return [:]
    }
    var kept: [String: StateValue] = [:]
    var (size, dropped) = (0, 0)
    for key in values.keys.sorted() {
      guard let value = values[key] else { continue }
      do {
        let valueSize = try UserActivity.check([key: value])
        guard size + valueSize <= UserActivity.maxUserInfoSize else {
          throw RestorationError(
            .limitExceeded, "scene storage values above \(UserActivity.maxUserInfoSize) bytes")
        }
        size += valueSize
        kept[key] = value
      } catch {
        dropped += 1
        // The first few are named; a file can hold thousands of them.
        if dropped <= 3 {
          let name = LaunchSnapshot.printable(String(reflecting: key))
          logger.warning("Scene storage value \(name) dropped: \(error)")
        }
      }
    }
    if dropped > 3 { logger.warning("\(dropped - 3) more scene storage values dropped") }
    return kept
  }
}
