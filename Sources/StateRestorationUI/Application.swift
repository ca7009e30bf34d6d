internal import BinaryPropertyList
public import Logging
public import StateRestoration

/// A running app (UIKit's `UIApplication`), driven by whoever hosts it: a terminal renderer, a
/// test, another UI framework.
///
/// It launches in UIKit's order (will-finish-launching, restoration, did-finish-launching),
/// preserves the state of its windows when it moves to the background, and keeps UIKit's
/// termination rules: a force quit from the app switcher deletes the saved state, a system kill
/// of a suspended app keeps it.
///
/// ```swift
/// let app = Application(delegate: AppDelegate(), applicationInfo: info, store: store)
/// let report = app.launch()  // restores what the last process saved
/// app.enterBackground()      // preserves; the process may now be killed at any time
/// ```
public final class Application {
  /// Where the app is in its lifecycle.
  public enum State: Sendable, Hashable {
    /// Not launched yet.
    case notRunning
    /// Launching, or between foreground and background.
    case inactive
    /// In the foreground.
    case active
    /// In the background (its state has been preserved).
    case background
    /// Terminated.
    case terminated
  }

  /// How the app stopped.
  public enum TerminationReason: Sendable, Hashable {
    /// The system killed the suspended app: the saved state is kept for the next launch.
    case systemKillAfterBackground
    /// The user force-quit the app from the app switcher: the saved state is deleted.
    case userForceQuit
    /// The app crashed: the saved state is kept (the crash guard deals with crash loops).
    case crash
  }

  /// The restoration engine.
  public let engine: RestorationEngine
  /// The app delegate, held strongly as UIKit's application does.
  public let delegate: any ApplicationDelegate
  /// The storyboard whose initial scene fills the first window at launch.
  public let mainStoryboard: Storyboard?
  /// The windows, in the order they were added.
  public private(set) var windows: [Window] = []
  /// Where the app is in its lifecycle.
  public private(set) var state: State = .notRunning
  /// The report of the restoration at launch.
  public private(set) var restorationReport: RestorationReport?
  /// The report of the last preservation.
  public private(set) var preservationReport: PreservationReport?
  /// The text snapshot saved when the app last moved to the background, shown at a restoring
  /// launch before the restored UI.
  public private(set) var launchSnapshot: String?
  /// Gives a text snapshot of the UI when the app moves to the background.
  public var snapshotProvider: (() -> String)?
  /// Shows the saved snapshot at a restoring launch, before restoration runs.
  public var snapshotPresenter: ((String) -> Void)?

  /// How the app declares its scenes; nil for an app that keeps one app-wide archive.
  public let sceneManifest: SceneManifest?
  /// Where each scene session's state lives, in an app that uses scenes.
  public let sceneStores: (any SceneSessionStores)?
  /// The app's scene sessions, connected or not, in the order they were created.
  public internal(set) var openSessions: [SceneSession] = []
  /// The scenes connected now, in the order they connected.
  public internal(set) var connectedScenes: [Scene] = []
  /// The sessions this process destroyed, which an index written by another process may list.
  var destroyedSessionIdentifiers: Set<ExactString> = []
  /// Whether this process holds the lock on the index of sessions now.
  var holdsIndexLock = false

  private var isPreserving = false
  private var ignoresNextSnapshot = false
  private let adapter: EngineDelegateAdapter

  /// Creates an application.
  ///
  /// - Parameters:
  ///   - delegate: The app delegate.
  ///   - applicationInfo: Bundle identifier, version and idiom recorded in archives.
  ///   - store: Where the saved state lives.
  ///   - mainStoryboard: The storyboard whose initial scene fills the first window at launch.
  ///   - settings: Developer mode, debug logging and limits; by default from the environment.
  ///   - logger: Where restoration logs.
  public convenience init(
    delegate: any ApplicationDelegate,
    applicationInfo: ApplicationInfo,
    store: any ArchiveStore,
    mainStoryboard: Storyboard? = nil,
    settings: RestorationSettings = .fromEnvironment(),
    logger: Logger = Logger(label: "StateRestoration")
  ) {
    self.init(
      delegate: delegate, applicationInfo: applicationInfo, store: store,
      mainStoryboard: mainStoryboard, sceneManifest: nil, sceneStores: nil, settings: settings,
      logger: logger)
  }

