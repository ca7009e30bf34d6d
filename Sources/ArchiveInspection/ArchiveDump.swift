public import StateRestoration

/// Renders a whole archive for reading: the layout of Apple's restorationArchiveTool, or JSON.
///
/// The text form lists the restoration class map, a "Top Level" section, then one section per
/// object in archive order (parents first), each key with a dot leader to a column shared by the
/// section. Keys are sorted, so the output of an archive is always the same. Keys an object
/// marked sensitive are listed as withheld; their values were never written.
public enum ArchiveDump {
  /// How far entries are indented, as in restorationArchiveTool's output.
  static let entryIndent = String(repeating: " ", count: 16)
  /// The fewest dots between the longest key of a section and its value.
  static let minimumLeader = 3
  /// What a sensitive key shows instead of a value.
  static let sensitiveMarker = "(sensitive, not saved)"

  /// The archive in restorationArchiveTool's text layout.
  ///
  /// - Parameter archive: The archive.
  /// - Returns: The text, ending with a newline.
  public static func text(_ archive: RestorationArchive) -> String {
    var output = "Restoration class map is "
    output += ValueFormatting.description(
      .dictionary(archive.restorationClassMap.mapValues(StateValue.string)),
      level: 0
    )
    output += "\n\n"

    let topLevel = archive.fileTopLevel
    let topKeys = KeyOrdering.topLevel(topLevel.keys)
    output += section(
      title: "Top Level",
      notes: [],
      entries: topKeys.map { key in
        (key, entryValue(key: key, value: topLevel[key]))
      }
    )

    for record in archive.records {
      output += "\n\n"
      output += section(
        title: header(of: record),
        notes: notes(of: record),
        entries: entries(of: record)
      )
    }
    return output
  }

  /// The section header of an object: `[View Controller] PATH (Class: NAME)`.
  static func header(of record: RestorationArchive.Record) -> String {
    "[\(kindName(record.kind))] \(ValueFormatting.name(record.identifierPath)) (Class: \(ValueFormatting.name(record.className)))"
  }

  /// The name restorationArchiveTool gives a kind.
  static func kindName(_ kind: RestorationKind) -> String {
    switch kind {
    case .viewController: "View Controller"
    case .view: "View"
    case .object: "Object"
    }
  }

  /// The lines under an object's header that are not keys: its restoration class, the state
  /// version its class declared (when not the default, 0) and its storyboard scene.
  private static func notes(of record: RestorationArchive.Record) -> [String] {
    var notes: [String] = []
    if let name = record.restorationClassName {
      notes.append("Restoration class: \(ValueFormatting.name(name))")
    }
    if record.stateVersion != 0 { notes.append("State version: \(record.stateVersion)") }
    if let storyboard = record.storyboard {
      var line = "Storyboard: \(ValueFormatting.name(storyboard.name))"
      if let identifier = storyboard.identifier {
        line += ", scene \(ValueFormatting.name(identifier))"
      }
      notes.append(line)
    }
    return notes
  }

  /// An object's keys and how each is shown, sensitive keys included, sorted.
  static func entries(of record: RestorationArchive.Record) -> [(key: String, value: String)] {
    let sensitive = Set(record.sensitiveKeys)
    let keys = KeyOrdering.sorted(Set(record.state.keys).union(sensitive))
    return keys.map { key in
      // A sensitive key is shown as withheld even if a damaged or hand-made archive stored a
      // value for it: printing it is what the mark is meant to prevent.
      if sensitive.contains(key) { return (key, sensitiveMarker) }
      return (key, entryValue(key: key, value: record.state[key]))
    }
  }

  private static func entryValue(key: String, value: StateValue?) -> String {
    guard let value else { return "" }
    return ValueFormatting.entry(value)
  }

  /// One section: the title, a dashed underline as wide as the title, then the notes and the
  /// entries indented, each key padded with dots to a column shared by the section.
  private static func section(
    title: String,
    notes: [String],
    entries: [(key: String, value: String)]
  ) -> String {
    var lines = [title, String(repeating: "-", count: title.count), ""]
    for note in notes { lines.append(entryIndent + note) }
    if !notes.isEmpty { lines.append("") }
    if entries.isEmpty {
      lines.append(entryIndent + "(no keys)")
    }
    let keys = entries.map { ValueFormatting.name($0.key) }
    let column = (keys.map(\.count).max() ?? 0) + minimumLeader
    for (key, entry) in zip(keys, entries) {
      let leader = String(repeating: ".", count: column - key.count)
      let value = entry.value.split(separator: "\n", omittingEmptySubsequences: false)
        .joined(separator: "\n" + entryIndent)
      lines.append(entryIndent + key + leader + value)
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
