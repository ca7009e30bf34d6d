// The on-disk layout of a restoration archive (docs/ArchiveFormat.md):
//
//   root dictionary
//     checksum  data(4)  CRC-32 of every byte after this object; always the object at byte 8
//     format    "StateRestorationArchive"
//     topLevel  dictionary: version keys, bundle/system version, timestamp, idiom, app keys
//     objects   array of records, parents before children:
//                 path, kind, class, restorationClass?, storyboard?, storyboardIdentifier?,
//                 sensitiveKeys?, state (dictionary; references are UIDs = record indices)

/// The field names of the archive layout.
enum ArchiveField {
  static let checksum = "checksum"
  static let format = "format"
  static let topLevel = "topLevel"
  static let objects = "objects"
  static let path = "path"
  static let kind = "kind"
  static let className = "class"
  static let restorationClass = "restorationClass"
  static let storyboard = "storyboard"
  static let storyboardIdentifier = "storyboardIdentifier"
  static let sensitiveKeys = "sensitiveKeys"
  static let state = "state"
  /// The value of the `format` field.
  static let formatName = "StateRestorationArchive"
}

extension RestorationArchive {
  /// Writes the archive as a binary property list.
  ///
  /// - Returns: The file's bytes.
  /// - Throws: ``RestorationError`` when two records share a path or a value references a path
  ///   that has no record.
  /// - Complexity: O(n) in the size of the archive.
  public func encoded() throws(RestorationError) -> [UInt8] {
    try encoded(allowingDuplicatePaths: false)
  }

  /// Writes the archive; with `allowingDuplicatePaths`, records may share a path (references
  /// then point at the first), which only tests of hostile archives need.
  ///
  /// - Parameters:
  ///   - allowingDuplicatePaths: Let records share a path.
  ///   - concurrently: Write part of a large file on a background queue, as preserves do.
  /// - Returns: The file's bytes.
  /// - Throws: The errors of ``encoded()``, but for shared paths when they are allowed.
  package func encoded(
    allowingDuplicatePaths: Bool, concurrently: Bool = false
  ) throws(RestorationError) -> [UInt8] {
    var table = StringTable(capacity: records.count)
    for (index, record) in records.enumerated() {
      let inserted = table.insert(record.identifierPath, index).inserted
      guard inserted || allowingDuplicatePaths else {
        throw RestorationError(
          .encodingFailed,
          "two records share the identifier path",
          identifierPath: record.identifierPath
        )
      }
    }
    // A constant, so that the closure reads the table in place instead of copying it per call.
    let indices = table
    return try records.withUnsafeBufferPointer { (records) throws(RestorationError) in
      var source = ArchiveRecords(records: records)
      return try ArchiveBuilder.archiveBytes(
        topLevel: topLevel, records: &source, resolve: { indices.value(forBytes: $0.bytes) },
        concurrently: concurrently)
    }
  }

  /// Reads an archive from the bytes of a file, checking everything.
  ///
  /// The checksum is verified before anything else is decoded, so a torn or corrupted file is
  /// rejected whole, never half-read.
  ///
  /// - Parameters:
  ///   - bytes: The file's bytes.
  ///   - limits: Limits on the input.
  /// - Throws: ``RestorationError``: ``RestorationError/Code/notPropertyList``,
  ///   ``RestorationError/Code/truncated``, ``RestorationError/Code/malformed``,
  ///   ``RestorationError/Code/checksumMismatch``, ``RestorationError/Code/notArchive``,
  ///   ``RestorationError/Code/unsupportedVersion`` or ``RestorationError/Code/limitExceeded``.
  /// - Complexity: O(n) in the size of the file.
  public init(decoding bytes: [UInt8], limits: ArchiveLimits = .default) throws(RestorationError) {
    self = try Self.read(bytes, limits: limits, lazily: false).archive
  }

