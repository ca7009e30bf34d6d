/// The records the archive writer writes: a ``RestorationArchive``'s, or those of a
/// preservation pass, which the writer reads straight from the objects' coders.
///
/// Both go through ``BinaryPropertyListWriter/archiveBytes(topLevel:records:resolve:)``, so an
/// archive written during a preserve has the same bytes as `makeArchive(roots:)` followed by
/// `encoded()`.
protocol ArchiveRecordSource {
  /// The number of records.
  var count: Int { get }
  /// The fields of the record at a position of the archive.
  func identifierPath(at position: Int) -> String
  func kind(at position: Int) -> RestorationKind
  func className(at position: Int) -> String
  func restorationClassName(at position: Int) -> String?
  func storyboard(at position: Int) -> StoryboardReference?
  /// The record's sensitive keys, sorted.
  func sensitiveKeys(at position: Int) -> [String]
  /// Adds the record's state dictionary, keys in the order written, and returns its reference.
  mutating func addState(
    at position: Int,
    to writer: inout BinaryPropertyListWriter,
    resolve: (String) throws(RestorationError) -> Int
  ) throws(RestorationError) -> Int
}

/// The records of a ``RestorationArchive``, read in place.
///
/// Records are read through a buffer pointer (`records[index].field`): binding each to a local,
/// or reading it through the array's subscript, copies it, retaining and releasing its strings
/// and arrays, which cost as much as writing it.
struct ArchiveRecords: ArchiveRecordSource {
  let records: UnsafeBufferPointer<RestorationArchive.Record>

  var count: Int { records.count }
  func identifierPath(at position: Int) -> String { records[position].identifierPath }
  func kind(at position: Int) -> RestorationKind { records[position].kind }
  func className(at position: Int) -> String { records[position].className }
  func restorationClassName(at position: Int) -> String? {
    records[position].restorationClassName
  }
  func storyboard(at position: Int) -> StoryboardReference? { records[position].storyboard }
  func sensitiveKeys(at position: Int) -> [String] { records[position].sensitiveKeys }

  mutating func addState(
    at position: Int,
    to writer: inout BinaryPropertyListWriter,
    resolve: (String) throws(RestorationError) -> Int
  ) throws(RestorationError) -> Int {
    try writer.addDictionary(records[position].state, resolve: resolve)
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
  func kind(at position: Int) -> RestorationKind { record(position).kind }
  func className(at position: Int) -> String { record(position).className }
  func restorationClassName(at position: Int) -> String? { record(position).restorationClassName }
  func storyboard(at position: Int) -> StoryboardReference? { record(position).storyboard }
  func sensitiveKeys(at position: Int) -> [String] {
    let keys = record(position).coder.sensitiveKeys
    return keys.isEmpty ? [] : keys.sorted()
  }

  mutating func addState(
    at position: Int,
    to writer: inout BinaryPropertyListWriter,
    resolve: (String) throws(RestorationError) -> Int
  ) throws(RestorationError) -> Int {
    let coder = pass.records[pass.recordIndex(at: position)].coder
    let names = pass.keys.names
    if keyReferences.count < names.count {
      // Keys first written after the walk (a coder kept and written to later).
      keyReferences.append(
        contentsOf: repeatElement(-1, count: names.count - keyReferences.count))
    }
    return try writer.addDictionary(
      entries: coder.entries, keyNames: names, keyReferences: &keyReferences, resolve: resolve)
  }
}

extension BinaryPropertyListWriter {
  /// Writes an archive: the root dictionary with its checksum, format, top level and records, in
  /// the layout of docs/ArchiveFormat.md.
  static func archiveBytes<Records: ArchiveRecordSource>(
    topLevel: KeyedValues,
    records: inout Records,
    resolve: (String) throws(RestorationError) -> Int
  ) throws(RestorationError) -> [UInt8] {
    var writer = BinaryPropertyListWriter(estimatedObjectCount: records.count * 12 + 16)
    let checksum = writer.addChecksumPlaceholder()
    let topLevelReference = try writer.addDictionary(topLevel, resolve: resolve)

    // Field names, kinds and class names repeat in every record: look each up once. (No nested
    // functions here: capturing the writer would move it to the heap and check exclusivity on
    // every access.)
    let pathKey = writer.add(string: ArchiveField.path)
    let kindKey = writer.add(string: ArchiveField.kind)
    let classKey = writer.add(string: ArchiveField.className)
    let stateKey = writer.add(string: ArchiveField.state)
    var kindReferences: [Int?] = Array(repeating: nil, count: RestorationKind.allCases.count)
    var lastClass: (name: String, reference: Int)?
    var restorationClassKey: Int?
    var lastRestorationClass: (name: String, reference: Int)?

    var recordReferences: [Int] = []
    recordReferences.reserveCapacity(records.count)
    var keys: [Int] = []
    var values: [Int] = []
    for index in 0..<records.count {
      keys.removeAll(keepingCapacity: true)
      values.removeAll(keepingCapacity: true)
      keys.append(pathKey)
      values.append(writer.add(string: records.identifierPath(at: index)))
      let kindSlot = records.kind(at: index).slot
      let kind: Int
      if let known = kindReferences[kindSlot] {
        kind = known
      } else {
        kind = writer.add(string: records.kind(at: index).rawValue)
        kindReferences[kindSlot] = kind
      }
      keys.append(kindKey)
      values.append(kind)
      let className: Int
      if let lastClass, lastClass.name == records.className(at: index) {
        className = lastClass.reference
      } else {
        className = writer.add(string: records.className(at: index))
        lastClass = (records.className(at: index), className)
      }
      keys.append(classKey)
      values.append(className)
      if let restorationClass = records.restorationClassName(at: index) {
        let key = restorationClassKey ?? writer.add(string: ArchiveField.restorationClass)
        restorationClassKey = key
        keys.append(key)
        if let last = lastRestorationClass, last.name == restorationClass {
          values.append(last.reference)
        } else {
          let reference = writer.add(string: restorationClass)
          lastRestorationClass = (restorationClass, reference)
          values.append(reference)
        }
      }
      if let storyboard = records.storyboard(at: index) {
        keys.append(writer.add(string: ArchiveField.storyboard))
        values.append(writer.add(string: storyboard.name))
        if let identifier = storyboard.identifier {
          keys.append(writer.add(string: ArchiveField.storyboardIdentifier))
          values.append(writer.add(string: identifier))
        }
      }
      let sensitiveKeys = records.sensitiveKeys(at: index)
      if !sensitiveKeys.isEmpty {
        var sensitive: [Int] = []
        for key in sensitiveKeys { sensitive.append(writer.add(string: key)) }
        keys.append(writer.add(string: ArchiveField.sensitiveKeys))
        values.append(writer.addArray(sensitive))
      }
      do throws(RestorationError) {
        let state = try records.addState(at: index, to: &writer, resolve: resolve)
        keys.append(stateKey)
        values.append(state)
      } catch {
        var located = error
        located.identifierPath = records.identifierPath(at: index)
        throw located
      }
      recordReferences.append(writer.addDictionary(keys: keys, values: values))
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
    return writer.makeBytes(top: root)
  }
}
