internal import BinaryPropertyList

// The on-disk layout of a restoration archive (docs/ArchiveFormat.md):
//
//   root dictionary
//     checksum  data(4)  CRC-32 of every byte after this object; always the object at byte 8
//     format    "StateRestorationArchive"
//     topLevel  dictionary: version keys, bundle/system version, timestamp, idiom, app keys
//     objects   array of records, parents before children:
//                 parent?, name, kind, class, restorationClass?, storyboard?,
//                 storyboardIdentifier?, sensitiveKeys?, state (dictionary; references are
//                 UIDs = record indices)
//
// A record's identifier path is its parent record's path, `/` and its name; a record without a
// parent has its whole path as its name. Format 1.x stored the whole path, as `path`.

/// The field names of the archive layout.
enum ArchiveField {
  static let checksum = "checksum"
  static let format = "format"
  static let topLevel = "topLevel"
  static let objects = "objects"
  static let path = "path"
  static let parent = "parent"
  static let name = "name"
  static let kind = "kind"
  static let className = "class"
  static let restorationClass = "restorationClass"
  static let storyboard = "storyboard"
  static let storyboardIdentifier = "storyboardIdentifier"
  static let sensitiveKeys = "sensitiveKeys"
  static let state = "state"
  /// The value of the `format` field.
  static let formatName = "StateRestorationArchive"
  /// Where the checksum object starts, and its size (a marker and 4 bytes).
  static let checksumOffset = 8
  static let checksumSize = 5
}

extension RestorationArchive {
  /// Reads an archive from the bytes of a file, checking everything.
  ///
  /// The checksum is verified before anything else is decoded, so a torn or corrupted file is
  /// rejected whole, never half-read.
  ///
  /// - Throws: ``RestorationError``: ``RestorationError/Code/notPropertyList``,
  ///   ``RestorationError/Code/truncated``, ``RestorationError/Code/malformed``,
  ///   ``RestorationError/Code/checksumMismatch``, ``RestorationError/Code/notArchive``,
  ///   ``RestorationError/Code/unsupportedVersion`` or ``RestorationError/Code/limitExceeded``.
  /// - Complexity: O(n) in the size of the file.
  public init(decoding bytes: [UInt8], limits: ArchiveLimits = .default) throws(RestorationError) {
    self = try ArchiveReader.read(bytes, limits: limits, lazily: false).archive
  }

  /// Reads an archive and checks every byte of it, as ``init(decoding:limits:)`` does, leaving
  /// the records' states in the file: each record's `state` is empty, and the returned
  /// ``ArchiveStates`` builds a value when a decoder asks for it.
  package static func readLazily(
    _ bytes: [UInt8], limits: ArchiveLimits
  ) throws(RestorationError) -> (archive: RestorationArchive, states: ArchiveStates) {
    let (archive, states) = try ArchiveReader.read(bytes, limits: limits, lazily: true)
    return (archive, states ?? ArchiveStates(reader: nil, paths: [], entries: []))
  }
}

