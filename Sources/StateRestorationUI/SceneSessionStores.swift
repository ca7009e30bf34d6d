internal import BinaryPropertyList
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

  /// The identifiers of the sessions that have a store (a folder), whether or not it holds
  /// items, in no particular order: a quick listing that opens no store.
  func sessionsWithStores() -> [String]

  /// Runs `body` holding the lock that orders the updates of the index of sessions made by the
  /// app's processes, so that each reads, merges and writes the index in turn.
  func withIndexLock<T>(_ body: () throws -> T) rethrows -> T

  /// Marks a session as in use by this process until the returned value is released: no other
  /// process then removes its store as a left-over one.
  func markInUse(_ identifier: String) -> AnyObject?

  /// Removes the stores that are provably left over: not among `listed` (the sessions the index
  /// names), older than the index, and in use by no process. At most `limit` are examined, so
  /// that a launch does bounded work; the rest wait for a later call.
  ///
  /// - Returns: How many stores were removed, and how many unlisted ones remain.
  func removeLeftoverSessions(listed: [String], limit: Int) -> (removed: Int, remaining: Int)

  /// Removes the items of every session, and their folders, as a force quit does.
  ///
  /// - Throws: `RestorationError` for an item that exists but cannot be removed; what is not
  ///   the app's (an unknown file, a link) is left alone and is no error.
  func removeAllSessions() throws(RestorationError)
}

extension SceneSessionStores {
  /// The sessions with items.
  public func sessionsWithStores() -> [String] { sessionsWithItems() }

  /// Runs `body`: stores that one process alone uses need no lock.
  public func withIndexLock<T>(_ body: () throws -> T) rethrows -> T { try body() }

  /// Nothing: stores that one process alone uses need no mark.
  public func markInUse(_ identifier: String) -> AnyObject? { nil }

  /// Removes up to `limit` sessions with items that `listed` omits: stores that one process
  /// alone uses hold nothing another process may still write.
  public func removeLeftoverSessions(
    listed: [String], limit: Int
  ) -> (removed: Int, remaining: Int) {
    let kept = Set(listed.map(ExactString.init))
    let unlisted = sessionsWithItems().filter { !kept.contains(ExactString($0)) }.sorted()
    var removed = 0
    for identifier in unlisted.prefix(limit) where (try? removeSession(identifier)) != nil {
      removed += 1
    }
    return (removed, unlisted.count - removed)
  }

  /// Removes each session with items in turn.
  public func removeAllSessions() throws(RestorationError) {
    var failure: RestorationError?
    for identifier in sessionsWithItems() {
      do throws(RestorationError) { try removeSession(identifier) } catch {
        failure = failure ?? error
      }
    }
    if let failure { throw failure }
  }
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
