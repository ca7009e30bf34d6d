/// Writes a binary property list (`bplist00`) object by object, as CoreFoundation lays one out.
///
/// Each `add` returns the new object's reference, for the containers that hold it; a container
/// is added after its elements. Strings (byte for byte), numbers, dates and Booleans are written
/// once however often they are added, while such values are found again (see ``Lookups``); data,
/// UIDs and containers each time they are added.
/// References take the fewest bytes, from 1 to 8, that hold the largest object number, and
/// offsets those that hold the offset table's own position, as CoreFoundation writes them.
///
/// Scalars go into the file as they are added, the first one at byte 8; containers and UIDs go
/// after them when ``makeBytes(top:mappingUIDs:)`` knows how wide a reference is and what each
/// UID stands for.
public struct BinaryPropertyListWriter {
  /// What is written last: a container's references (in `references`) or a UID's value.
  private enum Deferred {
    case array(Range<Int>)
    case dictionary(Range<Int>)
    case uid(UInt64)
  }

  /// The file so far: the header and the scalars.
  private var bytes: [UInt8] = Array("bplist00".utf8)
  /// Each object's offset in the file; -1 for an object written last, until it is.
  private var offsets: [Int] = []
  private var deferred: [(object: Int, kind: Deferred)] = []
  private var references: [Int] = []
  // Keys hashed with the standard library's seeded hasher: values may come from a file.
  private var strings: [ExactString: Int] = [:]
  private var smallIntegers: [Int] = []
  private var stringLookups = Lookups()
  private var scalarLookups = Lookups()
  /// Lookups of one kind of value made lately, and found.
  ///
  /// Random numbers and texts seldom repeat, labels and states do: while fewer than 1 in 8 are
  /// found, 1 value in 8 is looked up, to see whether they start to.
  private struct Lookups {
    var made = 0
    var found = 0
    var passed = 0
    mutating func areWorthMaking() -> Bool {
      passed += 1
      return made < 256 || found * 8 >= made || passed % 8 == 0
    }
    mutating func count(found isFound: Bool) {
      (made, found) = (made + 1, found + (isFound ? 1 : 0))
      if made == 4_096 { (made, found) = (2_048, found / 2) }
    }
  }
  /// The objects of false and true, or -1.
  private var booleans = [-1, -1]
  /// Other scalars by their marker byte and bits.
  private var scalars: [ScalarKey: Int] = [:]
  private struct ScalarKey: Hashable {
    var marker: UInt8
    var bits: UInt64
    // The standard library's one-word seeded hash: a `Hasher` of both fields cost twice as much.
    func _rawHashValue(seed: Int) -> Int { Int(truncatingIfNeeded: bits)._rawHashValue(seed: seed) }
  }

  /// The longest string, in UTF-8 bytes, written once however often it is added: names, keys
  /// and labels repeat, long texts seldom do, and finding a repeat costs a hash of every byte.
  public static let uniquedStringLength = 32

  /// Creates an empty writer.
  public init() {}

  /// The number of objects added so far.
  public var objectCount: Int { offsets.count }

  // MARK: Scalars

  /// Adds a string, ASCII or UTF-16 as CoreFoundation writes it, and returns its object.
  ///
  /// A string of up to ``uniquedStringLength`` UTF-8 bytes is written once however often it is
  /// added, a longer one each time; `adaptively`, one of more than 16 bytes is looked up only
  /// while such strings are found again.
  public mutating func addString(_ string: String, adaptively: Bool = false) -> Int {
    let next = offsets.count
    let length = string.utf8.count
    let adapting = adaptively && length > 16
    if length <= Self.uniquedStringLength, !adapting || stringLookups.areWorthMaking() {
      let known = strings.value(forKey: ExactString(string), insertingIfAbsent: next)
      if adapting { stringLookups.count(found: known != next) }
      if known != next { return known }
    }
    offsets.append(bytes.count)
    var string = string
    string.withUTF8 { utf8 in
      // Or-ed over contiguous bytes, several times faster than the view's iterator.
      if utf8.reduce(0, |) < 0x80 {
        Self.appendHeader(0x5, count: length, to: &bytes)
        bytes.append(contentsOf: utf8)
      } else {
        UTF16Transcoding.withBigEndianUTF16(of: utf8) { utf16 in
          Self.appendHeader(0x6, count: utf16.count / 2, to: &bytes)
          bytes.append(contentsOf: utf16)
        }
      }
    }
    return next
  }

