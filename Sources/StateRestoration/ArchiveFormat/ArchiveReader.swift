internal import BinaryPropertyList

/// The field names of the archive layout (docs/ArchiveFormat.md), for its writer and reader.
enum ArchiveField {
  static let checksum = "checksum"
  static let format = "format"
  static let topLevel = "topLevel"
  static let types = "types"
  static let objects = "objects"
  static let parent = "parent"
  static let name = "name"
  static let type = "type"
  static let state = "state"
  static let sensitiveKeys = "sensitiveKeys"
  static let kind = "kind"
  static let className = "class"
  static let restorationClass = "restorationClass"
  static let storyboard = "storyboard"
  static let storyboardIdentifier = "storyboardIdentifier"
  static let version = "version"
  /// The value of the `format` field.
  static let formatName = "StateRestorationArchive"
  /// Where the checksum object starts, and its size (a marker and 4 bytes).
  static let checksumOffset = 8
  static let checksumSize = 5
}

/// What a record is: its kind and class, and where it can be re-created from.
///
/// Records of one class share one, so that a class's name is stored once.
struct RecordType: Hashable {
  var kind: RestorationKind
  var className: String
  var restorationClassName: String?
  var storyboard: StoryboardReference?
  var stateVersion = 0
}

/// Each record's keys and values, and what finds them, in one value so that a lookup is one
/// access to the archive.
///
/// Keys are the numbers of their names in `names`, values their objects and, built as they
/// were checked, their values, the records one after the other; each record's are at
/// `entries[record]..<entries[record + 1]`.
private struct Entries {
  var keyNames: [Int32] = []
  var valueObjects: [Int] = []
  var values: [StateValue] = []
  var entries: [Int] = [0]
  /// The names of keys, by number, and the number of each.
  var names: [String] = []
  var numbers: [String: Int] = [:]
  /// Key tables of the records with many keys, each built at its first lookup: a scan is
  /// quicker for a handful of keys, and a hostile file may give a record millions.
  var keyTables: [Int: [Int32: Int]] = [:]
  /// By type, the keys its decoders asked for, in order, and their names' numbers: decoders
  /// of one class ask for the same keys in the same order, found again without hashing them.
  var askedKeys: [[(key: String, name: Int32)]] = []

  /// The entry of a record's key; `type` is the record's, `asked` as for
  /// ``CheckedArchive/object(forKey:record:asked:)``.
  mutating func entry(forKey key: String, record: Int, type: Int, asked: Int?) -> Int? {
    guard let number = nameNumber(of: key, type: type, asked: asked) else { return nil }
    let range = entries[record]..<entries[record + 1]
    // Decoders mostly ask for keys in the order they were written: the asked-th entry first.
    if let asked, asked < range.count, keyNames[range.lowerBound + asked] == number {
      return range.lowerBound + asked
    }
    guard range.count > 16 else {
      for index in range where keyNames[index] == number { return index }
      return nil
    }
    if let table = keyTables[record] { return table[number] }
    var table: [Int32: Int] = [:]
    for index in range { table[keyNames[index]] = index }
    keyTables[record] = table
    return table[number]
  }

  /// A record's values, in file order.
  func values(record: Int) -> KeyedValues {
    KeyedValues(
      (entries[record]..<entries[record + 1]).map { (names[Int(keyNames[$0])], values[$0]) })
  }

  /// The number of a key's name, if any record has a key of that name.
  private mutating func nameNumber(of key: String, type: Int, asked: Int?) -> Int32? {
    guard let asked else { return numbers[key].map(Int32.init) }
    if asked < askedKeys[type].count, askedKeys[type][asked].key == key {
      return askedKeys[type][asked].name
    }
    guard let number = numbers[key].map(Int32.init) else { return nil }
    if asked < askedKeys[type].count {
      askedKeys[type][asked] = (key, number)
    } else if asked == askedKeys[type].count {
      askedKeys[type].append((key, number))
    }
    return number
  }
}

/// An archive file as read and checked, before it is held as a ``CheckedArchive``.
private struct ArchiveContents {
  var version = RestorationArchive.Version.current
  var topLevel = KeyedValues()
  var paths: [String] = []
  var parents: [Int] = []
  var types: [RecordType] = []
  var typeOfRecord: [Int] = []
  var firstRecordOfPath: [Int] = []
  var recordsByPath: [PathKey: Int] = [:]
  var state = Entries()
  var sensitiveKeys: [Int: [String]] = [:]
  var migrations: [Int: [RestorationMigration]] = [:]
  var reader: ValueReader
  private var layoutStrings: [Int: String] = [:]

