/// The records the archive writer writes: a ``RestorationArchive``'s, or those of a
/// preservation pass, which the writer reads straight from the objects' coders.
///
/// Both go through ``ArchiveBuilder``, so an archive written during a preserve has the same bytes
/// as `makeArchive(roots:)` followed by `encoded()`.
protocol ArchiveRecordSource {
  /// The number of records.
  var count: Int { get }
  /// The fields of the record at a position of the archive.
  func identifierPath(at position: Int) -> String
  /// The record's path as bytes that outlive the writer, or nil where it is only a string.
  func identifierPathBytes(at position: Int) -> PathBytes?
  func kind(at position: Int) -> RestorationKind
  func className(at position: Int) -> String
  func restorationClassName(at position: Int) -> String?
  func storyboard(at position: Int) -> StoryboardReference?
  /// The record's sensitive keys, sorted.
  func sensitiveKeys(at position: Int) -> [String]
  /// Adds the record's state dictionary, keys in the order written, and returns its reference.
  mutating func addState(at position: Int, to writer: inout BinaryPropertyListWriter) -> Int
}

/// The fields of a record that the writer takes as they are, named as in
/// ``RestorationArchive/Record``.
protocol ArchiveRecordFields {
  var identifierPath: String { get }
  /// The path as bytes that outlive the writer, or nil where it is only a string.
  var identifierPathBytes: PathBytes? { get }
  var kind: RestorationKind { get }
  var className: String { get }
  var restorationClassName: String? { get }
  var storyboard: StoryboardReference? { get }
  /// Sorted, as the archive lists them.
  var sensitiveKeys: [String] { get }
}

extension RestorationArchive.Record: ArchiveRecordFields {
  var identifierPathBytes: PathBytes? { nil }
}

/// Records held in a buffer, read in place.
///
/// Records are read through a buffer pointer (`records[index].field`): binding each to a local,
/// or reading it through the array's subscript, copies it, retaining and releasing its strings
/// and arrays, which cost as much as writing it.
protocol BufferedArchiveRecords: ArchiveRecordSource {
  associatedtype Record: ArchiveRecordFields
  var records: UnsafeBufferPointer<Record> { get }
}

extension BufferedArchiveRecords {
  var count: Int { records.count }
  func identifierPath(at position: Int) -> String { records[position].identifierPath }
  func identifierPathBytes(at position: Int) -> PathBytes? {
    records[position].identifierPathBytes
  }
  func kind(at position: Int) -> RestorationKind { records[position].kind }
  func className(at position: Int) -> String { records[position].className }
  func restorationClassName(at position: Int) -> String? {
    records[position].restorationClassName
  }
  func storyboard(at position: Int) -> StoryboardReference? { records[position].storyboard }
  func sensitiveKeys(at position: Int) -> [String] { records[position].sensitiveKeys }
}

/// The records of a ``RestorationArchive``.
struct ArchiveRecords: BufferedArchiveRecords {
  let records: UnsafeBufferPointer<RestorationArchive.Record>

  mutating func addState(at position: Int, to writer: inout BinaryPropertyListWriter) -> Int {
    writer.addDictionary(records[position].state)
  }
}

/// The records of a preservation pass, read from the objects' coders.
struct PassRecords: ArchiveRecordSource {
  let pass: PreservationPass
  /// The property list reference of each key name, by the key's number; -1 until first added.
  ///
  /// Key names repeat in every object of a kind: adding each once skips hashing it per object.
  private var keyReferences: [Int]

  init(pass: PreservationPass) {
    self.pass = pass
    keyReferences = [Int](repeating: -1, count: pass.keys.names.count)
  }

  var count: Int { pass.recordCount }

  @inline(__always)
  private func record(_ position: Int) -> PassRecord {
    pass.records[pass.recordIndex(at: position)]
  }

  func identifierPath(at position: Int) -> String { record(position).identifierPath }
  func identifierPathBytes(at position: Int) -> PathBytes? { record(position).identifierPathBytes }
  func kind(at position: Int) -> RestorationKind { record(position).kind }
  func className(at position: Int) -> String { record(position).className }
  func restorationClassName(at position: Int) -> String? { record(position).restorationClassName }
  func storyboard(at position: Int) -> StoryboardReference? { record(position).storyboard }
  func sensitiveKeys(at position: Int) -> [String] {
    let keys = record(position).coder.sensitiveKeys
    return keys.isEmpty ? [] : keys.sorted()
  }

