import StateRestoration
import StateRestorationTesting
import StateRestorationUI
import Testing

/// Records lifecycle callbacks in order.
final class Timeline {
  var events: [String] = []
}

final class TracingViewController: ViewController {
  let timeline: Timeline
  var note = 0

  init(_ identifier: String, timeline: Timeline) {
    self.timeline = timeline
    super.init(restorationIdentifier: identifier)
  }

  private func record(_ event: String) {
    timeline.events.append("\(restorationIdentifier ?? "?").\(event)")
  }

  override func loadView() {
    record("loadView")
    super.loadView()
  }
  override func viewDidLoad() { record("viewDidLoad") }
  override func viewWillAppear() { record("viewWillAppear") }
  override func viewDidAppear() { record("viewDidAppear") }
  override func viewWillDisappear() { record("viewWillDisappear") }
  override func viewDidDisappear() { record("viewDidDisappear") }

  override func encodeRestorableState(with coder: StateCoder) throws {
    try super.encodeRestorableState(with: coder)
    coder.encode(note, forKey: "note")
  }

  override func decodeRestorableState(with coder: StateDecoder) throws {
    record("decode(viewLoaded: \(isViewLoaded))")
    try super.decodeRestorableState(with: coder)
    note = coder.decode(Int.self, forKey: "note") ?? 0
  }

  override func applicationFinishedRestoringState() { record("finishedRestoring") }
}

final class TracingDelegate: OptingInApplicationDelegate {
  let timeline = Timeline()
  var snapshotOnBackground: String?
  var ignoreSnapshot = false
  var extend = false

  override func applicationWillFinishLaunching(_ application: Application) {
    timeline.events.append("willFinishLaunching")
    let root = TracingViewController("Root", timeline: timeline)
    application.addWindow(Window(rootViewController: root))
    application.snapshotProvider = { [weak self] in self?.snapshotOnBackground ?? "" }
  }

  override func applicationDidFinishLaunching(_ application: Application) {
    timeline.events.append("didFinishLaunching")
  }

  override func application(
    _ application: Application, shouldRestoreApplicationState coder: StateDecoder
  )
    -> Bool
  {
    timeline.events.append("shouldRestore")
    return true
  }

  override func application(
    _ application: Application, willEncodeRestorableStateWith coder: StateCoder
  ) {
    if ignoreSnapshot { application.ignoreSnapshotOnNextApplicationLaunch() }
  }

  override func application(
    _ application: Application, didDecodeRestorableStateWith coder: StateDecoder
  ) {
    timeline.events.append("didDecode")
    if extend { application.extendStateRestoration() }
  }

  override func applicationDidEnterBackground(_ application: Application) {
    timeline.events.append("didEnterBackground")
  }

  override func applicationWillEnterForeground(_ application: Application) {
    timeline.events.append("willEnterForeground")
  }

  override func applicationWillTerminate(_ application: Application) {
    timeline.events.append("willTerminate")
  }
}

/// A delegate that builds a window but implements neither opt-in method.
final class NotOptedInDelegate: ApplicationDelegate {
  let root = TracingViewController("Root", timeline: Timeline())

  func applicationWillFinishLaunching(_ application: Application) {
    application.addWindow(Window(rootViewController: root))
  }
}

