internal import BinaryPropertyList

/// The one writer of the archive layout (docs/ArchiveFormat.md), for a preservation and for
/// ``RestorationArchive/encoded()``: records numbered as added, their states written whenever
/// known, laid out by ``finish(topLevel:paths:parents:order:version:)``.
struct ArchiveWriter {
  var plist = BinaryPropertyListWriter()
  private let checksum: Int
  private var types: [RecordType] = []
  private var typeNumbers: [RecordType: Int] = [:]
  /// By record: its type, its state's dictionary, and the UID object that stands for it, or -1.
  private var typeOfRecord: [Int] = []
  private var stateOfRecord: [Int] = []
  private var uidOfRecord: [Int] = []
  private var sensitiveKeys: [Int: [String]] = [:]
  /// By type, the keys its records wrote and their objects, up to 64: records of one class
  /// write a few keys, found again by comparing them, cheaper than hashing them.
  private var keysOfType: [[(key: String, object: Int)]] = []
  /// A record's key and value objects while it is written, kept to reuse their storage.
  private var stateKeys: [Int] = []
  private var stateValues: [Int] = []

  init() {
    // The checksum's object comes first, so that it starts at byte 8.
    checksum = plist.addData([0, 0, 0, 0])
  }

  /// Adds a record of a type (see ``typeNumber(of:)``), numbered by the order added; its state
  /// is empty until set.
  mutating func addRecord(type: Int) {
    typeOfRecord.append(type)
    stateOfRecord.append(-1)
    uidOfRecord.append(-1)
  }

  /// The number of a record type in the archive's table of types.
  mutating func typeNumber(of type: RecordType) -> Int {
    if let known = typeNumbers[type] { return known }
    typeNumbers[type] = types.count
    types.append(type)
    keysOfType.append([])
    return types.count - 1
  }

  /// Writes a value; a reference's path becomes the record `records` gives it (none throws).
  mutating func add(_ value: StateValue, records: [PathKey: Int]) throws(RestorationError) -> Int {
    var uids = uidOfRecord
    uidOfRecord = []
    defer { uidOfRecord = uids }
    return try plist.add(value) { path, plist in
      records[PathKey(path)].map { Self.uid(ofRecord: $0, uids: &uids, plist: &plist) }
    }
  }

  /// The object of a reference to a record.
  mutating func reference(toRecord record: Int) -> Int {
    Self.uid(ofRecord: record, uids: &uidOfRecord, plist: &plist)
  }

  private static func uid(
    ofRecord record: Int, uids: inout [Int], plist: inout BinaryPropertyListWriter
  ) -> Int {
    if uids[record] < 0 { uids[record] = plist.addUID(UInt64(record)) }
    return uids[record]
  }

  /// Writes a coder's writes but removals and those `skipped` and, for a `record` (not -1),
  /// makes them its state; returns each write written and its value's object.
  mutating func add(
    _ log: StateCoder.Log, record: Int, skipping skipped: Set<Int>, sensitiveKeys: [String],
    records: [PathKey: Int]
  ) -> [(write: Int, value: Int)] {
    var keys: [Int] = []
    var values: [Int] = []
    swap(&keys, &stateKeys)
    swap(&values, &stateValues)
    keys.removeAll(keepingCapacity: true)
    values.removeAll(keepingCapacity: true)
    var written: [(write: Int, value: Int)] = []
    var known: [(key: String, object: Int)] = []
    var next = 0
    if record >= 0 { swap(&known, &keysOfType[typeOfRecord[record]]) }
    for index in log.writes.indices where skipped.isEmpty || !skipped.contains(index) {
      switch log.writes[index] {
      case .value(let value):
        // The caller checked the paths.
        guard let object = try? add(value, records: records) else { continue }
        values.append(object)
      case .record(let number, _):
        values.append(reference(toRecord: number))
      case .records(let numbers, _):
        values.append(plist.addArray(numbers.map { reference(toRecord: $0) }))
      case .removal:
        continue
      }
      guard record >= 0 else {
        written.append((index, values[values.count - 1]))
        continue
      }
      let key = log.keys[index]
      // Records of a type write their keys in one order, some skipped: the search starts after
      // the last key found, where a new key is placed, so that the list learns that order.
      if let place = known[next...].firstIndex(where: { $0.key == key })
        ?? known[..<next].firstIndex(where: { $0.key == key })
      {
        keys.append(known[place].object)
        next = place + 1
      } else {
        keys.append(plist.addString(key))
        if known.count < 64 {
          known.insert((key, keys[keys.count - 1]), at: next)
          next += 1
        }
      }
    }
    if record >= 0 {
      swap(&known, &keysOfType[typeOfRecord[record]])
      setState(ofRecord: record, keys: keys, values: values, sensitiveKeys: sensitiveKeys)
    }
    swap(&keys, &stateKeys)
    swap(&values, &stateValues)
    return written
  }

