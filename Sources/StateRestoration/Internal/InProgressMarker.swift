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

  var triesLeft: Int
  var extended: Bool

  func encoded() -> [UInt8] {
    var writer = BinaryPropertyListWriter()
    let keys = [writer.add(string: Self.triesLeftKey), writer.add(string: Self.extendedKey)]
    let values = [
      writer.add(.integer(Int64(triesLeft))),
      writer.add(.bool(extended)),
    ]
    let top = writer.addDictionary(keys: keys, values: values)
    return writer.makeBytes(top: top)
  }

  init(triesLeft: Int, extended: Bool) {
    self.triesLeft = triesLeft
    self.extended = extended
  }

  /// Reads a marker; nil for a file that is not one (treated as absent).
  init?(bytes: [UInt8]) {
    guard
      case .dictionary(let fields) = try? BinaryPropertyListReader.readValue(
        bytes,
        limits: ArchiveLimits(maxFileSize: 4096, maxObjectCount: 64, maxDepth: 4)
      ),
      let tries = fields[Self.triesLeftKey].flatMap(Int.init(stateValue:))
    else { return nil }
    triesLeft = tries
    extended = fields[Self.extendedKey].flatMap(Bool.init(stateValue:)) ?? false
  }
}
