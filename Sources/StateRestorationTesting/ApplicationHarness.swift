public import Logging
public import StateRestoration
public import StateRestorationUI
import Synchronization

/// Runs an app through launches, backgrounding and process deaths inside one test.
///
/// Each "process" is a fresh `Application` with a fresh delegate from `makeDelegate`; the only
/// thing that survives a process death is the store's bytes, exactly as on a device. After a
/// restart the harness checks that the previous process's objects were all released, so a test
/// cannot pass by accident through an object that outlived its "process".
///
/// ```swift
/// let harness = ApplicationHarness { AppDelegate() }
/// harness.launch()
/// harness.application.keyWindow?.rootViewController ... // drive the UI
/// let result = harness.restartAndRestore()             // Home, kill, launch again
/// #expect(result.report.restoredEverything, "\(result.report)")
/// ```
public final class ApplicationHarness {
  /// What a restart produced.
  public struct Restart {
    /// The newly launched application.
    public var application: Application
    /// Its restoration report.
    public var report: RestorationReport
    /// The preservation report of the process that was killed, if it preserved.
    public var preservation: PreservationReport?
    /// The archive the killed process left, decoded, if any.
    public var archive: RestorationArchive?
    /// Descriptions of objects of the killed process still alive after it "died"; empty when
    /// everything was released.
    public var leakedObjects: [String]
  }

  /// The store shared by every process: the only state that survives.
  ///
  /// With scenes, it holds the index of sessions, and ``sceneStores`` each session's state.
  public let store: InMemoryArchiveStore
  /// The scene session stores shared by every process, for an app that uses scenes.
  public let sceneStores: InMemorySceneSessionStores?
  /// The application of the current process.
  public private(set) var application: Application

  private let applicationInfo: ApplicationInfo
  private let makeDelegate: () -> any ApplicationDelegate
  private let makeMainStoryboard: (() -> Storyboard)?
  private let makeSceneDelegate: (() -> any SceneDelegate)?
  /// Settings for every launch; change them between launches (developer mode, say).
  public var settings: RestorationSettings
  /// Where every process logs; change it between launches to capture one launch's log.
  public var logger: Logger
  /// What every process logged, one line each with its level, when the harness was given no
  /// logger: kept here rather than printed, so that a passing test prints nothing.
  public var loggedMessages: [String] { capture.messages }
  private let capture = HarnessLog()

  /// The bundle identifier, version and idiom of an app under test, unless a test gives its own.
  public static let testApplicationInfo = ApplicationInfo(
    bundleIdentifier: "com.example.test", bundleVersion: "1", systemVersion: "test",
    userInterfaceIdiom: "phone")

  /// Creates a harness; nothing is launched yet.
  ///
  /// - Parameters:
  ///   - applicationInfo: Bundle identifier, version and idiom.
  ///   - settings: Settings for every launch.
  ///   - logger: Where every process logs; by default into ``loggedMessages``.
  ///   - store: The store; by default empty.
  ///   - makeMainStoryboard: Makes the main storyboard for each process, if the app has one.
  ///   - makeDelegate: Makes the app delegate for each process.
  public init(
    applicationInfo: ApplicationInfo = ApplicationHarness.testApplicationInfo,
    settings: RestorationSettings = RestorationSettings(),
    logger: Logger? = nil,
    store: InMemoryArchiveStore = InMemoryArchiveStore(),
    makeMainStoryboard: (() -> Storyboard)? = nil,
    makeDelegate: @escaping () -> any ApplicationDelegate
  ) {
    self.applicationInfo = applicationInfo
    self.settings = settings
    self.logger = logger ?? capture.makeLogger()
    self.store = store
    self.makeMainStoryboard = makeMainStoryboard
    self.makeDelegate = makeDelegate
    sceneStores = nil
    makeSceneDelegate = nil
    application = Application(
      delegate: makeDelegate(), applicationInfo: applicationInfo, store: store,
      mainStoryboard: makeMainStoryboard?(), settings: settings, logger: self.logger)
  }

