import ArgumentParser
import Foundation
import Logging
import RestorerCore
import StateRestoration
import StateRestorationStorage
import StateRestorationUI

@main
struct Restorer: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "restorer",
    // The overview and usage are kept under 80 columns: ArgumentParser prints the usage on
    // one line, and would wrap a longer abstract with a dangling word.
    abstract: "The Restorer app in a terminal, restored across real process kills.",
    usage: """
      restorer [--state-dir <folder>] [--reset] [--developer-mode]
               [--new-window | --window <id> | --windows]
               [--debug-logging] [--crash-during-restore]
               [--show-snapshot <seconds>]
               [--keys <keys>] [--width <width>] [--height <height>]
      """,
    discussion: """
      A tab bar with Countries (a list of about 250 countries; Enter opens a
      country's capital) and Settings (an "Amazing" switch kept in a settings
      file, and a "Push Me!" button that opens a web view). The keys of an
      iOS device:

        h      Home button: the app moves to the background, its state is
               preserved, and the process exits, as iOS kills a suspended
               app. Run restorer again: the same screen comes back.
               SIGTERM, SIGHUP, SIGINT and Ctrl-C do the same.
        Q      Force quit from the app switcher: the saved state of every
               window is deleted.
        w      Close this window in the app switcher: its saved state is
               deleted; the other windows keep theirs.
        1 2    Select the Countries or Settings tab.
        Up Down PgUp PgDn Home End: move through the list, scroll a page.
        Enter  Open the country, toggle the switch, press the button,
               follow a link.
        Esc Backspace: go back.
        Tab b f + -: in the web view, next link, back, forward, zoom in,
               zoom out (the text wraps narrower or wider).

      At a launch that restores, the app first shows a snapshot of its last
      screen, as iOS shows a screenshot of an app's last screen while the app
      relaunches and restores its state. The snapshot stays only as long as
      restoration takes, a few milliseconds here; --show-snapshot holds it
      longer, to see it.

      Each run is one window of the app, a scene with a session of its own,
      as an iPad app has several: restorer reconnects the window used last,
      --new-window opens another (run it in a second terminal: each shows and
      restores its own screen), --window ID reconnects a given one, and
      --windows lists them, as the app switcher does.

      The saved state lives in --state-dir, under
      `Saved Application State/com.example.Restorer.savedState/Scenes/<id>/`;
      inspect it with
      `restoration-archive-tool dump --bundle-id com.example.Restorer`.
      """
  )

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Where the app keeps its saved state and settings.",
      discussion:
        "Default: $XDG_STATE_HOME/swift-state-restoration, or ~/.local/state/swift-state-restoration.",
      valueName: "folder"
    )
  )
  var stateDir: String?

  @Flag(
    name: .long, help: "Delete the saved state of every window (not the settings) before launching."
  )
  var reset = false

  @Flag(name: .long, help: "Keep the saved state in every case: force quits, crashes, restores.")
  var developerMode = false

  @Flag(name: .long, help: "Open a new window (a new scene session) instead of the last one used.")
  var newWindow = false

  @Option(
    name: .long,
    help: ArgumentHelp("Reconnect the window with this session identifier.", valueName: "id"))
  var window: String?

  @Flag(name: .long, help: "List the windows (scene sessions) with their titles, and exit.")
  var windows = false

  @Flag(
    name: .long,
    help: "Write the restoration debug log (UIKit's messages and timings) to a file, named on exit."
  )
  var debugLogging = false

  @Flag(
    name: .long,
    help:
      "Crash at the end of restoration, to show the crash guard: after two such launches the third starts fresh."
  )
  var crashDuringRestore = false

  @Option(
    name: .long,
    help: ArgumentHelp(
      "In a terminal, show the last screen's snapshot at least this long while restoring.",
      discussion: "Seconds, such as 1 or 0.5; by default it shows only while restoration runs.",
      valueName: "seconds"
    )
  )
  var showSnapshot: Double?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Run without a terminal: press these keys, print the screen, and exit.",
      discussion: "Words: \(KeyScript.wordHelp). Example: --keys \"down*50 enter h\".",
      valueName: "keys"
    )
  )
  var keys: String?

  @Option(name: .long, help: "The screen width with --keys.")
  var width = 80

  @Option(name: .long, help: "The screen height with --keys.")
  var height = 24

  static let bundleIdentifier = "com.example.Restorer"

  func validate() throws {
    if [newWindow, window != nil, windows].filter({ $0 }).count > 1 {
      throw ValidationError("Choose one of --new-window, --window and --windows.")
    }
    if windows, keys != nil || reset {
      throw ValidationError("--windows lists the windows and exits; it takes no --keys or --reset.")
    }
    guard width >= RestorerSession.minimumSize.width, height >= RestorerSession.minimumSize.height
    else {
      throw ValidationError(
        "--width and --height must be at least \(RestorerSession.minimumSize.width) and \(RestorerSession.minimumSize.height)."
      )
    }
    if let showSnapshot {
      guard showSnapshot.isFinite, (0...60).contains(showSnapshot) else {
        throw ValidationError("--show-snapshot takes seconds from 0 to 60.")
      }
      guard keys == nil else {
        throw ValidationError(
          "--show-snapshot holds the snapshot on a terminal; with --keys it is printed.")
      }
    }
    if let keys {
      do {
        _ = try KeyScript.parse(keys)
      } catch {
        throw ValidationError("--keys: \(error)")
      }
    }
  }

  /// A test hook, for the tests of two processes saving at once: when the environment sets
  /// `RESTORER_TEST_INDEX_RENAME_DELAY_MS` (at most 2000), each write of the index of windows
  /// waits that long before it renames the new index into place.
  static let indexRenameDelayVariable = "RESTORER_TEST_INDEX_RENAME_DELAY_MS"

  func run() throws {
    let delay = ProcessInfo.processInfo.environment[Self.indexRenameDelayVariable].flatMap(Int.init)
    guard let delay, (1...2000).contains(delay) else { return try runApp() }
    let observer = PathObserver { path in
      if path.hasSuffix("/\(ArchiveStoreItem.sceneSessions.rawValue)") {
        usleep(useconds_t(delay * 1000))
      }
    }
    try PlatformObservers.$willRename.withValue(observer) { try runApp() }
  }

  private func runApp() throws {
    if keys == nil, !windows, !Terminal.isInteractive {
      printError(
        "restorer: standard input or output is not a terminal. Run it in a terminal, or drive it with --keys \"...\" (see --help)."
      )
      throw ExitCode(2)
    }
    let stateRoot = try resolvedStateDirectory()
    let logFile = debugLogging ? "\(stateRoot)/restorer-debug.log" : nil
    let logger = makeLogger(file: logFile)
    let stores: FileSceneSessionStores
    let countries: CountryList
    do {
      try StateFolder.create(at: stateRoot)
    } catch {
      printError("restorer: \(error)")
      throw ExitCode(1)
    }
    do {
      stores = try FileSceneSessionStores(
        stateRoot: stateRoot, bundleIdentifier: Self.bundleIdentifier)
      countries = try CountryList.bundled()
    } catch {
      printError("restorer: \(error)")
      throw ExitCode(1)
    }

    let delegate = RestorerAppDelegate(
      countryList: countries,
      userSettings: FileUserSettings(
        path: "\(stateRoot)/Preferences/\(Self.bundleIdentifier).plist")
    )
    let application = Application(
      delegate: delegate,
      applicationInfo: ApplicationInfo(
        bundleIdentifier: Self.bundleIdentifier,
        bundleVersion: RestorerAppDelegate.bundleVersion,
        userInterfaceIdiom: "terminal"
      ),
      sceneStores: stores,
      sceneManifest: SceneManifest(configurationName: "Terminal Window") {
        RestorerSceneDelegate(appDelegate: delegate)
      },
      settings: RestorationSettings.fromEnvironment(
        developerMode: developerMode, debugLogging: debugLogging),
      logger: logger
    )

    if windows {
      application.launch()
      print(Self.windowList(application))
    } else if let keys {
      try runScripted(application, delegate: delegate, keys: keys, stores: stores, logFile: logFile)
    } else {
      try runInteractive(application, delegate: delegate, stores: stores, logFile: logFile)
    }
  }

  // MARK: - Windows

  /// Launches the app and connects this run's window: the one asked for, a new one, or the
  /// one used last.
  ///
  /// - Throws: ``ExitCode`` 1, after saying why, for an unknown `--window` or a window whose
  ///   folder cannot be used.
  private func launchWindow(_ application: Application) throws -> Scene {
    application.launch()
    if reset {
      for session in application.openSessions {
        application.requestSceneSessionDestruction(session)
      }
      application.engine.deleteArchive()
    }
    var session: SceneSession?
    if let window {
      // The same bytes first: another normalization form of a name is another name on disk.
      let sessions = application.openSessions
      guard
        let found = sessions.first(where: {
          $0.persistentIdentifier.utf8.elementsEqual(window.utf8)
        })
          ?? sessions.first(where: { $0.persistentIdentifier == window })
      else {
        printError(
          "restorer: no window \(window); `restorer --windows` lists them, `restorer --new-window` opens a new one."
        )
        throw ExitCode.failure
      }
      session = found
    } else if !newWindow {
      session = application.mostRecentlyUsedSession
    }
    guard let scene = application.requestSceneSessionActivation(session) else {
      printError("restorer: the window could not be opened; see the log (--debug-logging).")
      throw ExitCode.failure
    }
    return scene
  }

  /// The windows as the app switcher shows them, the one used last first.
  static func windowList(_ application: Application) -> String {
    let sessions = application.openSessions.sorted { $0.lastUsed > $1.lastUsed }
    guard !sessions.isEmpty else {
      return "No windows saved: `restorer` opens a new one."
    }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = .current
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    let titleWidth = min(
      40, sessions.map { LaunchSnapshot.printable($0.title ?? "").count }.max() ?? 0)
    var lines = ["Windows of \(bundleIdentifier), the one used last first:"]
    for session in sessions {
      let title = LaunchSnapshot.printable(session.title ?? "(untitled)")
      lines.append(
        "  \(session.persistentIdentifier)  \(title.padding(toLength: max(titleWidth, 10), withPad: " ", startingAt: 0))  \(formatter.string(from: session.lastUsed))"
      )
    }
    lines.append("`restorer --window ID` reconnects one; `restorer` the first.")
    return lines.joined(separator: "\n")
  }

  // MARK: - Interactive

  private func runInteractive(
    _ application: Application,
    delegate: RestorerAppDelegate,
    stores: FileSceneSessionStores,
    logFile: String?
  ) throws {
    let terminal = Terminal()
    do {
      try terminal.enter(fatalSignalNote: logFile.map(Self.logLocation))
    } catch {
      printError("restorer: \(error)")
      throw ExitCode(1)
    }
    var size = terminal.size
    var snapshotShown: ContinuousClock.Instant?
    application.snapshotPresenter = { snapshot in
      // The last session's screen, as iOS shows the snapshot while the app restores; the
      // restored screen replaces it as soon as restoration is done.
      var lines = snapshot.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      lines = Array(lines.prefix(size.height))
      if !lines.isEmpty { lines[lines.count - 1] = "  Restoring the saved state..." }
      terminal.draw(
        lines.map { $0.padding(toLength: size.width, withPad: " ", startingAt: 0) }, highlighted: []
      )
      snapshotShown = .now
    }
    if crashDuringRestore {
      delegate.restorationDidDecode = {
        terminal.leave()
        Self.crashDuringRestoration(logFile: logFile)
      }
    }
    let scene: Scene
    do {
      scene = try launchWindow(application)
    } catch {
      terminal.leave()
      throw error
    }
    // Said once the terminal is back to normal: the status line has room for the gist only.
    defer { Self.explainPostponedRestoration(scene) }
    let session = RestorerSession(application: application, width: size.width, height: size.height)
    application.snapshotProvider = { [unowned session] in session.render().text }
    if let snapshotShown { holdSnapshot(shownAt: snapshotShown, logger: application.engine.logger) }

    var decoder = KeyDecoder()
    redraw(session, terminal)
    loop: while true {
      switch terminal.nextEvent() {
      case .input(let bytes):
        let keys = decoder.decode(bytes, isEndOfInput: !terminal.hasInput(within: 25))
        for key in keys {
          switch session.handle(key) {
          case .none: continue
          case .home:
            terminal.leave()
            try goHome(application, scene: scene, session: session, logFile: logFile)
            return
          case .forceQuit:
            terminal.leave()
            try forceQuit(application, stores: stores, logFile: logFile)
            return
          case .closeWindow:
            terminal.leave()
            closeWindow(application, scene: scene, logFile: logFile)
            return
          }
        }
        redraw(session, terminal)
      case .resize:
        size = terminal.size
        session.resize(width: size.width, height: size.height)
        redraw(session, terminal)
      case .terminate, .endOfInput:
        break loop
      }
    }
    // The system asked the app to go (SIGTERM, SIGHUP or SIGINT), or the terminal went away.
    terminal.leave()
    try goHome(application, scene: scene, session: session, logFile: logFile)
  }

  /// Keeps the snapshot on screen until `--show-snapshot` has passed, and says in the debug log
  /// how long it showed.
  private func holdSnapshot(shownAt start: ContinuousClock.Instant, logger: Logger) {
    let restoring = ContinuousClock.now - start
    let hold = Duration.seconds(showSnapshot ?? 0)
    if restoring < hold {
      sleep(milliseconds: Int(((hold - restoring) / .milliseconds(1)).rounded(.up)))
    }
    func milliseconds(_ duration: Duration) -> String {
      String(format: "%.1f", duration / .milliseconds(1))
    }
    let shown = milliseconds(ContinuousClock.now - start)
    logger.debug(
      restoring < hold
        ? "Launch snapshot shown for \(shown) ms, held for --show-snapshot (restoring took \(milliseconds(restoring)) ms)."
        : "Launch snapshot shown for \(shown) ms, while the app restored its state and built its screen."
    )
  }

  private func redraw(_ session: RestorerSession, _ terminal: Terminal) {
    let frame = session.render()
    terminal.draw(frame.lines, highlighted: frame.highlighted)
  }

  // MARK: - Scripted

  private func runScripted(
    _ application: Application,
    delegate: RestorerAppDelegate,
    keys script: String,
    stores: FileSceneSessionStores,
    logFile: String?
  ) throws {
    let keys: [Key]
    do {
      keys = try KeyScript.parse(script)
    } catch {
      printError("restorer: --keys: \(error)")
      throw ExitCode.validationFailure
    }
    if let logFile {
      // A crash still says where the log is.
      installFatalSignalHandlers(note: Self.logLocation(logFile))
    }
    application.snapshotPresenter = { snapshot in
      print("Snapshot from the last session (shown while restoring):")
      print(snapshot)
      print("")
    }
    if crashDuringRestore {
      delegate.restorationDidDecode = {
        Self.crashDuringRestoration(logFile: logFile)
      }
    }
    let scene = try launchWindow(application)
    Self.explainPostponedRestoration(scene)
    let session = RestorerSession(application: application, width: width, height: height)
    application.snapshotProvider = { [unowned session] in session.render().text }
    for key in keys {
      switch session.handle(key) {
      case .none:
        continue
      case .home:
        print(LaunchSnapshot.printable(session.render().text))
        try goHome(application, scene: scene, session: session, logFile: logFile)
        return
      case .forceQuit:
        print(LaunchSnapshot.printable(session.render().text))
        try forceQuit(application, stores: stores, logFile: logFile)
        return
      case .closeWindow:
        print(LaunchSnapshot.printable(session.render().text))
        closeWindow(application, scene: scene, logFile: logFile)
        return
      }
    }
    print(LaunchSnapshot.printable(session.render().text))
    print("")
    print(
      "The keys ran out with the app in the foreground; it exits without preserving (end with h to preserve)."
    )
    printLogLocation(logFile)
  }

  // MARK: - Lifecycle

  /// Moves the app to the background and ends the process, as iOS kills a suspended app.
  ///
  /// - Throws: ``ExitCode`` 1 when the state could not be saved, so that neither the user nor
  ///   a script believes it was.
  private func goHome(
    _ application: Application, scene: Scene, session: RestorerSession, logFile: String?
  ) throws {
    scene.title = session.windowTitle
    application.enterBackground()
    let report = scene.preservationReport
    application.terminate(.systemKillAfterBackground)
    var failed = false
    switch report?.outcome {
    case .saved(let bytes):
      print("Home: state preserved (\(bytes) bytes) in")
      if let store = scene.engine.store as? FileArchiveStore {
        print("  \(store.path(of: .archive))")
      }
      print("The suspended app was then killed, as iOS does. Run restorer again to resume.")
    case .failed(let error):
      printError("restorer: the state was not saved: \(error)")
      failed = true
    case .notOptedIn, .encoded, nil:
      print("Home: nothing was preserved.")
    }
    printLogLocation(logFile)
    if failed { throw ExitCode.failure }
  }

  /// Moves the app to the background, then force-quits it, which deletes the saved state.
  ///
  /// - Throws: ``ExitCode`` 1 when the saved state is still there afterwards.
  private func forceQuit(
    _ application: Application, stores: FileSceneSessionStores, logFile: String?
  ) throws {
    // The app switcher shows apps that are in the background: the app moves there first (and
    // preserves, as on iOS), then the user swipes it away.
    application.enterBackground()
    application.terminate(.userForceQuit)
    // A read that fails for any reason but a missing file means a file is still there.
    let stateRemains: Bool
    do {
      stateRemains =
        try stores.applicationStore.read(.archive, maxSize: .max) != nil
        || !stores.sessionsWithItems().isEmpty
    } catch {
      stateRemains = true
    }
    if developerMode {
      print("Force quit: developer mode is on, so the saved state was kept.")
    } else if !stateRemains {
      print("Force quit from the app switcher: the saved state was deleted.")
      print("The next launch starts fresh.")
    } else {
      printError("restorer: the saved state could not all be deleted: \(stores.scenesFolder)")
      printLogLocation(logFile)
      throw ExitCode.failure
    }
    printLogLocation(logFile)
  }

  /// Closes the window in the app switcher: its session and saved state are deleted.
  private func closeWindow(_ application: Application, scene: Scene, logFile: String?) {
    let identifier = scene.session.persistentIdentifier
    application.requestSceneSessionDestruction(scene.session)
    print("Closed window \(identifier): its saved state was deleted.")
    let others = application.openSessions.count
    print(
      others == 0
        ? "No other windows remain; the next launch opens a new one."
        : "The other \(others == 1 ? "window keeps its" : "\(others) windows keep their") saved state; `restorer --windows` lists them."
    )
    printLogLocation(logFile)
  }

  /// Says on standard error why a launch did not restore a saved state it kept.
  private static func explainPostponedRestoration(_ scene: Scene) {
    guard case .postponed(let error) = scene.restorationReport?.outcome else { return }
    printError(
      "restorer: the saved state was not restored, and is kept for a later launch: \(error)")
  }

  private func printLogLocation(_ logFile: String?) {
    if let logFile { print(Self.logLocation(logFile)) }
  }

  private static func logLocation(_ logFile: String) -> String { "Debug log: \(logFile)" }

  /// What `--crash-during-restore` does once the state is decoded: say so, then abort.
  private static func crashDuringRestoration(logFile: String?) -> Never {
    printError("restorer: crashing during restoration, as asked by --crash-during-restore.")
    printError(
      "Run restorer again: after 2 crashes during restoration the saved state is discarded.")
    if let logFile { printError(logLocation(logFile)) }
    // The note of the fatal signal handler would repeat the log's location.
    signal(SIGABRT, SIG_DFL)
    abort()
  }

  // MARK: - Setup

  /// The state folder: `--state-dir`, else the one `restoration-archive-tool --bundle-id`
  /// reads by default.
  private func resolvedStateDirectory() throws -> String {
    if let stateDir { return stateDir }
    guard let root = FileArchiveStore.defaultStateRoot() else {
      printError(
        "restorer: no home folder to keep the state in: set HOME or XDG_STATE_HOME, or give --state-dir."
      )
      throw ExitCode(1)
    }
    return root
  }

  private func makeLogger(file: String?) -> Logger {
    guard let file else {
      // Nothing may write to the terminal while the app draws on it.
      return Logger(label: "StateRestoration") { _ in SwiftLogNoOpLogHandler() }
    }
    let sink = LogFile(path: file)
    return Logger(label: "StateRestoration") { label in FileLogHandler(label: label, file: sink) }
  }
}
