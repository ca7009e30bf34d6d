internal import BinaryPropertyList

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
  package func encoded(allowingDuplicatePaths: Bool) throws(RestorationError) -> [UInt8] {
    var positions: [PathKey: Int] = [:]
    positions.reserveCapacity(records.count)
    for (index, record) in records.enumerated()
    where positions.updateValue(index, forKey: PathKey(record.identifierPath)) != nil {
      guard allowingDuplicatePaths else {
        throw RestorationError(
          .encodingFailed, "two records share the identifier path",
          identifierPath: record.identifierPath)
      }
    }
    // With duplicates, references point at the first record of a path.
    if allowingDuplicatePaths {
      for (index, record) in records.enumerated().reversed() {
        positions[PathKey(record.identifierPath)] = index
      }
    }
    var writer = BinaryPropertyListWriter()
    // The checksum's object comes first, so that it starts at byte 8.
    let checksum = writer.addData([0, 0, 0, 0])
    let record = { (path: String) in positions[PathKey(path)] }
    var recordObjects: [Int] = []
    recordObjects.reserveCapacity(records.count)
    for entry in records {
      do {
        recordObjects.append(try Self.add(entry, to: &writer, record: record))
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
    _ record: Record, to writer: inout BinaryPropertyListWriter, record position: (String) -> Int?
  ) throws(RestorationError) -> Int {
    var keys: [Int] = []
    var values: [Int] = []
    func field(_ name: String, _ value: Int) {
      keys.append(writer.addString(name))
      values.append(value)
    }
    // Paths are unique among records: looking each up to write it once would find nothing.
    field(ArchiveField.path, writer.addString(record.identifierPath, uniquing: false))
    field(ArchiveField.kind, writer.addString(record.kind.rawValue))
    field(ArchiveField.className, writer.addString(record.className))
    if let name = record.restorationClassName {
      field(ArchiveField.restorationClass, writer.addString(name))
    }
    if let storyboard = record.storyboard {
      field(ArchiveField.storyboard, writer.addString(storyboard.name))
      if let identifier = storyboard.identifier {
        field(ArchiveField.storyboardIdentifier, writer.addString(identifier))
      }
    }
    if !record.sensitiveKeys.isEmpty {
      field(
        ArchiveField.sensitiveKeys,
        writer.addArray(record.sensitiveKeys.map { writer.addString($0) }))
    }
    field(ArchiveField.state, try writer.add(record.state, record: position))
    return writer.addDictionary(keys: keys, values: values)
  }
}
