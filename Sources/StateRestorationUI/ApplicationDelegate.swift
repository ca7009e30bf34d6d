public import StateRestoration

/// The app's part in the application lifecycle and in state restoration (UIKit's
/// `UIApplicationDelegate`).
///
/// To take part in restoration, implement both opt-in methods,
/// ``application(_:shouldSaveApplicationState:)`` and
/// ``application(_:shouldRestoreApplicationState:)``; without them nothing is saved or restored.
/// Create the windows and the tabs in ``applicationWillFinishLaunching(_:)``: restoration runs
/// right after it, and finds the controllers that exist by then.
public protocol ApplicationDelegate: AnyObject {
  /// Called first at launch, before restoration: create windows, register restoration classes.
  ///
  /// - Parameter application: The application.
  func applicationWillFinishLaunching(_ application: Application)

  /// Called after restoration: last-minute changes such as a login screen.
  ///
  /// - Parameter application: The application.
  func applicationDidFinishLaunching(_ application: Application)

  /// Whether to preserve now; the app may write its own top-level keys.
  ///
  /// - Parameters:
  ///   - application: The application.
  ///   - coder: The archive's top-level coder.
  /// - Returns: True to preserve.
  func application(_ application: Application, shouldSaveApplicationState coder: StateCoder) -> Bool

  /// Whether to restore; the coder holds the archive's top level (bundle version, system
  /// version, timestamp, idiom, the app's keys).
  ///
  /// - Parameters:
  ///   - application: The application.
  ///   - coder: The archive's top-level coder.
  /// - Returns: True to restore.
  func application(_ application: Application, shouldRestoreApplicationState coder: StateDecoder)
    -> Bool

  /// Called at the very beginning of preservation, to write app-wide state.
  ///
  /// - Parameters:
  ///   - application: The application.
  ///   - coder: The top-level coder.
  func application(_ application: Application, willEncodeRestorableStateWith coder: StateCoder)

  /// Called last in restoration, after every object was decoded.
  ///
  /// - Parameters:
  ///   - application: The application.
  ///   - coder: The top-level coder.
  func application(_ application: Application, didDecodeRestorableStateWith coder: StateDecoder)

  /// Creates a view controller that has no restoration class; nil keeps the engine looking
  /// (an existing controller at the path, then the storyboard).
  ///
  /// - Parameters:
  ///   - application: The application.
  ///   - identifierComponents: The path split at `/`, index components included.
  ///   - coder: The controller's coder.
  /// - Returns: The controller, or nil.
  func application(
    _ application: Application,
    viewControllerWithRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> ViewController?

  /// Called when the app moved to the background, before its state is preserved.
  ///
  /// - Parameter application: The application.
  func applicationDidEnterBackground(_ application: Application)

  /// Called when the app is about to come back to the foreground.
  ///
  /// - Parameter application: The application.
  func applicationWillEnterForeground(_ application: Application)

  /// Called when the app is about to terminate while running (not when a suspended app is
  /// killed, and not after a force quit from the app switcher, as in iOS).
  ///
  /// - Parameter application: The application.
  func applicationWillTerminate(_ application: Application)

  /// Called when scene sessions were destroyed, their state deleted: the user closed their
  /// windows, or the app asked for it.
  ///
  /// - Parameters:
  ///   - application: The application.
  ///   - sceneSessions: The destroyed sessions.
  func application(
    _ application: Application, didDiscardSceneSessions sceneSessions: [SceneSession])
}

extension ApplicationDelegate {
  /// Does nothing by default.
  public func applicationWillFinishLaunching(_ application: Application) {}
  /// Does nothing by default.
  public func applicationDidFinishLaunching(_ application: Application) {}
  /// Not opted in by default.
  public func application(_ application: Application, shouldSaveApplicationState coder: StateCoder)
    -> Bool
  { false }
  /// Not opted in by default.
  public func application(
    _ application: Application,
    shouldRestoreApplicationState coder: StateDecoder
  ) -> Bool { false }
  /// Does nothing by default.
  public func application(
    _ application: Application, willEncodeRestorableStateWith coder: StateCoder
  ) {}
  /// Does nothing by default.
  public func application(
    _ application: Application, didDecodeRestorableStateWith coder: StateDecoder
  ) {}
  /// Returns nil by default, so the engine keeps looking.
  public func application(
    _ application: Application,
    viewControllerWithRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> ViewController? { nil }
  /// Does nothing by default.
  public func applicationDidEnterBackground(_ application: Application) {}
  /// Does nothing by default.
  public func applicationWillEnterForeground(_ application: Application) {}
  /// Does nothing by default.
  public func applicationWillTerminate(_ application: Application) {}
  /// Does nothing by default.
  public func application(
    _ application: Application, didDiscardSceneSessions sceneSessions: [SceneSession]
  ) {}
}