  /// Adds an integer: non-negative ones in the fewest of 1, 2 or 4 bytes, others in 8.
  public mutating func addInteger(_ value: Int64) -> Int {
    // Small numbers, such as an archive's record numbers and -1 for none, are found without
    // hashing, by their value plus one.
    guard value >= -1, value < 1 << 16 else {
      let key = ScalarKey(marker: 0x10, bits: UInt64(bitPattern: value))
      return addScalar(key) { Self.appendInteger(value, to: &$0) }
    }
    let slot = Int(value) + 1
    if slot >= smallIntegers.count {
      smallIntegers.append(contentsOf: repeatElement(-1, count: slot + 1 - smallIntegers.count))
    }
    guard smallIntegers[slot] < 0 else { return smallIntegers[slot] }
    smallIntegers[slot] = offsets.count
    return addScalar(nil) { Self.appendInteger(value, to: &$0) }
  }

  /// Adds an integer above `Int64.max`, in the 16-byte form `plistlib` writes.
  public mutating func addUnsignedInteger(_ value: UInt64) -> Int {
    guard value > UInt64(Int64.max) else { return addInteger(Int64(value)) }
    return addScalar(ScalarKey(marker: 0x14, bits: value)) { bytes in
      bytes.append(0x14)
      bytes.append(contentsOf: repeatElement(0, count: 8))
      Self.appendBigEndian(value, width: 8, to: &bytes)
    }
  }

  /// Adds a real: in 4 bytes when a `Float` holds it exactly, as CoreFoundation writes
  /// float values, else in 8.
  public mutating func addReal(_ value: Double) -> Int {
    addScalar(ScalarKey(marker: 0x23, bits: value.bitPattern)) { bytes in
      let single = Float(value)
      let isSingle = Double(single).bitPattern == value.bitPattern
      bytes.append(isSingle ? 0x22 : 0x23)
      Self.appendBigEndian(
        isSingle ? UInt64(single.bitPattern) : value.bitPattern, width: isSingle ? 4 : 8,
        to: &bytes)
    }
  }

  /// Adds a date, as seconds since 2001-01-01 00:00 UTC.
  public mutating func addDate(_ seconds: Double) -> Int {
    addScalar(ScalarKey(marker: 0x33, bits: seconds.bitPattern)) { bytes in
      bytes.append(0x33)
      Self.appendBigEndian(seconds.bitPattern, width: 8, to: &bytes)
    }
  }

  /// Adds a Boolean.
  public mutating func addBool(_ value: Bool) -> Int {
    let slot = value ? 1 : 0
    if booleans[slot] < 0 {
      booleans[slot] = offsets.count
      offsets.append(bytes.count)
      bytes.append(value ? 0x09 : 0x08)
    }
    return booleans[slot]
  }

  /// Adds a data object.
  public mutating func addData(_ data: some Collection<UInt8>) -> Int {
    // Copied whole where the bytes are contiguous, as `Data`'s are, not element by element.
    data.withContiguousStorageIfAvailable { addData(UnsafeRawBufferPointer($0)) }
      ?? addData(Array(data))
  }

  /// Adds a data object of the bytes in a buffer.
  public mutating func addData(_ data: UnsafeRawBufferPointer) -> Int {
    offsets.append(bytes.count)
    Self.appendHeader(0x4, count: data.count, to: &bytes)
    bytes.append(contentsOf: data)
    return offsets.count - 1
  }

  /// Adds a UID, as keyed archives use them; ``makeBytes(top:mappingUIDs:)`` may map its value.
  public mutating func addUID(_ value: UInt64) -> Int { addDeferred(.uid(value)) }

  // MARK: Containers

  /// Adds an array of objects already added.
  public mutating func addArray(_ elements: [Int]) -> Int {
    let start = references.count
    references.append(contentsOf: elements)
    return addDeferred(.array(start..<references.count))
  }

  /// Adds a dictionary of objects already added; `keys` and `values` pair up by position.
  public mutating func addDictionary(keys: [Int], values: [Int]) -> Int {
    precondition(keys.count == values.count, "a dictionary has as many values as keys")
    let start = references.count
    references.append(contentsOf: keys)
    references.append(contentsOf: values)
    return addDeferred(.dictionary(start..<references.count))
  }

  // MARK: The file

