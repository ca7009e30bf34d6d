/// zlib's CRC-32, bit by bit: slow, obviously right, and independent of the engine's.
///
/// - Parameter bytes: The bytes.
/// - Returns: Their CRC-32.
package func referenceCRC32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  for byte in bytes {
    crc ^= UInt32(byte)
    for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
  }
  return ~crc
}

/// Rewrites an archive's checksum (the 4-byte data object at byte 8) for its current contents,
/// as the writer would have.
///
/// - Parameter bytes: The archive's bytes.
package func refreshArchiveChecksum(_ bytes: inout [UInt8]) {
  let checksum = referenceCRC32(bytes[13...])
  for index in 0..<4 {
    bytes[9 + index] = UInt8(truncatingIfNeeded: checksum >> (24 - 8 * index))
  }
}

/// A property-list value for crafting archives byte by byte, with any type anywhere.
package indirect enum CraftedValue: Sendable {
  case string(String)
  case integer(Int64)
  case real(Double)
  case bool(Bool)
  case data([UInt8])
  case date(Double)
  case uid(UInt32)
  case array([CraftedValue])
  case dictionary([(String, CraftedValue)])
  /// One object for every occurrence with the same name: a value shared across the file, as a
  /// file that multiplies its containers' work shares them.
  case shared(String, CraftedValue)
}

/// Writes crafted archives, byte by byte.
///
/// Binary property lists laid out as the engine's archives are (the checksum object at byte 8,
/// a valid CRC-32), holding whatever values a test wants, of any type, in any field. Independent of the engine's writer, so the reader is tested against
/// files the engine would never write.
package enum CraftedArchive {
  /// The bytes of a version 2.0 archive (release 0.1.0's layout, a dictionary per record)
  /// holding `records`, with an empty top level.
  ///
  /// - Parameter records: The `objects` array's elements.
  /// - Returns: The file's bytes, with a valid checksum.
  package static func bytes(records: [CraftedValue]) -> [UInt8] {
    bytes([
      ("format", .string("StateRestorationArchive")),
      (
        "topLevel",
        .dictionary([
          ("kUIStateRestorationArchiveMajorVersionKey", .integer(2)),
          ("kUIStateRestorationArchiveMinorVersionKey", .integer(0)),
        ])
      ),
      ("objects", .array(records)),
    ])
  }

  /// The bytes of an archive whose root dictionary holds `fields` plus the `checksum` entry.
  ///
  /// - Parameter fields: The root's other entries, such as `format`, `topLevel` and `objects`.
  /// - Returns: The file's bytes, with a valid checksum.
  package static func bytes(_ fields: [(String, CraftedValue)]) -> [UInt8] {
    var writer = Writer()
    // Object 0 is the checksum, so that it is written first, at byte 8.
    writer.objects.append([0x44, 0, 0, 0, 0])
    let root = writer.add(.dictionary([("checksum", .data([]))] + fields), checksumReference: 0)
    var bytes = writer.file(top: root)
    refreshArchiveChecksum(&bytes)
    return bytes
  }

  /// The bytes of a binary property list of `value` alone, with no archive layout.
  package static func propertyList(_ value: CraftedValue) -> [UInt8] {
    var writer = Writer()
    let top = writer.add(value)
    return writer.file(top: top)
  }

  private struct Writer {
    var objects: [[UInt8]] = []
    /// The object of each shared value, by name.
    var shared: [String: Int] = [:]

    /// Adds a value's objects and returns the value's object number; the root's `checksum`
    /// entry points at `checksumReference`.
    mutating func add(_ value: CraftedValue, checksumReference: Int? = nil) -> Int {
      var body: [UInt8]
      switch value {
      case .shared(let name, let value):
        if let known = shared[name] { return known }
        let reference = add(value)
        shared[name] = reference
        return reference
      case .string(let text):
        let utf8 = Array(text.utf8)
        body = header(0x50, utf8.count) + utf8
      case .integer(let number):
        body = [0x13] + bigEndian(UInt64(bitPattern: number), 8)
      case .real(let number):
        body = [0x23] + bigEndian(number.bitPattern, 8)
      case .bool(let flag):
        body = [flag ? 0x09 : 0x08]
      case .data(let bytes):
        body = header(0x40, bytes.count) + bytes
      case .date(let seconds):
        body = [0x33] + bigEndian(seconds.bitPattern, 8)
      case .uid(let number):
        body = [0x83] + bigEndian(UInt64(number), 4)
      case .array(let elements):
        let references = elements.map { add($0) }
        body = header(0xA0, references.count) + references.flatMap { bigEndian(UInt64($0), 2) }
      case .dictionary(let entries):
        let keys = entries.map { add(.string($0.0)) }
        let values = entries.map { entry in
          if entry.0 == "checksum", let checksumReference { return checksumReference }
          return add(entry.1)
        }
        body = header(0xD0, entries.count) + (keys + values).flatMap { bigEndian(UInt64($0), 2) }
      }
      objects.append(body)
      return objects.count - 1
    }

    /// The whole file: magic, objects, offset table (4-byte offsets), trailer (2-byte
    /// references).
    func file(top: Int) -> [UInt8] {
      var bytes = Array("bplist00".utf8)
      var offsets: [Int] = []
      for object in objects {
        offsets.append(bytes.count)
        bytes += object
      }
      let table = bytes.count
      for offset in offsets { bytes += bigEndian(UInt64(offset), 4) }
      bytes += [0, 0, 0, 0, 0, 0, 4, 2]
      bytes += bigEndian(UInt64(objects.count), 8)
      bytes += bigEndian(UInt64(top), 8)
      bytes += bigEndian(UInt64(table), 8)
      return bytes
    }

    private func header(_ marker: UInt8, _ count: Int) -> [UInt8] {
      if count < 15 { return [marker | UInt8(count)] }
      return [marker | 0x0F, 0x12] + bigEndian(UInt64(count), 4)
    }

    private func bigEndian(_ value: UInt64, _ width: Int) -> [UInt8] {
      (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(width - 1 - $0))) }
    }
  }
}

/// A file in the envelope of the UI layer's small files (the index of scene sessions, a scene's
/// activity, the launch snapshot): an 8-byte magic, the body's length and its CRC-32, each
/// 4 bytes big-endian, then the body, written here independently of the library.
///
/// - Parameters:
///   - body: The body, such as a binary property list.
///   - magic: The format's magic, such as `SRSESS01`.
/// - Returns: The file's bytes.
package func checkedFile(_ body: [UInt8], magic: String) -> [UInt8] {
  var bytes = Array(magic.utf8)
  for value in [UInt32(body.count), referenceCRC32(body[...])] {
    bytes += (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
  }
  return bytes + body
}
