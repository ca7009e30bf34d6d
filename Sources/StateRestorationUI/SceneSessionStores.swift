public import StateRestoration

/// Where an app that has scenes keeps its state: its own items (the index of its sessions)
/// and, for each scene session, a store of that session's items (its archive, its crash-guard
/// marker, its restoration activity).
///
/// ``FileSceneSessionStores`` keeps them on disk, one folder per session inside the app's
/// `.savedState` folder; ``InMemorySceneSessionStores`` keeps them in memory, for tests that
/// simulate a process dying and the app launching again.
public protocol SceneSessionStores: AnyObject {
  /// The app's own store, which holds the index of sessions.
  var applicationStore: any ArchiveStore { get }

  /// The store of one session's items.
  ///
  /// - Throws: `RestorationError` (`invalidIdentifier`) for an
  ///   identifier that cannot name a folder.
  func store(forSession identifier: String) throws(RestorationError) -> any ArchiveStore

  /// Removes every item of a session, and its folder; a session without items is left alone.
  ///
  /// - Throws: `RestorationError` when an item exists but cannot be removed.
  func removeSession(_ identifier: String) throws(RestorationError)

  /// The identifiers of the sessions that have items in the store, in no particular order.
  func sessionsWithItems() -> [String]
}

/// Scene session stores that keep their items in memory.
///
/// Hand the same stores to a new application to simulate the app launching again after its
/// process died.
public final class InMemorySceneSessionStores: SceneSessionStores {
  /// The app's own store.
  public let applicationStore: any ArchiveStore
  /// The store of each session that has one.
  public private(set) var sessionStores: [String: InMemoryArchiveStore] = [:]

  /// Creates stores, empty but for the app's own items in `applicationStore`.
  public init(applicationStore: InMemoryArchiveStore = InMemoryArchiveStore()) {
    self.applicationStore = applicationStore
  }

  /// The store of a session, made the first time it is asked for.
  public func store(forSession identifier: String) throws(RestorationError) -> any ArchiveStore {
    try ApplicationInfo.validate(sceneIdentifier: identifier)
    if let store = sessionStores[identifier] { return store }
    let store = InMemoryArchiveStore()
    sessionStores[identifier] = store
    return store
  }

  /// Forgets a session's store.
  public func removeSession(_ identifier: String) throws(RestorationError) {
    sessionStores[identifier] = nil
  }

  /// The sessions whose store holds at least one item.
  public func sessionsWithItems() -> [String] {
    sessionStores.filter { !$0.value.contents.isEmpty }.map(\.key)
  }
}