/// Reads the archive layout, in one pass over the file.
enum ArchiveReader {
  static func read(
    _ bytes: [UInt8], limits: ArchiveLimits, lazily: Bool
  ) throws(RestorationError) -> (archive: RestorationArchive, states: ArchiveStates?) {
    let file = try wrapped { () throws(PropertyListError) in
      try BinaryPropertyListReader(bytes, limits: limits.propertyList)
    }
    try verifyChecksum(bytes)
    var fields = FieldReader(file: file)
    guard try fields.type(of: file.topObject) == .dictionary else {
      throw RestorationError(.notArchive, "the top object is not a dictionary")
    }
    let root = try fields.read(file.topObject)
    guard let format = root[ArchiveField.format], try fields.type(of: format) == .string,
      try fields.string(format) == ArchiveField.formatName
    else {
      throw RestorationError(.notArchive, "no 'format' field naming a restoration archive")
    }
    guard let checksum = root[ArchiveField.checksum],
      try fields.offset(of: checksum) == ArchiveField.checksumOffset
    else {
      throw RestorationError(.notArchive, "the checksum field is not the object at byte 8")
    }
    guard let topLevelObject = root[ArchiveField.topLevel],
      try fields.type(of: topLevelObject) == .dictionary
    else {
      throw RestorationError(.notArchive, "no 'topLevel' dictionary")
    }
    guard let objects = root[ArchiveField.objects], try fields.type(of: objects) == .array
    else {
      throw RestorationError(.notArchive, "no 'objects' array")
    }

    // The version first, since it says how records hold their paths; then the paths, since
    // UIDs anywhere in the archive stand for them.
    let version = try self.version(in: topLevelObject, &fields)
    let array = try wrapped { () throws(PropertyListError) in try file.array(objects) }
    var records: [[String: Int]] = []
    var paths: [String] = []
    records.reserveCapacity(array.count)
    paths.reserveCapacity(array.count)
    var pathLength = 0
    for index in 0..<array.count {
      let object = file.element(index, of: array)
      guard try fields.type(of: object) == .dictionary else {
        throw RestorationError(.malformed, "object record \(index) is not a dictionary")
      }
      let record = try fields.read(object)
      let path = try self.path(of: record, index: index, paths: paths, version: version, &fields)
      if let problem = limits.identifierPathProblem(
        path, total: &pathLength, fileSize: bytes.count)
      {
        throw RestorationError(.limitExceeded, "object record \(index): \(problem)")
      }
      records.append(record)
      paths.append(path)
    }

    var values = ValueReader(file: file, maxDepth: limits.maxDepth, paths: paths)
    var archive = RestorationArchive()
    archive.topLevel = try values.keyedValues(topLevelObject, depth: 1, building: true)

    archive.records.reserveCapacity(records.count)
    var entries: [[(key: String, value: Int)]] = []
    if lazily { entries.reserveCapacity(records.count) }
    for (index, record) in records.enumerated() {
      let kindName = try fields.requiredString(ArchiveField.kind, of: record, record: index)
      guard let kind = RestorationKind(rawValue: kindName) else {
        throw RestorationError(
          .malformed, "object record \(index) has unknown kind '\(kindName)'",
          identifierPath: paths[index])
      }
      var read = RestorationArchive.Record(
        identifierPath: paths[index], kind: kind,
        className: try fields.requiredString(ArchiveField.className, of: record, record: index),
        restorationClassName: try fields.string(
          ArchiveField.restorationClass, of: record, record: index))
      if let name = try fields.string(ArchiveField.storyboard, of: record, record: index) {
        read.storyboard = StoryboardReference(
          name: name,
          identifier: try fields.string(
            ArchiveField.storyboardIdentifier, of: record, record: index))
      }
      if let sensitive = record[ArchiveField.sensitiveKeys] {
        read.sensitiveKeys = try fields.strings(sensitive, record: index, path: paths[index])
      }
      let state = record[ArchiveField.state]
      if let state, try fields.type(of: state) != .dictionary {
        throw RestorationError(
          .malformed, "object record \(index): 'state' is not a dictionary",
          identifierPath: paths[index])
      }
      do {
        if lazily {
          var checked: [(key: String, value: Int)] = []
          if let state {
            try values.forEachEntry(of: state, depth: 2) {
              (reader, key, value) throws(RestorationError) in
              _ = try reader.value(value, depth: 3, building: false)
              checked.append((key, value))
            }
          }
          entries.append(checked)
        } else if let state {
          read.state = try values.keyedValues(state, depth: 2, building: true)
        }
      } catch {
        var located = error
        located.identifierPath = located.identifierPath ?? paths[index]
        throw located
      }
      archive.records.append(read)
    }
    guard lazily else { return (archive, nil) }
    values.endBudget()
    return (archive, ArchiveStates(reader: values, paths: paths, entries: entries))
  }