  mutating func addState(at position: Int, to writer: inout BinaryPropertyListWriter) -> Int {
    let coder = pass.records[pass.recordIndex(at: position)].coder
    let names = pass.keys.names
    if keyReferences.count < names.count {
      // Keys first written after the walk (a coder kept and written to later).
      keyReferences.append(
        contentsOf: repeatElement(-1, count: names.count - keyReferences.count))
    }
    return coder.withEntries { entries in
      writer.addDictionary(entries: entries, keyNames: names, keyReferences: &keyReferences)
    }
  }
}

/// The fields a record has only sometimes, each as the references of its key and its value.
private struct OptionalFields {
  var restorationClass: (key: Int, value: Int)?
  var storyboard: (key: Int, value: Int)?
  var storyboardIdentifier: (key: Int, value: Int)?
  var sensitiveKeys: (key: Int, value: Int)?

  /// Adds the keys, or the values, of the fields present, in the archive's order.
  func addChildren(keys: Bool, to writer: inout BinaryPropertyListWriter) {
    // Spelled out rather than looped over an array of the four, which would be allocated.
    if let restorationClass {
      writer.addChild(keys ? restorationClass.key : restorationClass.value)
    }
    if let storyboard { writer.addChild(keys ? storyboard.key : storyboard.value) }
    if let storyboardIdentifier {
      writer.addChild(keys ? storyboardIdentifier.key : storyboardIdentifier.value)
    }
    if let sensitiveKeys { writer.addChild(keys ? sensitiveKeys.key : sensitiveKeys.value) }
  }
}

/// Builds an archive record by record, in the layout of docs/ArchiveFormat.md: the checksum,
/// then each record, then the top level, the `objects` array and the root.
///
/// Records are added in archive order; the top level comes last because the engine writes its
/// timestamp once the walk is done. References are resolved at the end too, so a record may
/// reference one not added yet.
struct ArchiveBuilder {
  private(set) var writer: BinaryPropertyListWriter
  private let checksum: Int
  // Field names, kinds and class names repeat in every record: each is looked up once.
  private let pathKey: Int
  private let kindKey: Int
  private let classKey: Int
  private let stateKey: Int
  private var kindReferences: [Int?] = Array(repeating: nil, count: RestorationKind.allCases.count)
  private var lastClass: (name: String, reference: Int)?
  private var restorationClassKey: Int?
  private var lastRestorationClass: (name: String, reference: Int)?
  private var recordReferences: [Int] = []
  /// Whether records' paths are noted as they are added, so that references to them resolve
  /// where the records are added (``BinaryPropertyListWriter/noteRecord(path:position:)``).
  private let resolvesEarly: Bool

  /// Starts an archive of about `estimatedRecordCount` records.
  ///
  /// - Parameters:
  ///   - estimatedRecordCount: About how many records the archive will have.
  ///   - resolvesEarly: Resolve references to records as the records are added: worth it
  ///     where records are added on another thread than the one that finishes the archive;
  ///     elsewhere it costs a lookup per record where resolving costs one per reference.
  init(estimatedRecordCount: Int, resolvesEarly: Bool = false) {
    self.resolvesEarly = resolvesEarly
    writer = BinaryPropertyListWriter(estimatedObjectCount: estimatedRecordCount * 12 + 16)
    checksum = writer.addChecksumPlaceholder()
    pathKey = writer.add(string: ArchiveField.path)
    kindKey = writer.add(string: ArchiveField.kind)
    classKey = writer.add(string: ArchiveField.className)
    stateKey = writer.add(string: ArchiveField.state)
    recordReferences.reserveCapacity(estimatedRecordCount)
  }

  /// The number of records added.
  var recordCount: Int { recordReferences.count }