  /// Creates an application that uses scenes: each window is a scene, restored on its own
  /// from its session's state.
  ///
  /// At launch no scene is connected; connect them with
  /// ``requestSceneSessionActivation(_:options:)``, as the system does for the sessions it
  /// shows.
  ///
  /// - Parameters:
  ///   - delegate: The app delegate; its restoration opt-in applies to every scene.
  ///   - applicationInfo: Bundle identifier, version and idiom recorded in archives.
  ///   - sceneStores: Where the sessions' state lives.
  ///   - sceneManifest: The app's scene configuration.
  ///   - settings: Developer mode, debug logging and limits; by default from the environment.
  ///   - logger: Where restoration logs.
  public convenience init(
    delegate: any ApplicationDelegate,
    applicationInfo: ApplicationInfo,
    sceneStores: any SceneSessionStores,
    sceneManifest: SceneManifest,
    settings: RestorationSettings = .fromEnvironment(),
    logger: Logger = Logger(label: "StateRestoration")
  ) {
    self.init(
      delegate: delegate, applicationInfo: applicationInfo, store: sceneStores.applicationStore,
      mainStoryboard: nil, sceneManifest: sceneManifest, sceneStores: sceneStores,
      settings: settings, logger: logger)
  }

  private init(
    delegate: any ApplicationDelegate,
    applicationInfo: ApplicationInfo,
    store: any ArchiveStore,
    mainStoryboard: Storyboard?,
    sceneManifest: SceneManifest?,
    sceneStores: (any SceneSessionStores)?,
    settings: RestorationSettings,
    logger: Logger
  ) {
    self.delegate = delegate
    self.mainStoryboard = mainStoryboard
    self.sceneManifest = sceneManifest
    self.sceneStores = sceneStores
    engine = RestorationEngine(
      applicationInfo: applicationInfo,
      store: store,
      settings: settings,
      logger: logger
    )
    adapter = EngineDelegateAdapter()
    adapter.application = self
    engine.delegate = adapter
    engine.applicationContext = self
    if let mainStoryboard { engine.registry.register(storyboard: mainStoryboard) }
  }

  // MARK: - Windows

  /// Adds a window; call it from will-finish-launching so restoration finds its controllers.
  ///
  /// - Parameter window: The window.
  public func addWindow(_ window: Window) {
    guard !windows.contains(where: { $0 === window }) else { return }
    windows.append(window)
  }

  /// The first window.
  public var keyWindow: Window? { windows.first }

  // MARK: - Registration

  /// Registers a restoration class, so archives may use it to re-create controllers.
  ///
  /// - Parameter restorationClass: The class.
  public func register(restorationClass: any ObjectRestoration.Type) {
    engine.registry.register(restorationClass)
  }

  /// Registers a storyboard, so controllers instantiated from it can be re-created.
  ///
  /// - Parameter storyboard: The storyboard.
  public func register(storyboard: Storyboard) {
    engine.registry.register(storyboard: storyboard)
  }

  /// Registers an object outside the controller tree so archives can reference it (UIKit's
  /// `registerObject(forStateRestoration:restorationIdentifier:)`).
  ///
  /// - Parameter object: The object; held weakly.
  public func registerObject(forStateRestoration object: any StateRestoring) {
    engine.registry.registerObject(object)
  }

  // MARK: - Lifecycle

  /// Launches the app in UIKit's order: the main storyboard's initial controller, the
  /// delegate's will-finish-launching, the saved snapshot, restoration, did-finish-launching,
  /// then the windows appear.
  ///
  /// - Returns: What restoration did (also ``restorationReport``); a later call launches nothing
  ///   and returns the same report. An app with scenes restores each scene on its own
  ///   (``Scene/restorationReport``): its launch returns a report of nothing saved.
  @discardableResult
  public func launch() -> RestorationReport {
    guard state == .notRunning else {
      return restorationReport ?? RestorationReport(outcome: .nothingSaved)
    }
    state = .inactive
    if sceneManifest != nil {
      delegate.applicationWillFinishLaunching(self)
      loadSessions()
      delegate.applicationDidFinishLaunching(self)
      state = .active
      return RestorationReport(outcome: .nothingSaved)
    }
    if let mainStoryboard, windows.isEmpty,
      let initial = mainStoryboard.instantiateInitialViewController()
    {
      addWindow(Window(rootViewController: initial))
    }
    delegate.applicationWillFinishLaunching(self)
    launchSnapshot = presentSnapshot(of: engine)
    let report = engine.restoreApplicationState(roots: windows)
    restorationReport = report
    delegate.applicationDidFinishLaunching(self)
    for window in windows { window.makeKeyAndVisible() }
    state = .active
    return report
  }

  /// Shows the snapshot an engine's store keeps, once: it is removed as it is read, and the
  /// next move to the background writes a new one.
  func presentSnapshot(of engine: RestorationEngine) -> String? {
    do {
      guard let bytes = try engine.store.read(.snapshot, maxSize: LaunchSnapshot.maxFileSize)
      else { return nil }
      try? engine.store.remove(.snapshot)
      let snapshot = try LaunchSnapshot.decoded(bytes)
      snapshotPresenter?(snapshot)
      return snapshot
    } catch {
      // Not shown now, so never: a link is removed, not followed, and its target left alone.
      try? engine.store.remove(.snapshot)
      engine.logger.warning("The launch snapshot was not shown, and was removed: \(error)")
      return nil
    }
  }