  /// Writes a record's state, the objects of its keys and values in order, and the keys it
  /// withholds.
  mutating func setState(
    ofRecord record: Int, keys: [Int], values: [Int], sensitiveKeys: [String]
  ) {
    stateOfRecord[record] = plist.addDictionary(keys: keys, values: values)
    if !sensitiveKeys.isEmpty { self.sensitiveKeys[record] = sensitiveKeys }
  }

  /// The file's bytes: the format version then `topLevel`, and each record's parent (or -1)
  /// and path, laid out in `order` (nil: as added), each named by its path after its parent's.
  mutating func finish(
    topLevel: [(key: String, value: Int)], paths: [String], parents: [Int], order: [Int]?,
    version: RestorationArchive.Version = .current
  ) -> [UInt8] {
    var parents = parents
    // When an empty identifier makes the parent's path no prefix of the record's, the record is
    // named by its whole path, under no parent.
    let names = paths.indices.map { record in
      let (path, parent) = (paths[record].utf8, parents[record])
      let length = parent < 0 ? 0 : paths[parent].utf8.count
      guard parent >= 0, path.count > length,
        path[path.index(path.startIndex, offsetBy: length)] == UInt8(ascii: "/"),
        ExactString.bytesEqual(paths[record], paths[parent], count: length)
      else {
        parents[record] = -1
        return paths[record]
      }
      return String(decoding: path.dropFirst(length + 1), as: UTF8.self)
    }
    let order = order ?? Array(typeOfRecord.indices)
    var numbering = [Int](repeating: 0, count: order.count)
    for (index, record) in order.enumerated() { numbering[record] = index }
    // A constant, as the closures below capture it: a variable would be boxed and checked.
    let position = numbering
    let top =
      [
        (RestorationArchive.Key.majorVersion, plist.addInteger(Int64(version.major))),
        (RestorationArchive.Key.minorVersion, plist.addInteger(Int64(version.minor))),
      ] + topLevel.map { ($0.key, $0.value) }
    let topLevelObject = plist.addDictionary(
      keys: top.map { plist.addString($0.0) }, values: top.map(\.1))
    let empty = plist.addDictionary(keys: [], values: [])
    let (typeOfRecord, stateOfRecord, sensitiveKeys) = (
      self.typeOfRecord, self.stateOfRecord, self.sensitiveKeys
    )
    var columns: [(String, Int)] = [
      (
        ArchiveField.parent,
        column(order) { $0.addInteger(Int64(parents[$1] < 0 ? -1 : position[parents[$1]])) }
      ),
      (ArchiveField.name, column(order) { $0.addString(names[$1]) }),
      (ArchiveField.type, column(order) { $0.addInteger(Int64(typeOfRecord[$1])) }),
      (
        ArchiveField.state,
        plist.addArray(order.map { stateOfRecord[$0] < 0 ? empty : stateOfRecord[$0] })
      ),
    ]
    if !sensitiveKeys.isEmpty {
      let none = plist.addArray([])
      columns.append(
        (
          ArchiveField.sensitiveKeys,
          column(order) { plist, record in
            sensitiveKeys[record].map { plist.addArray($0.map { plist.addString($0) }) } ?? none
          }
        ))
    }
    let typeObjects = types.map { type in
      var fields = [
        (ArchiveField.kind, plist.addString(type.kind.rawValue)),
        (ArchiveField.className, plist.addString(type.className)),
      ]
      if let name = type.restorationClassName {
        fields.append((ArchiveField.restorationClass, plist.addString(name)))
      }
      if let storyboard = type.storyboard {
        fields.append((ArchiveField.storyboard, plist.addString(storyboard.name)))
        if let identifier = storyboard.identifier {
          fields.append((ArchiveField.storyboardIdentifier, plist.addString(identifier)))
        }
      }
      if type.stateVersion != 0 {
        fields.append((ArchiveField.version, plist.addInteger(Int64(type.stateVersion))))
      }
      return dictionary(fields)
    }
    let root = dictionary([
      (ArchiveField.checksum, checksum),
      (ArchiveField.format, plist.addString(ArchiveField.formatName)),
      (ArchiveField.topLevel, topLevelObject),
      (ArchiveField.types, plist.addArray(typeObjects)),
      (ArchiveField.objects, dictionary(columns)),
    ])
    var bytes = plist.makeBytes(top: root) { UInt64(position[Int($0)]) }
    let start = ArchiveField.checksumOffset
    let crc = CRC32.checksum(bytes[(start + ArchiveField.checksumSize)...])
    for index in 0..<4 {
      bytes[start + 1 + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index))
    }
    return bytes
  }

  private mutating func column(
    _ order: [Int], _ element: (inout BinaryPropertyListWriter, Int) -> Int
  ) -> Int {
    var objects: [Int] = []
    objects.reserveCapacity(order.count)
    for record in order { objects.append(element(&plist, record)) }
    return plist.addArray(objects)
  }

  private mutating func dictionary(_ fields: [(String, Int)]) -> Int {
    plist.addDictionary(keys: fields.map { plist.addString($0.0) }, values: fields.map(\.1))
  }
}

