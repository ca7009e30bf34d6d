public import StateRestoration

/// The differences between two archives: top-level keys, objects added and removed, and for
/// each object in both, the fields and keys that differ.
///
/// Objects are matched by identifier path (the n-th record of a path with the n-th record of the
/// same path, should an archive repeat one). The order of the records is not compared.
public struct ArchiveDiff: Sendable, Hashable {
  /// What a key holds in one archive.
  public enum Entry: Sendable, Hashable {
    /// An archived value.
    case value(StateValue)
    /// A key marked sensitive: named, its value never written.
    case sensitive
  }

  /// A key whose entry differs; nil on one side means the key is absent there.
  public struct KeyChange: Sendable, Hashable {
    /// The key.
    public var key: String
    /// The entry in the old archive.
    public var old: Entry?
    /// The entry in the new archive.
    public var new: Entry?

    /// Creates a change.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - old: The old entry, nil if absent.
    ///   - new: The new entry, nil if absent.
    public init(key: String, old: Entry?, new: Entry?) {
      self.key = key
      self.old = old
      self.new = new
    }
  }

  /// A record field (class, kind, restoration class, storyboard) that differs.
  public struct FieldChange: Sendable, Hashable {
    /// The field's name, as shown: `class`, `kind`, `restoration class`, `storyboard`.
    public var field: String
    /// The old value, or nil when absent.
    public var old: String?
    /// The new value, or nil when absent.
    public var new: String?

    /// Creates a change.
    ///
    /// - Parameters:
    ///   - field: The field's name.
    ///   - old: The old value, nil if absent.
    ///   - new: The new value, nil if absent.
    public init(field: String, old: String?, new: String?) {
      self.field = field
      self.old = old
      self.new = new
    }
  }

  /// An object present in both archives whose record differs.
  public struct ObjectChange: Sendable, Hashable {
    /// The object's record in the old archive.
    public var old: RestorationArchive.Record
    /// The object's record in the new archive.
    public var new: RestorationArchive.Record
    /// The fields that differ.
    public var fields: [FieldChange]
    /// The keys that differ, sorted.
    public var keys: [KeyChange]
  }

  /// The top-level keys that differ: the engine's first, then the app's, sorted.
  public var topLevel: [KeyChange]
  /// Objects only in the old archive, in its order.
  public var removed: [RestorationArchive.Record]
  /// Objects only in the new archive, in its order.
  public var added: [RestorationArchive.Record]
  /// Objects in both that differ, in the old archive's order.
  public var changed: [ObjectChange]

  /// Whether the archives have no differences.
  public var isEmpty: Bool {
    topLevel.isEmpty && removed.isEmpty && added.isEmpty && changed.isEmpty
  }

  /// Compares two archives.
  ///
  /// - Parameters:
  ///   - old: The archive before.
  ///   - new: The archive after.
  ///   - ignoredKeys: Keys left out of the comparison, at the top level and in every object,
  ///     such as `UIApplicationStateRestorationTimestamp`, which differs in every save.
  /// - Complexity: O(n) in the sizes of the archives.
  public init(
    from old: RestorationArchive,
    to new: RestorationArchive,
    ignoring ignoredKeys: Set<String> = []
  ) {
    topLevel = Self.keyChanges(
      old: Self.entries(old.fileTopLevel, sensitive: []),
      new: Self.entries(new.fileTopLevel, sensitive: []),
      ignoring: ignoredKeys,
      order: KeyOrdering.topLevel
    )

    // The n-th record of a path in one archive pairs with the n-th of the same path in the
    // other.
    var newIndices: [String: [Int]] = [:]
    for (index, record) in new.records.enumerated() {
      newIndices[record.identifierPath, default: []].append(index)
    }
    var matched = Array(repeating: false, count: new.records.count)
    var seen: [String: Int] = [:]
    removed = []
    changed = []
    for record in old.records {
      let occurrence = seen[record.identifierPath, default: 0]
      seen[record.identifierPath] = occurrence + 1
      guard let candidates = newIndices[record.identifierPath], occurrence < candidates.count
      else {
        removed.append(record)
        continue
      }
      let counterpart = new.records[candidates[occurrence]]
      matched[candidates[occurrence]] = true
      let change = ObjectChange(
        old: record,
        new: counterpart,
        fields: Self.fieldChanges(record, counterpart),
        keys: Self.keyChanges(
          old: Self.entries(record.state, sensitive: record.sensitiveKeys),
          new: Self.entries(counterpart.state, sensitive: counterpart.sensitiveKeys),
          ignoring: ignoredKeys,
          order: KeyOrdering.sorted
        )
      )
      if !change.fields.isEmpty || !change.keys.isEmpty { changed.append(change) }
    }
    added = zip(new.records, matched).filter { !$0.1 }.map(\.0)
  }

