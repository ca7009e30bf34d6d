public import StateRestoration
public import StateRestorationUI

/// An application delegate that opts in to preservation and restoration, for tests.
///
/// Subclass it and override what the test needs, usually
/// ``applicationWillFinishLaunching(_:)`` to build the windows; both opt-in methods already
/// return true.
open class OptingInApplicationDelegate: ApplicationDelegate {
  /// Creates the delegate.
  public init() {}

  /// Does nothing; override to build windows and register restoration classes.
  open func applicationWillFinishLaunching(_ application: Application) {}

  /// Does nothing.
  open func applicationDidFinishLaunching(_ application: Application) {}

  /// Opts in.
  open func application(_ application: Application, shouldSaveApplicationState coder: StateCoder)
    -> Bool
  { true }

  /// Opts in.
  open func application(
    _ application: Application,
    shouldRestoreApplicationState coder: StateDecoder
  ) -> Bool { true }

  /// Does nothing.
  open func application(_ application: Application, willEncodeRestorableStateWith coder: StateCoder)
  {}

  /// Does nothing.
  open func application(
    _ application: Application, didDecodeRestorableStateWith coder: StateDecoder
  ) {}

  /// Returns nil, so the engine keeps looking.
  open func application(
    _ application: Application,
    viewControllerWithRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> ViewController? { nil }

  /// Does nothing.
  open func applicationDidEnterBackground(_ application: Application) {}

  /// Does nothing.
  open func applicationWillEnterForeground(_ application: Application) {}

  /// Does nothing.
  open func applicationWillTerminate(_ application: Application) {}

  /// Does nothing.
  open func application(
    _ application: Application, didDiscardSceneSessions sceneSessions: [SceneSession]
  ) {}
}
