public import StateRestoration

/// A store that keeps its items on disk, where UIKit keeps them:
/// `<state root>/Saved Application State/<bundle id>.savedState/data.data`, or, for one scene
/// of an app with several, `…/<bundle id>.savedState/Scenes/<scene id>/data.data`.
///
/// The state is the user's alone, and nothing in its folders can lead elsewhere:
///
/// - The folders below the state root are created `0700`; an existing one open to other users
///   is made `0700`. A folder that is a symbolic link, or belongs to another user, is refused:
///   every call fails with `RestorationError.Code.unsafeStorage` naming it, and nothing is
///   read, written or removed through it.
/// - Files are written `0600` and opened without following links; a link or another user's
///   file in place of an item is refused the same way.
/// - Every write goes to a temporary file in the same folder, is flushed, renamed into place
///   and the folder flushed: a process killed at any instant leaves the old item or the new
///   one, whole, and two processes writing at once leave one of the two, whole. The temporary
///   files of writers killed mid-write are removed at the next write or removal.
/// - A removed item is gone from the disk: no copy of it is kept under another name.
public final class FileArchiveStore: ArchiveStore {
  /// The folder holding the items.
  public let folder: String
  private let stateRoot: String
  /// The folders from the state root down to ``folder``.
  private let components: [String]

  /// Creates a store for an app.
  ///
  /// - Parameters:
  ///   - stateRoot: The folder that holds `Saved Application State`.
  ///   - bundleIdentifier: The app's bundle identifier; it names a folder, so it must not
  ///     contain `/`, be `.` or `..`, or hold control characters.
  ///   - sceneIdentifier: A scene's identifier, for an app that saves each scene on its own;
  ///     it names a folder too, by the same rules. Nil for the app's one archive.
  /// - Throws: `RestorationError` (`.invalidIdentifier`) for an
  ///   identifier that cannot name a folder; nothing is created.
  public init(
    stateRoot: String,
    bundleIdentifier: String,
    sceneIdentifier: String? = nil
  ) throws(RestorationError) {
    try ApplicationInfo.validate(bundleIdentifier: bundleIdentifier)
    if let sceneIdentifier { try ApplicationInfo.validate(sceneIdentifier: sceneIdentifier) }
    let root =
      stateRoot.count > 1 && stateRoot.hasSuffix("/") ? String(stateRoot.dropLast()) : stateRoot
    self.stateRoot = root
    var components = ["Saved Application State", "\(bundleIdentifier).savedState"]
    if let sceneIdentifier { components += ["Scenes", sceneIdentifier] }
    self.components = components
    folder = ([root] + components).joined(separator: "/")
  }

  /// The folder path.
  public var location: String { folder }

  /// The file path of an item.
  public func path(of item: ArchiveStoreItem) -> String { "\(folder)/\(item.rawValue)" }

  /// Reads an item from disk.
  public func read(_ item: ArchiveStoreItem, maxSize: Int) throws(RestorationError) -> [UInt8]? {
    guard let folder = try openFolder(creating: false) else { return nil }
    return try folder.read(item.rawValue, maxSize: maxSize)
  }

  /// Replaces an item on disk, atomically and durably.
  public func write(_ bytes: [UInt8], to item: ArchiveStoreItem) throws(RestorationError) {
    guard let folder = try openFolder(creating: true) else {
      throw RestorationError(.storageFailed, "the folder could not be created", file: self.folder)
    }
    try folder.write(bytes, to: item.rawValue)
  }

  /// Removes an item from disk.
  public func remove(_ item: ArchiveStoreItem) throws(RestorationError) {
    try remove([item])
  }

  /// Removes items from disk, with any temporary file a killed writer left, flushing the folder
  /// once for all of them.
  public func remove(_ items: [ArchiveStoreItem]) throws(RestorationError) {
    guard let folder = try openFolder(creating: false) else { return }
    try folder.remove(items.map(\.rawValue))
  }

  private func openFolder(creating: Bool) throws(RestorationError) -> PrivateFolder? {
    try PrivateFolder.open(root: stateRoot, components: components, creating: creating)
  }
}

extension FileArchiveStore {
  /// The state root to use when none is given, so that an app and the tools that read its
  /// archive agree on it: `$XDG_STATE_HOME/swift-state-restoration`, else
  /// `$HOME/.local/state/swift-state-restoration`.
  ///
  /// As the XDG base directory specification asks, a variable that does not hold an absolute
  /// path is ignored; without a usable `HOME`, the user database's home folder is used.
  ///
  /// - Parameter environment: Looks up a variable; by default the process environment.
  /// - Returns: The folder, or nil when no home folder is known.
  public static func defaultStateRoot(environment: ((String) -> String?)? = nil) -> String? {
    let environment = environment ?? { Platform.environment($0) }
    // An absolute path without its trailing slashes ("" for the root folder).
    func folder(_ path: String?) -> String? {
      guard var trimmed = path.map({ Substring($0) }), trimmed.hasPrefix("/") else { return nil }
      while trimmed.last == "/" { trimmed = trimmed.dropLast() }
      return String(trimmed)
    }
    if let state = folder(environment("XDG_STATE_HOME")) {
      return "\(state)/swift-state-restoration"
    }
    // $HOME first, as shells and the specification do; the user database ignores a HOME set
    // for a test or a sandbox.
    guard let home = folder(environment("HOME")) ?? folder(Platform.homeFromUserDatabase) else {
      return nil
    }
    return "\(home)/.local/state/swift-state-restoration"
  }
}