  /// Creates a harness for an app that uses scenes; nothing is launched yet.
  ///
  /// Each process launches with no scene connected: connect them with the application's
  /// `requestSceneSessionActivation(_:options:)`, as the system does.
  ///
  /// - Parameters:
  ///   - applicationInfo: Bundle identifier, version and idiom.
  ///   - settings: Settings for every launch.
  ///   - logger: Where every process logs; by default into ``loggedMessages``.
  ///   - sceneStores: The scene stores; by default empty.
  ///   - makeSceneDelegate: Makes the delegate of each scene that connects.
  ///   - makeDelegate: Makes the app delegate for each process.
  public init(
    applicationInfo: ApplicationInfo = ApplicationHarness.testApplicationInfo,
    settings: RestorationSettings = RestorationSettings(),
    logger: Logger? = nil,
    sceneStores: InMemorySceneSessionStores = InMemorySceneSessionStores(),
    makeSceneDelegate: @escaping () -> any SceneDelegate,
    makeDelegate: @escaping () -> any ApplicationDelegate
  ) {
    self.applicationInfo = applicationInfo
    self.settings = settings
    self.logger = logger ?? capture.makeLogger()
    // The stores' app-level items are the harness's store.
    store = (sceneStores.applicationStore as? InMemoryArchiveStore) ?? InMemoryArchiveStore()
    self.sceneStores = sceneStores
    makeMainStoryboard = nil
    self.makeSceneDelegate = makeSceneDelegate
    self.makeDelegate = makeDelegate
    application = Application(
      delegate: makeDelegate(), applicationInfo: applicationInfo, sceneStores: sceneStores,
      sceneManifest: SceneManifest(makeDelegate: makeSceneDelegate), settings: settings,
      logger: self.logger)
  }

  /// A new process's application, made as the first one was: a fresh delegate and storyboard
  /// over the same stores.
  private func makeNextApplication() -> Application {
    if let sceneStores, let makeSceneDelegate {
      return Application(
        delegate: makeDelegate(), applicationInfo: applicationInfo, sceneStores: sceneStores,
        sceneManifest: SceneManifest(makeDelegate: makeSceneDelegate), settings: settings,
        logger: logger)
    }
    return Application(
      delegate: makeDelegate(), applicationInfo: applicationInfo, store: store,
      mainStoryboard: makeMainStoryboard?(), settings: settings, logger: logger)
  }

  /// Launches the current application if it has not launched yet.
  ///
  /// - Returns: Its restoration report.
  @discardableResult
  public func launch() -> RestorationReport { application.launch() }

  /// The saved archive, decoded, if there is one.
  public var savedArchive: RestorationArchive? {
    guard let bytes = store.contents[.archive] else { return nil }
    return try? RestorationArchive(decoding: bytes)
  }

  /// Presses Home (the app moves to the background and preserves), the system kills the
  /// suspended process, and the app launches again from the same bytes.
  ///
  /// - Returns: The new application, its report, and what the killed process left.
  @discardableResult
  public func restartAndRestore() -> Restart {
    let preservation = application.enterBackground()
    return relaunch(after: .systemKillAfterBackground, preservation: preservation)
  }

  /// The user force-quits the app from the app switcher (after it moved to the background),
  /// and launches it again: the saved state is gone.
  ///
  /// - Returns: The new application and its report.
  @discardableResult
  public func forceQuitAndRelaunch() -> Restart {
    let preservation = application.enterBackground()
    return relaunch(after: .userForceQuit, preservation: preservation)
  }

  /// The process crashes right now, with whatever is on disk, and the app launches again.
  ///
  /// - Returns: The new application and its report.
  @discardableResult
  public func crashAndRelaunch() -> Restart {
    relaunch(after: .crash, preservation: nil)
  }