@Suite struct LifecycleTests {
  @Test func launchRunsInUIKitsOrderAndDecodeFollowsViewDidLoad() throws {
    let harness = ApplicationHarness { TracingDelegate() }
    harness.launch()
    let first = try #require(harness.application.delegate as? TracingDelegate)
    #expect(
      first.timeline.events == [
        "willFinishLaunching", "didFinishLaunching", "Root.loadView", "Root.viewDidLoad",
        "Root.viewWillAppear", "Root.viewDidAppear",
      ]
    )
    let restart = harness.restartAndRestore()
    let delegate = try #require(restart.application.delegate as? TracingDelegate)
    #expect(
      delegate.timeline.events == [
        "willFinishLaunching", "shouldRestore", "Root.loadView", "Root.viewDidLoad",
        "Root.decode(viewLoaded: true)", "didDecode", "Root.finishedRestoring",
        "didFinishLaunching",
        "Root.viewWillAppear", "Root.viewDidAppear",
      ]
    )
    #expect(restart.application.state == .active)
  }

  @Test func backgroundForegroundAndTermination() throws {
    let harness = ApplicationHarness { TracingDelegate() }
    harness.launch()
    let application = harness.application
    #expect(application.state == .active)
    let report = application.enterBackground()
    #expect(application.state == .background)
    guard case .saved = report?.outcome else {
      Issue.record("expected a save, got \(String(describing: report))")
      return
    }
    application.enterForeground()
    #expect(application.state == .active)
    application.terminate(.systemKillAfterBackground)
    #expect(application.state == .terminated)
    #expect(harness.store.contents[.archive] != nil)
  }

  @Test func foregroundAndTerminationHooksAreCalledInOrder() throws {
    let harness = ApplicationHarness { TracingDelegate() }
    harness.launch()
    let application = harness.application
    let delegate = try #require(application.delegate as? TracingDelegate)
    delegate.timeline.events = []
    application.enterBackground()
    application.enterForeground()
    #expect(delegate.timeline.events == ["didEnterBackground", "willEnterForeground"])
    #expect(application.state == .active)
    application.enterForeground()  // already in the foreground: not called again
    #expect(delegate.timeline.events.filter { $0 == "willEnterForeground" }.count == 1)

    // Terminated while running in the foreground: the app is told.
    delegate.timeline.events = []
    application.terminate(.systemKillAfterBackground)
    #expect(delegate.timeline.events == ["willTerminate"])
    application.terminate(.systemKillAfterBackground)  // already terminated: not again
    #expect(delegate.timeline.events == ["willTerminate"])
  }

  /// As in iOS, a suspended app is killed without notice, a force quit from the app switcher
  /// kills the suspended app, and a crash calls nothing.
  @Test(arguments: [
    Application.TerminationReason.systemKillAfterBackground, .userForceQuit, .crash,
  ])
  func willTerminateIsNotCalledForASuspendedAppOrACrash(
    reason: Application.TerminationReason
  ) throws {
    let harness = ApplicationHarness { TracingDelegate() }
    harness.launch()
    let application = harness.application
    let delegate = try #require(application.delegate as? TracingDelegate)
    application.enterBackground()
    application.terminate(reason)
    #expect(application.state == .terminated)
    #expect(!delegate.timeline.events.contains("willTerminate"))
  }

  @Test func activeAppThatCrashesIsNotToldItTerminates() throws {
    let harness = ApplicationHarness { TracingDelegate() }
    harness.launch()
    let delegate = try #require(harness.application.delegate as? TracingDelegate)
    harness.application.terminate(.crash)
    #expect(!delegate.timeline.events.contains("willTerminate"))
  }

  @Test func restartsThroughTheHarnessNeverCallWillTerminate() throws {
    let harness = ApplicationHarness { TracingDelegate() }
    harness.launch()
    var delegate = try #require(harness.application.delegate as? TracingDelegate)
    harness.restartAndRestore()
    #expect(delegate.timeline.events.last == "didEnterBackground")
    delegate = try #require(harness.application.delegate as? TracingDelegate)
    harness.forceQuitAndRelaunch()
    #expect(!delegate.timeline.events.contains("willTerminate"))
    delegate = try #require(harness.application.delegate as? TracingDelegate)
    harness.crashAndRelaunch()
    #expect(!delegate.timeline.events.contains("willTerminate"))
  }

  @Test func delegateWithoutTheOptInSavesNothing() throws {
    let harness = ApplicationHarness { NotOptedInDelegate() }
    harness.launch()
    let delegate = try #require(harness.application.delegate as? NotOptedInDelegate)
    delegate.root.note = 9
    let report = harness.application.enterBackground()
    #expect(report?.outcome == .notOptedIn)
    #expect(harness.store.contents.isEmpty)
    #expect(harness.savedArchive == nil)

    let restart = harness.restartAndRestore()
    #expect(restart.report.outcome == .nothingSaved)
    #expect(restart.archive == nil)
    let restored = try #require(restart.application.delegate as? NotOptedInDelegate)
    #expect(restored.root.note == 0)
    #expect(!restored.root.timeline.events.contains { $0.hasPrefix("Root.decode") })
  }

  @Test func navigationAndTabsDriveAppearance() throws {
    let timeline = Timeline()
    let list = TracingViewController("List", timeline: timeline)
    let settings = TracingViewController("Settings", timeline: timeline)
    let navigation = NavigationController(rootViewController: list, restorationIdentifier: "Nav")
    let tabs = TabBarController(
      viewControllers: [navigation, settings], restorationIdentifier: "Tabs")
    let window = Window(rootViewController: tabs)
    window.makeKeyAndVisible()
    #expect(list.isVisible)
    #expect(!settings.isViewLoaded)  // an unvisited tab never loads its view

    let detail = TracingViewController("Detail", timeline: timeline)
    timeline.events = []
    navigation.pushViewController(detail)
    #expect(detail.navigationController === navigation)
    #expect(detail.tabBarController === tabs)
    #expect(
      timeline.events == [
        "List.viewWillDisappear", "List.viewDidDisappear", "Detail.loadView", "Detail.viewDidLoad",
        "Detail.viewWillAppear", "Detail.viewDidAppear",
      ]
    )
    timeline.events = []
    tabs.selectedIndex = 1
    #expect(!detail.isVisible)
    #expect(settings.isVisible)
    timeline.events = []
    tabs.selectedIndex = 0
    #expect(navigation.popViewController() === detail)
    #expect(list.isVisible)
    #expect(detail.navigationController == nil)
    #expect(navigation.popViewController() == nil)  // never pops the root
  }

  @Test func snapshotIsAvailableAtARestoringLaunchBeforeTheRestoredUI() throws {
    let harness = ApplicationHarness { TracingDelegate() }
    harness.launch()
    (harness.application.delegate as? TracingDelegate)?.snapshotOnBackground =
      "[ Countries ] row 50"
    harness.application.enterBackground()
    #expect(harness.store.contents[.snapshot] == LaunchSnapshot.encoded("[ Countries ] row 50"))

    var shownBeforeRestore: String?
    var eventsWhenShown: [String]?
    let next = ApplicationHarness(store: harness.store) { TracingDelegate() }
    next.application.snapshotPresenter = { [unowned next] snapshot in
      shownBeforeRestore = snapshot
      eventsWhenShown = (next.application.delegate as? TracingDelegate)?.timeline.events
    }
    next.launch()
    #expect(shownBeforeRestore == "[ Countries ] row 50")
    #expect(next.application.launchSnapshot == "[ Countries ] row 50")
    // Shown after will-finish-launching and before restoration: nothing decoded yet.
    #expect(eventsWhenShown == ["willFinishLaunching"])
  }

  /// A snapshot file is checked like the archive: one that is torn, flipped or not a snapshot
  /// is not shown (and removed); one whose text holds escape sequences or other control
  /// characters is shown without them.
  @Test func aSnapshotIsShownOnlyWholeAndWithoutControlCharacters() throws {
    let hostile = "title\u{1B}]52;c;cm0gLXJmIH4=\u{07}\u{1B}[2J\r\u{9B}31m\tred\nline two"
    var flipped = LaunchSnapshot.encoded("[ Countries ] row 50")
    flipped[flipped.count - 1] ^= 0x01
    let cases: [([UInt8], String?)] = [
      (LaunchSnapshot.encoded(hostile), "title]52;c;cm0gLXJmIH4=[2J31m red\nline two"),
      (flipped, nil),
      (Array(LaunchSnapshot.encoded("[ Countries ] row 50").dropLast(3)), nil),
      (Array("\u{1B}[2J raw text, as snapshots were once written".utf8), nil),
    ]
    for (bytes, expected) in cases {
      let store = InMemoryArchiveStore(contents: [.snapshot: bytes])
      var shown: String?
      let harness = ApplicationHarness(store: store) { TracingDelegate() }
      harness.application.snapshotPresenter = { shown = $0 }
      harness.launch()
      #expect(shown == expected)
      #expect(harness.application.launchSnapshot == expected)
      #expect(store.contents[.snapshot] == nil)
    }
  }

  @Test func ignoreSnapshotWorksOnlyDuringPreservation() throws {
    let harness = ApplicationHarness { TracingDelegate() }
    harness.launch()
    let delegate = try #require(harness.application.delegate as? TracingDelegate)
    delegate.snapshotOnBackground = "modal alert on screen"
    harness.application.ignoreSnapshotOnNextApplicationLaunch()  // outside preservation: ignored
    harness.application.enterBackground()
    #expect(harness.store.contents[.snapshot] != nil)

    harness.application.enterForeground()
    delegate.ignoreSnapshot = true  // from will-encode: honoured
    harness.application.enterBackground()
    #expect(harness.store.contents[.snapshot] == nil)
  }

  @Test func extendedRestorationThatNeverCompletesIsDiscardedAfterACrash() throws {
    var extend = true
    let harness = ApplicationHarness {
      let delegate = TracingDelegate()
      delegate.extend = extend
      return delegate
    }
    harness.launch()
    (harness.application.keyWindow?.rootViewController as? TracingViewController)?.note = 5
    let restart = harness.restartAndRestore()  // this launch extends and never completes
    #expect(restart.report.restoredEverything, "\(restart.report)")
    #expect(restart.application.engine.isRestorationInProgress)
    extend = false
    let afterCrash = harness.crashAndRelaunch()
    #expect(afterCrash.report.outcome == .discarded(.crashDuringExtendedRestoration))
  }

  @Test func extendedRestorationThatCompletesFinishesNormally() throws {
    let harness = ApplicationHarness {
      let delegate = TracingDelegate()
      delegate.extend = true
      return delegate
    }
    harness.launch()
    let restart = harness.restartAndRestore()
    #expect(harness.store.contents[.archive] != nil)
    restart.application.completeStateRestoration()
    #expect(!restart.application.engine.isRestorationInProgress)
    #expect(harness.store.contents[.archive] == nil)
  }
}
