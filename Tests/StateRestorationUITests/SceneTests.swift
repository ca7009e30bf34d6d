import Foundation
import Logging
import StateRestoration
import StateRestorationStorage
import StateRestorationTesting
import StateRestorationUI
import Synchronization
import TestSupport
import Testing

/// A screen whose text is preserved by the engine and whose draft is scene storage.
final class SceneNoteController: ViewController {
  enum Mode: String { case reading, editing }

  var text = ""
  @SceneStorage("note.draft") var draft = ""
  @SceneStorage("note.mode") var mode = Mode.reading
  enum Priority: Int { case low, high }
  @SceneStorage("note.line") var line = 0
  @SceneStorage("note.zoom") var zoom = 1.0
  @SceneStorage("note.pinned") var pinned = false
  @SceneStorage("note.marks") var marks = Data()
  @SceneStorage("note.priority") var priority = Priority.low
  /// The draft as the controller saw it while being restored, and when it first appeared.
  var draftAtDecode: String?
  var draftAtAppear: String?
  var onDecode: (() -> Void)?

  init() { super.init(restorationIdentifier: "Note") }

  override func encodeRestorableState(with coder: StateCoder) throws {
    try super.encodeRestorableState(with: coder)
    coder.encode(text, forKey: "text")
  }

  override func decodeRestorableState(with coder: StateDecoder) throws {
    try super.decodeRestorableState(with: coder)
    text = coder.decode(String.self, forKey: "text") ?? ""
    draftAtDecode = draft
    onDecode?()
  }

  override func viewWillAppear() {
    if draftAtAppear == nil { draftAtAppear = draft }
  }
}

/// Builds each scene's window, and keeps the activity of what the scene was editing.
final class NotesSceneDelegate: SceneDelegate {
  var controller: SceneNoteController?
  var cursor: Int?
  var restoredActivities: [UserActivity] = []
  var events: [String] = []
  var crashDuringRestore: (() -> Void)?

  func scene(
    _ scene: Scene, willConnectTo session: SceneSession, options: Scene.ConnectionOptions
  ) {
    events.append("willConnect(activity: \(session.stateRestorationActivity != nil))")
    let controller = SceneNoteController()
    controller.onDecode = crashDuringRestore
    self.controller = controller
    scene.window = Window(rootViewController: controller)
  }

  func scene(_ scene: Scene, restoreInteractionStateWith activity: UserActivity) {
    events.append("restoreInteractionState")
    restoredActivities.append(activity)
    cursor = activity.value(Int.self, forKey: "cursor")
  }

  func stateRestorationActivity(for scene: Scene) -> UserActivity? {
    guard let cursor else { return nil }
    var activity = UserActivity(activityType: "com.example.notes.editing", title: scene.title)
    try? activity.setValue(cursor, forKey: "cursor")
    return activity
  }

  func sceneDidEnterBackground(_ scene: Scene) { events.append("didEnterBackground") }
  func sceneDidDisconnect(_ scene: Scene) { events.append("didDisconnect") }
}

final class ScenesAppDelegate: OptingInApplicationDelegate {
  var discarded: [String] = []

  override func application(
    _ application: Application, didDiscardSceneSessions sceneSessions: [SceneSession]
  ) {
    discarded += sceneSessions.map(\.persistentIdentifier)
  }
}

/// One process of a scenes app: an application over shared stores.
struct ScenesProcess {
  let application: Application
  let appDelegate = ScenesAppDelegate()
  private(set) var sceneDelegates: [NotesSceneDelegate] = []
  private let box: Box

  final class Box {
    var delegates: [NotesSceneDelegate] = []
    var crash: (() -> Void)?
  }

  /// What the process logged: kept out of the test output.
  let log = LogCapture()

  init(stores: any SceneSessionStores, crashDuringRestore: (() -> Void)? = nil) {
    let box = Box()
    box.crash = crashDuringRestore
    self.box = box
    application = Application(
      delegate: appDelegate,
      applicationInfo: ApplicationInfo(bundleIdentifier: "com.example.Scenes"),
      sceneStores: stores,
      sceneManifest: SceneManifest {
        let delegate = NotesSceneDelegate()
        delegate.crashDuringRestore = box.crash
        box.delegates.append(delegate)
        return delegate
      },
      settings: RestorationSettings(), logger: log.makeLogger())
    application.launch()
  }

  func delegate(of scene: Scene) -> NotesSceneDelegate {
    // Every scene of this app has one; a fresh one stands in so that a failure is an expectation.
    (scene.delegate as? NotesSceneDelegate) ?? NotesSceneDelegate()
  }

