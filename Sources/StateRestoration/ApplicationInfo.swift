/// What the engine records about the app in every archive's top level.
public struct ApplicationInfo: Sendable, Hashable {
  /// The app's bundle identifier; it names the archive's folder.
  public var bundleIdentifier: String
  /// The app's version, so the delegate can refuse archives saved by another version.
  public var bundleVersion: String
  /// The system version at save time.
  public var systemVersion: String
  /// The interface idiom, such as `phone`, `pad` or `terminal`.
  public var userInterfaceIdiom: String

  /// Creates app information.
  public init(
    bundleIdentifier: String,
    bundleVersion: String = "1",
    systemVersion: String = ApplicationInfo.currentSystemVersion,
    userInterfaceIdiom: String = "unspecified"
  ) {
    (self.bundleIdentifier, self.bundleVersion) = (bundleIdentifier, bundleVersion)
    (self.systemVersion, self.userInterfaceIdiom) = (systemVersion, userInterfaceIdiom)
  }

  /// The running system's name and release, such as `Linux 6.1.0`.
  public static var currentSystemVersion: String { Platform.systemVersion }

  /// Checks that a bundle identifier can name a folder.
  ///
  /// - Throws: ``RestorationError`` (``RestorationError/Code/invalidIdentifier``) when it is
  ///   empty, `.` or `..`, longer than 255 bytes, or contains `/`, a backslash, a control
  ///   character or a bidirectional control (such as U+202E), which would reorder a terminal line.
  public static func validate(bundleIdentifier: String) throws(RestorationError) {
    try validate(bundleIdentifier, as: "bundle identifier")
  }

  /// Checks that a scene identifier can name a folder, by the rules of
  /// ``validate(bundleIdentifier:)``.
  ///
  /// - Throws: ``RestorationError`` (``RestorationError/Code/invalidIdentifier``) when it breaks
  ///   one.
  public static func validate(sceneIdentifier: String) throws(RestorationError) {
    try validate(sceneIdentifier, as: "scene identifier")
  }

  private static func validate(_ identifier: String, as role: String) throws(RestorationError) {
    func reject(_ reason: String) -> RestorationError {
      let shown = String(reflecting: identifier).unicodeScalars.map {
        $0.properties.isBidiControl ? "\\u{\(String($0.value, radix: 16))}" : String($0)
      }
      return RestorationError(.invalidIdentifier, "\(role) \(shown.joined()) \(reason)")
    }
    if identifier.isEmpty { throw reject("is empty") }
    if identifier == "." || identifier == ".." { throw reject("is a relative folder") }
    if identifier.utf8.count > 255 { throw reject("is longer than 255 bytes") }
    for scalar in identifier.unicodeScalars {
      if scalar == "/" || scalar == "\\" { throw reject("contains a path separator") }
      if scalar.properties.generalCategory == .control || scalar.properties.isBidiControl {
        throw reject("contains a control character")
      }
    }
  }
}
