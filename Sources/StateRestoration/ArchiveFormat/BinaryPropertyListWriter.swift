#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// We write binary property lists ourselves instead of calling PropertyListSerialization: on
// Linux Foundation's encoder builds an NSObject graph first and is several times slower than
// this direct writer, and it cannot place the checksum object at a fixed offset, which is how
// archives make torn writes detectable (see docs/ArchiveFormat.md).

/// Builds a binary property list (`bplist00`) from values, in two linear passes: the first
/// flattens the values into an object table, uniquing scalars as CoreFoundation does; the second
/// writes the bytes with the narrowest reference and offset widths.
struct BinaryPropertyListWriter {
  /// One object of the table.
  private enum Object {
    case bool(Bool)
    case integer(Int64)
    case unsignedInteger(UInt64)
    case real(Double)
    case date(Double)
    case data(Data)
    case checksum
    case string(String)
    case uid(Int)
    /// `references[range]` are the element references.
    case array(Range<Int>)
    /// `references[range]` are the keys, then the values, each half of the range.
    case dictionary(Range<Int>)
  }

  private var objects: [Object] = []
  private var references: [Int] = []
  /// Pending child references while containers are flattened (avoids one array per container).
  private var scratch: [Int] = []
  private var strings: [String: Int] = [:]
  private var integers: [Int64: Int] = [:]
  private var reals: [UInt64: Int] = [:]
  private var dates: [UInt64: Int] = [:]
  private var booleans: [Int?] = [nil, nil]
  private var checksumReference: Int?

  init(estimatedObjectCount: Int = 64) {
    objects.reserveCapacity(estimatedObjectCount)
    references.reserveCapacity(estimatedObjectCount)
  }

  // MARK: Building the object table

  /// Adds the placeholder for the checksum; it must be the first object added so that it lands
  /// at byte 8.
  mutating func addChecksumPlaceholder() -> Int {
    let reference = append(.checksum)
    checksumReference = reference
    return reference
  }

  /// Adds a string, shared with any equal string already added.
  mutating func add(string: String) -> Int {
    if let existing = strings[string] { return existing }
    let reference = append(.string(string))
    strings[string] = reference
    return reference
  }

  /// Adds a UID (a reference into the archive's object records).
  mutating func add(uid: Int) -> Int { append(.uid(uid)) }

  /// Adds a value; references are resolved to record indices by `resolve`.
  ///
  /// - Throws: ``RestorationError`` when `resolve` does, for a dangling reference.
  mutating func add(
    _ value: StateValue,
    resolve: (String) throws(RestorationError) -> Int
  ) throws(RestorationError) -> Int {
    switch value {
    case .bool(let value):
      let slot = value ? 1 : 0
      if let existing = booleans[slot] { return existing }
      let reference = append(.bool(value))
      booleans[slot] = reference
      return reference
    case .integer(let value):
      if let existing = integers[value] { return existing }
      let reference = append(.integer(value))
      integers[value] = reference
      return reference
    case .unsignedInteger(let value):
      return append(.unsignedInteger(value))
    case .real(let value):
      if let existing = reals[value.bitPattern] { return existing }
      let reference = append(.real(value))
      reals[value.bitPattern] = reference
      return reference
    case .date(let date):
      let seconds = date.timeIntervalSinceReferenceDate
      if let existing = dates[seconds.bitPattern] { return existing }
      let reference = append(.date(seconds))
      dates[seconds.bitPattern] = reference
      return reference
    case .data(let data):
      return append(.data(data))
    case .string(let string):
      return add(string: string)
    case .reference(let path):
      return append(.uid(try resolve(path)))
    case .array(let elements):
      let mark = scratch.count
      for element in elements {
        let child = try add(element, resolve: resolve)
        scratch.append(child)
      }
      return appendContainer(from: mark, isDictionary: false)
    case .dictionary(let entries):
      // Sorted keys keep archives byte-identical across runs, whatever the hash seed.
      let keys = entries.keys.sorted()
      let mark = scratch.count
      for key in keys { scratch.append(add(string: key)) }
      for key in keys {
        guard let element = entries[key] else { continue }
        let child = try add(element, resolve: resolve)
        scratch.append(child)
      }
      return appendContainer(from: mark, isDictionary: true)
    }
  }