  /// The file, with `top` as its top object; the writer is empty afterwards.
  ///
  /// - Parameters:
  ///   - top: The top object.
  ///   - mappingUIDs: The value each UID is written with, from the value it was added with: an
  ///     archive can number what UIDs stand for once all of it is known.
  /// - Returns: The file's bytes.
  public mutating func makeBytes(top: Int, mappingUIDs: ((UInt64) -> UInt64)? = nil) -> [UInt8] {
    var file: [UInt8] = []
    swap(&file, &bytes)
    defer { self = Self() }
    let referenceWidth = Self.width(of: UInt64(max(offsets.count - 1, 0)))
    file.reserveCapacity(
      file.count + references.count * referenceWidth + deferred.count * 9
        + offsets.count * 4 + 32)
    for (object, kind) in deferred {
      offsets[object] = file.count
      switch kind {
      case .uid(let value):
        let mapped = mappingUIDs?(value) ?? value
        let width = Self.width(of: mapped)
        file.append(0x80 | UInt8(width - 1))
        Self.appendBigEndian(mapped, width: width, to: &file)
      case .array(let range), .dictionary(let range):
        let isArray = if case .array = kind { true } else { false }
        Self.appendHeader(isArray ? 0xA : 0xD, count: range.count / (isArray ? 1 : 2), to: &file)
        Self.appendBigEndian(references[range], width: referenceWidth, to: &file)
      }
    }
    // As CoreFoundation and plistlib size them: by where the table starts.
    let tableStart = file.count
    let offsetWidth = Self.width(of: UInt64(tableStart))
    Self.appendBigEndian(offsets[...], width: offsetWidth, to: &file)
    file.append(contentsOf: repeatElement(0, count: 6))
    file.append(UInt8(offsetWidth))
    file.append(UInt8(referenceWidth))
    Self.appendBigEndian(UInt64(offsets.count), width: 8, to: &file)
    Self.appendBigEndian(UInt64(top), width: 8, to: &file)
    Self.appendBigEndian(UInt64(tableStart), width: 8, to: &file)
    return file
  }

  // MARK: Encoding

  /// A scalar written once however often it is added, unless `key` is nil: by `write`, at the end
  /// of the file.
  private mutating func addScalar(_ key: ScalarKey?, _ write: (inout [UInt8]) -> Void) -> Int {
    if let key, scalarLookups.areWorthMaking() {
      let known = scalars.value(forKey: key, insertingIfAbsent: offsets.count)
      scalarLookups.count(found: known != offsets.count)
      if known != offsets.count { return known }
    }
    offsets.append(bytes.count)
    write(&bytes)
    return offsets.count - 1
  }

  private mutating func addDeferred(_ kind: Deferred) -> Int {
    offsets.append(-1)
    deferred.append((offsets.count - 1, kind))
    return offsets.count - 1
  }

  private static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
    let width = value < 0 ? 8 : Self.width(of: UInt64(value))
    let stored = width <= 1 ? 1 : width <= 2 ? 2 : width <= 4 ? 4 : 8
    bytes.append(0x10 | UInt8(stored.trailingZeroBitCount))
    appendBigEndian(UInt64(bitPattern: value), width: stored, to: &bytes)
  }

  /// A marker with the count in its low bits, or followed by an integer object.
  private static func appendHeader(_ marker: UInt8, count: Int, to bytes: inout [UInt8]) {
    if count < 15 {
      bytes.append(marker << 4 | UInt8(count))
    } else {
      bytes.append(marker << 4 | 0x0F)
      appendInteger(Int64(count), to: &bytes)
    }
  }

  private static func appendBigEndian(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
    var shift = (width - 1) * 8
    while shift >= 0 {
      bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
      shift -= 8
    }
  }

  /// Appends each of `values` in `width` bytes, the width looked at once for all of them: a file
  /// has two or three references and offsets per object.
  private static func appendBigEndian(
    _ values: ArraySlice<Int>, width: Int, to bytes: inout [UInt8]
  ) {
    switch width {
    case 1: for value in values { bytes.append(UInt8(truncatingIfNeeded: value)) }
    case 2:
      for value in values {
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
      }
    case 3:
      for value in values {
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
      }
    default: for value in values { appendBigEndian(UInt64(value), width: width, to: &bytes) }
    }
  }

  /// The fewest bytes, from 1 to 8, that hold `value`.
  private static func width(of value: UInt64) -> Int {
    max(1, (64 - value.leadingZeroBitCount + 7) / 8)
  }
}
