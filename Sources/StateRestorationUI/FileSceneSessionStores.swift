public import StateRestoration

/// Scene session stores on disk: the app's items in
/// `<state root>/Saved Application State/<bundle id>.savedState/`, and each session's in the
/// folder `Scenes/<session id>/` inside it.
///
/// Every folder and file has the guarantees of `FileArchiveStore`: private modes, atomic
/// writes, no symbolic link followed.
public final class FileSceneSessionStores: SceneSessionStores {
  /// The app's own store, which holds the index of sessions.
  public let applicationStore: any ArchiveStore
  private let stateRoot: String
  private let bundleIdentifier: String
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
    scenesFolder = "\(store.folder)/\(Self.scenesFolderName)"
  }

  private static let scenesFolderName = "Scenes"

  private var scenesComponents: [String] {
    ["Saved Application State", "\(bundleIdentifier).savedState", Self.scenesFolderName]
  }

  /// The store of a session's folder.
  public func store(forSession identifier: String) throws(RestorationError) -> any ArchiveStore {
    try FileArchiveStore(
      stateRoot: stateRoot, bundleIdentifier: bundleIdentifier, sceneIdentifier: identifier)
  }

  /// Removes a session's items and its folder.
  public func removeSession(_ identifier: String) throws(RestorationError) {
    try ApplicationInfo.validate(sceneIdentifier: identifier)
    guard
      let scenes = try PrivateFolder.open(
        root: stateRoot, components: scenesComponents, creating: false)
    else { return }
    try scenes.removeFolder(identifier, holding: ArchiveStoreItem.allCases.map(\.rawValue))
  }

  /// The session folders on disk whose names are valid identifiers.
  public func sessionsWithItems() -> [String] {
    let scenes = try? PrivateFolder.open(
      root: stateRoot, components: scenesComponents, creating: false)
    return (scenes?.entries() ?? []).filter { name in
      (try? ApplicationInfo.validate(sceneIdentifier: name)) != nil && !name.hasSuffix(".tmp")
    }
  }
}
