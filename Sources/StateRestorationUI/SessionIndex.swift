internal import StateRestoration

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The index of an app's scene sessions, the file `sessions.data` beside the app's items.
///
/// It is read as hostile input: a session whose identifier cannot name a folder, repeats an
/// earlier one, or whose fields have the wrong types is left out, and at most ``maxSessions``
/// are read.
enum SessionIndex {
  /// The largest index file read, in bytes.
  static let maxFileSize = 4 << 20
  /// The most sessions read from an index, and so the most an app may have.
  static let maxSessions = 256

  private static let magic = Array("SRSESS01".utf8)
  private enum Field {
    static let sessions = "sessions"
    static let identifier = "identifier"
    static let role = "role"
    static let configuration = "configuration"
    static let title = "title"
    static let lastUsed = "lastUsed"
    static let userInfo = "userInfo"
  }

  /// The bytes of the index of `sessions`.
  static func encoded(_ sessions: [SceneSession]) throws(RestorationError) -> [UInt8] {
    let entries = sessions.map { session -> StateValue in
      var fields: [String: StateValue] = [
        Field.identifier: .string(session.persistentIdentifier),
        Field.role: .string(session.role.rawValue),
        Field.lastUsed: .date(session.lastUsed),
      ]
      if let name = session.configurationName { fields[Field.configuration] = .string(name) }
      if let title = session.title { fields[Field.title] = .string(title) }
      if let userInfo = session.userInfo { fields[Field.userInfo] = .dictionary(userInfo) }
      return .dictionary(fields)
    }
    let body = try PropertyList.write(.dictionary([Field.sessions: .array(entries)]))
    return CheckedFile.encoded(body, magic: magic)
  }

  /// The sessions of an index file, and a note for each one left out.
  static func decoded(
    _ bytes: [UInt8]
  ) throws(RestorationError) -> (sessions: [SceneSession], skipped: [String]) {
    let body = try CheckedFile.body(of: bytes, magic: magic, what: "index of scene sessions")
    guard case .dictionary(let top) = try PropertyList.read(Array(body)),
      case .array(let entries) = top[Field.sessions]
    else {
      throw RestorationError(.malformed, "the index of scene sessions lacks its list")
    }
    var sessions: [SceneSession] = []
    var skipped: [String] = []
    var seen: Set<String> = []
    for (position, entry) in entries.enumerated() {
      guard sessions.count < maxSessions else {
        skipped.append("sessions after the first \(maxSessions) were not read")
        break
      }
      guard case .dictionary(let fields) = entry,
        case .string(let identifier) = fields[Field.identifier],
        case .string(let role) = fields[Field.role],
        case .date(let lastUsed) = fields[Field.lastUsed]
      else {
        skipped.append("session \(position) lacks its identifier, role or date")
        continue
      }
      guard (try? ApplicationInfo.validate(sceneIdentifier: identifier)) != nil,
        seen.insert(identifier).inserted
      else {
        skipped.append("session \(position) has an invalid or repeated identifier")
        continue
      }
      var userInfo: [String: StateValue]?
      if case .dictionary(let values) = fields[Field.userInfo],
        (try? UserActivity.check(values)) != nil
      {
        userInfo = values
      }
      sessions.append(
        SceneSession(
          persistentIdentifier: identifier, role: SceneSession.Role(rawValue: role),
          configurationName: string(fields[Field.configuration]), lastUsed: lastUsed,
          title: string(fields[Field.title]), userInfo: userInfo))
    }
    return (sessions, skipped)
  }

  private static func string(_ value: StateValue?) -> String? {
    guard case .string(let string) = value else { return nil }
    return string
  }
}