  /// Reads and checks every byte of an archive, the checksum first: a torn file is never read.
  init(
    _ bytes: [UInt8], limits: ArchiveLimits, migrations: [RestorationMigration], appVersion: String?
  ) throws(RestorationError) {
    let file = try wrapped { () throws(PropertyListError) in
      try BinaryPropertyListReader(bytes, limits: limits.propertyList)
    }
    try Self.verifyChecksum(bytes)
    reader = ValueReader(file: file, maxDepth: limits.maxDepth, paths: nil)
    let root = try fields(of: file.topObject, "the top object")
    guard let format = root[ArchiveField.format], try type(of: format) == .string,
      try string(format) == ArchiveField.formatName
    else {
      throw RestorationError(.notArchive, "no 'format' field naming a restoration archive")
    }
    guard let checksum = root[ArchiveField.checksum],
      try wrapped({ () throws(PropertyListError) in try file.offset(of: checksum) })
        == ArchiveField.checksumOffset
    else {
      throw RestorationError(.notArchive, "the checksum field is not the object at byte 8")
    }
    guard let topLevelObject = root[ArchiveField.topLevel],
      try type(of: topLevelObject) == .dictionary
    else {
      throw RestorationError(.notArchive, "no 'topLevel' dictionary")
    }
    let topFields = try fields(of: topLevelObject, "topLevel")
    version = try Self.version(in: topFields, reader)
    let saved = topFields[RestorationArchive.Key.bundleVersion].flatMap { try? string($0) }
    // An app without migrations reads archives as they are, with no step per record or key.
    let plan =
      migrations.isEmpty ? nil : try MigrationPlan(migrations, archived: saved, running: appVersion)
    var records: [(parent: Int, name: String, state: Int?)] = []
    if version.major >= 3 {
      try readColumns(root, into: &records)
    } else {
      try readRecords(root, into: &records)
    }
    let renamedTypes = plan.map { types.map($0.renaming) }
    if let renamedTypes { types = renamedTypes.map(\.0) }

    var pathLength = 0
    paths.reserveCapacity(records.count)
    firstRecordOfPath.reserveCapacity(records.count)
    recordsByPath.reserveCapacity(records.count)
    for (index, record) in records.enumerated() {
      guard record.parent >= -1, record.parent < index else {
        throw RestorationError(
          .malformed, "object record \(index): 'parent' is not the number of a record before it")
      }
      var name = record.name
      if let plan, let renamedTypes {
        let applied: [RestorationMigration]
        (name, applied) = plan.renaming(record.name)
        let changes = applied + renamedTypes[typeOfRecord[index]].1
        if !changes.isEmpty { self.migrations[index] = changes }
      }
      let path =
        record.parent < 0
        ? name
        : IdentifierPath.joining(
          paths[record.parent], identifier: name, separatingEmpty: true)
      if let problem = limits.identifierPathProblem(
        path, total: &pathLength, fileSize: bytes.count)
      {
        throw RestorationError(.limitExceeded, "object record \(index): \(problem)")
      }
      paths.append(path)
      parents.append(record.parent < 0 ? -1 : firstRecordOfPath[record.parent])
      let first = recordsByPath.value(forKey: PathKey(path), insertingIfAbsent: index)
      firstRecordOfPath.append(first)
    }

    // Values last: a UID anywhere stands for a record's path.
    reader.paths = paths
    topLevel = try reader.keyedValues(topLevelObject, depth: 1)
    var table = Entries()
    defer { state = table }
    table.entries.reserveCapacity(records.count + 1)
    let keyRenames = plan.map { types.map($0.renamedKeys) }
    for (index, record) in records.enumerated() {
      defer { table.entries.append(table.keyNames.count) }
      guard let state = record.state else { continue }
      do throws(RestorationError) {
        guard try type(of: state) == .dictionary else {
          throw RestorationError(.malformed, "object record \(index): 'state' is not a dictionary")
        }
        var (names, objects, values) = (table.keyNames, table.valueObjects, table.values)
        (table.keyNames, table.valueObjects, table.values) = ([], [], [])
        defer { (table.keyNames, table.valueObjects, table.values) = (names, objects, values) }
        let renames = keyRenames?[typeOfRecord[index]] ?? [:]
        try reader.forEachEntry(of: state, depth: 2) {
          reader, name, object throws(RestorationError) in
          // Built as it is checked: one walk of the file, and most values are asked for.
          let value = try reader.value(object, depth: 3)
          var name = Int32(name)
          if !renames.isEmpty, let (new, applied) = renames[reader.names[Int(name)]] {
            self.migrations[index, default: []] += applied
            guard let new else { return }
            name = Int32(reader.number(ofName: new))
          }
          names.append(name)
          objects.append(object)
          values.append(value)
        }
      } catch {
        var located = error
        located.identifierPath = located.identifierPath ?? paths[index]
        throw located
      }
    }
    layoutStrings = [:]
    (table.names, table.numbers) = (reader.names, reader.numbers)
    table.askedKeys = Array(repeating: [], count: types.count)
  }

