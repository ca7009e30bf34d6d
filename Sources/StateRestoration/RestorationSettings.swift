/// Switches that change how the engine behaves (UIKit's `UIStateRestorationDeveloperMode` and
/// `UIStateRestorationDebugLogging` user defaults).
public struct RestorationSettings: Sendable, Hashable {
  /// Keep the archive in every case.
  ///
  /// After a force quit, after crashes during restoration, after a successful restore. Meant for developing and debugging restoration code.
  public var developerMode: Bool
  /// Log UIKit's restoration messages and per-phase timings at debug level.
  public var debugLogging: Bool
  /// Limits on archives read at launch.
  public var limits: ArchiveLimits

  /// The environment variable that turns developer mode on (`1`, `YES` or `true`).
  public static let developerModeVariable = "STATE_RESTORATION_DEVELOPER_MODE"
  /// The environment variable that turns debug logging on (`1`, `YES` or `true`).
  public static let debugLoggingVariable = "STATE_RESTORATION_DEBUG_LOGGING"

  /// Creates settings.
  public init(
    developerMode: Bool = false,
    debugLogging: Bool = false,
    limits: ArchiveLimits = .default
  ) {
    (self.developerMode, self.debugLogging, self.limits) = (developerMode, debugLogging, limits)
  }

  /// Settings with each switch turned on when given here or by its environment variable.
  ///
  /// - Parameters:
  ///   - developerMode: Turn developer mode on regardless of the environment.
  ///   - debugLogging: Turn debug logging on regardless of the environment.
  ///   - environment: Looks up a variable; by default the process environment.
  /// - Returns: The settings.
  public static func fromEnvironment(
    developerMode: Bool = false,
    debugLogging: Bool = false,
    environment: ((String) -> String?)? = nil
  ) -> RestorationSettings {
    let environment = environment ?? { Platform.environment($0) }
    func isOn(_ name: String) -> Bool {
      guard let value = environment(name)?.lowercased() else { return false }
      return ["1", "yes", "true", "on"].contains(value)
    }
    return RestorationSettings(
      developerMode: developerMode || isOn(developerModeVariable),
      debugLogging: debugLogging || isOn(debugLoggingVariable)
    )
  }
}