  /// Preserves through an engine, then saves a snapshot beside the archive it wrote (or
  /// removes the last one, when nothing was saved or the app asked to skip it).
  func preserve(roots: [any StateRestoring], with engine: RestorationEngine) -> PreservationReport {
    isPreserving = true
    ignoresNextSnapshot = false
    let report = engine.preserveApplicationState(roots: roots)
    isPreserving = false
    do {
      if case .saved = report.outcome, !ignoresNextSnapshot, let snapshot = snapshotProvider?() {
        try engine.store.write(LaunchSnapshot.encoded(snapshot), to: .snapshot)
      } else {
        try engine.store.remove(.snapshot)
      }
    } catch {
      engine.logger.warning("Unable to save the launch snapshot: \(error)")
    }
    return report
  }

  /// Moves the app to the background.
  ///
  /// The delegate is told, then the state is preserved and a snapshot taken; with scenes, each
  /// connected scene moves to the background first, saving its activity and its state. A
  /// suspended app may be killed at any time after this.
  ///
  /// - Returns: The preservation report; nil with scenes, where each scene has its own
  ///   (``Scene/preservationReport``).
  @discardableResult
  public func enterBackground() -> PreservationReport? {
    guard state == .active || state == .inactive else { return preservationReport }
    state = .background
    if sceneManifest != nil {
      for scene in connectedScenes { moveToBackground(scene) }
      delegate.applicationDidEnterBackground(self)
      saveSessionIndex()
      return nil
    }
    delegate.applicationDidEnterBackground(self)
    let report = preserve(roots: windows, with: engine)
    preservationReport = report
    return report
  }

  /// Brings the app back to the foreground.
  public func enterForeground() {
    guard state == .background else { return }
    delegate.applicationWillEnterForeground(self)
    for scene in connectedScenes where scene.activationState == .background {
      scene.delegate.sceneWillEnterForeground(scene)
      scene.activationState = .foregroundActive
    }
    state = .active
  }

  /// Terminates the app.
  ///
  /// - Parameter reason: How it stopped; a force quit deletes the saved state.
  public func terminate(_ reason: TerminationReason) {
    guard state != .terminated else { return }
    switch reason {
    case .userForceQuit where sceneManifest != nil:
      discardAllSessions()
    case .userForceQuit:
      engine.applicationWasForceQuit()
    case .systemKillAfterBackground:
      if state == .active { delegate.applicationWillTerminate(self) }
    case .crash:
      break
    }
    state = .terminated
  }

  // MARK: - Restoration control

  /// Declares that restoration goes on asynchronously.
  ///
  /// Balance it with ``completeStateRestoration()``. A crash in between discards the saved state.
  public func extendStateRestoration() {
    engine.extendStateRestoration()
  }

  /// Ends an asynchronous extension of restoration.
  public func completeStateRestoration() {
    engine.completeStateRestoration()
  }

  /// Skips the snapshot at the next launch; effective only while state is being preserved
  /// (from an encode method or the delegate's will-encode), as in UIKit.
  public func ignoreSnapshotOnNextApplicationLaunch() {
    guard isPreserving else {
      engine.logger.debug(
        "ignoreSnapshotOnNextApplicationLaunch() called outside preservation; ignored")
      return
    }
    ignoresNextSnapshot = true
  }
}

/// Forwards the engine's delegate calls to the app delegate, adding the application argument.
///
/// For a scene's engine it also saves and restores the scene's ``SceneStorage`` values, in the
/// archive's top level, before any object is restored.
final class EngineDelegateAdapter: RestorationDelegate {
  weak var application: Application?
  weak var scene: Scene?

  func shouldSaveApplicationState(with coder: StateCoder) -> Bool {
    guard let application else { return false }
    if let scene, !scene.storageValues.isEmpty {
      coder.encodeValue(.dictionary(scene.storageValues), forKey: Scene.storageKey)
    }
    return application.delegate.application(application, shouldSaveApplicationState: coder)
  }

  func shouldRestoreApplicationState(with coder: StateDecoder) -> Bool {
    guard let application else { return false }
    let restores = application.delegate.application(
      application, shouldRestoreApplicationState: coder)
    if restores, let scene, let stored = coder.decodeValue(forKey: Scene.storageKey) {
      // Values set since the scene connected win over the archive's.
      let values = Scene.checkedStorageValues(stored, logger: scene.engine.logger)
      scene.storageValues.merge(values) { current, _ in current }
    }
    return restores
  }

  func willEncodeRestorableState(with coder: StateCoder) {
    guard let application else { return }
    application.delegate.application(application, willEncodeRestorableStateWith: coder)
  }

  func didDecodeRestorableState(with coder: StateDecoder) {
    guard let application else { return }
    application.delegate.application(application, didDecodeRestorableStateWith: coder)
  }

  func object(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> (any StateRestoring)? {
    guard let application else { return nil }
    return application.delegate.application(
      application,
      viewControllerWithRestorationIdentifierPath: identifierComponents,
      coder: coder
    )
  }
}