  /// Reads format 3's columns and table of types.
  private mutating func readColumns(
    _ root: [String: Int], into records: inout [(parent: Int, name: String, state: Int?)]
  ) throws(RestorationError) {
    guard let typesObject = root[ArchiveField.types], let objects = root[ArchiveField.objects]
    else {
      throw RestorationError(.notArchive, "no 'types' array or 'objects' columns")
    }
    for entry in try array(typesObject, ArchiveField.types) {
      let fields = try fields(of: entry, "a type")
      types.append(try recordType(fields, "type \(types.count)"))
    }
    let columns = try fields(of: objects, ArchiveField.objects)
    func column(_ name: String) throws(RestorationError) -> [Int]? {
      try columns[name].map { (object) throws(RestorationError) in try array(object, name) }
    }
    guard let parentColumn = try column(ArchiveField.parent),
      let nameColumn = try column(ArchiveField.name),
      let typeColumn = try column(ArchiveField.type),
      let stateColumn = try column(ArchiveField.state)
    else {
      throw RestorationError(
        .notArchive, "'objects' lacks a column of parents, names, types or states")
    }
    let sensitiveColumn = try column(ArchiveField.sensitiveKeys)
    let count = parentColumn.count
    guard nameColumn.count == count, typeColumn.count == count, stateColumn.count == count,
      sensitiveColumn.map({ $0.count == count }) ?? true
    else {
      throw RestorationError(.malformed, "the columns of 'objects' differ in length")
    }
    records.reserveCapacity(count)
    typeOfRecord.reserveCapacity(count)
    for index in 0..<count {
      guard let parent = integer(parentColumn[index]),
        let type = integer(typeColumn[index]), type >= 0, type < types.count,
        try self.type(of: nameColumn[index]) == .string
      else {
        throw RestorationError(
          .malformed, "object record \(index): its parent, name or type is not one")
      }
      records.append((parent, try string(nameColumn[index]), stateColumn[index]))
      typeOfRecord.append(type)
      if let sensitive = sensitiveColumn?[index] {
        let keys = try strings(sensitive, ArchiveField.sensitiveKeys)
        if !keys.isEmpty { sensitiveKeys[index] = keys }
      }
    }
  }

  /// Reads format 2's records, each a dictionary of fields.
  private mutating func readRecords(
    _ root: [String: Int], into records: inout [(parent: Int, name: String, state: Int?)]
  ) throws(RestorationError) {
    guard let objects = root[ArchiveField.objects], try type(of: objects) == .array else {
      throw RestorationError(.notArchive, "no 'objects' array")
    }
    var typeNumbers: [RecordType: Int] = [:]
    for object in try array(objects, ArchiveField.objects) {
      let index = records.count
      let fields = try fields(of: object, "object record \(index)")
      guard let nameObject = fields[ArchiveField.name], try type(of: nameObject) == .string
      else {
        throw RestorationError(.malformed, "object record \(index) has no 'name'")
      }
      let parent = try fields[ArchiveField.parent].map { (object) throws(RestorationError) in
        guard let parent = integer(object), parent >= 0 else {
          throw RestorationError(
            .malformed, "object record \(index): 'parent' is not the number of a record before it")
        }
        return parent
      }
      records.append((parent ?? -1, try string(nameObject), fields[ArchiveField.state]))
      let type = try recordType(fields, "object record \(index)")
      let number = typeNumbers.value(forKey: type, insertingIfAbsent: types.count)
      if number == types.count { types.append(type) }
      typeOfRecord.append(number)
      if let sensitive = fields[ArchiveField.sensitiveKeys] {
        sensitiveKeys[index] = try strings(sensitive, ArchiveField.sensitiveKeys)
      }
    }
  }

