/// A string as code gives it: known, built at run time, or named.
enum StringValue: Sendable, Hashable {
  /// A string literal without interpolation (or literals joined with `+`).
  case literal(String)
  /// A constant (`static let`, a global, an enum case's raw value), by name and, when written
  /// `Type.name`, its type; resolved through the module's constants.
  case constant(String, qualifier: String?)
  /// Built at run time (`Bundle.main.bundleIdentifier! + ".detail"`, an interpolation): the
  /// text, to quote it.
  case runtime(String)
  /// One of the system's activity types (`NSUserActivityTypeBrowsingWeb`), or an intent's
  /// class name.
  case system
  /// Read from the `Info.plist`'s `NSUserActivityTypes`: declared by construction.
  case fromInfoPlist
}

/// A read of `NSUserActivityTypes` that crashes when the key is missing or short.
struct ActivityTypesRead: Sendable, Hashable {
  enum Kind: Sendable, Hashable {
    /// `as!` or `!` on the value read.
    case forced
    /// A fixed entry, `[0]`: the index.
    case positional(Int)
    /// `fatalError` (or `preconditionFailure`) when it is missing.
    case fatal
  }

  var kind: Kind
  var line: Int
  var owner: String?
}

/// Where code uses an activity type.
struct ActivityTypeUse: Sendable, Hashable {
  enum Purpose: Sendable, Hashable {
    /// `NSUserActivity(activityType:)`.
    case created
    /// SwiftUI's `.userActivity(_:)`, which advertises it.
    case advertised
    /// SwiftUI's `.onContinueUserActivity(_:)`.
    case continued
    /// Compared with an activity's `activityType`.
    case compared
  }

  var value: StringValue
  var purpose: Purpose
  var line: Int
  var owner: String?
}

/// A scene session role as code gives it.
enum SessionRole: Sendable, Hashable {
  /// A named role: `windowApplication`, `carTemplateApplication`...
  case named(String)
  /// The connecting session's own role (`connectingSceneSession.role`).
  case sessionRole
  /// Anything else.
  case unknown
}

/// A `UISceneConfiguration(name:sessionRole:)`.
struct SceneConfigurationUse: Sendable, Hashable {
  /// The name; nil for `name: nil`.
  var name: StringValue?
  var role: SessionRole
  /// The roles that `if`, `guard` and `switch` statements around it compare a session's role
  /// with.
  var guardedRoles: Set<String>
  /// Whether the function sets `delegateClass` on it.
  var setsDelegateClass: Bool
  /// Whether it is made in `application(_:configurationForConnecting:options:)`.
  var inConfigurationForConnecting: Bool
  /// The local variable it is bound to.
  var variable: String?
  var line: Int
  var owner: String?
}

/// A `@SceneStorage` property.
struct SceneStorageUse: Sendable, Hashable {
  var key: StringValue
  /// The value type, without optionals; nil when the declaration does not say.
  var type: String?
  var line: Int
  var owner: String?
}

/// `name.codable!`, for the rules to learn whether `name` is a `NavigationPath`.
struct ForcedCodable: Sendable, Hashable {
  var name: String
  /// The type of a local variable of that name, when known.
  var localType: String?
  var line: Int
  var owner: String?
}

/// A value reached from a named root.
///
/// The root itself is level 0, its `userInfo` 1, a value read from that 2. Whether the root is
/// a restored activity is known only once calls are followed from the scene delegate's methods.
struct ValueReference: Sendable, Hashable {
  /// A local name, a parameter, or ``restored`` for `session.stateRestorationActivity` and
  /// `connectionOptions.userActivities`, which are restored wherever they are read.
  var root: String
  var level: Int
  /// Whether the value is cast to `Int` (an index).
  var isIndex = false

  static let restored = "(restored)"
  static let restoredList = "(restored list)"
}

/// What code does with a value that may be a restored activity.
struct TrustEvent: Sendable, Hashable {
  enum Kind: Sendable, Hashable {
    /// `!` on it.
    case forceUnwrap
    /// `as!` on it, to a type.
    case forceCast(String)
    /// Used as a subscript's index; the variable's name, when it is one.
    case index(String?)
    /// `fatalError` or `preconditionFailure` for an `activityType` it does not know.
    case fatalOnType(String)
  }

  var kind: Kind
  var value: ValueReference
  var line: Int
}

/// What one function does with activities; kept only for files that mention them.
struct ActivityFlow: Sendable {
  /// Local names bound to a value reached from a root.
  var aliases: [String: ValueReference] = [:]
  var events: [TrustEvent] = []
  /// Names compared with a collection's count or indices in a condition.
  var boundsChecked: Set<String> = []
  /// For each call, by its position in the function's calls, the values its arguments reach.
  var arguments: [Int: [ValueReference?]] = [:]
  /// For each object created (`Type(...)`), by its position in the function's constructions,
  /// the values its arguments reach: they are followed into the initializer.
  var constructionArguments: [Int: [ValueReference?]] = [:]
  /// `x.becomeCurrent()`: the receiver's name, and the line.
  var madeCurrent: [(name: String, line: Int)] = []
  /// The names returned, and the calls whose result is returned (positions in the calls).
  var returnedNames: Set<String> = []
  var returnedCalls: [Int] = []
  /// The parameters of a closure given to `onContinueUserActivity`: continued activities.
  var continuedActivities: Set<String> = []
  /// The variables `delegateClass` is set on.
  var delegateClassTargets: Set<String> = []
  /// Local names bound to what was read from `NSUserActivityTypes`.
  var activityTypesNames: Set<String> = []
  /// The scene configurations made here, by position in the file's.
  var configurationUses: [Int] = []
}

/// What a file says about scenes, user activities and SwiftUI's scene restoration.
struct SceneFileFacts: Sendable {
  var activityTypesReads: [ActivityTypesRead] = []
  var activityTypeUses: [ActivityTypeUse] = []
  var configurations: [SceneConfigurationUse] = []
  /// Whether the file sets a scene configuration's `delegateClass`.
  var setsDelegateClass = false
  /// Lines that read `stateRestorationActivity` or `userActivities`.
  var restorationReads: [Int] = []
  var sceneStorage: [SceneStorageUse] = []
  var forcedCodables: [ForcedCodable] = []
  /// Functions given to `onContinueUserActivity(_:perform:)` by name.
  var continuedHandlers: Set<String> = []
}