  /// Reads an archive and checks every byte of it, as ``init(decoding:limits:)`` does, leaving
  /// the records' states in the file: each record's `state` is empty, and the returned
  /// ``ArchiveStates`` reads its values when a decoder asks for them.
  ///
  /// A restore reads most values once, into the app's own properties: building every value
  /// first, then a `KeyedValues` per record, then freeing them all cost more than the rest of
  /// the restore.
  ///
  /// - Parameters:
  ///   - bytes: The file's bytes.
  ///   - limits: Limits on the input.
  ///   - concurrently: Use a background queue for part of the work on a large file: the CRC-32
  ///     is computed while the structure is checked, and the later half of the records' states
  ///     is checked, from before the paths are read, while this thread reads the paths and
  ///     checks the rest. The outcome is the same as on one thread:
  ///     a checksum mismatch is thrown whatever the structure's check found, any other error is
  ///     the one a check on one thread finds first, and nothing is returned before the checksum
  ///     matched.
  ///   - pathsRead: Called with the records' paths once they are read, before the states are
  ///     checked: work that needs only the paths can start while the rest is checked. The file
  ///     may still be refused afterwards.
  /// - Returns: The archive, with empty states, and the states read from the file.
  /// - Throws: The errors of ``init(decoding:limits:)``, for the same input.
  package static func readLazily(
    _ bytes: [UInt8],
    limits: ArchiveLimits,
    concurrently: Bool = false,
    pathsRead: (([String]) -> Void)? = nil
  ) throws(RestorationError) -> (archive: RestorationArchive, states: ArchiveStates) {
    let (archive, states) = try read(
      bytes, limits: limits, lazily: true, concurrently: concurrently, pathsRead: pathsRead)
    // A lazy read always makes the states; the optional is only for the eager one.
    guard let states else {
      throw RestorationError(.malformed, "the archive's states could not be read")
    }
    return (archive, states)
  }

  /// The smallest file whose checksum is worth a background queue: below it, handing the work
  /// over costs about as much as the work.
  package static let concurrentChecksumThreshold = 256 * 1024

  private static func read(
    _ bytes: [UInt8],
    limits: ArchiveLimits,
    lazily: Bool,
    concurrently: Bool = false,
    pathsRead: (([String]) -> Void)? = nil
  ) throws(RestorationError) -> (archive: RestorationArchive, states: ArchiveStates?) {
    let reader = try BinaryPropertyListReader(bytes: bytes, limits: limits)
    let stored = try storedChecksum(bytes)
    guard concurrently, bytes.count >= concurrentChecksumThreshold else {
      try verifyChecksum(stored: stored, computed: checksum(of: bytes))
      return try readChecksummed(
        reader, lazily: lazily, concurrently: concurrently, pathsRead: pathsRead)
    }
    let pending = BackgroundResult(on: restoreReadQueue) { checksum(of: bytes) }
    let result: (archive: RestorationArchive, states: ArchiveStates?)
    do {
      result = try readChecksummed(
        reader, lazily: lazily, concurrently: concurrently, pathsRead: pathsRead)
    } catch {
      // A torn file fails as torn, whatever its structure's check ran into first.
      try verifyChecksum(stored: stored, computed: pending.wait())
      throw error
    }
    try verifyChecksum(stored: stored, computed: pending.wait())
    return result
  }

