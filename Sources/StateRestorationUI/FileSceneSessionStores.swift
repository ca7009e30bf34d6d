internal import BinaryPropertyList
public import StateRestoration
internal import StateRestorationStorage

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Scene session stores on disk: the app's items in
/// `<state root>/Saved Application State/<bundle id>.savedState/`, and each session's in the
/// folder `Scenes/<session id>/` inside it.
///
/// Every folder and file has the guarantees of `FileArchiveStore`: private modes, atomic
/// writes, no symbolic link followed. The app's processes update the index of sessions in turn,
/// under an advisory lock on the file `sessions.lock` beside it, and a process marks the
/// folders of the sessions it has connected with a shared lock of its own; the system releases
/// both when the process ends, however it ends. Names read from the disk are handled as the
/// bytes they are: what is not a session's folder (a file, a name that is not UTF-8 or not a
/// valid identifier) is never taken for one.
public final class FileSceneSessionStores: SceneSessionStores {
  /// The app's own store, which holds the index of sessions.
  public let applicationStore: any ArchiveStore
  private let stateRoot: String
  private let bundleIdentifier: String
  private let indexPath: String
  /// The folder that holds one folder per session.
  public let scenesFolder: String

  /// Creates the stores of an app.
  ///
  /// - Parameters:
  ///   - stateRoot: The folder that holds `Saved Application State`.
  ///   - bundleIdentifier: The app's bundle identifier, by the rules of `FileArchiveStore`.
  /// - Throws: `RestorationError` (`invalidIdentifier`) for an
  ///   identifier that cannot name a folder; nothing is created.
  public init(stateRoot: String, bundleIdentifier: String) throws(RestorationError) {
    let store = try FileArchiveStore(stateRoot: stateRoot, bundleIdentifier: bundleIdentifier)
    applicationStore = store
    self.stateRoot = stateRoot
    self.bundleIdentifier = bundleIdentifier
    indexPath = store.path(of: .sceneSessions)
    scenesFolder = "\(store.folder)/\(Self.scenesFolderName)"
  }

  private static let scenesFolderName = "Scenes"
  /// The file whose lock orders the updates of the index.
  static let indexLockName = "sessions.lock"
  private static let itemNames = ArchiveStoreItem.allCases.map(\.rawValue)

  private var savedStateComponents: [String] {
    ["Saved Application State", "\(bundleIdentifier).savedState"]
  }

  private func openScenes() throws(RestorationError) -> PrivateFolder? {
    try PrivateFolder.open(
      root: stateRoot, components: savedStateComponents + [Self.scenesFolderName], creating: false)
  }

  /// The store of a session's folder.
  public func store(forSession identifier: String) throws(RestorationError) -> any ArchiveStore {
    try FileArchiveStore(
      stateRoot: stateRoot, bundleIdentifier: bundleIdentifier, sceneIdentifier: identifier)
  }

  /// Removes a session's items and its folder; a folder that still holds files that are not the
  /// app's is left, with them.
  public func removeSession(_ identifier: String) throws(RestorationError) {
    try ApplicationInfo.validate(sceneIdentifier: identifier)
    guard let scenes = try openScenes() else { return }
    let result = scenes.removeFolders(
      [Array(identifier.utf8)], holding: Self.itemNames, unlockedOnly: false)
    if let failure = result.failure { throw failure }
  }

  /// The session folders that hold at least one of the app's items.
  public func sessionsWithItems() -> [String] {
    guard let scenes = try? openScenes() else { return [] }
    let items = Set(Self.itemNames.map { Array($0.utf8) })
    return sessionNames(in: scenes).filter { name in
      let folder = try? scenes.openChild(name, creating: false)
      return folder?.entries().contains(where: items.contains) ?? false
    }
  }

  /// The entries of the scenes folder whose names are valid session identifiers.
  public func sessionsWithStores() -> [String] {
    (try? openScenes()).map(sessionNames(in:)) ?? []
  }

  /// Runs `body` holding an exclusive lock on `sessions.lock` in the `.savedState` folder
  /// (created if missing); where the system cannot lock, `body` runs all the same.
  public func withIndexLock<T>(_ body: () throws -> T) rethrows -> T {
    let folder = try? PrivateFolder.open(
      root: stateRoot, components: savedStateComponents, creating: true)
    let lock = try? folder?.lock(Self.indexLockName, exclusive: true, waiting: true)
    return try withExtendedLifetime(lock) { try body() }
  }

  /// Takes a shared lock on the session's folder, created if missing (the index lists the
  /// session by then).
  public func markInUse(_ identifier: String) -> AnyObject? {
    guard (try? ApplicationInfo.validate(sceneIdentifier: identifier)) != nil,
      let folder = try? PrivateFolder.open(
        root: stateRoot, components: savedStateComponents + [Self.scenesFolderName, identifier],
        creating: true)
    else { return nil }
    return try? folder.lock(exclusive: false, waiting: false)
  }

  /// Removes the session folders that `listed` omits, last changed before the index file, and
  /// that no process holds a lock on, flushing the scenes folder once.
  ///
  /// The folders examined are chosen at random among the unlisted ones, so that folders that
  /// cannot be removed (another process's, or holding unknown files) do not stall the others.
  public func removeLeftoverSessions(
    listed: [String], limit: Int
  ) -> (removed: Int, remaining: Int) {
    guard let scenes = try? openScenes(), let indexDate = modificationDate(of: indexPath) else {
      return (0, 0)
    }
    let kept = Set(listed.map(ExactString.init))
    let unlisted = sessionNames(in: scenes).filter { !kept.contains(ExactString($0)) }
    let stale = unlisted.shuffled().prefix(limit).filter { name in
      modificationDate(of: "\(scenesFolder)/\(name)").map { $0 < indexDate } ?? false
    }
    let removed = scenes.removeFolders(
      stale.map { Array($0.utf8) }, holding: Self.itemNames, unlockedOnly: true
    ).removed
    return (removed, unlisted.count - removed)
  }

  /// Removes the app's items from every folder in the scenes folder, whatever its name, and
  /// each folder left empty.
  public func removeAllSessions() throws(RestorationError) {
    guard let scenes = try openScenes() else { return }
    let result = scenes.removeFolders(
      scenes.entries(), holding: Self.itemNames, unlockedOnly: false)
    if let failure = result.failure { throw failure }
  }

  /// The entries of a scenes folder that can be sessions' folders: names that are UTF-8 and
  /// valid identifiers, not a killed writer's temporary folder.
  private func sessionNames(in scenes: PrivateFolder) -> [String] {
    scenes.entries().compactMap { bytes in
      guard let name = String(validating: bytes, as: UTF8.self), !name.hasSuffix(".tmp"),
        (try? ApplicationInfo.validate(sceneIdentifier: name)) != nil
      else { return nil }
      return name
    }
  }

  /// When an item last changed, not following a link.
  private func modificationDate(of path: String) -> Date? {
    (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
  }
}