  /// Adds the record at a position of `records`, as the next record of the archive.
  mutating func addRecord<Records: ArchiveRecordSource>(at index: Int, of records: inout Records) {
    // Fields are added in a fixed order, so that equal records give equal bytes; their
    // references are kept in locals and handed to the writer once all are known (keys, then
    // values, as the format lists them).
    // Paths are unique among records (a pass archives one object per path), and values that
    // equal a path are rare: two copies of one then cost less than a lookup per record.
    let path: Int
    if let bytes = records.identifierPathBytes(at: index) {
      path = writer.add(uniqueUTF8: bytes.utf8)
      if resolvesEarly { writer.noteRecord(path: bytes, position: recordReferences.count) }
    } else {
      path = writer.add(uniqueString: records.identifierPath(at: index))
      if resolvesEarly {
        writer.noteRecord(path: records.identifierPath(at: index), position: recordReferences.count)
      }
    }
    let kindSlot = records.kind(at: index).slot
    let kind: Int
    if let known = kindReferences[kindSlot] {
      kind = known
    } else {
      kind = writer.add(string: records.kind(at: index).rawValue)
      kindReferences[kindSlot] = kind
    }
    let className: Int
    if let lastClass, lastClass.name == records.className(at: index) {
      className = lastClass.reference
    } else {
      className = writer.add(string: records.className(at: index))
      lastClass = (records.className(at: index), className)
    }
    var optional = OptionalFields()
    if let name = records.restorationClassName(at: index) {
      let key = restorationClassKey ?? writer.add(string: ArchiveField.restorationClass)
      restorationClassKey = key
      if let last = lastRestorationClass, last.name == name {
        optional.restorationClass = (key, last.reference)
      } else {
        let value = writer.add(string: name)
        lastRestorationClass = (name, value)
        optional.restorationClass = (key, value)
      }
    }
    if let storyboard = records.storyboard(at: index) {
      optional.storyboard = (
        writer.add(string: ArchiveField.storyboard), writer.add(string: storyboard.name)
      )
      if let identifier = storyboard.identifier {
        optional.storyboardIdentifier = (
          writer.add(string: ArchiveField.storyboardIdentifier), writer.add(string: identifier)
        )
      }
    }
    let sensitiveKeys = records.sensitiveKeys(at: index)
    if !sensitiveKeys.isEmpty {
      let array = writer.beginContainer()
      for name in sensitiveKeys { writer.addChild(writer.add(string: name)) }
      optional.sensitiveKeys = (
        writer.add(string: ArchiveField.sensitiveKeys), writer.endArray(from: array)
      )
    }
    writer.referrer = recordReferences.count
    let state = records.addState(at: index, to: &writer)
    writer.referrer = -1

    let record = writer.beginContainer()
    writer.addChild(pathKey)
    writer.addChild(kindKey)
    writer.addChild(classKey)
    optional.addChildren(keys: true, to: &writer)
    writer.addChild(stateKey)
    writer.addChild(path)
    writer.addChild(kind)
    writer.addChild(className)
    optional.addChildren(keys: false, to: &writer)
    writer.addChild(state)
    recordReferences.append(writer.endDictionary(from: record))
  }

  /// Adds the top level, resolves every reference and writes the file's bytes.
  ///
  /// - Parameters:
  ///   - topLevel: The top-level values.
  ///   - recordPath: The identifier path of the record at an archive position, to locate errors.
  ///   - resolve: The archive position of the record with a path, or nil when none has it.
  ///   - concurrently: Write part of a large file, and compute its CRC-32, on a background
  ///     queue (``BinaryPropertyListWriter/makeBytes(top:concurrently:)``).
  /// - Returns: The file's bytes.
  /// - Throws: ``RestorationError`` (``RestorationError/Code/encodingFailed``) for a reference
  ///   to a path without record.
  mutating func finish(
    topLevel: KeyedValues,
    recordPath: (Int) -> String,
    resolve: (PathBytes) -> Int?,
    concurrently: Bool = false
  ) throws(RestorationError) -> [UInt8] {
    let topLevelReference = writer.addDictionary(topLevel)
    if let (path, referrer) = writer.resolveReferences(resolve) {
      throw RestorationError(
        .encodingFailed,
        "reference to '\(path)', which has no record in the archive",
        identifierPath: referrer >= 0 ? recordPath(referrer) : nil
      )
    }
    let objects = writer.addArray(recordReferences)
    let rootKeys = [
      writer.add(string: ArchiveField.checksum),
      writer.add(string: ArchiveField.format),
      writer.add(string: ArchiveField.topLevel),
      writer.add(string: ArchiveField.objects),
    ]
    let rootValues = [
      checksum, writer.add(string: ArchiveField.formatName), topLevelReference, objects,
    ]
    let root = writer.addDictionary(keys: rootKeys, values: rootValues)
    return writer.makeBytes(top: root, concurrently: concurrently)
  }

  /// Writes a whole archive: every record of `records` in order, then the top level.
  static func archiveBytes<Records: ArchiveRecordSource>(
    topLevel: KeyedValues,
    records: inout Records,
    resolve: (PathBytes) -> Int?,
    concurrently: Bool = false
  ) throws(RestorationError) -> [UInt8] {
    var builder = ArchiveBuilder(estimatedRecordCount: records.count)
    for index in 0..<records.count { builder.addRecord(at: index, of: &records) }
    return try builder.finish(
      topLevel: topLevel, recordPath: { records.identifierPath(at: $0) }, resolve: resolve,
      concurrently: concurrently)
  }
}
