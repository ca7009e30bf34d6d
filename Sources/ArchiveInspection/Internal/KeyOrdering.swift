import StateRestoration

/// The order keys are listed in, shared by `dump` and `diff` so both read the same way.
enum KeyOrdering {
  /// The engine's own top-level keys, in the order restorationArchiveTool lists them.
  static let engineTopLevelKeys = [
    RestorationArchive.Key.majorVersion,
    RestorationArchive.Key.minorVersion,
    RestorationArchive.Key.bundleVersion,
    RestorationArchive.Key.systemVersion,
    RestorationArchive.Key.timestamp,
    RestorationArchive.Key.userInterfaceIdiom,
  ]

  /// Sorts keys case-insensitively (`encodingKeySliderValue` before `kViewController…`, as in
  /// restorationArchiveTool's output), then by code point so that the order is total.
  static func sorted(_ keys: some Sequence<String>) -> [String] {
    keys.map { (folded: $0.lowercased(), key: $0) }
      .sorted { ($0.folded, $0.key) < ($1.folded, $1.key) }
      .map(\.key)
  }

  /// Top-level keys: the engine's first, in their fixed order, then the app's, sorted.
  static func topLevel(_ keys: some Sequence<String>) -> [String] {
    let present = Set(keys)
    let engine = engineTopLevelKeys.filter(present.contains)
    return engine + sorted(present.subtracting(engineTopLevelKeys))
  }
}

extension RestorationArchive {
  /// The top level as the file holds it, the format version's keys first.
  var fileTopLevel: KeyedValues {
    var values = KeyedValues([
      (Key.majorVersion, .integer(Int64(version.major))),
      (Key.minorVersion, .integer(Int64(version.minor))),
    ])
    for (key, value) in topLevel { values[key] = value }
    return values
  }
}
