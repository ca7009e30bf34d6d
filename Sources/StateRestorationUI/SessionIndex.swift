internal import BinaryPropertyList
package import StateRestoration

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The index of an app's scene sessions, the file `sessions.data` beside the app's items.
///
/// It is read as hostile input, and what it lists keeps its folder: an entry whose identifier
/// cannot name a folder or repeats an earlier one is left out, and an entry whose other fields
/// this version cannot read (another version may have written it) is kept as written, with its
/// folder, though the app does not open it. An app opens at most ``maxSessions`` of the
/// sessions listed; the others wait, listed, until there is room.
package enum SessionIndex {
  /// The largest index file read, in bytes.
  static let maxFileSize = 4 << 20
  /// The most sessions an app has open at once.
  static let maxSessions = 256

  /// The first bytes of an index file.
  package static let magic = Array("SRSESS01".utf8)
  private enum Field {
    static let sessions = "sessions"
    static let identifier = "identifier"
    static let role = "role"
    static let configuration = "configuration"
    static let title = "title"
    static let lastUsed = "lastUsed"
    static let userInfo = "userInfo"
  }

  /// What an index file lists.
  package struct Contents {
    /// The sessions, in the file's order.
    var sessions: [SceneSession] = []
    /// The entries kept as written, with their identifiers, in the file's order.
    var unread: [(identifier: String, entry: StateValue)] = []
    /// Why entries were left out or kept unread.
    var notes = WarningSummary()

    /// The identifier of every entry kept.
    var identifiers: [String] { sessions.map(\.persistentIdentifier) + unread.map(\.identifier) }
  }

  /// The bytes of an index of `sessions`, followed by the entries `unread`, as they were read.
  static func encoded(
    _ sessions: [SceneSession], unread: [StateValue] = []
  ) throws(RestorationError) -> [UInt8] {
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
    let body = try PropertyList.write(.dictionary([Field.sessions: .array(entries + unread)]))
    return CheckedFile.encoded(body, magic: magic)
  }

  /// What an index file lists.
  ///
  /// - Throws: `RestorationError` when the file is not a whole index.
  package static func decoded(_ bytes: [UInt8]) throws(RestorationError) -> Contents {
    let value = try CheckedFile.propertyList(
      of: bytes, magic: magic, what: "index of scene sessions")
    guard case .dictionary(let top) = value, case .array(let entries) = top[Field.sessions]
    else {
      throw RestorationError(.malformed, "the index of scene sessions lacks its list")
    }
    var contents = Contents()
    var seen: Set<ExactString> = []
    for (position, entry) in entries.enumerated() {
      guard case .dictionary(let fields) = entry,
        case .string(let identifier) = fields[Field.identifier],
        (try? ApplicationInfo.validate(sceneIdentifier: identifier)) != nil
      else {
        contents.notes.note("left out: no valid identifier", at: position)
        continue
      }
      guard seen.insert(ExactString(identifier)).inserted else {
        contents.notes.note("left out: an identifier listed before", at: position)
        continue
      }
      guard case .string(let role) = fields[Field.role],
        case .date(let lastUsed) = fields[Field.lastUsed]
      else {
        contents.unread.append((identifier, entry))
        contents.notes.note("kept unread: a role or date of another type", at: position)
        continue
      }
      var userInfo: [String: StateValue]?
      if case .dictionary(let values) = fields[Field.userInfo],
        (try? UserActivity.check(values)) != nil
      {
        userInfo = values
      }
      contents.sessions.append(
        SceneSession(
          persistentIdentifier: identifier, role: SceneSession.Role(rawValue: role),
          configurationName: string(fields[Field.configuration]), lastUsed: lastUsed,
          title: string(fields[Field.title]), userInfo: userInfo))
    }
    return contents
  }

  private static func string(_ value: StateValue?) -> String? {
    guard case .string(let string) = value else { return nil }
    return string
  }
}

/// Warnings counted by kind instead of repeated: a hostile file can hold the same fault a
/// hundred thousand times, and the log says each kind once, with the first places it occurs.
struct WarningSummary {
  private var kinds: [(what: String, count: Int, first: [Int])] = []

  /// Whether nothing was noted.
  var isEmpty: Bool { kinds.isEmpty }

  /// Counts one warning of a kind, at a position (such as an entry's number).
  mutating func note(_ what: String, at position: Int) {
    guard let index = kinds.firstIndex(where: { $0.what == what }) else {
      kinds.append((what, 1, [position]))
      return
    }
    kinds[index].count += 1
    if kinds[index].first.count < 3 { kinds[index].first.append(position) }
  }

  /// One line for each kind: `<count> entries <what> (entries 1, 2, 5, …)`.
  var lines: [String] {
    kinds.map { kind in
      let places = kind.first.map(String.init).joined(separator: ", ")
      return "\(kind.count) \(kind.count == 1 ? "entry" : "entries") \(kind.what) "
        + "(\(kind.first.count == 1 ? "entry" : "entries") \(places)\(kind.count > 3 ? ", …" : ""))"
    }
  }
}