  /// The format version the top level holds, checked to be one this reader reads.
  private static func version(
    in topLevel: Int, _ fields: inout FieldReader
  ) throws(RestorationError) -> RestorationArchive.Version {
    let keys = try fields.read(topLevel)
    guard let major = keys[RestorationArchive.Key.majorVersion].flatMap(fields.integer),
      let minor = keys[RestorationArchive.Key.minorVersion].flatMap(fields.integer)
    else {
      throw RestorationError(.notArchive, "the top level has no format version keys")
    }
    let version = RestorationArchive.Version(major: major, minor: minor)
    // Layout versions start at 1.0: a smaller major was never written.
    guard version.major >= 1 else {
      throw RestorationError(
        .unsupportedVersion, "layout version \(version) is not a known version")
    }
    guard version.major <= RestorationArchive.Version.current.major else {
      throw RestorationError(
        .unsupportedVersion,
        "archive format \(version) is newer than the supported \(RestorationArchive.Version.current)"
      )
    }
    return version
  }

  /// A record's identifier path: its parent's path and its name, or, in format 1.x, its path.
  private static func path(
    of record: [String: Int], index: Int, paths: [String],
    version: RestorationArchive.Version, _ fields: inout FieldReader
  ) throws(RestorationError) -> String {
    guard version.major >= 2 else {
      return try fields.requiredString(ArchiveField.path, of: record, record: index)
    }
    let name = try fields.requiredString(ArchiveField.name, of: record, record: index)
    guard let parentObject = record[ArchiveField.parent] else { return name }
    guard let parent = fields.integer(parentObject), parent >= 0, parent < index else {
      throw RestorationError(
        .malformed, "object record \(index): 'parent' is not the number of a record before it")
    }
    return paths[parent] + "/" + name
  }

  /// Checks the CRC-32 stored at byte 8 against the bytes after it.
  static func verifyChecksum(_ bytes: [UInt8]) throws(RestorationError) {
    let start = ArchiveField.checksumOffset
    guard bytes.count > start + ArchiveField.checksumSize, bytes[start] == 0x44 else {
      // Another program's property list: where its first object starts says nothing to the
      // user, so the error names no byte.
      throw RestorationError(.notArchive, "it does not start with this package's checksum")
    }
    let stored = bytes[(start + 1)...(start + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    let computed = CRC32.checksum(bytes[(start + ArchiveField.checksumSize)...])
    guard stored == computed else {
      throw RestorationError(
        .checksumMismatch,
        "checksum is \(hex(stored)) but the contents give \(hex(computed)): the file is torn or corrupted"
      )
    }
  }

  private static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
  }
}

/// Reads the fields of the root and record dictionaries: the key names, each named once, and
/// their values' objects.
private struct FieldReader {
  let file: BinaryPropertyListReader
  /// The names of the key objects read so far: records share their keys' objects.
  private var names: [Int: String] = [:]

  init(file: BinaryPropertyListReader) { self.file = file }

  mutating func read(_ object: Int) throws(RestorationError) -> [String: Int] {
    let dictionary = try wrapped { () throws(PropertyListError) in try file.dictionary(object) }
    var fields: [String: Int] = [:]
    for index in 0..<dictionary.count {
      let key = file.key(index, of: dictionary)
      let name: String
      if let known = names[key] {
        name = known
      } else {
        name = try string(key)
        names[key] = name
      }
      guard fields.updateValue(file.value(index, of: dictionary), forKey: name) == nil else {
        throw RestorationError(
          .malformed, "dictionary repeats the key '\(name)'", offset: try offset(of: object))
      }
    }
    return fields
  }

  func type(of object: Int) throws(RestorationError) -> BinaryPropertyListReader.ObjectType {
    try wrapped { () throws(PropertyListError) in try file.type(of: object) }
  }

  func offset(of object: Int) throws(RestorationError) -> Int {
    try wrapped { () throws(PropertyListError) in try file.offset(of: object) }
  }

  func string(_ object: Int) throws(RestorationError) -> String {
    try wrapped { () throws(PropertyListError) in try file.string(object) }
  }