  private mutating func recordType(_ fields: [String: Int], _ what: String) throws(RestorationError)
    -> RecordType
  {
    func string(_ name: String) throws(RestorationError) -> String? {
      guard let object = fields[name] else { return nil }
      guard try type(of: object) == .string else {
        throw RestorationError(.malformed, "\(what): '\(name)' is not a string")
      }
      return try self.string(object)
    }
    guard let kindName = try string(ArchiveField.kind),
      let className = try string(ArchiveField.className)
    else {
      throw RestorationError(.malformed, "\(what) has no 'kind' or 'class'")
    }
    guard let kind = RestorationKind(rawValue: kindName) else {
      throw RestorationError(.malformed, "\(what) has unknown kind '\(kindName)'")
    }
    let storyboard = try string(ArchiveField.storyboard)
    let version = fields[ArchiveField.version].map { integer($0) ?? -1 } ?? 0
    guard version >= 0 else {
      throw RestorationError(.malformed, "\(what): 'version' is not a state version")
    }
    return RecordType(
      kind: kind, className: className,
      restorationClassName: try string(ArchiveField.restorationClass),
      storyboard: try storyboard.map { (name) throws(RestorationError) in
        StoryboardReference(name: name, identifier: try string(ArchiveField.storyboardIdentifier))
      }, stateVersion: version)
  }

