/// Writes a binary property list (`bplist00`) object by object, as CoreFoundation lays one out.
///
/// Each `add` returns the new object's reference, for the containers that hold it; a container
/// is added after its elements. Strings (byte for byte), numbers, dates, Booleans and UIDs are
/// written once however often they are added; data and containers are written each time.
/// References take the fewest bytes, from 1 to 8, that hold the largest object number, and
/// offsets those that hold the offset table's own position, as CoreFoundation writes them.
/// Objects are laid out in the order they were added, so the first object added starts at byte 8.
public struct BinaryPropertyListWriter {
  private enum Object {
    /// Bytes of `scalars`, marker included.
    case scalar(Range<Int>)
    /// References in `references`, an array's elements or a dictionary's keys then values.
    case array(Range<Int>)
    case dictionary(Range<Int>)
  }

  private var objects: [Object] = []
  private var scalars: [UInt8] = []
  private var references: [Int] = []
  // Keys hashed with the standard library's seeded hasher: values may come from a file.
  private var strings: [ExactString: Int] = [:]
  private var integers: [Int64: Int] = [:]
  private var unsignedIntegers: [UInt64: Int] = [:]
  private var reals: [UInt64: Int] = [:]
  private var dates: [UInt64: Int] = [:]
  private var uids: [UInt64: Int] = [:]
  private var booleans: [Bool: Int] = [:]

  /// Creates an empty writer.
  public init() {}

  /// The number of objects added so far.
  public var objectCount: Int { objects.count }

  // MARK: Scalars

  /// Adds a string, ASCII or UTF-16 as CoreFoundation writes it, and returns its object.
  ///
  /// With `uniquing`, it is written once however often it is added; a string known to be added
  /// once (such as a unique name) skips the lookup.
  public mutating func addString(_ string: String, uniquing: Bool = true) -> Int {
    if uniquing, let known = strings[ExactString(string)] { return known }
    let reference = addScalar { bytes in
      if string.utf8.allSatisfy({ $0 < 0x80 }) {
        Self.appendHeader(0x5, count: string.utf8.count, to: &bytes)
        bytes.append(contentsOf: string.utf8)
      } else {
        Self.appendHeader(0x6, count: string.utf16.count, to: &bytes)
        for unit in string.utf16 {
          bytes.append(UInt8(truncatingIfNeeded: unit >> 8))
          bytes.append(UInt8(truncatingIfNeeded: unit))
        }
      }
    }
    if uniquing { strings[ExactString(string)] = reference }
    return reference
  }

  /// Adds an integer: non-negative ones in the fewest of 1, 2 or 4 bytes, others in 8.
  public mutating func addInteger(_ value: Int64) -> Int {
    if let known = integers[value] { return known }
    let reference = addScalar { Self.appendInteger(value, to: &$0) }
    integers[value] = reference
    return reference
  }

  /// Adds an integer above `Int64.max`, in the 16-byte form `plistlib` writes.
  public mutating func addUnsignedInteger(_ value: UInt64) -> Int {
    guard value > UInt64(Int64.max) else { return addInteger(Int64(value)) }
    if let known = unsignedIntegers[value] { return known }
    let reference = addScalar { bytes in
      bytes.append(0x14)
      bytes.append(contentsOf: repeatElement(0, count: 8))
      Self.appendBigEndian(value, width: 8, to: &bytes)
    }
    unsignedIntegers[value] = reference
    return reference
  }

  /// Adds a real: in 4 bytes when a `Float` holds it exactly, as CoreFoundation writes
  /// float values, else in 8.
  public mutating func addReal(_ value: Double) -> Int {
    if let known = reals[value.bitPattern] { return known }
    let reference = addScalar { bytes in
      let single = Float(value)
      if Double(single).bitPattern == value.bitPattern {
        bytes.append(0x22)
        Self.appendBigEndian(UInt64(single.bitPattern), width: 4, to: &bytes)
      } else {
        bytes.append(0x23)
        Self.appendBigEndian(value.bitPattern, width: 8, to: &bytes)
      }
    }
    reals[value.bitPattern] = reference
    return reference
  }