  /// An integer object's value, or nil for anything else.
  func integer(_ object: Int) -> Int? {
    guard case .signed(let value) = try? file.integer(object) else { return nil }
    return Int(exactly: value)
  }

  /// An optional string field of a record.
  func string(
    _ name: String, of record: [String: Int], record index: Int
  ) throws(RestorationError) -> String? {
    guard let object = record[name] else { return nil }
    guard try type(of: object) == .string else {
      throw RestorationError(.malformed, "object record \(index): '\(name)' is not a string")
    }
    return try string(object)
  }

  /// A string field a record must have.
  func requiredString(
    _ name: String, of record: [String: Int], record index: Int
  ) throws(RestorationError) -> String {
    guard let value = try string(name, of: record, record: index) else {
      throw RestorationError(.malformed, "object record \(index) has no '\(name)'")
    }
    return value
  }

  /// An array of strings.
  func strings(_ object: Int, record index: Int, path: String) throws(RestorationError)
    -> [String]
  {
    guard try type(of: object) == .array else {
      throw RestorationError(
        .malformed, "object record \(index): 'sensitiveKeys' is not an array",
        identifierPath: path)
    }
    let array = try wrapped { () throws(PropertyListError) in try file.array(object) }
    return try (0..<array.count).map { (element) throws(RestorationError) in
      try string(file.element(element, of: array))
    }
  }
}

/// The states of an archive's records, left in the checked file until a decoder asks for a
/// value: a restore reads most values once, into the app's own properties, and many never.
package final class ArchiveStates {
  private var reader: ValueReader?
  private let paths: [String]
  /// Each record's keys, in file order, with their values' objects.
  private let entries: [[(key: String, value: Int)]]

  init(reader: ValueReader?, paths: [String], entries: [[(key: String, value: Int)]]) {
    self.reader = reader
    self.paths = paths
    self.entries = entries
  }

  /// The identifier path of a record.
  func path(ofRecord index: Int) -> String { paths[index] }

  /// The number of records.
  package var recordCount: Int { entries.count }

  /// Key tables of the records with many keys, each built at its first lookup: a scan is
  /// quicker for a handful of keys, and a hostile file may give a record millions.
  private var keyTables: [Int: [String: Int]] = [:]

  private func object(forKey key: String, record: Int) -> Int? {
    let keys = entries[record]
    guard keys.count > 16 else { return keys.first { $0.key == key }?.value }
    if let table = keyTables[record] { return table[key] }
    let table = Dictionary(
      keys.lazy.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    keyTables[record] = table
    return table[key]
  }

  /// Whether a record's state holds a key.
  package func contains(_ key: String, record: Int) -> Bool {
    object(forKey: key, record: record) != nil
  }

  /// A record's value for a key, built from the file.
  package func value(forKey key: String, record: Int) -> StateValue? {
    object(forKey: key, record: record).flatMap(value)
  }

  private func value(_ object: Int) -> StateValue? {
    // Checked with the file: a read of it cannot fail.
    try? reader?.value(object, depth: 3, building: true)
  }

  /// The record a key's UID names, if the key holds one.
  func recordIndex(forKey key: String, record: Int) -> Int? {
    guard let object = object(forKey: key, record: record) else { return nil }
    return try? reader?.recordIndex(ofUID: object)
  }

  /// The records an array of UIDs names, in order; nil when the key holds no array.
  func recordIndices(forKey key: String, record: Int) -> [Int]? {
    guard let object = object(forKey: key, record: record), let reader,
      let array = try? reader.file.array(object)
    else { return nil }
    return (0..<array.count).compactMap {
      try? reader.recordIndex(ofUID: reader.file.element($0, of: array))
    }
  }

  /// A record's keys, in file order.
  package func keys(record: Int) -> [String] { entries[record].map(\.key) }

  /// A record's values, all built.
  package func values(record: Int) -> KeyedValues {
    KeyedValues(entries[record].compactMap { entry in value(entry.value).map { (entry.key, $0) } })
  }
}