  /// The format version the top level holds, checked to be one this reader reads.
  private static func version(
    in topLevel: [String: Int], _ reader: ValueReader
  ) throws(RestorationError) -> RestorationArchive.Version {
    func number(_ key: String) -> Int? {
      guard let object = topLevel[key],
        case .signed(let value) = try? reader.file.integer(object)
      else { return nil }
      return Int(exactly: value)
    }
    guard let major = number(RestorationArchive.Key.majorVersion),
      let minor = number(RestorationArchive.Key.minorVersion)
    else {
      throw RestorationError(.notArchive, "the top level has no format version keys")
    }
    let version = RestorationArchive.Version(major: major, minor: minor)
    // 2.0 is the first layout released; a smaller major was never written by a release.
    guard version.major >= 2 else {
      throw RestorationError(
        .unsupportedVersion, "archive format \(version) is older than any released format (2.0)")
    }
    guard version.major <= RestorationArchive.Version.current.major else {
      throw RestorationError(
        .unsupportedVersion,
        "archive format \(version) is newer than the supported \(RestorationArchive.Version.current)"
      )
    }
    return version
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

  // MARK: Reading the layout

  /// A layout dictionary's fields by name: each key named once, a repeated one refused.
  private mutating func fields(of object: Int, _ what: String) throws(RestorationError) -> [String:
    Int]
  {
    guard try type(of: object) == .dictionary else {
      throw RestorationError(.notArchive, "\(what) is not a dictionary")
    }
    var fields: [String: Int] = [:]
    try reader.forEachEntry(of: object, depth: 0) { reader, name, value throws(RestorationError) in
      fields[reader.names[name]] = value
    }
    return fields
  }

  private func array(_ object: Int, _ what: String) throws(RestorationError) -> [Int] {
    let file = reader.file
    guard try type(of: object) == .array else {
      throw RestorationError(.malformed, "'\(what)' is not an array")
    }
    let array = try wrapped { () throws(PropertyListError) in try file.array(object) }
    return (0..<array.count).map { file.element($0, of: array) }
  }

  private mutating func strings(_ object: Int, _ what: String) throws(RestorationError) -> [String]
  {
    try array(object, what).map { (element) throws(RestorationError) in
      guard try type(of: element) == .string else {
        throw RestorationError(.malformed, "'\(what)' holds something other than a string")
      }
      return try string(element)
    }
  }

  private func type(of object: Int) throws(RestorationError) -> BinaryPropertyListReader.ObjectType
  {
    let file = reader.file
    return try wrapped { () throws(PropertyListError) in try file.type(of: object) }
  }

  /// A layout string, each object read once: a hostile file can point every record's name at
  /// one long string, which read again for each would cost its length times theirs.
  private mutating func string(_ object: Int) throws(RestorationError) -> String {
    if let known = layoutStrings[object] { return known }
    let file = reader.file
    let string = try wrapped { () throws(PropertyListError) in try file.string(object) }
    layoutStrings[object] = string
    return string
  }

  /// An integer object's value, or nil for anything else.
  private func integer(_ object: Int) -> Int? {
    guard case .signed(let value) = try? reader.file.integer(object) else { return nil }
    return Int(exactly: value)
  }
}

/// An archive file, checked whole, every value built as it was checked: a restore asks for most
/// of them, and one walk of the file costs less than a check then a read.
package final class CheckedArchive {
  // Constants once read, so that reading them takes no exclusive access to the archive.
  let version: RestorationArchive.Version
  /// The top-level values, as the delegate's coder shows them: the format version's first.
  let topLevel: KeyedValues
  /// Each record's identifier path.
  let paths: [String]
  /// Each record's parent record: the one it is restored under, or -1.
  let parents: [Int]
  let types: [RecordType]
  let typeOfRecord: [Int]
  /// Each record's first record with the same path: itself, unless the path repeats.
  let firstRecordOfPath: [Int]
  let sensitiveKeys: [Int: [String]]
  let migrations: [Int: [RestorationMigration]]
  private let recordsByPath: [PathKey: Int]
  private let file: BinaryPropertyListReader
  // Unchecked, for speed (docs/Performance.md): an access runs the reader's code on its values.
  @exclusivity(unchecked) private var state: Entries

  /// Reads and checks every byte of an archive, the checksum first: a torn file is never read.
  package init(
    _ bytes: [UInt8], limits: ArchiveLimits, migrations: [RestorationMigration] = [],
    appVersion: String? = nil
  ) throws(RestorationError) {
    let read = try ArchiveContents(
      bytes, limits: limits, migrations: migrations, appVersion: appVersion)
    (version, topLevel, paths, parents) = (read.version, read.topLevel, read.paths, read.parents)
    (types, typeOfRecord, firstRecordOfPath) = (
      read.types, read.typeOfRecord, read.firstRecordOfPath
    )
    (sensitiveKeys, self.migrations) = (read.sensitiveKeys, read.migrations)
    (recordsByPath, file, state) = (read.recordsByPath, read.reader.file, read.state)
  }

  // MARK: States

  /// The first record with a path, among the first `count` records.
  func firstRecord(of path: String, among count: Int) -> Int? {
    guard let record = recordsByPath[PathKey(path)], record < count else { return nil }
    return record
  }

  /// The object of a record's value for a key; `asked` is the number of keys its decoder asked
  /// for before, or nil.
  func object(forKey key: String, record: Int, asked: Int? = nil) -> Int? {
    state.entry(forKey: key, record: record, type: typeOfRecord[record], asked: asked).map {
      state.valueObjects[$0]
    }
  }

  /// A record's value for a key, built from the file; `asked` as for
  /// ``object(forKey:record:asked:)``.
  package func value(forKey key: String, record: Int, asked: Int? = nil) -> StateValue? {
    state.entry(forKey: key, record: record, type: typeOfRecord[record], asked: asked).map {
      state.values[$0]
    }
  }

  /// The record a UID names.
  func recordIndex(ofUID object: Int) -> Int? {
    try? ValueReader.recordIndex(ofUID: object, in: file, paths: paths)
  }

  /// The records an array of UIDs names, in order; nil for an object that is no array.
  func recordIndices(ofArray object: Int) -> [Int]? {
    guard let array = try? file.array(object) else { return nil }
    return (0..<array.count).compactMap { recordIndex(ofUID: file.element($0, of: array)) }
  }

  /// A record's keys, in file order.
  package func keys(record: Int) -> [String] {
    let state = state
    return (state.entries[record]..<state.entries[record + 1]).map {
      state.names[Int(state.keyNames[$0])]
    }
  }

  /// A record's values, all built.
  package func values(record: Int) -> KeyedValues { state.values(record: record) }

  /// The archive as a value, every state built.
  package func makeArchive() -> RestorationArchive {
    var archive = RestorationArchive(topLevel: topLevel)
    archive.topLevel[RestorationArchive.Key.majorVersion] = nil
    archive.topLevel[RestorationArchive.Key.minorVersion] = nil
    archive.version = version
    archive.records = paths.indices.map { index in
      let type = types[typeOfRecord[index]]
      return RestorationArchive.Record(
        identifierPath: paths[index], kind: type.kind, className: type.className,
        restorationClassName: type.restorationClassName, storyboard: type.storyboard,
        state: values(record: index), sensitiveKeys: sensitiveKeys[index] ?? [],
        stateVersion: type.stateVersion)
    }
    return archive
  }
}

extension RestorationArchive {
  /// Reads an archive from the bytes of a file, checking everything.
  ///
  /// The checksum is verified before anything else is decoded, so a torn or corrupted file is
  /// rejected whole, never half-read. Archives of format 2.0, which release 0.1.0 wrote, are
  /// read as they were written.
  ///
  /// - Throws: ``RestorationError``: ``RestorationError/Code/notPropertyList``,
  ///   ``RestorationError/Code/truncated``, ``RestorationError/Code/malformed``,
  ///   ``RestorationError/Code/checksumMismatch``, ``RestorationError/Code/notArchive``,
  ///   ``RestorationError/Code/unsupportedVersion`` or ``RestorationError/Code/limitExceeded``.
  /// - Complexity: O(n) in the size of the file.
  public init(decoding bytes: [UInt8], limits: ArchiveLimits = .default) throws(RestorationError) {
    self = try CheckedArchive(bytes, limits: limits).makeArchive()
  }
}