  /// Launches a new process that crashes during restoration, just as objects start decoding.
  ///
  /// The store keeps exactly what was on disk at that instant (the crash guard's marker
  /// included). Call ``relaunch()`` afterwards to see what the next launch does.
  public func launchCrashingDuringRestoration() {
    application.terminate(.crash)
    let next = makeNextApplication()
    var atCrash: [ArchiveStoreItem: [UInt8]]?
    next.engine.phaseObserver = { [store] phase in
      if phase == .decodeState, atCrash == nil { atCrash = store.contents }
    }
    next.launch()
    next.terminate(.crash)
    if let atCrash { store.contents = atCrash }
    application = makeNextApplication()
  }

  /// Launches the current application (after ``launchCrashingDuringRestoration()``), or a new
  /// one after terminating the current one as the system would.
  ///
  /// - Returns: The new application and its report.
  @discardableResult
  public func relaunch() -> Restart {
    if application.state == .notRunning {
      let report = launch()
      return Restart(
        application: application,
        report: report,
        preservation: nil,
        archive: nil,
        leakedObjects: []
      )
    }
    return relaunch(after: .systemKillAfterBackground, preservation: nil)
  }

  private func relaunch(
    after reason: Application.TerminationReason,
    preservation: PreservationReport?
  ) -> Restart {
    application.terminate(reason)
    let archive = savedArchive
    let tracker = LifetimeTracker(application)
    application = makeNextApplication()
    let leaked = tracker.survivors
    let report = launch()
    return Restart(
      application: application,
      report: report,
      preservation: preservation,
      archive: archive,
      leakedObjects: leaked
    )
  }
}

/// Watches an application's objects weakly, to check that a dead "process" let go of them.
private struct LifetimeTracker {
  private struct Entry {
    weak var object: AnyObject?
    let description: String
  }
  private var entries: [Entry] = []

  init(_ application: Application) {
    entries.append(Entry(object: application, description: "Application"))
    entries.append(Entry(object: application.delegate, description: "the app delegate"))
    let windows = application.windows + application.connectedScenes.compactMap(\.window)
    for scene in application.connectedScenes {
      entries.append(
        Entry(object: scene, description: "Scene \(scene.session.persistentIdentifier)"))
      entries.append(Entry(object: scene.delegate, description: "a scene delegate"))
    }
    var stack: [ViewController] = windows.compactMap(\.rootViewController)
    for window in windows {
      entries.append(
        Entry(object: window, description: "Window \(window.restorationIdentifier ?? "")"))
    }
    while let controller = stack.popLast() {
      entries.append(
        Entry(
          object: controller,
          description:
            "\(type(of: controller)) \(controller.restorationIdentifier ?? "(no identifier)")"
        )
      )
      stack.append(contentsOf: controller.children)
      if let presented = controller.presentedViewController { stack.append(presented) }
      // Views too: a view kept alive (by a closure, say) would carry the old process's state.
      if controller.isViewLoaded { appendViews(from: controller.view) }
    }
  }

  private mutating func appendViews(from root: View) {
    var views = [root]
    while let view = views.popLast() {
      entries.append(
        Entry(
          object: view,
          description: "\(type(of: view)) \(view.restorationIdentifier ?? "(no identifier)")"
        )
      )
      views.append(contentsOf: view.subviews)
    }
  }

  /// The objects still alive.
  var survivors: [String] {
    entries.filter { $0.object != nil }.map(\.description)
  }
}

/// The lines logged through a harness's own logger.
private final class HarnessLog: Sendable {
  private let lines = Mutex<[String]>([])

  var messages: [String] { lines.withLock { $0 } }

  func makeLogger() -> Logger {
    Logger(label: "StateRestoration") { _ in Handler(owner: self) }
  }

  private struct Handler: LogHandler {
    let owner: HarnessLog
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
      get { metadata[key] }
      set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
      owner.lines.withLock { $0.append("\(event.level): \(event.message)") }
    }
  }
}