  /// Reads an archive whose checksum is checked by the caller.
  private static func readChecksummed(
    _ reader: consuming BinaryPropertyListReader,
    lazily: Bool,
    concurrently: Bool,
    pathsRead: (([String]) -> Void)?
  ) throws(RestorationError) -> (archive: RestorationArchive, states: ArchiveStates?) {
    var archive = RestorationArchive()
    var reader = reader

    guard try reader.type(of: reader.topObject) == .dictionary else {
      throw RestorationError(.notArchive, "the top object is not a dictionary")
    }
    var fields = FieldReader()
    let root = try fields.read(reader.topObject, &reader)
    guard let format = root[.format],
      try reader.type(of: format) == .asciiString,
      try reader.string(format) == ArchiveField.formatName
    else {
      throw RestorationError(.notArchive, "no 'format' field naming a restoration archive")
    }
    guard let checksum = root[.checksum],
      try reader.offset(of: checksum) == ArchiveChecksum.offset
    else {
      throw RestorationError(.notArchive, "the checksum field is not the object at byte 8")
    }
    guard let topLevelReference = root[.topLevel],
      try reader.type(of: topLevelReference) == .dictionary
    else {
      throw RestorationError(.notArchive, "no 'topLevel' dictionary")
    }
    guard let objectsReference = root[.objects],
      try reader.type(of: objectsReference) == .array
    else {
      throw RestorationError(.notArchive, "no 'objects' array")
    }

    // Record paths first: UIDs anywhere in the archive are record indices.
    let (recordCount, recordStart) = try reader.containerSpan(objectsReference, isDictionary: false)
    // A large archive's later states are checked on a background queue from here on, while this
    // thread reads the paths: started after them, the check left a core idle while they were
    // read.
    let laterStates =
      lazily && concurrently && recordCount >= concurrentStateCheckThreshold
      ? Self.checkLaterStates(of: recordCount, at: recordStart, reader) : nil
    var recordFields: [RecordFields] = []
    recordFields.reserveCapacity(recordCount)
    var paths: [String] = []
    paths.reserveCapacity(recordCount)
    var pathLength = 0
    for index in 0..<recordCount {
      let reference = reader.reference(at: recordStart, index)
      guard try reader.type(of: reference) == .dictionary else {
        throw RestorationError(.malformed, "object record \(index) is not a dictionary")
      }
      let record = try fields.read(reference, &reader)
      let path = try Self.stringField(.path, of: record, record: index, &reader, caching: false)
      if let problem = reader.limits.identifierPathProblem(path, total: &pathLength) {
        throw RestorationError(.limitExceeded, "object record \(index): \(problem)")
      }
      paths.append(path)
      recordFields.append(record)
    }
    pathsRead?(paths)
    let uid = { (index: Int) throws(RestorationError) -> String in
      guard index < paths.count else {
        throw BinaryPropertyListReader.recordReferenceError(index, recordCount: paths.count)
      }
      return paths[index]
    }

    archive.topLevel = try reader.keyedValues(topLevelReference, depth: 1, uid: uid)
    guard let version = archive.version else {
      throw RestorationError(.notArchive, "the top level has no format version keys")
    }
    // Layout versions start at 1.0: a smaller major was never written, so it is not this
    // layout, whatever the rest of the file looks like.
    guard version.major >= 1 else {
      throw RestorationError(
        .unsupportedVersion, "layout version \(version) is not a known version")
    }
    guard version.major <= Version.current.major else {
      throw RestorationError(
        .unsupportedVersion,
        "archive format \(version) is newer than the supported \(Version.current)"
      )
    }

    guard lazily else {
      let read = try readRecords(recordFields, paths: paths, uid: uid, lazily: false, &reader)
      archive.records = read.records
      return (archive, nil)
    }
    // A large archive's later states are checked on a background queue while this thread
    // checks the rest. Whenever either half fails, or the halves together spend more than the
    // file's budget, the records are read again on this thread: a refused file is refused with
    // exactly the error one thread finds first.
    var checkedConcurrently = false
    var read: RecordsRead
    if let laterStates,
      let halves = readRecordsInHalves(
        recordFields, paths: paths, uid: uid, reader, laterStates: laterStates)
    {
      (read, reader) = halves
      checkedConcurrently = true
    } else {
      read = try readRecords(recordFields, paths: paths, uid: uid, lazily: true, &reader)
    }
    archive.records = read.records
    reader.endBudget()
    return (
      archive,
      ArchiveStates(
        reader: reader, paths: paths, spans: read.spans, entries: read.entries,
        checkedConcurrently: checkedConcurrently)
    )
  }

  /// The smallest number of records whose states are worth checking in two halves, one on a
  /// background queue.
  package static let concurrentStateCheckThreshold = 512

  /// The records of an archive, with the states' spans and entries of a lazy read.
  private struct RecordsRead {
    var records: [Record] = []
    var spans: [ArchiveStates.Span] = []
    var entries = CheckedEntries()
  }

  /// The states of a run of records, checked by a reader of their own.
  private struct CheckedStates: Sendable {
    /// The spans, from the first entry of `entries`.
    var spans: [ArchiveStates.Span] = []
    var entries = CheckedEntries()
    /// The key names, by the key numbers in `entries`.
    var keyNames: [String] = []
    /// How much of the value budget the check spent.
    var spentBudget = 0
  }

  /// Reads the records on this thread while the background check of the later half's states
  /// goes on, and merges the two; nil when either half failed or the halves overspent the
  /// budget.
  ///
  /// - Returns: The records, and the reader that checked the first half, with the key names of
  ///   both and the budget of both spent.
  private static func readRecordsInHalves(
    _ recordFields: [RecordFields],
    paths: [String],
    uid: @escaping (Int) throws(RestorationError) -> String,
    _ reader: BinaryPropertyListReader,
    laterStates pending: BackgroundResult<CheckedStates?>
  ) -> (RecordsRead, BinaryPropertyListReader)? {
    let split = laterStatesStart(of: recordFields.count)
    var reader = reader
    // A failure of this half is the caller's to find again, on one thread.
    guard
      var read = try? readRecords(
        recordFields, paths: paths, uid: uid, lazily: true, statesBefore: split, &reader),
      let later = pending.wait(),
      reader.spendBudget(later.spentBudget)
    else { return nil }
    let numbers = reader.keyNumbers(ofNames: later.keyNames)
    let first = read.entries.count
    read.entries.append(contentsOf: later.entries, renumbering: numbers)
    for span in later.spans {
      read.spans.append(ArchiveStates.Span(count: span.count, first: first + span.first))
    }
    return (read, reader)
  }

