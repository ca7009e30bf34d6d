internal import BinaryPropertyList

extension RestorationArchive {
  /// Writes the archive as a binary property list.
  ///
  /// - Throws: ``RestorationError`` when two records share a path or a value references a path
  ///   that has no record.
  /// - Complexity: O(n) in the size of the archive.
  public func encoded() throws(RestorationError) -> [UInt8] {
    try encoded(allowingDuplicatePaths: false)
  }

  /// Writes the archive; with `allowingDuplicatePaths`, records may share a path (references
  /// then point at the first), which only tests of hostile archives need.
  package func encoded(allowingDuplicatePaths: Bool) throws(RestorationError) -> [UInt8] {
    let paths = ArchivedPaths(records.map(\.identifierPath))
    if !allowingDuplicatePaths,
      let index = records.indices.first(where: { paths.firstRecordOfPath[$0] != $0 })
    {
      throw RestorationError(
        .encodingFailed, "two records share the identifier path",
        identifierPath: records[index].identifierPath)
    }
    var writer = BinaryPropertyListWriter()
    // The checksum's object comes first, so that it starts at byte 8.
    let checksum = writer.addData([0, 0, 0, 0])
    // With duplicates, references point at the first record of a path.
    let record = { (path: String) in paths.firstRecord(of: path, among: records.count) }
    // Each path is stored as its nearest archived ancestor's, and the rest; whole in an archive
    // that declares the format 1.x.
    let wholePaths = (version?.major ?? Version.current.major) < 2
    var fields = FieldNames()
    var recordObjects: [Int] = []
    recordObjects.reserveCapacity(records.count)
    for (index, entry) in records.enumerated() {
      do {
        let parent = wholePaths ? nil : paths.ancestor(ofRecord: index)
        let name =
          parent.map {
            entry.identifierPath.utf8.dropFirst(records[$0].identifierPath.utf8.count + 1)
          }
          .map { String(decoding: $0, as: UTF8.self) } ?? entry.identifierPath
        recordObjects.append(
          try Self.add(
            entry, parent: parent, name: name, version: version, to: &writer, fields: &fields,
            record: record))
      } catch {
        var located = error
        located.identifierPath = located.identifierPath ?? entry.identifierPath
        throw located
      }
    }
    let topLevelObject = try writer.add(topLevel, record: record)
    let objects = writer.addArray(recordObjects)
    let root = writer.addDictionary(
      keys: [
        writer.addString(ArchiveField.checksum), writer.addString(ArchiveField.format),
        writer.addString(ArchiveField.topLevel), writer.addString(ArchiveField.objects),
      ],
      values: [checksum, writer.addString(ArchiveField.formatName), topLevelObject, objects])
    var bytes = writer.makeBytes(top: root)
    let start = ArchiveField.checksumOffset
    let crc = CRC32.checksum(bytes[(start + ArchiveField.checksumSize)...])
    for index in 0..<4 {
      bytes[start + 1 + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index))
    }
    return bytes
  }

  /// Adds a record's fields, in a fixed order, so that equal records give equal bytes.
  private static func add(
    _ record: Record, parent: Int?, name: String, version: Version?,
    to writer: inout BinaryPropertyListWriter, fields: inout FieldNames,
    record position: (String) -> Int?
  ) throws(RestorationError) -> Int {
    var keys: [Int] = []
    var values: [Int] = []
    keys.reserveCapacity(10)
    values.reserveCapacity(10)
    func field(_ name: RecordField, _ value: Int) {
      keys.append(fields.object(of: name, in: &writer))
      values.append(value)
    }
    if let version = version, version.major < 2 {
      field(.path, writer.addString(record.identifierPath))
    } else {
      if let parent { field(.parent, writer.addInteger(Int64(parent))) }
      field(.name, writer.addString(name))
    }
    field(.kind, writer.addString(record.kind.rawValue))
    field(.className, writer.addString(record.className))
    if let name = record.restorationClassName {
      field(.restorationClass, writer.addString(name))
    }
    if let storyboard = record.storyboard {
      field(.storyboard, writer.addString(storyboard.name))
      if let identifier = storyboard.identifier {
        field(.storyboardIdentifier, writer.addString(identifier))
      }
    }
    if !record.sensitiveKeys.isEmpty {
      field(
        .sensitiveKeys,
        writer.addArray(record.sensitiveKeys.map { writer.addString($0) }))
    }
    field(.state, try writer.add(record.state, record: position))
    return writer.addDictionary(keys: keys, values: values)
  }
}

/// A record's fields, by their names in the file (`ArchiveField`'s), which every record repeats.
private enum RecordField: String, CaseIterable {
  case path, parent, name, kind
  case className = "class"
  case restorationClass, storyboard
  case storyboardIdentifier, sensitiveKeys, state
}

/// The objects of the field names, each added to the writer the first time a record uses it,
/// so that records do not look their names up one by one.
private struct FieldNames {
  private var objects = [Int?](repeating: nil, count: RecordField.allCases.count)

  mutating func object(of field: RecordField, in writer: inout BinaryPropertyListWriter) -> Int {
    let index = RecordField.allCases.firstIndex(of: field) ?? 0
    if let known = objects[index] { return known }
    let object = writer.addString(field.rawValue)
    objects[index] = object
    return object
  }
}
