internal import BinaryPropertyList
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
  ///   session that is not the app's, a session whose folder cannot be used, or a new session
  ///   when the app has 256 open and each has saved state (the log says why). A session
  ///   already connected returns its scene. At 256, a new session takes the place of the least
  ///   recently used one that has nothing saved.
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
    if session == nil, openSessions.count >= SessionIndex.maxSessions, !makeRoomForNewSession() {
      engine.logger.warning(
        "No new scene session: the app has \(openSessions.count) with saved state, the most it opens"
      )
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
      // Listed before its folder exists: a folder that no newer index lists is a left-over one.
      saveSessionIndex()
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
    scene.inUseMark = sceneStores.markInUse(session.persistentIdentifier)
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
    destroyedSessionIdentifiers.insert(ExactString(session.persistentIdentifier))
    withIndexLock {
      // The index first: a session whose folder outlives it is removed at a later launch.
      saveSessionIndex()
      do {
        try sceneStores.removeSession(session.persistentIdentifier)
      } catch {
        engine.logger.warning(
          "The state of scene session \(session.persistentIdentifier) was not all deleted: \(error)"
        )
      }
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
    // Marked again before anything is written: a force quit elsewhere may have removed the
    // folder that the mark was on.
    if let mark = sceneStores?.markInUse(scene.session.persistentIdentifier) {
      scene.inUseMark = mark
    }
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

  /// A new session of the app's window role and configuration.
  private func makeSession() -> SceneSession {
    let session = SceneSession(
      persistentIdentifier: UUID().uuidString, role: .windowApplication,
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

  /// The most left-over session folders one launch examines; the rest wait for later launches.
  static let maxLeftoverRemovalsPerLaunch = 256

  /// Reads the sessions of the index, and removes the folders it provably left over: those it
  /// does not list, older than it, that no running process uses (see
  /// ``SceneSessionStores/removeLeftoverSessions(listed:limit:)``).
  ///
  /// Without a readable index, every folder that holds state is a session to keep.
  func loadSessions() {
    guard let sceneStores else { return }
    withIndexLock {
      let reading = readSessionIndex()
      guard case .read(let contents) = reading else {
        let adopted = adoptedSessions()
        openSessions = opened(adopted) { Set(adopted.map { ExactString($0.persistentIdentifier) }) }
        if adopted.isEmpty { adoptApplicationState() }
        return
      }
      openSessions = opened(contents.sessions, stores: storeIdentifiers)
      let (removed, remaining) = sceneStores.removeLeftoverSessions(
        listed: contents.identifiers, limit: Self.maxLeftoverRemovalsPerLaunch)
      if removed > 0 || remaining > 0 {
        engine.logger.info(
          "Left-over scene session folders: \(removed) removed, \(remaining) not (in use, newer than the index, or left for a later launch)"
        )
      }
    }
  }

  /// A session for each folder that holds state, in the order of their names, all last used
  /// now: what the sessions are when no index says.
  private func adoptedSessions() -> [SceneSession] {
    let now = engine.now()
    return (sceneStores?.sessionsWithItems() ?? []).sorted().map {
      SceneSession(
        persistentIdentifier: $0, role: .windowApplication,
        configurationName: sceneManifest?.configurationName, lastUsed: now)
    }
  }

  /// The identifiers of the sessions that have a store.
  private func storeIdentifiers() -> Set<ExactString> {
    Set((sceneStores?.sessionsWithStores() ?? []).map(ExactString.init))
  }

  /// The sessions of `all` that the app opens, in the order of `all`.
  ///
  /// At most ``SessionIndex/maxSessions``: this process's own first, then those with saved
  /// state, the most recently used first. The others stay listed in the index, with their
  /// folders.
  private func opened(
    _ all: [SceneSession], stores: () -> Set<ExactString>
  ) -> [SceneSession] {
    guard all.count > SessionIndex.maxSessions else { return all }
    let stores = stores()
    func rank(_ index: Int) -> (Int, Date, Int) {
      let session = all[index]
      let own = session.scene != nil || session.changedInThisProcess
      let saved = stores.contains(ExactString(session.persistentIdentifier))
      return (own ? 2 : saved ? 1 : 0, session.lastUsed, -index)
    }
    let chosen = Set(all.indices.sorted { rank($0) > rank($1) }.prefix(SessionIndex.maxSessions))
    return all.indices.filter(chosen.contains).map { all[$0] }
  }

  /// Makes room for a new session when the app has as many as it opens: the least recently used
  /// session that has no store (nothing saved) and no scene is dropped from the index.
  ///
  /// - Returns: Whether there is room now.
  private func makeRoomForNewSession() -> Bool {
    let stores = storeIdentifiers()
    let empty = openSessions.filter {
      $0.scene == nil && !stores.contains(ExactString($0.persistentIdentifier))
    }
    guard let dropped = empty.min(by: { $0.lastUsed < $1.lastUsed }) else { return false }
    openSessions.removeAll { $0 === dropped }
    destroyedSessionIdentifiers.insert(ExactString(dropped.persistentIdentifier))
    engine.logger.info(
      "Scene session \(dropped.persistentIdentifier), which had nothing saved, made room for a new one"
    )
    return true
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
      openSessions = [session]
      // Listed before its folder exists, as every new session is.
      saveSessionIndex()
      for (item, bytes) in found { try store.write(bytes, to: item) }
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

  /// Writes the index of sessions, atomically, holding the index lock from its reading to its
  /// writing so that the app's processes merge their changes in turn.
  ///
  /// For the sessions this process did not change, the index on disk wins: another process may
  /// have added, used, closed or force quit them since this one read it. Every entry the index
  /// lists stays listed unless a process destroyed it: sessions beyond those the app opens, and
  /// entries this version cannot read, keep their place while they have a folder.
  func saveSessionIndex() {
    withIndexLock {
      var disk = SessionIndex.Contents()
      switch readSessionIndex() {
      case .read(let contents): disk = contents
      case .missing: disk.sessions = adoptedSessions()
      // Nothing is dropped on the word of a file that cannot be read.
      case .unreadable: disk.sessions = openSessions + adoptedSessions()
      }
      let mine = Dictionary(
        openSessions.map { (ExactString($0.persistentIdentifier), $0) },
        uniquingKeysWith: { first, _ in first })
      var merged: [SceneSession] = []
      var listed: Set<ExactString> = []
      for other in disk.sessions {
        let identifier = ExactString(other.persistentIdentifier)
        guard !destroyedSessionIdentifiers.contains(identifier), listed.insert(identifier).inserted
        else { continue }
        guard let session = mine[identifier] else {
          merged.append(other)
          continue
        }
        if !session.changedInThisProcess {
          session.title = other.title
          session.lastUsed = other.lastUsed
          session.userInfo = other.userInfo
        }
        merged.append(session)
      }
      // Made or used here and not listed yet; the others were destroyed elsewhere.
      for session in openSessions where session.changedInThisProcess {
        if listed.insert(ExactString(session.persistentIdentifier)).inserted {
          merged.append(session)
        }
      }
      // Listed only when needed: the scenes folder may hold many entries.
      lazy var stores = storeIdentifiers()
      openSessions = opened(merged) { stores }
      let open = Set(openSessions.map { ExactString($0.persistentIdentifier) })
      let waiting = merged.filter {
        let identifier = ExactString($0.persistentIdentifier)
        return !open.contains(identifier) && stores.contains(identifier)
      }
      let unread = disk.unread.filter {
        let identifier = ExactString($0.identifier)
        return !destroyedSessionIdentifiers.contains(identifier) && !listed.contains(identifier)
          && stores.contains(identifier)
      }
      writeSessionIndex(openSessions + waiting, unread: unread.map(\.entry))
    }
  }

  /// Writes the index; one too large to be read back keeps the sessions the app opens alone.
  private func writeSessionIndex(_ sessions: [SceneSession], unread: [StateValue]) {
    do {
      var bytes = try SessionIndex.encoded(sessions, unread: unread)
      if bytes.count > SessionIndex.maxFileSize {
        engine.logger.warning(
          "The index of scene sessions would take \(bytes.count) bytes: it lists only the \(openSessions.count) sessions open"
        )
        bytes = try SessionIndex.encoded(openSessions)
      }
      try engine.store.write(bytes, to: .sceneSessions)
    } catch {
      engine.logger.warning("The index of scene sessions was not saved: \(error)")
    }
  }

  /// Runs `body` holding the lock on the index of sessions, taken once however deep the calls.
  private func withIndexLock<T>(_ body: () -> T) -> T {
    guard let sceneStores, !holdsIndexLock else { return body() }
    return sceneStores.withIndexLock {
      holdsIndexLock = true
      defer { holdsIndexLock = false }
      return body()
    }
  }

  private enum SessionIndexReading {
    case missing
    case unreadable
    case read(SessionIndex.Contents)
  }

  /// The index on disk; the log says why an index cannot be read, and sums up what it left out.
  private func readSessionIndex() -> SessionIndexReading {
    do {
      guard let bytes = try engine.store.read(.sceneSessions, maxSize: SessionIndex.maxFileSize)
      else { return .missing }
      let contents = try SessionIndex.decoded(bytes)
      for line in contents.notes.lines { engine.logger.warning("Index of scene sessions: \(line)") }
      return .read(contents)
    } catch {
      engine.logger.warning("The index of scene sessions was not read: \(error)")
      return .unreadable
    }
  }

  /// Deletes every session's state, after a force quit (unless developer mode keeps it), and
  /// leaves the note that says so at the next launch.
  ///
  /// Everything of the app's goes, whatever else the scenes folder holds: a file, a link or a
  /// folder that is not a session's is left alone, and is no failure.
  func discardAllSessions() {
    guard let sceneStores else { return }
    engine.applicationWasForceQuit()
    guard !engine.settings.developerMode else { return }
    for scene in connectedScenes { detach(scene) }
    withIndexLock {
      var identifiers = openSessions.map(\.persistentIdentifier) + sceneStores.sessionsWithStores()
      if case .read(let contents) = readSessionIndex() { identifiers += contents.identifiers }
      destroyedSessionIdentifiers.formUnion(identifiers.map(ExactString.init))
      openSessions = []
      do {
        try engine.store.remove(.sceneSessions)
      } catch {
        engine.logger.warning("The index of scene sessions was not deleted: \(error)")
      }
      do {
        try sceneStores.removeAllSessions()
      } catch {
        engine.logger.warning("The saved state of the scene sessions was not all deleted: \(error)")
      }
    }
  }

  private func detach(_ scene: Scene) {
    scene.inUseMark = nil
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