  /// The first record whose state a concurrent read checks on a background queue.
  private static func laterStatesStart(of recordCount: Int) -> Int { recordCount / 2 }

  /// Starts checking the states of the later half of the records on a background queue, with
  /// a reader of its own that reads their fields too; nil from the result when any of them
  /// fails, which the caller then finds again on one thread.
  private static func checkLaterStates(
    of recordCount: Int, at recordStart: Int, _ reader: BinaryPropertyListReader
  ) -> BackgroundResult<CheckedStates?> {
    BackgroundResult(on: restoreReadQueue) { [reader] () -> CheckedStates? in
      var reader = reader
      var fields = FieldReader()
      let budget = reader.remainingBudget
      let split = laterStatesStart(of: recordCount)
      var checked = CheckedStates()
      checked.spans.reserveCapacity(recordCount - split)
      for index in split..<recordCount {
        let reference = reader.reference(at: recordStart, index)
        // A record or a state that is not a dictionary only ends this check: the calling thread
        // reports it, with the error one thread finds first.
        guard (try? reader.type(of: reference)) == .dictionary,
          let record = try? fields.read(reference, &reader),
          let span = try? checkState(
            record[.state], recordCount: recordCount, into: &checked.entries, &reader)
        else { return nil }
        checked.spans.append(span)
      }
      checked.keyNames = reader.keyNames
      checked.spentBudget = budget - reader.remainingBudget
      return checked
    }
  }

  /// Reads every record's fields after the paths, and checks (lazily) or reads its state.
  ///
  /// - Parameters:
  ///   - recordFields: The records' fields.
  ///   - paths: The records' paths.
  ///   - uid: Maps a UID to the path of the record it names, for an eager read.
  ///   - lazily: Check the states instead of reading them.
  ///   - statesBefore: A lazy read checks the states of the records before this index only;
  ///     the others are left to the caller.
  ///   - reader: The file's reader.
  /// - Returns: The records, with the states' spans and entries of a lazy read.
  /// - Throws: The first error in the records, in file order.
  private static func readRecords(
    _ recordFields: [RecordFields],
    paths: [String],
    uid: @escaping (Int) throws(RestorationError) -> String,
    lazily: Bool,
    statesBefore: Int = .max,
    _ reader: inout BinaryPropertyListReader
  ) throws(RestorationError) -> RecordsRead {
    var read = RecordsRead()
    // Empty records first, each filled in below; an error throws the whole array away.
    read.records = Array(
      repeating: Record(identifierPath: "", kind: .object, className: ""),
      count: recordFields.count)
    if lazily {
      read.spans.reserveCapacity(recordFields.count)
      // About as many entries per state as apps write keys: one allocation instead of a dozen.
      // Capped by the object count, so records sharing one state object reserve no more than
      // the file's size allows.
      read.entries.reserveCapacity(min(recordFields.count * 8, reader.objectCount))
    }
    // Kind strings are shared by every record that has the kind: parse each object once.
    var kinds: [(reference: Int, kind: RestorationKind)] = []
    for (index, fields) in recordFields.enumerated() {
      guard let kindReference = fields[.kind] else {
        throw RestorationError(.malformed, "object record \(index) has no 'kind'")
      }
      let kind: RestorationKind
      if let known = kinds.first(where: { $0.reference == kindReference }) {
        kind = known.kind
      } else {
        let kindName = try Self.stringField(.kind, of: fields, record: index, &reader)
        guard let parsed = RestorationKind(rawValue: kindName) else {
          throw RestorationError(
            .malformed,
            "object record \(index) has unknown kind '\(kindName)'",
            identifierPath: paths[index]
          )
        }
        kind = parsed
        if kinds.count < 8 { kinds.append((kindReference, parsed)) }
      }
      let className = try Self.stringField(.className, of: fields, record: index, &reader)
      let restorationClass = try Self.optionalStringField(
        .restorationClass,
        of: fields,
        record: index,
        &reader
      )
      let storyboardName = try Self.optionalStringField(
        .storyboard,
        of: fields,
        record: index,
        &reader
      )
      let storyboardIdentifier = try Self.optionalStringField(
        .storyboardIdentifier,
        of: fields,
        record: index,
        &reader
      )
      var sensitiveKeys: [String] = []
      if let reference = fields[.sensitiveKeys] {
        guard try reader.type(of: reference) == .array else {
          throw Self.fieldError(ArchiveField.sensitiveKeys, "an array", record: index, paths[index])
        }
        let (count, start) = try reader.containerSpan(reference, isDictionary: false)
        for element in 0..<count {
          sensitiveKeys.append(try reader.string(reader.reference(at: start, element)))
        }
      }
      var state = KeyedValues()
      let stateReference = fields[.state]
      if let stateReference, try reader.type(of: stateReference) != .dictionary {
        throw Self.fieldError(ArchiveField.state, "a dictionary", record: index, paths[index])
      }
      do {
        if !lazily {
          if let stateReference {
            state = try reader.keyedValues(stateReference, depth: 2, uid: uid)
          }
        } else if index < statesBefore {
          read.spans.append(
            try checkState(
              stateReference, recordCount: paths.count, into: &read.entries, &reader))
        }
      } catch {
        var located = error
        located.identifierPath = paths[index]
        throw located
      }
      // The fields set where the record lies: a whole record appended was copied into the
      // array and the original destroyed, a thirtieth of a restore.
      read.records[index].identifierPath = paths[index]
      read.records[index].kind = kind
      read.records[index].className = className
      read.records[index].restorationClassName = restorationClass
      if let storyboardName {
        read.records[index].storyboard = StoryboardReference(
          name: storyboardName, identifier: storyboardIdentifier)
      }
      if !state.isEmpty { read.records[index].state = state }
      if !sensitiveKeys.isEmpty { read.records[index].sensitiveKeys = sensitiveKeys }
    }
    return read
  }

