public import StateRestoration

#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// A scene session (UIKit's `UISceneSession`): one window of the app, as the system remembers
/// it across launches, whether or not a scene is connected to it right now.
///
/// The session outlives the process: its identifier, role, configuration, title, user info and
/// restoration activity are kept in the app's index of sessions, and its scene's state in a
/// folder of its own. Destroying the session (the user closing the window in the app switcher)
/// deletes all of it, and nothing of the other sessions.
public final class SceneSession {
  /// What a session's scene is for.
  public struct Role: RawRepresentable, Sendable, Hashable {
    /// The raw name, UIKit's.
    public let rawValue: String

    /// Creates a role from its raw name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A window of the app on the device's screen.
    public static let windowApplication = Role(rawValue: "UIWindowSceneSessionRoleApplication")
    /// A window on an external display.
    public static let windowExternalDisplay = Role(
      rawValue: "UIWindowSceneSessionRoleExternalDisplayNonInteractive")
  }

  /// The identifier that names the session across launches.
  public let persistentIdentifier: String
  /// What the session's scene is for.
  public let role: Role
  /// The name of the scene configuration that made it.
  public let configurationName: String?
  /// The activity the session's scene returned the last time it moved to the background or
  /// disconnected; set at connection, before the scene delegate is asked to connect.
  public internal(set) var stateRestorationActivity: UserActivity?
  /// The title of the session's scene when it was last connected, as the app switcher shows it.
  public internal(set) var title: String?
  /// When a scene was last connected to the session, or moved to the background.
  public internal(set) var lastUsed: Date
  /// The scene connected to the session, if any.
  public internal(set) weak var scene: Scene?
  /// The app's own values for the session, kept in the index of sessions.
  public internal(set) var userInfo: [String: StateValue]?
  /// Whether this process made, connected, used or changed the session: its values then win
  /// over the index on disk, which another process of the app may have written since.
  var changedInThisProcess = false

  init(
    persistentIdentifier: String, role: Role, configurationName: String?, lastUsed: Date,
    title: String? = nil, userInfo: [String: StateValue]? = nil
  ) {
    self.persistentIdentifier = persistentIdentifier
    self.role = role
    self.configurationName = configurationName
    self.lastUsed = lastUsed
    self.title = title
    self.userInfo = userInfo
  }

  /// Replaces the session's user info.
  ///
  /// - Throws: `RestorationError` under the rules of ``UserActivity/setUserInfo(_:)``; the
  ///   user info is unchanged.
  public func setUserInfo(_ userInfo: [String: StateValue]?) throws(RestorationError) {
    if let userInfo { try UserActivity.check(userInfo) }
    self.userInfo = userInfo
    changedInThisProcess = true
  }
}

/// How an app declares its scenes (the `UIApplicationSceneManifest` of an iOS app's
/// `Info.plist`): an app made with one uses scenes, and restores each on its own.
public struct SceneManifest {
  /// The name of the one scene configuration.
  public var configurationName: String
  /// Makes the delegate of a newly connected scene.
  public var makeDelegate: () -> any SceneDelegate

  /// Creates a manifest.
  ///
  /// - Parameters:
  ///   - configurationName: The configuration's name, recorded with each session.
  ///   - makeDelegate: Makes the delegate of each scene that connects.
  public init(
    configurationName: String = "Default Configuration",
    makeDelegate: @escaping () -> any SceneDelegate
  ) {
    self.configurationName = configurationName
    self.makeDelegate = makeDelegate
  }
}
