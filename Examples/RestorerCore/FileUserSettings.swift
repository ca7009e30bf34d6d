import StateRestoration
import StateRestorationStorage

/// The user's settings in a property list file, like iOS's `Preferences/<bundle id>.plist`:
/// app data, kept apart from the restoration archive, surviving force quits and crashes.
///
/// The file is private as the archive is: its folder `0700`, the file `0600`, neither read
/// nor written through a symbolic link, and a file above ``maxFileSize`` is not read.
public final class FileUserSettings: UserSettings {
  static let amazingKey = "kUYLSettingsAmazingKey"
  /// The largest settings file read, in bytes.
  public static let maxFileSize = 64 << 10

  /// The file.
  public let path: String
  private var values: [String: StateValue]

  /// Opens the settings file; a missing, unreadable or oversized file gives the defaults.
  ///
  /// - Parameter path: The file, in a folder of its own (such as `Preferences`).
  public init(path: String) {
    self.path = path
    values = [:]
    let (root, folder, name) = Self.split(path)
    guard let folder = try? PrivateFolder.open(root: root, components: [folder], creating: false),
      let bytes = try? folder.read(name, maxSize: Self.maxFileSize),
      case .dictionary(let stored) = try? PropertyList.read(
        bytes, limits: ArchiveLimits(maxFileSize: Self.maxFileSize))
    else { return }
    values = stored
  }

  /// The "Amazing" switch; on by default, as the seed app registers it.
  public var isAmazing: Bool {
    get { values[Self.amazingKey].flatMap(Bool.init(stateValue:)) ?? true }
    set {
      values[Self.amazingKey] = .bool(newValue)
      save()
    }
  }

  /// Writes the file atomically; a failure keeps the value for this session only.
  private func save() {
    let (root, folder, name) = Self.split(path)
    guard let bytes = try? PropertyList.write(.dictionary(values)),
      let folder = try? PrivateFolder.open(root: root, components: [folder], creating: true)
    else { return }
    try? folder.write(bytes, to: name)
  }

  /// The folder that holds the file's folder, the file's folder's name and the file's name.
  private static func split(_ path: String) -> (root: String, folder: String, name: String) {
    var parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    let name = parts.popLast() ?? path
    let folder = parts.popLast() ?? "."
    let root = parts.isEmpty ? "." : parts == [""] ? "/" : parts.joined(separator: "/")
    return (root, folder, name)
  }
}
