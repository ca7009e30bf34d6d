internal import BinaryPropertyList

/// The crash guard's marker file (UIKit's `inprogress.data`): a property list dictionary with
/// `kRestorationTriesLeft` and `kRestorationExtended`.
///
/// UIKit's rule, kept exactly: the marker is created with 2 tries when absent and that launch
/// gets 1; a launch that finds it decrements the stored count and gets what remains. A launch
/// that gets 0 deletes the archive. So the first launch after a save restores, a launch after
/// one crash restores again, and a launch after two crashes starts fresh.
struct InProgressMarker: Equatable {
  static let triesLeftKey = "kRestorationTriesLeft"
  static let extendedKey = "kRestorationExtended"
  /// The tries a fresh marker holds.
  static let initialTries = 2
  /// What a marker that is not exactly one the engine writes counts as: the marker of one
  /// launch that crashed during restoration.
  static let standIn = InProgressMarker(triesLeft: initialTries, extended: false)

  /// The tries left, from 0 to ``initialTries``.
  var triesLeft: Int
  var extended: Bool

  init(triesLeft: Int, extended: Bool) {
    self.triesLeft = min(max(triesLeft, 0), Self.initialTries)
    self.extended = extended
  }

  func encoded() -> [UInt8] {
    var writer = BinaryPropertyListWriter()
    let keys = [writer.addString(Self.triesLeftKey), writer.addString(Self.extendedKey)]
    let values = [writer.addInteger(Int64(triesLeft)), writer.addBool(extended)]
    let top = writer.addDictionary(keys: keys, values: values)
    return writer.makeBytes(top: top)
  }

  /// Reads a marker exactly as ``encoded()`` writes it (the two keys, tries from 0 to
  /// ``initialTries``), or nil for anything else.
  init?(bytes: [UInt8]) {
    guard
      case .dictionary(let fields) = try? PropertyList.read(
        bytes, limits: ArchiveLimits(maxFileSize: 4096, maxObjectCount: 64, maxDepth: 4)),
      fields.count == 2,
      case .integer(let tries) = fields[Self.triesLeftKey],
      (0...Int64(Self.initialTries)).contains(tries),
      case .bool(let extended) = fields[Self.extendedKey]
    else { return nil }
    self.init(triesLeft: Int(tries), extended: extended)
  }
}