  /// Checks a record's state dictionary, if it has one, appending its entries.
  ///
  /// - Returns: Where the state's entries lie in `entries`.
  private static func checkState(
    _ reference: Int?,
    recordCount: Int,
    into entries: inout CheckedEntries,
    _ reader: inout BinaryPropertyListReader
  ) throws(RestorationError) -> ArchiveStates.Span {
    var span = ArchiveStates.Span(count: 0, first: entries.count)
    if let reference {
      span.count = try reader.checkKeyedValues(
        reference, depth: 2, recordCount: recordCount, into: &entries)
    }
    return span
  }

  /// The CRC-32 stored at byte 8.
  private static func storedChecksum(_ bytes: [UInt8]) throws(RestorationError) -> UInt32 {
    let start = ArchiveChecksum.offset
    guard bytes.count > start + ArchiveChecksum.objectSize, bytes[start] == 0x44 else {
      throw RestorationError(.notArchive, "no checksum object at byte 8", offset: start)
    }
    var stored: UInt32 = 0
    for index in 1...4 { stored = stored << 8 | UInt32(bytes[start + index]) }
    return stored
  }

  /// The CRC-32 of every byte after the checksum object; the file holds one
  /// (``storedChecksum(_:)`` returned).
  static func checksum(of bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBytes { raw in
      CRC32.checksum(
        UnsafeRawBufferPointer(
          rebasing: raw[min(raw.count, ArchiveChecksum.offset + ArchiveChecksum.objectSize)...]))
    }
  }

  /// Checks the CRC-32 stored at byte 8 against the one computed from the bytes after it.
  private static func verifyChecksum(
    stored: UInt32, computed: UInt32
  ) throws(RestorationError) {
    guard stored == computed else {
      throw RestorationError(
        .checksumMismatch,
        "checksum is \(hex(stored)) but the contents give \(hex(computed)): the file is torn or corrupted"
      )
    }
  }

  private static func stringField(
    _ field: RecordField,
    of fields: RecordFields,
    record index: Int,
    _ reader: inout BinaryPropertyListReader,
    caching: Bool = true
  ) throws(RestorationError) -> String {
    guard
      let value = try optionalStringField(
        field, of: fields, record: index, &reader, caching: caching)
    else {
      throw RestorationError(.malformed, "object record \(index) has no '\(field.name)'")
    }
    return value
  }

  private static func optionalStringField(
    _ field: RecordField,
    of fields: RecordFields,
    record index: Int,
    _ reader: inout BinaryPropertyListReader,
    caching: Bool = true
  ) throws(RestorationError) -> String? {
    guard let reference = fields[field] else { return nil }
    let type = try reader.type(of: reference)
    guard type == .asciiString || type == .utf16String else {
      throw fieldError(field.name, "a string", record: index, nil)
    }
    return try reader.string(reference, caching: caching)
  }