  /// Adds a dictionary with keys in the given order.
  mutating func addDictionary(
    _ values: KeyedValues,
    resolve: (String) throws(RestorationError) -> Int
  ) throws(RestorationError) -> Int {
    let mark = scratch.count
    for key in values.keys { scratch.append(add(string: key)) }
    for value in values.values {
      let child = try add(value, resolve: resolve)
      scratch.append(child)
    }
    return appendContainer(from: mark, isDictionary: true)
  }

  /// Adds a dictionary whose keys and values are already in the table.
  mutating func addDictionary(keys: [Int], values: [Int]) -> Int {
    let mark = scratch.count
    scratch.append(contentsOf: keys)
    scratch.append(contentsOf: values)
    return appendContainer(from: mark, isDictionary: true)
  }

  /// Adds an array whose elements are already in the table.
  mutating func addArray(_ elements: [Int]) -> Int {
    let mark = scratch.count
    scratch.append(contentsOf: elements)
    return appendContainer(from: mark, isDictionary: false)
  }

  private mutating func appendContainer(from mark: Int, isDictionary: Bool) -> Int {
    let start = references.count
    references.append(contentsOf: scratch[mark...])
    scratch.removeSubrange(mark...)
    let range = start..<references.count
    return append(isDictionary ? .dictionary(range) : .array(range))
  }

  private mutating func append(_ object: Object) -> Int {
    objects.append(object)
    return objects.count - 1
  }

  // MARK: Writing bytes

  /// Writes the property list with `top` as its root object.
  ///
  /// - Returns: The file's bytes; when a checksum placeholder was added, it holds the CRC-32 of
  ///   every byte after it.
  func makeBytes(top: Int) -> [UInt8] {
    let referenceSize = Self.byteWidth(for: UInt64(max(objects.count - 1, 0)))
    var out = ByteBuffer(capacity: objects.count * 6 + references.count * referenceSize + 64)
    out.append(contentsOf: "bplist00".utf8)
    var offsets = [Int](repeating: 0, count: objects.count)
    for index in objects.indices {
      offsets[index] = out.count
      write(objects[index], to: &out, referenceSize: referenceSize)
    }
    let tableOffset = out.count
    let offsetSize = Self.byteWidth(for: UInt64(tableOffset))
    for offset in offsets { out.appendBigEndian(UInt64(offset), width: offsetSize) }
    // Trailer: 5 unused bytes, sort version, offset width, reference width, counts and offsets.
    out.append(contentsOf: [0, 0, 0, 0, 0, 0])
    out.append(UInt8(offsetSize))
    out.append(UInt8(referenceSize))
    out.appendBigEndian(UInt64(objects.count), width: 8)
    out.appendBigEndian(UInt64(top), width: 8)
    out.appendBigEndian(UInt64(tableOffset), width: 8)

    var bytes = out.bytes
    if let checksumReference {
      let start = offsets[checksumReference]
      let covered = start + ArchiveChecksum.objectSize
      let crc = bytes.withUnsafeBytes { raw in
        CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[covered...]))
      }
      withUnsafeBytes(of: crc.bigEndian) { crcBytes in
        for index in 0..<4 { bytes[start + 1 + index] = crcBytes[index] }
      }
    }
    return bytes
  }

  private func write(_ object: Object, to out: inout ByteBuffer, referenceSize: Int) {
    switch object {
    case .bool(let value):
      out.append(value ? 0x09 : 0x08)
    case .integer(let value):
      if value >= 0 {
        let width = Self.byteWidth(for: UInt64(value))
        // 1, 2 and 4-byte integers are unsigned; 8-byte ones are signed.
        out.append(0x10 | UInt8(width.trailingZeroBitCount))
        out.appendBigEndian(UInt64(value), width: width)
      } else {
        out.append(0x13)
        out.appendBigEndian(UInt64(bitPattern: value), width: 8)
      }
    case .unsignedInteger(let value):
      // Values above Int64.max need the 16-byte form, as plistlib and CoreFoundation write it.
      out.append(0x14)
      out.appendBigEndian(0, width: 8)
      out.appendBigEndian(value, width: 8)
    case .real(let value):
      out.append(0x23)
      out.appendBigEndian(value.bitPattern, width: 8)
    case .date(let seconds):
      out.append(0x33)
      out.appendBigEndian(seconds.bitPattern, width: 8)
    case .data(let data):
      out.appendHeader(0x40, count: data.count)
      out.append(contentsOf: data)
    case .checksum:
      out.append(0x44)
      out.append(contentsOf: [0, 0, 0, 0])
    case .string(let string):
      out.appendString(string)
    case .uid(let value):
      let width = Self.byteWidth(for: UInt64(value))
      out.append(0x80 | UInt8(width - 1))
      out.appendBigEndian(UInt64(value), width: width)
    case .array(let range):
      out.appendHeader(0xA0, count: range.count)
      for index in range { out.appendBigEndian(UInt64(references[index]), width: referenceSize) }
    case .dictionary(let range):
      out.appendHeader(0xD0, count: range.count / 2)
      for index in range { out.appendBigEndian(UInt64(references[index]), width: referenceSize) }
    }
  }

  /// The narrowest of 1, 2, 4 or 8 bytes that holds `value`.
  static func byteWidth(for value: UInt64) -> Int {
    if value <= 0xFF { return 1 }
    if value <= 0xFFFF { return 2 }
    if value <= 0xFFFF_FFFF { return 4 }
    return 8
  }
}

