internal import BinaryPropertyList
public import StateRestoration

/// What a scene was doing, kept with its session so that the scene can pick it up again
/// (UIKit's `NSUserActivity`, as a scene delegate's `stateRestorationActivity(for:)` returns
/// it).
///
/// The user info holds archive values only: property-list values without references, within
/// ``maxUserInfoSize`` bytes and the archive's nesting depth. A value that breaks a rule is
/// refused when it is set, where the mistake is, not later when the activity is saved.
///
/// ```swift
/// var activity = UserActivity(activityType: "com.example.notes.editing", title: "Groceries")
/// try activity.setValue(note.id.uuidString, forKey: "noteID")
/// ```
public struct UserActivity: Sendable, Hashable {
  /// The largest user info, encoded as a binary property list.
  public static let maxUserInfoSize = 64 * 1024

  /// What kind of activity it is, in reverse-DNS style.
  public var activityType: String
  /// A title for people, such as a window's name in the app switcher.
  public var title: String?
  /// The activity's values.
  public private(set) var userInfo: [String: StateValue] = [:]

  /// Creates an activity with an empty user info.
  public init(activityType: String, title: String? = nil) {
    self.activityType = activityType
    self.title = title
  }

  /// Replaces the user info.
  ///
  /// - Throws: `RestorationError` (code `encodingFailed`) when a value is a reference, or
  ///   `limitExceeded` when the values nest deeper than an archive may or take more than
  ///   ``maxUserInfoSize`` bytes; the user info is unchanged.
  public mutating func setUserInfo(_ userInfo: [String: StateValue]) throws(RestorationError) {
    try Self.check(userInfo)
    self.userInfo = userInfo
  }

  /// Adds entries to the user info, replacing those with the same keys.
  ///
  /// - Throws: `RestorationError` as ``setUserInfo(_:)`` does; the user info is unchanged.
  public mutating func addUserInfoEntries(from entries: [String: StateValue])
    throws(RestorationError)
  {
    try setUserInfo(userInfo.merging(entries) { $1 })
  }

  /// Sets one value of the user info.
  ///
  /// - Throws: `RestorationError` as ``setUserInfo(_:)`` does; the user info is unchanged.
  public mutating func setValue<T: StateValueConvertible>(
    _ value: T, forKey key: String
  ) throws(RestorationError) {
    try addUserInfoEntries(from: [key: value.stateValue])
  }

  /// A value of the user info, or nil when it is absent or of another type.
  public func value<T: StateValueConvertible>(_ type: T.Type, forKey key: String) -> T? {
    userInfo[key].flatMap(T.init(stateValue:))
  }

  /// Checks values by the rules of ``setUserInfo(_:)``.
  ///
  /// - Returns: Their size, encoded as a binary property list.
  @discardableResult
  static func check(_ userInfo: [String: StateValue]) throws(RestorationError) -> Int {
    let limits = ArchiveLimits.default
    // The bytes of text and data, counted before anything is encoded: values read from a file
    // can share one long string many times, and encoding them would cost as much each time.
    var content = 0
    func visit(_ value: StateValue, depth: Int) throws(RestorationError) {
      guard content <= 2 * maxUserInfoSize else {
        throw RestorationError(
          .limitExceeded, "user info holds more than \(2 * maxUserInfoSize) bytes")
      }
      guard depth < limits.maxDepth else {
        throw RestorationError(
          .limitExceeded, "user info nests deeper than \(limits.maxDepth) levels")
      }
      switch value {
      case .reference:
        throw RestorationError(
          .encodingFailed, "user info cannot hold a reference to a restorable object")
      case .array(let elements):
        for element in elements { try visit(element, depth: depth + 1) }
      case .dictionary(let entries):
        for (key, element) in entries {
          content += key.utf8.count
          try visit(element, depth: depth + 1)
        }
      case .string(let string): content += string.utf8.count
      case .data(let data): content += data.count
      default: content += 8
      }
    }
    for (key, value) in userInfo {
      do throws(RestorationError) {
        try visit(value, depth: 1)
      } catch {
        var located = error
        located.key = key
        throw located
      }
    }
    let size = try PropertyList.write(.dictionary(userInfo)).count
    guard size <= maxUserInfoSize else {
      throw RestorationError(
        .limitExceeded, "user info takes \(size) bytes, above the limit of \(maxUserInfoSize)")
    }
    return size
  }
}

extension UserActivity {
  /// The first bytes of an activity file.
  package static let magic = Array("SRACTV01".utf8)
  private static let typeKey = "activityType"
  private static let titleKey = "title"
  private static let userInfoKey = "userInfo"

  /// The bytes of the file that keeps the activity.
  func encoded() throws(RestorationError) -> [UInt8] {
    var fields: [String: StateValue] = [
      Self.typeKey: .string(activityType), Self.userInfoKey: .dictionary(userInfo),
    ]
    if let title { fields[Self.titleKey] = .string(title) }
    return CheckedFile.encoded(try PropertyList.write(.dictionary(fields)), magic: Self.magic)
  }

  /// The activity a file keeps, checked whole and by the rules of ``setUserInfo(_:)``.
  ///
  /// - Throws: `RestorationError` when the file is not a whole activity.
  package init(decoding bytes: [UInt8]) throws(RestorationError) {
    let value = try CheckedFile.propertyList(of: bytes, magic: Self.magic, what: "scene activity")
    guard case .dictionary(let fields) = value,
      case .string(let type) = fields[Self.typeKey],
      case .dictionary(let userInfo) = fields[Self.userInfoKey]
    else {
      throw RestorationError(.malformed, "the scene activity lacks its type or its user info")
    }
    var title: String?
    if let field = fields[Self.titleKey] {
      guard case .string(let value) = field else {
        throw RestorationError(.malformed, "the scene activity's title is not a string")
      }
      title = value
    }
    self.init(activityType: type, title: title)
    try setUserInfo(userInfo)
  }
}