  func controller(of scene: Scene) -> SceneNoteController {
    delegate(of: scene).controller ?? SceneNoteController()
  }

  func session(_ identifier: String) -> SceneSession? {
    application.openSessions.first { $0.persistentIdentifier == identifier }
  }

  /// Connects the scene of a session the index listed.
  @discardableResult
  func reconnect(_ identifier: String) throws -> Scene {
    let listed = try #require(session(identifier))
    return try #require(application.requestSceneSessionActivation(listed))
  }
}

@Suite("Scenes")
struct SceneTests {
  @Test("each scene restores its own window, storage and activity across a relaunch")
  func scenesRestoreIndependently() throws {
    let stores = InMemorySceneSessionStores()
    let first = ScenesProcess(stores: stores)
    let a = try #require(first.application.requestSceneSessionActivation(nil))
    let b = try #require(first.application.requestSceneSessionActivation(nil))
    first.controller(of: a).text = "alpha"
    first.controller(of: a).draft = "draft A"
    first.controller(of: a).mode = .editing
    first.delegate(of: a).cursor = 7
    a.title = "Groceries"
    first.controller(of: b).text = "beta"
    first.controller(of: b).draft = "draft B"
    first.application.enterBackground()
    let ids = (a.session.persistentIdentifier, b.session.persistentIdentifier)

    let second = ScenesProcess(stores: stores)
    #expect(second.application.openSessions.map(\.persistentIdentifier) == [ids.0, ids.1])
    #expect(second.application.connectedScenes.isEmpty)
    #expect(second.session(ids.0)?.title == "Groceries")
    let sessionB = try #require(second.session(ids.1))
    let restoredB = try #require(second.application.requestSceneSessionActivation(sessionB))
    #expect(second.controller(of: restoredB).text == "beta")
    #expect(second.controller(of: restoredB).draft == "draft B")
    #expect(second.controller(of: restoredB).mode == .reading)
    #expect(second.delegate(of: restoredB).restoredActivities.isEmpty)
    let sessionA = try #require(second.session(ids.0))
    let restoredA = try #require(second.application.requestSceneSessionActivation(sessionA))
    let controllerA = second.controller(of: restoredA)
    #expect(controllerA.text == "alpha")
    #expect(controllerA.mode == .editing)
    // Storage is back before the objects decode and before the window first appears.
    #expect(controllerA.draftAtDecode == "draft A")
    #expect(controllerA.draftAtAppear == "draft A")
    #expect(second.delegate(of: restoredA).cursor == 7)
    #expect(
      second.delegate(of: restoredA).events == [
        "willConnect(activity: true)", "restoreInteractionState",
      ])
    #expect(restoredA.restorationReport?.outcome == .restored)
  }

  @Test("scene storage keeps integers, doubles, Booleans, data and integer raw values")
  func sceneStorageKeepsEveryKindOfValue() throws {
    let stores = InMemorySceneSessionStores()
    let first = ScenesProcess(stores: stores)
    let scene = try #require(first.application.requestSceneSessionActivation(nil))
    let saved = first.controller(of: scene)
    saved.line = 42
    saved.zoom = 1.75
    saved.pinned = true
    saved.marks = Data([0, 1, 254, 255])
    saved.priority = .high
    first.application.enterBackground()

    let second = ScenesProcess(stores: stores)
    let restored = second.controller(of: try second.reconnect(scene.session.persistentIdentifier))
    #expect(restored.line == 42)
    #expect(restored.zoom == 1.75)
    #expect(restored.pinned)
    #expect(restored.marks == Data([0, 1, 254, 255]))
    #expect(restored.priority == .high)
  }

  @Test("in the harness: two windows, the process killed, each restored on its own")
  func harnessRestoresEachWindow() throws {
    let harness = ApplicationHarness(
      makeSceneDelegate: { NotesSceneDelegate() }, makeDelegate: { ScenesAppDelegate() })
    harness.launch()
    func controller(_ scene: Scene?) -> SceneNoteController? {
      (scene?.delegate as? NotesSceneDelegate)?.controller
    }
    // In a scope of their own: the harness checks that nothing of the killed process survives.
    let ids = try { () throws -> [String] in
      let a = harness.application.requestSceneSessionActivation(nil)
      let b = harness.application.requestSceneSessionActivation(nil)
      controller(a)?.text = "first window"
      controller(b)?.text = "second window"
      return try [
        #require(a?.session.persistentIdentifier), #require(b?.session.persistentIdentifier),
      ]
    }()

    let restart = harness.restartAndRestore()
    #expect(restart.leakedObjects.isEmpty, "\(restart.leakedObjects)")
    let sessions = restart.application.openSessions
    #expect(sessions.map(\.persistentIdentifier) == ids)
    let restoredB = restart.application.requestSceneSessionActivation(sessions[1])
    let restoredA = restart.application.requestSceneSessionActivation(sessions[0])
    #expect(controller(restoredA)?.text == "first window")
    #expect(controller(restoredB)?.text == "second window")
    #expect(harness.sceneStores?.sessionStores.count == 2)
  }

  @Test("the activity is consumed at connection: a restore that dies does not meet it again")
  func activityIsConsumed() throws {
    let stores = InMemorySceneSessionStores()
    let first = ScenesProcess(stores: stores)
    let scene = try #require(first.application.requestSceneSessionActivation(nil))
    first.delegate(of: scene).cursor = 3
    first.application.enterBackground()
    let id = scene.session.persistentIdentifier
    let store = try #require(stores.sessionStores[id])
    #expect(store.contents[.sceneActivity] != nil)

    let second = ScenesProcess(stores: stores)
    let again = try second.reconnect(id)
    #expect(again.session.stateRestorationActivity?.value(Int.self, forKey: "cursor") == 3)
    #expect(store.contents[.sceneActivity] == nil)
  }

  @Test("a damaged or oversized activity file is ignored, removed, and the window still restores")
  func hostileActivityFile() throws {
    let stores = InMemorySceneSessionStores()
    let first = ScenesProcess(stores: stores)
    let scene = try #require(first.application.requestSceneSessionActivation(nil))
    first.controller(of: scene).text = "kept"
    first.delegate(of: scene).cursor = 5
    first.application.enterBackground()
    let id = scene.session.persistentIdentifier
    let store = try #require(stores.sessionStores[id])
    let archive = try #require(store.contents[.archive])
    var flipped = try #require(store.contents[.sceneActivity])
    flipped[flipped.count - 1] ^= 0x01
    for bad in [flipped, [UInt8](repeating: 0x41, count: 1 << 20)] {
      store.contents[.archive] = archive
      store.contents[.sceneActivity] = bad
      let next = ScenesProcess(stores: stores)
      let again = try next.reconnect(id)
      #expect(again.session.stateRestorationActivity == nil)
      #expect(next.delegate(of: again).restoredActivities.isEmpty)
      #expect(next.controller(of: again).text == "kept")
      #expect(store.contents[.sceneActivity] == nil)
    }
  }

  @Test("a scene whose restore crashes twice starts fresh; the other scene still restores")
  func crashGuardIsPerSession() throws {
    let stores = InMemorySceneSessionStores()
    let first = ScenesProcess(stores: stores)
    let a = try #require(first.application.requestSceneSessionActivation(nil))
    let b = try #require(first.application.requestSceneSessionActivation(nil))
    first.controller(of: a).text = "crashes"
    first.controller(of: b).text = "survives"
    first.application.enterBackground()
    let idA = a.session.persistentIdentifier
    let idB = b.session.persistentIdentifier
    let storeA = try #require(stores.sessionStores[idA])

    // Two launches die while A's objects decode: the store is left as it was at that instant.
    for _ in 0..<2 {
      var atCrash: [ArchiveStoreItem: [UInt8]]?
      let crashing = ScenesProcess(stores: stores) { atCrash = atCrash ?? storeA.contents }
      try crashing.reconnect(idA)
      storeA.contents = try #require(atCrash)
      #expect(storeA.contents[.inProgressMarker] != nil)
    }

    let third = ScenesProcess(stores: stores)
    let freshA = try third.reconnect(idA)
    #expect(third.controller(of: freshA).text == "")
    guard case .discarded = freshA.restorationReport?.outcome else {
      Issue.record("scene A was not discarded: \(String(describing: freshA.restorationReport))")
      return
    }
    let restoredB = try third.reconnect(idB)
    #expect(third.controller(of: restoredB).text == "survives")
  }

  @Test("destroying a session deletes its folder and tells the delegate; others keep theirs")
  func destroyingASession() throws {
    let (root, stores) = try makeFileStores()
    defer { try? FileManager.default.removeItem(at: root) }
    let first = ScenesProcess(stores: stores)
    let a = try #require(first.application.requestSceneSessionActivation(nil))
    let b = try #require(first.application.requestSceneSessionActivation(nil))
    first.controller(of: a).text = "closed"
    first.controller(of: b).text = "kept"
    first.delegate(of: a).cursor = 1
    first.application.enterBackground()
    let idA = a.session.persistentIdentifier
    let idB = b.session.persistentIdentifier
    let folderA = "\(stores.scenesFolder)/\(idA)"
    #expect(FileManager.default.fileExists(atPath: "\(folderA)/data.data"))
    #expect(FileManager.default.fileExists(atPath: "\(folderA)/activity.data"))
    #expect(try posixMode(folderA) == 0o700)
    #expect(try posixMode("\(folderA)/data.data") == 0o600)

    first.application.enterForeground()
    let before = try filesBelow(root.path)
    first.application.requestSceneSessionDestruction(a.session)
    // Exactly the closed window's files went; the other's are byte for byte as they were.
    let after = try filesBelow(root.path)
    let index = "Saved Application State/com.example.Scenes.savedState/sessions.data"
    #expect(
      Set(before.keys).subtracting(after.keys)
        == Set(before.keys.filter { $0.contains("/Scenes/\(idA)/") }))
    #expect(Set(after.keys).isSubset(of: before.keys))
    for (path, bytes) in after where path != index { #expect(before[path] == bytes, "\(path)") }
    #expect(first.appDelegate.discarded == [idA])
    #expect(first.delegate(of: a).events.last == "didDisconnect")
    #expect(!FileManager.default.fileExists(atPath: folderA))
    #expect(first.application.openSessions.map(\.persistentIdentifier) == [idB])

    let second = ScenesProcess(stores: stores)
    #expect(second.application.openSessions.map(\.persistentIdentifier) == [idB])
    let restoredB = try second.reconnect(idB)
    #expect(second.controller(of: restoredB).text == "kept")
  }

  @Test("two processes of the app at once keep each other's sessions in the index")
  func twoProcessesShareTheIndex() throws {
    let (root, stores) = try makeFileStores()
    defer { try? FileManager.default.removeItem(at: root) }
    let left = ScenesProcess(stores: stores)
    let right = ScenesProcess(stores: stores)
    let a = try #require(left.application.requestSceneSessionActivation(nil))
    let b = try #require(right.application.requestSceneSessionActivation(nil))
    left.controller(of: a).text = "left"
    right.controller(of: b).text = "right"
    // The right window goes home first; the left one, which read the index before the right
    // window's session existed, goes home last.
    right.application.enterBackground()
    left.application.enterBackground()

    let next = ScenesProcess(stores: stores)
    #expect(
      Set(next.application.openSessions.map(\.persistentIdentifier))
        == [a.session.persistentIdentifier, b.session.persistentIdentifier])
    #expect(try next.controller(of: next.reconnect(b.session.persistentIdentifier)).text == "right")
    #expect(try next.controller(of: next.reconnect(a.session.persistentIdentifier)).text == "left")
  }

  @Test("a window closed or force quit in another process stays gone when this one goes home")
  func windowsClosedElsewhereStayClosed() throws {
    let (root, stores) = try makeFileStores()
    defer { try? FileManager.default.removeItem(at: root) }
    let first = ScenesProcess(stores: stores)
    let a = try #require(first.application.requestSceneSessionActivation(nil)).session
    let b = try #require(first.application.requestSceneSessionActivation(nil)).session
    first.application.enterBackground()

    // Window A runs on while another process of the app closes window B.
    let left = ScenesProcess(stores: stores)
    try left.reconnect(a.persistentIdentifier)
    let right = ScenesProcess(stores: stores)
    try right.reconnect(b.persistentIdentifier)
    right.application.requestSceneSessionDestruction(
      try #require(right.session(b.persistentIdentifier)))
    left.application.enterBackground()
    #expect(left.application.openSessions.map(\.persistentIdentifier) == [a.persistentIdentifier])
    #expect(
      ScenesProcess(stores: stores).application.openSessions.map(\.persistentIdentifier)
        == [a.persistentIdentifier])

    // Then a new window force quits the app: only the window still running keeps its state.
    left.application.enterForeground()
    let quitting = ScenesProcess(stores: stores)
    _ = try #require(quitting.application.requestSceneSessionActivation(nil))
    quitting.application.terminate(.userForceQuit)
    left.application.enterBackground()
    #expect(
      ScenesProcess(stores: stores).application.openSessions.map(\.persistentIdentifier)
        == [a.persistentIdentifier])
    #expect(stores.sessionsWithItems() == [a.persistentIdentifier])
  }

  @Test("a window going home keeps the title and time another process gave a window it only listed")
  func titlesWrittenElsewhereAreKept() throws {
    let (root, stores) = try makeFileStores()
    defer { try? FileManager.default.removeItem(at: root) }
    let first = ScenesProcess(stores: stores)
    let a = try #require(first.application.requestSceneSessionActivation(nil))
    let b = try #require(first.application.requestSceneSessionActivation(nil))
    a.title = "Notes"
    b.title = "Settings"
    first.application.enterBackground()

    let left = ScenesProcess(stores: stores)
    try left.reconnect(a.session.persistentIdentifier)
    let right = ScenesProcess(stores: stores)
    let rightB = try right.reconnect(b.session.persistentIdentifier)
    rightB.title = "Countries"
    right.application.enterBackground()
    let usedOnTheRight = rightB.session.lastUsed
    left.application.enterBackground()

    let next = ScenesProcess(stores: stores)
    let listedB = try #require(next.session(b.session.persistentIdentifier))
    #expect(listedB.title == "Countries")
    #expect(listedB.lastUsed == usedOnTheRight)
    #expect(next.session(a.session.persistentIdentifier)?.title == "Notes")
  }

  @Test("each scene shows its own snapshot while it restores")
  func snapshotPerScene() throws {
    let stores = InMemorySceneSessionStores()
    let first = ScenesProcess(stores: stores)
    let a = try #require(first.application.requestSceneSessionActivation(nil))
    let b = try #require(first.application.requestSceneSessionActivation(nil))
    first.controller(of: a).text = "screen A"
    first.controller(of: b).text = "screen B"
    var rendering: Scene?
    first.application.snapshotProvider = {
      rendering.map { first.controller(of: $0).text } ?? ""
    }
    rendering = a
    first.application.disconnect(a)
    rendering = b
    first.application.enterBackground()

    let second = ScenesProcess(stores: stores)
    var shown: [String] = []
    second.application.snapshotPresenter = { shown.append($0) }
    let restoredB = try second.reconnect(b.session.persistentIdentifier)
    #expect(restoredB.launchSnapshot == "screen B")
    let restoredA = try second.reconnect(a.session.persistentIdentifier)
    #expect(restoredA.launchSnapshot == "screen A")
    #expect(shown == ["screen B", "screen A"])
  }

  @Test("an app that adopts scenes finds the state it saved before in its first session")
  func adoptingScenesKeepsTheState() throws {
    let stores = InMemorySceneSessionStores()
    let before = SceneNoteController()
    before.text = "saved without scenes"
    let engine = RestorationEngine(
      applicationInfo: ApplicationInfo(bundleIdentifier: "com.example.Scenes"),
      store: stores.applicationStore, settings: RestorationSettings())
    final class OptIn: RestorationDelegate {
      func shouldSaveApplicationState(with coder: StateCoder) -> Bool { true }
      func shouldRestoreApplicationState(with coder: StateDecoder) -> Bool { true }
    }
    let optIn = OptIn()
    engine.delegate = optIn
    guard
      case .saved = engine.preserveApplicationState(roots: [Window(rootViewController: before)])
        .outcome
    else {
      Issue.record("the app-wide archive was not saved")
      return
    }

    let process = ScenesProcess(stores: stores)
    let session = try #require(process.application.openSessions.first)
    #expect(process.application.openSessions.count == 1)
    #expect(process.application.mostRecentlyUsedSession === session)
    let scene = try process.reconnect(session.persistentIdentifier)
    #expect(process.controller(of: scene).text == "saved without scenes")
    #expect(try stores.applicationStore.read(.archive, maxSize: .max) == nil)
  }

  @Test("after a force quit, the next new window says why it started fresh")
  func forceQuitIsExplained() throws {
    let stores = InMemorySceneSessionStores()
    let first = ScenesProcess(stores: stores)
    _ = try #require(first.application.requestSceneSessionActivation(nil))
    first.application.enterBackground()
    first.application.terminate(.userForceQuit)
    let second = ScenesProcess(stores: stores)
    #expect(second.application.openSessions.isEmpty)
    let scene = try #require(second.application.requestSceneSessionActivation(nil))
    #expect(scene.restorationReport?.outcome == .discarded(.forceQuit))
    let third = ScenesProcess(stores: stores)
    let again = try third.reconnect(scene.session.persistentIdentifier)
    #expect(again.restorationReport?.outcome == .nothingSaved)
  }

  @Test("a force quit deletes every session; the next launch has none")
  func forceQuitDiscardsAll() throws {
    let (root, stores) = try makeFileStores()
    defer { try? FileManager.default.removeItem(at: root) }
    let first = ScenesProcess(stores: stores)
    for _ in 0..<2 {
      let scene = try #require(first.application.requestSceneSessionActivation(nil))
      first.controller(of: scene).text = "gone"
    }
    first.application.enterBackground()
    #expect(stores.sessionsWithItems().count == 2)
    first.application.terminate(.userForceQuit)
    #expect(stores.sessionsWithItems().isEmpty)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: stores.scenesFolder).isEmpty)
    let second = ScenesProcess(stores: stores)
    #expect(second.application.openSessions.isEmpty)
  }

  @Test("a left-over folder older than the index is removed; an unreadable index loses nothing")
  func hostileIndex() throws {
    let (root, stores) = try makeFileStores()
    defer { try? FileManager.default.removeItem(at: root) }
    let id = try saveScene("listed", in: stores).session.persistentIdentifier
    // A folder left by a session destroyed while its removal failed: older than the index
    // written without it.
    let orphan = try stores.store(forSession: "orphan")
    try orphan.write([1, 2, 3], to: .archive)
    try FileManager.default.setAttributes(
      [.modificationDate: aMinuteAgo()],
      ofItemAtPath: "\(stores.scenesFolder)/orphan")

    let second = ScenesProcess(stores: stores)
    #expect(second.application.openSessions.map(\.persistentIdentifier) == [id])
    #expect(stores.sessionsWithItems() == [id])

    // A torn index: the sessions come back from their folders.
    let index = "\(root.path)/Saved Application State/com.example.Scenes.savedState/sessions.data"
    let bytes = try Data(contentsOf: URL(fileURLWithPath: index))
    try bytes.prefix(bytes.count - 3).write(to: URL(fileURLWithPath: index))
    let third = ScenesProcess(stores: stores)
    #expect(third.application.openSessions.map(\.persistentIdentifier) == [id])
    let restored = try third.reconnect(id)
    #expect(third.controller(of: restored).text == "listed")
  }

  @Test("a session folder that is a symbolic link is refused, and nothing is followed")
  func symlinkedSessionFolder() throws {
    let root = try makeTemporaryFolder()
    let elsewhere = try makeTemporaryFolder()
    defer {
      try? FileManager.default.removeItem(at: root)
      try? FileManager.default.removeItem(at: elsewhere)
    }
    let stores = try FileSceneSessionStores(
      stateRoot: root.path, bundleIdentifier: "com.example.Scenes")
    try FileManager.default.createDirectory(
      atPath: stores.scenesFolder, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: "\(stores.scenesFolder)/linked", withDestinationPath: elsewhere.path)
    try Data([1]).write(to: elsewhere.appendingPathComponent("data.data"))
    let store = try stores.store(forSession: "linked")
    #expect(throws: RestorationError.self) { try store.write([1], to: .archive) }
    // Removing it removes nothing through it: the link is not the app's, and is left.
    try stores.removeSession("linked")
    try stores.removeAllSessions()
    #expect(
      FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent("data.data").path))
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: "\(stores.scenesFolder)/linked")
        == elsewhere.path)
  }

  @Test("user info refuses references, deep nesting and size when set")
  func userInfoIsCheckedWhenSet() throws {
    var activity = UserActivity(activityType: "t")
    let refused = #expect(throws: RestorationError.self) {
      try activity.setUserInfo(["ref": .reference("Root/Note")])
    }
    #expect(refused?.code == .encodingFailed)
    #expect(refused?.key == "ref")
    #expect(refused?.message == "user info cannot hold a reference to a restorable object")
    var deep = StateValue.integer(1)
    for _ in 0..<200 { deep = .array([deep]) }
    #expect(throws: RestorationError.self) { try activity.setUserInfo(["deep": deep]) }
    let big = StateValue.data(Data(count: UserActivity.maxUserInfoSize + 1))
    #expect(throws: RestorationError.self) { try activity.setUserInfo(["big": big]) }
    #expect(activity.userInfo.isEmpty)
    try activity.setValue("ok", forKey: "name")
    #expect(activity.value(String.self, forKey: "name") == "ok")
  }

  @Test("scene storage outside a scene keeps its value in the property")
  func storageOutsideAScene() {
    let controller = SceneNoteController()
    #expect(controller.draft == "")
    controller.draft = "local"
    #expect(controller.draft == "local")
    #expect(controller.windowScene == nil)
  }

  @Test("an app opens at most 256 sessions, and refuses one more while all are connected")
  func sessionCountIsBounded() throws {
    let stores = InMemorySceneSessionStores()
    let process = ScenesProcess(stores: stores)
    for _ in 0..<256 { _ = try #require(process.application.requestSceneSessionActivation(nil)) }
    #expect(process.application.requestSceneSessionActivation(nil) == nil)
    process.application.enterBackground()
    let next = ScenesProcess(stores: stores)
    #expect(next.application.openSessions.count == 256)
    #expect(stores.sessionsWithItems().count == 256)
  }

  @Test("left-over folders go at most 256 a launch, with one flush of the scenes folder")
  func leftoverFoldersAreRemovedInBoundedBatches() throws {
    let (root, stores) = try makeFileStores()
    defer { try? FileManager.default.removeItem(at: root) }
    let scene = try saveScene("listed", in: stores)
    // Folders that destroyed sessions left when their removal failed, older than the index.
    for number in 0..<600 {
      let folder = "\(stores.scenesFolder)/leftover-\(number)"
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
      try Data([1, 2, 3]).write(to: URL(fileURLWithPath: "\(folder)/data.data"))
      try FileManager.default.setAttributes(
        [.modificationDate: aMinuteAgo()], ofItemAtPath: folder)
    }
    func leftovers() throws -> Int {
      try FileManager.default.contentsOfDirectory(atPath: stores.scenesFolder).count {
        $0.hasPrefix("leftover-")
      }
    }
    var counts = [try leftovers()]
    while let last = counts.last, last > 0, counts.count < 6 {
      let flushed = Mutex<[String]>([])
      PlatformObservers.$folderFlushed.withValue(
        PathObserver { path in flushed.withLock { $0.append(path) } }
      ) { _ = ScenesProcess(stores: stores) }
      #expect(flushed.withLock { $0 } == [stores.scenesFolder])
      counts.append(try leftovers())
    }
    #expect(counts == [600, 344, 88, 0])
    let next = ScenesProcess(stores: stores)
    let restored = try next.reconnect(scene.session.persistentIdentifier)
    #expect(next.controller(of: restored).text == "listed")
  }

  @Test("a folder that a running process uses is never taken for a left-over one")
  func foldersInUseAreKept() throws {
    let (root, stores) = try makeFileStores()
    defer { try? FileManager.default.removeItem(at: root) }
    let running = ScenesProcess(stores: stores)
    let scene = try #require(running.application.requestSceneSessionActivation(nil))
    running.controller(of: scene).text = "in use"
    running.application.enterBackground()
    let folder = "\(stores.scenesFolder)/\(scene.session.persistentIdentifier)"
    let index = URL(
      fileURLWithPath:
        "\(root.path)/Saved Application State/com.example.Scenes.savedState/sessions.data")
    // An index written without the session, newer than its folder: left over, but for its user.
    func omitTheSession() throws {
      let body = try PropertyList.write(.dictionary(["sessions": .array([])]))
      try Data(checkedFile(body, magic: "SRSESS01")).write(to: index)
      try FileManager.default.setAttributes(
        [.modificationDate: aMinuteAgo()], ofItemAtPath: folder)
    }
    try omitTheSession()
    _ = ScenesProcess(stores: stores)
    #expect(FileManager.default.fileExists(atPath: "\(folder)/data.data"))

    running.application.disconnect(scene)
    try omitTheSession()
    _ = ScenesProcess(stores: stores)
    #expect(!FileManager.default.fileExists(atPath: folder))
  }

  @Test("scene storage values from an archive are checked as user info is; the others dropped")
  func sceneStorageValuesAreChecked() throws {
    let stores = InMemorySceneSessionStores()
    let first = ScenesProcess(stores: stores)
    let scene = try #require(first.application.requestSceneSessionActivation(nil))
    first.controller(of: scene).draft = "kept"
    first.application.enterBackground()
    let store = try #require(stores.sessionStores[scene.session.persistentIdentifier])
    var archive = try RestorationArchive(decoding: try #require(store.contents[.archive]))
    var values: [String: StateValue] = [
      "note.draft": .string("kept"), "note.line": .integer(3), "reference": .reference("Note"),
      "nested": .dictionary(["inner": .array([.reference("Note")])]),
      "large": .data(Data(count: UserActivity.maxUserInfoSize + 1)),
    ]
    for number in 0..<10 { values["ref-\(number)"] = .reference("Note") }
    archive.topLevel["StateRestorationUI.SceneStorage"] = .dictionary(values)
    store.contents[.archive] = try archive.encoded()

    let log = LogCapture()
    let second = Application(
      delegate: ScenesAppDelegate(),
      applicationInfo: ApplicationInfo(bundleIdentifier: "com.example.Scenes"),
      sceneStores: stores, sceneManifest: SceneManifest { NotesSceneDelegate() },
      settings: RestorationSettings(), logger: log.makeLogger())
    second.launch()
    let restored = try #require(second.requestSceneSessionActivation(second.openSessions.first))
    let controller = try #require((restored.delegate as? NotesSceneDelegate)?.controller)
    #expect(controller.draft == "kept")
    #expect(controller.line == 3)
    let warnings = log.lines(at: .warning).joined(separator: "\n")
    // The first three dropped, in the order of their keys, are named; the others counted.
    for key in ["large", "nested", "ref-0"] {
      #expect(warnings.contains("Scene storage value \"\(key)\" dropped"), "\(warnings)")
    }
    #expect(!warnings.contains("\"reference\""))
    #expect(warnings.contains("10 more scene storage values dropped"), "\(warnings)")
    // What is saved again holds the values kept alone.
    second.enterBackground()
    let saved = try RestorationArchive(decoding: try #require(store.contents[.archive]))
    #expect(
      saved.topLevel["StateRestorationUI.SceneStorage"]
        == .dictionary(["note.draft": .string("kept"), "note.line": .integer(3)]))
  }

  @Test("an index or an activity that would take far more than its size once read is refused")
  func sharedValueBombsAreRefused() throws {
    // One 16 KiB string, shared 20,000 times: 60 KiB of file for 320 MiB of strings.
    let long = CraftedValue.shared("long", .string(String(repeating: "x", count: 16 << 10)))
    let many = CraftedValue.array(Array(repeating: long, count: 20_000))
    let index = CraftedArchive.propertyList(.dictionary([("sessions", many)]))
    let activity = CraftedArchive.propertyList(
      .dictionary([("activityType", .string("t")), ("userInfo", .dictionary([("k", many)]))]))
    let stores = InMemorySceneSessionStores()
    let first = ScenesProcess(stores: stores)
    let scene = try #require(first.application.requestSceneSessionActivation(nil))
    first.application.enterBackground()
    let store = try #require(stores.sessionStores[scene.session.persistentIdentifier])
    store.contents[.sceneActivity] = checkedFile(activity, magic: "SRACTV01")
    let log = LogCapture()
    func launch() -> Application {
      let application = Application(
        delegate: ScenesAppDelegate(),
        applicationInfo: ApplicationInfo(bundleIdentifier: "com.example.Scenes"),
        sceneStores: stores, sceneManifest: SceneManifest { NotesSceneDelegate() },
        settings: RestorationSettings(), logger: log.makeLogger())
      application.launch()
      return application
    }
    let clock = ContinuousClock()
    let start = clock.now
    let second = launch()
    let again = try #require(second.requestSceneSessionActivation(second.openSessions.first))
    #expect(again.session.stateRestorationActivity == nil)
    (stores.applicationStore as? InMemoryArchiveStore)?.contents[.sceneSessions] = checkedFile(
      index, magic: "SRSESS01")
    #expect(launch().openSessions.isEmpty)
    #expect(clock.now - start < .seconds(5))
    let warnings = log.lines(at: .warning).joined(separator: "\n")
    for file in ["scene activity", "index of scene sessions"] {
      #expect(warnings.contains("the \(file): values would take more than"), "\(warnings)")
    }
  }

  @Test("an app without scenes cannot activate one")
  func appWithoutScenes() {
    let application = Application(
      delegate: ScenesAppDelegate(),
      applicationInfo: ApplicationInfo(bundleIdentifier: "com.example.Scenes"),
      store: InMemoryArchiveStore(), settings: RestorationSettings(),
      logger: LogCapture().makeLogger())
    application.launch()
    #expect(application.requestSceneSessionActivation(nil) == nil)
    #expect(application.openSessions.isEmpty)
  }
}

/// Connects a new scene in a new process of the app, gives it `text`, and goes home.
private func saveScene(_ text: String, in stores: any SceneSessionStores) throws -> Scene {
  let process = ScenesProcess(stores: stores)
  let scene = try #require(process.application.requestSceneSessionActivation(nil))
  process.controller(of: scene).text = text
  process.application.enterBackground()
  return scene
}

/// Scene stores on disk in a new temporary state folder; the caller removes the folder.
private func makeFileStores() throws -> (root: URL, stores: FileSceneSessionStores) {
  let root = try makeTemporaryFolder()
  return (
    root, try FileSceneSessionStores(stateRoot: root.path, bundleIdentifier: "com.example.Scenes")
  )
}

/// Every file below a folder, by its path relative to the folder, with its bytes.
private func filesBelow(_ folder: String) throws -> [String: Data] {
  var files: [String: Data] = [:]
  let walker = FileManager.default.enumerator(atPath: folder)
  while let name = walker?.nextObject() as? String {
    var isFolder: ObjCBool = false
    let path = "\(folder)/\(name)"
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
      files[name] = try Data(contentsOf: URL(fileURLWithPath: path))
    }
  }
  return files
}

private func posixMode(_ path: String) throws -> Int {
  let attributes = try FileManager.default.attributesOfItem(atPath: path)
  return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
}

/// A minute ago, in whole seconds: Foundation rounds a date's fraction of a second to
/// microseconds for `utimes`, and a fraction within half a microsecond of the next second
/// rounds to a million, which `utimes` refuses with EINVAL.
private func aMinuteAgo() -> Date {
  Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 60).rounded(.down))
}
