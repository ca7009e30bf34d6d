internal import Foundation

/// What an app's `Info.plist` says about scenes and user activities: the activity types it
/// declares, its scene manifest, and whether it belongs to an app extension.
public struct InfoPlist: Sendable, Hashable {
  /// The file, as the run names it.
  public var file: String
  /// `NSUserActivityTypes`: the strings of the array, as written (build settings unexpanded);
  /// nil when the key is missing.
  public var activityTypes: [String]?
  /// The line of the `NSUserActivityTypes` key, in an XML property list.
  public var activityTypesLine: Int?
  /// `UIApplicationSceneManifest`, nil without one.
  public var sceneManifest: SceneManifest?
  /// Whether it describes an app extension (`NSExtension` or `EXAppExtensionAttributes`).
  public var isExtension: Bool
  /// `CFBundleIdentifier`, as written.
  public var bundleIdentifier: String?

  /// The scene manifest: the configurations of each session role.
  public struct SceneManifest: Sendable, Hashable {
    /// The configurations under each role's key (`UIWindowSceneSessionRoleApplication`...).
    public var configurations: [String: [SceneConfiguration]]
    /// The line of `UIApplicationSceneManifest`, in an XML property list.
    public var line: Int?
  }

  /// One scene configuration of the manifest.
  public struct SceneConfiguration: Sendable, Hashable {
    /// `UISceneConfigurationName`.
    public var name: String?
    /// `UISceneDelegateClassName`, as written.
    public var delegateClassName: String?
    /// `UISceneClassName`.
    public var sceneClassName: String?
    /// The line of the delegate class name, in an XML property list.
    public var delegateClassLine: Int?
  }

  /// Reads an `Info.plist`'s bytes.
  ///
  /// Nil when the bytes are not a property list with a dictionary at its root.
  ///
  /// - Parameters:
  ///   - bytes: The bytes: an XML or binary property list.
  ///   - file: The name findings give the file.
  public init?(bytes: [UInt8], file: String) {
    guard
      let root = try? PropertyListSerialization.propertyList(
        from: Data(bytes), options: [], format: nil) as? [String: Any]
    else { return nil }
    self.file = file
    let lines = XMLLines(bytes)
    if let types = root["NSUserActivityTypes"] {
      activityTypes = (types as? [Any])?.compactMap { $0 as? String } ?? []
      activityTypesLine = lines.line(ofKey: "NSUserActivityTypes")
    }
    if let manifest = root["UIApplicationSceneManifest"] as? [String: Any] {
      var configurations: [String: [SceneConfiguration]] = [:]
      for (role, entries) in manifest["UISceneConfigurations"] as? [String: Any] ?? [:] {
        configurations[role] = (entries as? [Any] ?? []).compactMap { entry in
          guard let entry = entry as? [String: Any] else { return nil }
          let delegate = entry["UISceneDelegateClassName"] as? String
          return SceneConfiguration(
            name: entry["UISceneConfigurationName"] as? String, delegateClassName: delegate,
            sceneClassName: entry["UISceneClassName"] as? String,
            delegateClassLine: delegate.flatMap { lines.line(ofString: $0) })
        }
      }
      sceneManifest = SceneManifest(
        configurations: configurations, line: lines.line(ofKey: "UIApplicationSceneManifest"))
    }
    isExtension = root["NSExtension"] != nil || root["EXAppExtensionAttributes"] != nil
    bundleIdentifier = root["CFBundleIdentifier"] as? String
  }
}

/// Lines of an XML property list's elements, found by their text (the parser gives none).
private struct XMLLines {
  let bytes: [UInt8]

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  func line(ofKey key: String) -> Int? { line(of: "<key>\(Self.escaped(key))</key>") }

  func line(ofString value: String) -> Int? { line(of: "<string>\(Self.escaped(value))</string>") }

  private func line(of text: String) -> Int? {
    let needle = Array(text.utf8)
    guard let first = needle.first, bytes.count >= needle.count else { return nil }
    var line = 1
    var index = 0
    while index + needle.count <= bytes.count {
      if bytes[index] == 0x0A { line += 1 }
      if bytes[index] == first, bytes[index..<(index + needle.count)].elementsEqual(needle) {
        return line
      }
      index += 1
    }
    return nil
  }

  private static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }
}
