internal import Logging
internal import StateRestoration

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Application {
  // MARK: - Scene sessions

  /// Connects a scene to a session, or to a new session when `session` is nil (UIKit's
  /// `requestSceneSessionActivation`), and restores the scene from the session's state.
  ///
  /// In order: the session's activity is read, the scene delegate's
  /// ``SceneDelegate/scene(_:willConnectTo:options:)`` creates the window, the window and its
  /// controllers are restored from the session's archive (the ``SceneStorage`` values first),
  /// ``SceneDelegate/scene(_:restoreInteractionStateWith:)`` gets the activity, and the window
  /// appears.
  ///
  /// - Parameters:
  ///   - session: The session to connect, one of ``openSessions``; nil for a new one.
  ///   - options: What comes with the request.
  /// - Returns: The connected scene, or nil for an app without scenes, one not launched, a
  ///   session that is not the app's, or a session whose folder cannot be used (the log says
  ///   why). A session already connected returns its scene.
  @discardableResult
  public func requestSceneSessionActivation(
    _ session: SceneSession?, options: Scene.ConnectionOptions = Scene.ConnectionOptions()
  ) -> Scene? {
    guard let sceneManifest, let sceneStores, state != .notRunning, state != .terminated else {
      engine.logger.warning("Scene activation requested from an app without scenes, or not running")
      return nil
    }
    if let session, !openSessions.contains(where: { $0 === session }) {
      engine.logger.warning(
        "Scene activation requested for session \(session.persistentIdentifier), which is not one of the app's"
      )
      return nil
    }
    if let scene = session?.scene { return scene }
    // The index reads this many sessions back: one more would be lost at the next launch.
    if session == nil, openSessions.count >= SessionIndex.maxSessions {
      engine.logger.warning(
        "No new scene session: the app has \(openSessions.count), the most it can keep")
      return nil
    }
    let session = session ?? makeSession()
    let store: any ArchiveStore
    do {
      store = try sceneStores.store(forSession: session.persistentIdentifier)
    } catch {
      engine.logger.warning("Scene session \(session.persistentIdentifier) not connected: \(error)")
      return nil
    }
    if !openSessions.contains(where: { $0 === session }) {
      openSessions.append(session)
      // Why the app's state was discarded (a force quit) is said by the next new window.
      moveDiscardNote(to: store)
    }
    var logger = engine.logger
    logger[metadataKey: "scene"] = "\(session.persistentIdentifier)"
    let sceneEngine = RestorationEngine(
      applicationInfo: engine.applicationInfo, store: store, registry: engine.registry,
      settings: engine.settings, logger: logger)
    sceneEngine.now = engine.now
    let adapter = EngineDelegateAdapter()
    adapter.application = self
    sceneEngine.delegate = adapter
    sceneEngine.applicationContext = self
    let scene = Scene(session: session, delegate: sceneManifest.makeDelegate(), engine: sceneEngine)
    adapter.scene = scene
    scene.adapter = adapter
    scene.application = self
    session.scene = scene
    connectedScenes.append(scene)

    // Read, then removed before it is used: an activity that crashes the app is not met again.
    session.stateRestorationActivity = takeActivity(of: scene)
    scene.delegate.scene(scene, willConnectTo: session, options: options)
    scene.launchSnapshot = presentSnapshot(of: sceneEngine)
    scene.restorationReport = sceneEngine.restoreApplicationState(
      roots: scene.window.map { [$0] } ?? [])
    if let activity = session.stateRestorationActivity {
      scene.delegate.scene(scene, restoreInteractionStateWith: activity)
    }
    scene.window?.makeKeyAndVisible()
    scene.activationState = state == .background ? .background : .foregroundActive
    markUsed(scene)
    saveSessionIndex()
    return scene
  }

  /// Destroys a session, as the user closing its window in the app switcher does.
  ///
  /// Its scene is disconnected without being preserved, its state deleted, and the delegate's
  /// ``ApplicationDelegate/application(_:didDiscardSceneSessions:)`` told. The other sessions
  /// keep theirs.
  ///
  /// - Parameter session: One of ``openSessions``.
  public func requestSceneSessionDestruction(_ session: SceneSession) {
    guard let sceneStores, openSessions.contains(where: { $0 === session }) else { return }
    if let scene = session.scene {
      scene.window?.hide()
      scene.delegate.sceneDidDisconnect(scene)
      detach(scene)
    }
    openSessions.removeAll { $0 === session }
    destroyedSessionIdentifiers.insert(session.persistentIdentifier)
    // The index first: a session whose folder outlives it is removed at the next launch.
    saveSessionIndex()
    do {
      try sceneStores.removeSession(session.persistentIdentifier)
    } catch {
      engine.logger.warning(
        "The state of scene session \(session.persistentIdentifier) was not all deleted: \(error)")
    }
    delegate.application(self, didDiscardSceneSessions: [session])
  }

  /// Disconnects a scene, as the system does to reclaim a background scene's resources: its
  /// state is preserved (if it was not already) and its session stays, to connect again later.
  ///
  /// - Parameter scene: One of ``connectedScenes``.
  public func disconnect(_ scene: Scene) {
    guard connectedScenes.contains(where: { $0 === scene }) else { return }
    if scene.activationState != .background { moveToBackground(scene) }
    scene.window?.hide()
    scene.delegate.sceneDidDisconnect(scene)
    detach(scene)
    saveSessionIndex()
  }

  /// The session connected most recently, or moved to the background most recently.
  public var mostRecentlyUsedSession: SceneSession? {
    openSessions.enumerated().max {
      ($0.element.lastUsed, $0.offset) < ($1.element.lastUsed, $1.offset)
    }?.element
  }

  // MARK: - Internals

  /// Moves a scene to the background: the delegate is told, then its activity and its state
  /// are saved.
  func moveToBackground(_ scene: Scene) {
    scene.delegate.sceneDidEnterBackground(scene)
    let store = scene.engine.store
    do {
      if let activity = scene.delegate.stateRestorationActivity(for: scene) {
        try store.write(try activity.encoded(), to: .sceneActivity)
      } else {
        try store.remove(.sceneActivity)
      }
    } catch {
      scene.engine.logger.warning("The scene's restoration activity was not saved: \(error)")
    }
    scene.session.stateRestorationActivity = nil
    scene.preservationReport = preserve(roots: scene.window.map { [$0] } ?? [], with: scene.engine)
    scene.activationState = .background
    markUsed(scene)
  }

  /// A session of the app's window role and configuration, new unless `identifier` names one.
  private func makeSession(identifier: String = UUID().uuidString) -> SceneSession {
    let session = SceneSession(
      persistentIdentifier: identifier, role: .windowApplication,
      configurationName: sceneManifest?.configurationName, lastUsed: engine.now())
    session.changedInThisProcess = true
    return session
  }

  /// Records the scene's title and the time in its session, for the app switcher.
  private func markUsed(_ scene: Scene) {
    scene.session.title = scene.title ?? scene.session.title
    scene.session.lastUsed = engine.now()
    scene.session.changedInThisProcess = true
  }

  /// Reads the sessions of the index; a session folder the index does not list is what a
  /// destroyed session left, and is removed.
  func loadSessions() {
    guard let sceneStores else { return }
    let onDisk = sceneStores.sessionsWithItems()
    let index: [SceneSession]?
    if case .read(let sessions) = readSessionIndex() { index = sessions } else { index = nil }
    openSessions = index ?? []
    if index == nil, onDisk.isEmpty { adoptApplicationState() }
    let listed = Set(openSessions.map(\.persistentIdentifier))
    for identifier in onDisk.sorted() where !listed.contains(identifier) {
      if index != nil {
        do {
          try sceneStores.removeSession(identifier)
        } catch {
          engine.logger.warning("The state of destroyed session \(identifier) remains: \(error)")
        }
      } else {
        // Without a readable index, a folder is a session to keep: nothing is lost.
        openSessions.append(makeSession(identifier: identifier))
      }
    }
  }

  /// Moves the state an app saved before it used scenes (or the note of why it was
  /// discarded) into a new session, the one the next plain activation reconnects: adopting
  /// scenes loses nothing, and the crash guard's count goes on.
  private func adoptApplicationState() {
    guard let sceneStores else { return }
    let items: [ArchiveStoreItem] = [.archive, .inProgressMarker, .snapshot, .discardNote]
    var found: [(ArchiveStoreItem, [UInt8])] = []
    for item in items {
      do {
        if let bytes = try engine.store.read(item, maxSize: engine.settings.limits.maxFileSize) {
          found.append((item, bytes))
        }
      } catch {
        engine.logger.warning("The app's saved state was not moved into a scene session: \(error)")
        return
      }
    }
    // A note alone goes to the next new session (see `requestSceneSessionActivation`).
    guard found.contains(where: { $0.0 != .discardNote }) else { return }
    let session = makeSession()
    do {
      let store = try sceneStores.store(forSession: session.persistentIdentifier)
      for (item, bytes) in found { try store.write(bytes, to: item) }
      openSessions = [session]
      saveSessionIndex()
      try engine.store.remove(found.map(\.0))
      engine.logger.info(
        "The app's saved state was moved into scene session \(session.persistentIdentifier)")
    } catch {
      engine.logger.warning("The app's saved state was not moved into a scene session: \(error)")
    }
  }

  private func moveDiscardNote(to store: any ArchiveStore) {
    do {
      guard let note = try engine.store.read(.discardNote, maxSize: 1 << 10) else { return }
      try engine.store.remove(.discardNote)
      try store.write(note, to: .discardNote)
    } catch {
      engine.logger.warning("The note of why the state was discarded was not kept: \(error)")
    }
  }

  /// Writes the index of sessions, atomically.
  ///
  /// Two windows of the app may run at once, so for the sessions this process did not change,
  /// the index on disk wins: another process may have added, used, closed or force quit them
  /// since this one read it.
  func saveSessionIndex() {
    let onDisk: [SceneSession]
    switch readSessionIndex() {
    case .read(let sessions): onDisk = sessions
    case .missing: onDisk = []
    // Nothing is dropped on the word of a file that cannot be read.
    case .unreadable: onDisk = openSessions
    }
    let latest = Dictionary(
      onDisk.map { ($0.persistentIdentifier, $0) }, uniquingKeysWith: { first, _ in first })
    var sessions: [SceneSession] = []
    for session in openSessions {
      if session.changedInThisProcess {
        sessions.append(session)
      } else if let other = latest[session.persistentIdentifier] {
        session.title = other.title
        session.lastUsed = other.lastUsed
        session.userInfo = other.userInfo
        sessions.append(session)
      }
    }
    let known = Set(sessions.map(\.persistentIdentifier))
    let added = onDisk.filter {
      !known.contains($0.persistentIdentifier)
        && !destroyedSessionIdentifiers.contains($0.persistentIdentifier)
    }
    openSessions = sessions + added.prefix(max(0, SessionIndex.maxSessions - sessions.count))
    do {
      try engine.store.write(try SessionIndex.encoded(openSessions), to: .sceneSessions)
    } catch {
      engine.logger.warning("The index of scene sessions was not saved: \(error)")
    }
  }

  private enum SessionIndexReading {
    case missing
    case unreadable
    case read([SceneSession])
  }

  /// The sessions of the index on disk; the log says why an index cannot be read.
  private func readSessionIndex() -> SessionIndexReading {
    do {
      guard let bytes = try engine.store.read(.sceneSessions, maxSize: SessionIndex.maxFileSize)
      else { return .missing }
      let (sessions, skipped) = try SessionIndex.decoded(bytes)
      for note in skipped { engine.logger.warning("Index of scene sessions: \(note)") }
      return .read(sessions)
    } catch {
      engine.logger.warning("The index of scene sessions was not read: \(error)")
      return .unreadable
    }
  }

  /// Deletes every session's state, after a force quit (unless developer mode keeps it), and
  /// leaves the note that says so at the next launch.
  func discardAllSessions() {
    guard let sceneStores else { return }
    engine.applicationWasForceQuit()
    guard !engine.settings.developerMode else { return }
    for scene in connectedScenes { detach(scene) }
    var indexedSessionIdentifiers: [String] = []
    if case .read(let sessions) = readSessionIndex() {
      indexedSessionIdentifiers = sessions.map(\.persistentIdentifier)
    }
    let identifiers = Set(
      openSessions.map(\.persistentIdentifier)
        + indexedSessionIdentifiers + sceneStores.sessionsWithItems())
    destroyedSessionIdentifiers.formUnion(identifiers)
    openSessions = []
    do {
      try engine.store.remove(.sceneSessions)
    } catch {
      engine.logger.warning("The index of scene sessions was not deleted: \(error)")
    }
    for identifier in identifiers.sorted() {
      do {
        try sceneStores.removeSession(identifier)
      } catch {
        engine.logger.warning("The state of session \(identifier) was not all deleted: \(error)")
      }
    }
  }

  private func detach(_ scene: Scene) {
    connectedScenes.removeAll { $0 === scene }
    scene.session.scene = nil
    scene.activationState = .unattached
  }

  /// The activity a scene's session kept, removed from the store.
  private func takeActivity(of scene: Scene) -> UserActivity? {
    let store = scene.engine.store
    do {
      guard let bytes = try store.read(.sceneActivity, maxSize: Self.maxActivityFileSize) else {
        return nil
      }
      try store.remove(.sceneActivity)
      return try UserActivity(decoding: bytes)
    } catch {
      scene.engine.logger.warning("The scene's restoration activity was not restored: \(error)")
      try? store.remove(.sceneActivity)
      return nil
    }
  }

  /// The largest activity file read, in bytes.
  static let maxActivityFileSize = 2 * UserActivity.maxUserInfoSize
}