/// Where the checksum lives: a 4-byte data object at byte 8, right after the magic number.
enum ArchiveChecksum {
  /// The marker byte plus four bytes of CRC.
  static let objectSize = 5
  /// The offset of the checksum object.
  static let offset = 8
}

/// A growable byte buffer with big-endian helpers.
struct ByteBuffer {
  private(set) var bytes: [UInt8]

  init(capacity: Int) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  var count: Int { bytes.count }

  mutating func append(_ byte: UInt8) { bytes.append(byte) }

  mutating func append<S: Sequence>(contentsOf sequence: S) where S.Element == UInt8 {
    bytes.append(contentsOf: sequence)
  }

  mutating func appendBigEndian(_ value: UInt64, width: Int) {
    var shift = (width - 1) * 8
    while shift >= 0 {
      bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
      shift -= 8
    }
  }

  /// A marker with its count: in the low nibble when below 15, else in a following integer.
  mutating func appendHeader(_ marker: UInt8, count: Int) {
    if count < 15 {
      bytes.append(marker | UInt8(count))
    } else {
      bytes.append(marker | 0x0F)
      let width = BinaryPropertyListWriter.byteWidth(for: UInt64(count))
      bytes.append(0x10 | UInt8(width.trailingZeroBitCount))
      appendBigEndian(UInt64(count), width: width)
    }
  }

  /// An ASCII string as bytes, any other as big-endian UTF-16.
  mutating func appendString(_ string: String) {
    var string = string
    let isASCII = string.withUTF8 { utf8 in
      for byte in utf8 where byte >= 0x80 { return false }
      return true
    }
    if isASCII {
      string.withUTF8 { utf8 in
        appendHeader(0x50, count: utf8.count)
        bytes.append(contentsOf: utf8)
      }
    } else {
      let units = Array(string.utf16)
      appendHeader(0x60, count: units.count)
      for unit in units {
        bytes.append(UInt8(unit >> 8))
        bytes.append(UInt8(unit & 0xFF))
      }
    }
  }
}