  /// Adds a date, as seconds since 2001-01-01 00:00 UTC.
  public mutating func addDate(_ seconds: Double) -> Int {
    if let known = dates[seconds.bitPattern] { return known }
    let reference = addScalar { bytes in
      bytes.append(0x33)
      Self.appendBigEndian(seconds.bitPattern, width: 8, to: &bytes)
    }
    dates[seconds.bitPattern] = reference
    return reference
  }

  /// Adds a Boolean.
  public mutating func addBool(_ value: Bool) -> Int {
    if let known = booleans[value] { return known }
    let reference = addScalar { $0.append(value ? 0x09 : 0x08) }
    booleans[value] = reference
    return reference
  }

  /// Adds a UID, as keyed archives use them.
  public mutating func addUID(_ value: UInt64) -> Int {
    if let known = uids[value] { return known }
    let reference = addScalar { bytes in
      let width = Self.width(of: value)
      bytes.append(0x80 | UInt8(width - 1))
      Self.appendBigEndian(value, width: width, to: &bytes)
    }
    uids[value] = reference
    return reference
  }

  /// Adds a data object; each call adds one.
  public mutating func addData(_ data: some Collection<UInt8>) -> Int {
    addScalar { bytes in
      Self.appendHeader(0x4, count: data.count, to: &bytes)
      bytes.append(contentsOf: data)
    }
  }

  // MARK: Containers

  /// Adds an array of objects already added.
  public mutating func addArray(_ elements: some Collection<Int>) -> Int {
    let start = references.count
    references.append(contentsOf: elements)
    objects.append(.array(start..<references.count))
    return objects.count - 1
  }

  /// Adds a dictionary of objects already added; `keys` and `values` pair up by position.
  public mutating func addDictionary(keys: some Collection<Int>, values: some Collection<Int>)
    -> Int
  {
    precondition(keys.count == values.count, "a dictionary has as many values as keys")
    let start = references.count
    references.append(contentsOf: keys)
    references.append(contentsOf: values)
    objects.append(.dictionary(start..<references.count))
    return objects.count - 1
  }

  // MARK: The file

  /// The file, with `top` as its top object.
  public func makeBytes(top: Int) -> [UInt8] {
    let referenceWidth = Self.width(of: UInt64(max(objects.count - 1, 0)))
    var file: [UInt8] = Array("bplist00".utf8)
    file.reserveCapacity(
      8 + scalars.count + references.count * referenceWidth + objects.count * 4 + 32)
    var offsets: [Int] = []
    offsets.reserveCapacity(objects.count)
    for object in objects {
      offsets.append(file.count)
      switch object {
      case .scalar(let range):
        file.append(contentsOf: scalars[range])
      case .array(let range):
        Self.appendHeader(0xA, count: range.count, to: &file)
        for reference in references[range] {
          Self.appendBigEndian(UInt64(reference), width: referenceWidth, to: &file)
        }
      case .dictionary(let range):
        Self.appendHeader(0xD, count: range.count / 2, to: &file)
        for reference in references[range] {
          Self.appendBigEndian(UInt64(reference), width: referenceWidth, to: &file)
        }
      }
    }
    // As CoreFoundation and plistlib size them: by where the table starts.
    let tableStart = file.count
    let offsetWidth = Self.width(of: UInt64(tableStart))
    for offset in offsets { Self.appendBigEndian(UInt64(offset), width: offsetWidth, to: &file) }
    file.append(contentsOf: repeatElement(0, count: 6))
    file.append(UInt8(offsetWidth))
    file.append(UInt8(referenceWidth))
    Self.appendBigEndian(UInt64(objects.count), width: 8, to: &file)
    Self.appendBigEndian(UInt64(top), width: 8, to: &file)
    Self.appendBigEndian(UInt64(tableStart), width: 8, to: &file)
    return file
  }

  // MARK: Encoding

  private mutating func addScalar(_ write: (inout [UInt8]) -> Void) -> Int {
    let start = scalars.count
    write(&scalars)
    objects.append(.scalar(start..<scalars.count))
    return objects.count - 1
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
    for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
      bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
    }
  }

  /// The fewest bytes, from 1 to 8, that hold `value`.
  private static func width(of value: UInt64) -> Int {
    max(1, (64 - value.leadingZeroBitCount + 7) / 8)
  }
}
