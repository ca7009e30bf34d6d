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
  package func encoded(allowingDuplicatePaths: Bool) throws(RestorationError) -> [UInt8] {
    var indices: [String: Int] = [:]
    indices.reserveCapacity(records.count)
    for (index, record) in records.enumerated() {
      if allowingDuplicatePaths {
        if indices[record.identifierPath] == nil { indices[record.identifierPath] = index }
        continue
      }
      guard indices.updateValue(index, forKey: record.identifierPath) == nil else {
        throw RestorationError(
          .encodingFailed,
          "two records share the identifier path",
          identifierPath: record.identifierPath
        )
      }
    }
    let resolve = { (path: String) throws(RestorationError) -> Int in
      guard let index = indices[path] else {
        throw RestorationError(
          .encodingFailed,
          "reference to '\(path)', which has no record in the archive"
        )
      }
      return index
    }

    var writer = BinaryPropertyListWriter(estimatedObjectCount: records.count * 12 + 16)
    let checksum = writer.addChecksumPlaceholder()
    let topLevelReference = try writer.addDictionary(topLevel, resolve: resolve)

    var recordReferences: [Int] = []
    recordReferences.reserveCapacity(records.count)
    var keys: [Int] = []
    var values: [Int] = []
    for record in records {
      keys.removeAll(keepingCapacity: true)
      values.removeAll(keepingCapacity: true)
      func field(_ name: String, _ value: Int) {
        keys.append(writer.add(string: name))
        values.append(value)
      }
      field(ArchiveField.path, writer.add(string: record.identifierPath))
      field(ArchiveField.kind, writer.add(string: record.kind.rawValue))
      field(ArchiveField.className, writer.add(string: record.className))
      if let name = record.restorationClassName {
        field(ArchiveField.restorationClass, writer.add(string: name))
      }
      if let storyboard = record.storyboard {
        field(ArchiveField.storyboard, writer.add(string: storyboard.name))
        if let identifier = storyboard.identifier {
          field(ArchiveField.storyboardIdentifier, writer.add(string: identifier))
        }
      }
      if !record.sensitiveKeys.isEmpty {
        let names = record.sensitiveKeys.map { writer.add(string: $0) }
        field(ArchiveField.sensitiveKeys, writer.addArray(names))
      }
      do {
        field(ArchiveField.state, try writer.addDictionary(record.state, resolve: resolve))
      } catch {
        var located = error
        located.identifierPath = record.identifierPath
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
    topLevel = KeyedValues()
    records = []
    var reader = try BinaryPropertyListReader(bytes: bytes, limits: limits)
    try Self.verifyChecksum(bytes)

    guard try reader.type(of: reader.topObject) == .dictionary else {
      throw RestorationError(.notArchive, "the top object is not a dictionary")
    }
    let (rootKeys, rootValues) = try reader.dictionaryReferences(reader.topObject)
    var fields: [String: Int] = [:]
    for (key, value) in zip(rootKeys, rootValues) {
      fields[try reader.string(key)] = value
    }
    guard let format = fields[ArchiveField.format],
      try reader.type(of: format) == .asciiString,
      try reader.string(format) == ArchiveField.formatName
    else {
      throw RestorationError(.notArchive, "no 'format' field naming a restoration archive")
    }
    guard let checksum = fields[ArchiveField.checksum],
      try reader.offset(of: checksum) == ArchiveChecksum.offset
    else {
      throw RestorationError(.notArchive, "the checksum field is not the object at byte 8")
    }
    guard let topLevelReference = fields[ArchiveField.topLevel],
      try reader.type(of: topLevelReference) == .dictionary
    else {
      throw RestorationError(.notArchive, "no 'topLevel' dictionary")
    }
    guard let objectsReference = fields[ArchiveField.objects],
      try reader.type(of: objectsReference) == .array
    else {
      throw RestorationError(.notArchive, "no 'objects' array")
    }

    // Record paths first: UIDs anywhere in the archive are record indices.
    let recordReferences = try reader.arrayReferences(objectsReference)
    var recordFields: [[String: Int]] = []
    recordFields.reserveCapacity(recordReferences.count)
    var paths: [String] = []
    paths.reserveCapacity(recordReferences.count)
    for (index, reference) in recordReferences.enumerated() {
      guard try reader.type(of: reference) == .dictionary else {
        throw RestorationError(.malformed, "object record \(index) is not a dictionary")
      }
      let (keys, values) = try reader.dictionaryReferences(reference)
      var fields: [String: Int] = [:]
      for (key, value) in zip(keys, values) { fields[try reader.string(key)] = value }
      paths.append(try Self.stringField(ArchiveField.path, of: fields, record: index, &reader))
      recordFields.append(fields)
    }
    let uid = { (index: Int) throws(RestorationError) -> String in
      guard index < paths.count else {
        throw RestorationError(
          .malformed,
          "reference to object record \(index), but there are \(paths.count)"
        )
      }
      return paths[index]
    }

    topLevel = try reader.keyedValues(topLevelReference, depth: 1, uid: uid)
    guard let version else {
      throw RestorationError(.notArchive, "the top level has no format version keys")
    }
    guard version.major <= Version.current.major else {
      throw RestorationError(
        .unsupportedVersion,
        "archive format \(version) is newer than the supported \(Version.current)"
      )
    }

    records.reserveCapacity(recordFields.count)
    for (index, fields) in recordFields.enumerated() {
      let kindName = try Self.stringField(ArchiveField.kind, of: fields, record: index, &reader)
      guard let kind = RestorationKind(rawValue: kindName) else {
        throw RestorationError(
          .malformed,
          "object record \(index) has unknown kind '\(kindName)'",
          identifierPath: paths[index]
        )
      }
      let className = try Self.stringField(
        ArchiveField.className,
        of: fields,
        record: index,
        &reader
      )
      let restorationClass = try Self.optionalStringField(
        ArchiveField.restorationClass,
        of: fields,
        record: index,
        &reader
      )
      let storyboardName = try Self.optionalStringField(
        ArchiveField.storyboard,
        of: fields,
        record: index,
        &reader
      )
      let storyboardIdentifier = try Self.optionalStringField(
        ArchiveField.storyboardIdentifier,
        of: fields,
        record: index,
        &reader
      )
      var sensitiveKeys: [String] = []
      if let reference = fields[ArchiveField.sensitiveKeys] {
        guard try reader.type(of: reference) == .array else {
          throw Self.fieldError(ArchiveField.sensitiveKeys, "an array", record: index, paths[index])
        }
        for key in try reader.arrayReferences(reference) {
          sensitiveKeys.append(try reader.string(key))
        }
      }
      var state = KeyedValues()
      if let reference = fields[ArchiveField.state] {
        guard try reader.type(of: reference) == .dictionary else {
          throw Self.fieldError(ArchiveField.state, "a dictionary", record: index, paths[index])
        }
        do {
          state = try reader.keyedValues(reference, depth: 2, uid: uid)
        } catch {
          var located = error
          located.identifierPath = paths[index]
          throw located
        }
      }
      records.append(
        Record(
          identifierPath: paths[index],
          kind: kind,
          className: className,
          restorationClassName: restorationClass,
          storyboard: storyboardName.map {
            StoryboardReference(name: $0, identifier: storyboardIdentifier)
          },
          state: state,
          sensitiveKeys: sensitiveKeys
        )
      )
    }
  }

  /// Checks the CRC-32 at byte 8 against every byte after the checksum object.
  static func verifyChecksum(_ bytes: [UInt8]) throws(RestorationError) {
    let start = ArchiveChecksum.offset
    guard bytes.count > start + ArchiveChecksum.objectSize, bytes[start] == 0x44 else {
      throw RestorationError(.notArchive, "no checksum object at byte 8", offset: start)
    }
    var stored: UInt32 = 0
    for index in 1...4 { stored = stored << 8 | UInt32(bytes[start + index]) }
    let computed = bytes.withUnsafeBytes { raw in
      CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[(start + ArchiveChecksum.objectSize)...]))
    }
    guard stored == computed else {
      throw RestorationError(
        .checksumMismatch,
        "checksum is \(hex(stored)) but the contents give \(hex(computed)): the file is torn or corrupted"
      )
    }
  }

  private static func stringField(
    _ name: String,
    of fields: [String: Int],
    record index: Int,
    _ reader: inout BinaryPropertyListReader
  ) throws(RestorationError) -> String {
    guard let value = try optionalStringField(name, of: fields, record: index, &reader) else {
      throw RestorationError(.malformed, "object record \(index) has no '\(name)'")
    }
    return value
  }

  private static func optionalStringField(
    _ name: String,
    of fields: [String: Int],
    record index: Int,
    _ reader: inout BinaryPropertyListReader
  ) throws(RestorationError) -> String? {
    guard let reference = fields[name] else { return nil }
    let type = try reader.type(of: reference)
    guard type == .asciiString || type == .utf16String else {
      throw fieldError(name, "a string", record: index, nil)
    }
    return try reader.string(reference)
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
