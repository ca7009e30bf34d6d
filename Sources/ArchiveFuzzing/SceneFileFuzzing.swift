import Logging
import StateRestoration
import StateRestorationTesting
import StateRestorationUI

extension ArchiveFuzzing {
  /// Runs the readers of the files an app with scenes keeps on the bytes: the index of scene
  /// sessions, a scene's activity, and the scene storage values of an archive.
  ///
  /// The index and the activity are read as the bytes are and inside a valid envelope (their
  /// length and CRC-32), so that the fuzzer gets past the checksum to the property list; the
  /// storage values are the bytes' property list, if they are one, and the top level of the
  /// archive the bytes are. Then an app launches over an index of the bytes, connects the
  /// sessions it lists with the bytes as their activity and archive, goes home and is force
  /// quit; and an app connects sessions of its own whose archives are the bytes and an archive
  /// whose storage values are the bytes' property list.
  ///
  /// - Parameter bytes: The input.
  static func exerciseSceneFiles(_ bytes: [UInt8]) {
    let index = CheckedFile.encoded(bytes, magic: SessionIndex.magic)
    let activity = CheckedFile.encoded(bytes, magic: UserActivity.magic)
    for file in [bytes, index] { _ = try? SessionIndex.decoded(file) }
    for file in [bytes, activity] { _ = try? UserActivity(decoding: file) }
    let logger = Logger(label: "fuzz") { _ in SwiftLogNoOpLogHandler() }
    var archives = [bytes]
    if let value = try? CheckedFile.propertyList(
      of: index, magic: SessionIndex.magic, what: "input")
    {
      _ = Scene.checkedStorageValues(value, logger: logger)
      var archive = RestorationArchive()
      archive.topLevel[RestorationArchive.Key.majorVersion] = .integer(2)
      archive.topLevel[RestorationArchive.Key.minorVersion] = .integer(0)
      archive.topLevel[Scene.storageKey] = value
      if let encoded = try? archive.encoded() { archives.append(encoded) }
    }

    // An app over an index of the bytes, connecting what it lists.
    let stores = InMemorySceneSessionStores(
      applicationStore: InMemoryArchiveStore(contents: [.sceneSessions: index]))
    let listing = makeApplication(stores, logger: logger)
    for session in listing.openSessions.prefix(2) {
      let store = try? stores.store(forSession: session.persistentIdentifier)
      (store as? InMemoryArchiveStore)?.contents = [.archive: bytes, .sceneActivity: activity]
      listing.requestSceneSessionActivation(session)
    }
    listing.enterBackground()
    listing.terminate(.userForceQuit)

    // An app whose sessions are its own, with the bytes as their archives and activity.
    let own = InMemorySceneSessionStores()
    let first = makeApplication(own, logger: logger)
    let sessions = archives.compactMap {
      archive -> (SceneSession, [UInt8])? in
      first.requestSceneSessionActivation(nil).map { ($0.session, archive) }
    }
    first.enterBackground()
    for (session, archive) in sessions {
      own.sessionStores[session.persistentIdentifier]?.contents = [
        .archive: archive, .sceneActivity: activity,
      ]
    }
    let second = makeApplication(own, logger: logger)
    for session in second.openSessions { second.requestSceneSessionActivation(session) }
    second.enterBackground()
  }

  private static func makeApplication(
    _ stores: InMemorySceneSessionStores, logger: Logger
  ) -> Application {
    let application = Application(
      delegate: OptingInApplicationDelegate(),
      applicationInfo: ApplicationInfo(bundleIdentifier: "fuzz"),
      sceneStores: stores,
      sceneManifest: SceneManifest { FuzzedSceneDelegate() },
      settings: RestorationSettings(developerMode: false, debugLogging: false),
      logger: logger)
    application.launch()
    return application
  }
}

/// Gives each scene a window whose one screen keeps scene storage of every kind.
private final class FuzzedSceneDelegate: SceneDelegate {
  func scene(
    _ scene: Scene, willConnectTo session: SceneSession, options: Scene.ConnectionOptions
  ) {
    scene.window = Window(rootViewController: FuzzedController())
  }

  func stateRestorationActivity(for scene: Scene) -> UserActivity? {
    scene.session.stateRestorationActivity
  }
}

private final class FuzzedController: ViewController {
  @SceneStorage("text") var text = ""
  @SceneStorage("number") var number = 0
  @SceneStorage("flag") var flag = false

  init() { super.init(restorationIdentifier: "Root") }

  override func viewWillAppear() {
    text += "."
    number &+= 1
    flag.toggle()
  }
}
