import Foundation
import StateRestoration

/// The user's settings in a property list file, like iOS's `Preferences/<bundle id>.plist`:
/// app data, kept apart from the restoration archive, surviving force quits and crashes.
public final class FileUserSettings: UserSettings {
  static let amazingKey = "kUYLSettingsAmazingKey"

  /// The file.
  public let path: String
  private var values: [String: StateValue]

  /// Opens the settings file; a missing or unreadable file gives the defaults.
  ///
  /// - Parameter path: The file.
  public init(path: String) {
    self.path = path
    let bytes = FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    if let bytes, case .dictionary(let stored) = try? PropertyList.read(bytes) {
      values = stored
    } else {
      values = [:]
    }
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
    guard let bytes = try? PropertyList.write(.dictionary(values)) else { return }
    let url = URL(fileURLWithPath: path)
    try? FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(),
      withIntermediateDirectories: true
    )
    try? Data(bytes).write(to: url, options: .atomic)
  }
}