extension RestorationArchive {
  /// Writes the archive as a binary property list, in the current format.
  ///
  /// Each record is stored under the record of its direct parent path, when one comes before it.
  ///
  /// - Throws: ``RestorationError`` (``RestorationError/Code/encodingFailed``) for what could
  ///   not be read back as it is: two records with one path, a path beyond the default
  ///   ``ArchiveLimits``, a reference to a path that has no record, or a top-level key holding
  ///   the format version, which the writer stamps.
  /// - Complexity: O(n) in the size of the archive.
  public func encoded() throws(RestorationError) -> [UInt8] {
    try encoded(allowingDuplicatePaths: false)
  }

  /// Writes the archive; with `allowingDuplicatePaths`, records may share a path (references
  /// then point at the first), with `version` the file declares another format, and paths are
  /// held to `limits`: only tests of hostile archives need them.
  package func encoded(
    allowingDuplicatePaths: Bool, version: Version = .current, limits: ArchiveLimits = .default
  ) throws(RestorationError) -> [UInt8] {
    for key in [Key.majorVersion, Key.minorVersion] where topLevel[key] != nil {
      throw RestorationError(
        .encodingFailed, "the top-level key '\(key)' is the format version, which the writer stamps"
      )
    }
    var writer = ArchiveWriter()
    var recordsByPath: [PathKey: Int] = [:]
    var parents: [Int] = []
    var total = 0
    for (index, record) in records.enumerated() {
      let path = record.identifierPath
      if let problem = limits.identifierPathProblem(path, total: &total) {
        throw RestorationError(.encodingFailed, "\(problem)", identifierPath: path)
      }
      if recordsByPath[PathKey(path)] != nil {
        guard allowingDuplicatePaths else {
          throw RestorationError(
            .encodingFailed, "two records share the identifier path", identifierPath: path)
        }
      } else {
        recordsByPath[PathKey(path)] = index
      }
      parents.append(IdentifierPath.parent(of: path).flatMap { recordsByPath[PathKey($0)] } ?? -1)
      writer.addRecord(
        type: writer.typeNumber(
          of: RecordType(
            kind: record.kind, className: record.className,
            restorationClassName: record.restorationClassName, storyboard: record.storyboard,
            stateVersion: record.stateVersion)))
    }
    for (index, record) in records.enumerated() {
      do {
        var values: [Int] = []
        for (_, value) in record.state {
          values.append(try writer.add(value, records: recordsByPath))
        }
        writer.setState(
          ofRecord: index, keys: record.state.keys.map { writer.plist.addString($0) },
          values: values, sensitiveKeys: record.sensitiveKeys)
      } catch {
        var located = error
        located.identifierPath = located.identifierPath ?? record.identifierPath
        throw located
      }
    }
    var top: [(key: String, value: Int)] = []
    for (key, value) in topLevel {
      top.append((key, try writer.add(value, records: recordsByPath)))
    }
    return writer.finish(
      topLevel: top, paths: records.map(\.identifierPath), parents: parents, order: nil,
      version: version)
  }
}