  private static func entries(_ values: KeyedValues, sensitive: [String]) -> [String: Entry] {
    var entries: [String: Entry] = [:]
    for (key, value) in values { entries[key] = .value(value) }
    // As in the dump, the sensitive mark wins over any value stored under the same key.
    for key in sensitive { entries[key] = .sensitive }
    return entries
  }

  private static func keyChanges(
    old: [String: Entry],
    new: [String: Entry],
    ignoring ignoredKeys: Set<String>,
    order: (Set<String>) -> [String]
  ) -> [KeyChange] {
    let keys = Set(old.keys).union(new.keys).subtracting(ignoredKeys)
    return order(keys).compactMap { key in
      old[key] == new[key] ? nil : KeyChange(key: key, old: old[key], new: new[key])
    }
  }

  private static func fieldChanges(
    _ old: RestorationArchive.Record,
    _ new: RestorationArchive.Record
  ) -> [FieldChange] {
    func storyboard(_ reference: StoryboardReference?) -> String? {
      reference.map { reference in
        reference.name + (reference.identifier.map { ", scene \($0)" } ?? "")
      }
    }
    let pairs: [(String, String?, String?)] = [
      ("kind", ArchiveDump.kindName(old.kind), ArchiveDump.kindName(new.kind)),
      ("class", old.className, new.className),
      ("restoration class", old.restorationClassName, new.restorationClassName),
      ("storyboard", storyboard(old.storyboard), storyboard(new.storyboard)),
    ]
    return pairs.compactMap { field, old, new in
      old == new ? nil : FieldChange(field: field, old: old, new: new)
    }
  }

  // MARK: - Text

  /// The differences for reading, or `No differences.` when there are none.
  ///
  /// Removed objects are marked `-`, added `+`, changed `~`; under a changed object, each key
  /// that differs is listed with its old and new value, formatted as `dump` formats them.
  ///
  /// - Returns: The text, ending with a newline.
  public func text() -> String {
    guard !isEmpty else { return "No differences.\n" }
    var lines: [String] = []
    if !topLevel.isEmpty {
      lines.append("Top Level")
      for change in topLevel { lines += Self.lines(for: change, indent: "    ") }
      lines.append("")
    }
    for record in removed { lines.append("- " + ArchiveDump.header(of: record)) }
    for change in changed {
      lines.append("~ " + ArchiveDump.header(of: change.new))
      for field in change.fields {
        lines.append(
          "    ~ \(field.field): \(field.old ?? "(none)") -> \(field.new ?? "(none)")"
        )
      }
      for key in change.keys { lines += Self.lines(for: key, indent: "    ") }
    }
    for record in added { lines.append("+ " + ArchiveDump.header(of: record)) }
    if !(removed.isEmpty && changed.isEmpty && added.isEmpty) { lines.append("") }
    lines.append(summary)
    return lines.joined(separator: "\n") + "\n"
  }

  /// One line counting the differences.
  public var summary: String {
    func count(_ number: Int, _ noun: String) -> String {
      "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
    var parts = [
      "\(count(changed.count, "object")) changed", "\(added.count) added",
      "\(removed.count) removed",
    ]
    if !topLevel.isEmpty { parts.append("\(count(topLevel.count, "top-level key")) changed") }
    return parts.joined(separator: ", ")
  }

  private static func show(_ entry: Entry) -> String {
    switch entry {
    case .sensitive: ArchiveDump.sensitiveMarker
    case .value(let value): ValueFormatting.entry(value)
    }
  }

  /// A key's change: `~ key: old -> new` when both fit on a line, otherwise the old and the
  /// new value each on their own lines, marked `-` and `+`.
  private static func lines(for change: KeyChange, indent: String) -> [String] {
    let key = ValueFormatting.name(change.key)
    switch (change.old, change.new) {
    case (nil, let new?):
      return hanging(indent + "+ " + key + ": ", show(new))
    case (let old?, nil):
      return hanging(indent + "- " + key + ": ", show(old))
    case (let old?, let new?):
      let (before, after) = (show(old), show(new))
      if !before.contains("\n"), !after.contains("\n") {
        return [indent + "~ " + key + ": " + before + " -> " + after]
      }
      return [indent + "~ " + key]
        + hanging(indent + "    - ", before) + hanging(indent + "    + ", after)
    case (nil, nil):
      return []
    }
  }

  /// The text after `prefix`, its later lines indented to line up under its first.
  private static func hanging(_ prefix: String, _ text: String) -> [String] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    // Entry values are laid out for one level of indentation already.
    let width = max(0, prefix.count - ValueFormatting.indentUnit.count)
    let continuation = String(repeating: " ", count: width)
    return lines.enumerated().map { offset, line in
      offset == 0 ? prefix + line : continuation + line
    }
  }
}