  private static func fieldError(
    _ name: String,
    _ expected: String,
    record index: Int,
    _ path: String?
  ) -> RestorationError {
    RestorationError(
      .malformed,
      "object record \(index): '\(name)' is not \(expected)",
      identifierPath: path
    )
  }
}

private func hex(_ value: UInt32) -> String {
  let digits = String(value, radix: 16)
  return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
}

extension RestorationKind {
  /// A small index for per-kind tables.
  var slot: Int {
    switch self {
    case .viewController: 0
    case .view: 1
    case .object: 2
    }
  }
}

/// The fields of the archive's root and record dictionaries the reader looks for.
enum RecordField: Int, CaseIterable {
  case checksum, format, topLevel, objects
  case path, kind, className, restorationClass, storyboard, storyboardIdentifier, sensitiveKeys
  case state

  /// The field's name in the file.
  var name: String {
    switch self {
    case .checksum: ArchiveField.checksum
    case .format: ArchiveField.format
    case .topLevel: ArchiveField.topLevel
    case .objects: ArchiveField.objects
    case .path: ArchiveField.path
    case .kind: ArchiveField.kind
    case .className: ArchiveField.className
    case .restorationClass: ArchiveField.restorationClass
    case .storyboard: ArchiveField.storyboard
    case .storyboardIdentifier: ArchiveField.storyboardIdentifier
    case .sensitiveKeys: ArchiveField.sensitiveKeys
    case .state: ArchiveField.state
    }
  }
}

/// The value references of one dictionary's known fields; unknown fields are ignored.
struct RecordFields {
  // A tuple rather than an array: one heap allocation less per record read. `offset(of:)`
  // checks that every field has a slot (fields are a fixed list, never input).
  private var references: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
  )

  subscript(field: RecordField) -> Int? {
    get {
      let reference = withUnsafeBytes(of: references) { raw in
        raw.load(fromByteOffset: Self.offset(of: field), as: Int.self)
      }
      return reference < 0 ? nil : reference
    }
    set {
      withUnsafeMutableBytes(of: &references) { raw in
        raw.storeBytes(of: newValue ?? -1, toByteOffset: Self.offset(of: field), as: Int.self)
      }
    }
  }

  /// The byte offset of a field's slot.
  @inline(__always)
  private static func offset(of field: RecordField) -> Int {
    precondition(field.rawValue < slotCount, "RecordFields has a slot per field")
    return field.rawValue * MemoryLayout<Int>.stride
  }

  /// The number of slots.
  static let slotCount =
    MemoryLayout<(Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int)>.size
    / MemoryLayout<Int>.stride
}

/// Reads field dictionaries, recognising each key object once.
///
/// Writers share one string object per field name across all records, so the reader caches
/// which field a key object names, by object index, instead of reading and comparing the same
/// key string in every record. Keys are still checked to be strings, and a field named twice
/// keeps its last value, as a dictionary would.
struct FieldReader {
  /// The field each name names, by the reader's name number: -1 not yet seen, -2 no field.
  private var fieldOfName: [Int8] = []

  /// Reads a dictionary of fields; a key named twice is an error, as in every dictionary.
  mutating func read(
    _ reference: Int,
    _ reader: inout BinaryPropertyListReader
  ) throws(RestorationError) -> RecordFields {
    let (count, start) = try reader.containerSpan(reference, isDictionary: true)
    var fields = RecordFields()
    var otherNames: Set<Int32> = []
    for index in 0..<count {
      let key = reader.reference(at: start, index)
      let number = try reader.keyNumber(key)
      if Int(number) >= fieldOfName.count {
        fieldOfName += repeatElement(-1, count: Int(number) + 1 - fieldOfName.count)
      }
      if fieldOfName[Int(number)] == -1 {
        let name = reader.keyNames[Int(number)]
        fieldOfName[Int(number)] = Int8(
          RecordField.allCases.first { $0.name == name }?.rawValue ?? -2)
      }
      let field = RecordField(rawValue: Int(fieldOfName[Int(number)]))
      let repeated = field.map { fields[$0] != nil } ?? !otherNames.insert(number).inserted
      guard !repeated else {
        throw RestorationError(
          .malformed, "dictionary repeats the key '\(reader.keyNames[Int(number)])'",
          offset: try reader.offset(of: reference))
      }
      if let field { fields[field] = reader.reference(at: start, count + index) }
    }
    return fields
  }
}
