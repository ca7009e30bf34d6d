// A reader of our own rather than Foundation's PropertyListSerialization: that one has no input
// limits (a file can declare a billion-element array, or make containers contain each other),
// builds every value whether asked or not, and is several times slower on Linux.

/// Reads a binary property list (`bplist00`) object by object.
///
/// Every offset, count, length and reference is checked against the file and the limits before
/// it is used, so that any input gives a value or a ``PropertyListError``, never a trap. Only
/// the header, the trailer and the offset table are read up front: objects are read when asked
/// for, and the reader keeps nothing per object, so a file's size bounds the memory it costs.
///
/// Containers hand out the references of their elements; following a reference is the
/// caller's, as is bounding the depth and the number of values it builds (a file may share one
/// container among many, or make one contain itself).
public struct BinaryPropertyListReader: Sendable {
  /// The type of an object, from its marker.
  public enum ObjectType: Sendable, Hashable {
    case null, bool, integer, real, date, data, string, uid, array, set, dictionary
  }

  /// An integer as the file holds it: signed, or above `Int64.max`.
  public enum Integer: Sendable, Hashable {
    case signed(Int64)
    case unsigned(UInt64)
  }

  /// An array or dictionary: its element count and where its references lie.
  public struct Container: Sendable, Hashable {
    /// The number of elements, or of key-value pairs.
    public let count: Int
    fileprivate let start: Int
  }

  /// The file's bytes.
  public let bytes: [UInt8]
  /// The limits the file was checked against.
  public let limits: PropertyListLimits
  /// The number of objects.
  public let objectCount: Int
  /// The top object.
  public let topObject: Int
  private let offsetWidth: Int
  private let referenceWidth: Int
  /// Where the offset table starts, which is where the objects end.
  private let tableStart: Int

  /// Reads the header, the trailer and the offset table.
  ///
  /// - Throws: ``PropertyListError`` for a file that is not a binary property list, is cut
  ///   short, declares objects outside itself, or exceeds `limits`.
  public init(_ bytes: [UInt8], limits: PropertyListLimits = PropertyListLimits())
    throws(PropertyListError)
  {
    guard bytes.count <= limits.maxFileSize else {
      throw PropertyListError(
        .limitExceeded, "file is \(bytes.count) bytes, above the limit of \(limits.maxFileSize)")
    }
    guard bytes.count >= 8, bytes[0..<6].elementsEqual("bplist".utf8) else {
      throw PropertyListError(.notPropertyList, "not a binary property list (no bplist header)")
    }
    guard bytes[6] == UInt8(ascii: "0"), bytes[7] == UInt8(ascii: "0") else {
      throw PropertyListError(
        .notPropertyList,
        "binary property list version '\(String(decoding: bytes[6..<8], as: UTF8.self))' is not supported (only 00)"
      )
    }
    guard bytes.count >= 8 + 1 + 32 else {
      throw PropertyListError(.truncated, "file is \(bytes.count) bytes, too short for a trailer")
    }
    let trailer = bytes.count - 32
    let offsetWidth = Int(bytes[trailer + 6])
    let referenceWidth = Int(bytes[trailer + 7])
    guard (1...8).contains(offsetWidth), (1...8).contains(referenceWidth) else {
      throw PropertyListError(
        .malformed,
        "trailer declares offset width \(offsetWidth) and reference width \(referenceWidth)",
        offset: trailer)
    }
    let count = Self.bigEndian(bytes, at: trailer + 8, width: 8)
    let top = Self.bigEndian(bytes, at: trailer + 16, width: 8)
    let table = Self.bigEndian(bytes, at: trailer + 24, width: 8)
    guard count >= 1, count <= UInt64(limits.maxObjectCount) else {
      throw PropertyListError(
        count == 0 ? .malformed : .limitExceeded,
        count == 0
          ? "trailer declares no objects"
          : "trailer declares \(count) objects, above the limit of \(limits.maxObjectCount)",
        offset: trailer + 8)
    }
    guard top < count else {
      throw PropertyListError(.malformed, "top object \(top) is outside the \(count) objects")
    }
    let (tableLength, overflow) = Int(count).multipliedReportingOverflow(by: offsetWidth)
    guard !overflow, table >= 9, table <= UInt64(trailer), tableLength <= trailer - Int(table)
    else {
      throw PropertyListError(
        .truncated,
        "offset table at \(table) with \(count) entries does not fit before the trailer",
        offset: trailer + 24)
    }
    self.bytes = bytes
    self.limits = limits
    self.objectCount = Int(count)
    self.topObject = Int(top)
    self.offsetWidth = offsetWidth
    self.referenceWidth = referenceWidth
    self.tableStart = Int(table)
    // Every object must start inside the object area; checked once, here.
    for object in 0..<objectCount {
      let offset = storedOffset(object)
      guard offset >= 8, offset < tableStart else {
        throw PropertyListError(
          .malformed,
          "the offset table puts object \(object) at \(offset), outside the objects, which are bytes 8 to \(tableStart - 1)",
          offset: tableStart + object * offsetWidth)
      }
    }
  }

  // MARK: Objects

  /// Where an object starts.
  ///
  /// - Throws: ``PropertyListError`` for a reference to an object that does not exist.
  public func offset(of object: Int) throws(PropertyListError) -> Int {
    guard object >= 0, object < objectCount else {
      throw PropertyListError(
        .malformed, "reference to object \(object), but there are \(objectCount) objects")
    }
    return storedOffset(object)
  }

  /// An object's type.
  public func type(of object: Int) throws(PropertyListError) -> ObjectType {
    let offset = try offset(of: object)
    let marker = bytes[offset]
    switch marker >> 4 {
    case 0x0 where marker == 0x00: return .null
    case 0x0 where marker == 0x08 || marker == 0x09: return .bool
    case 0x1: return .integer
    case 0x2: return .real
    case 0x3: return .date
    case 0x4: return .data
    case 0x5, 0x6: return .string
    case 0x8: return .uid
    case 0xA: return .array
    case 0xC: return .set
    case 0xD: return .dictionary
    default:
      throw PropertyListError(
        .malformed, "unknown marker 0x\(String(marker, radix: 16))", offset: offset)
    }
  }

  /// A Boolean object.
  public func bool(_ object: Int) throws(PropertyListError) -> Bool {
    let offset = try offset(of: object)
    switch bytes[offset] {
    case 0x08: return false
    case 0x09: return true
    default: throw wrongType(object, at: offset, expected: "a Boolean")
    }
  }

  /// An integer object of 1, 2, 4, 8 or 16 bytes.
  public func integer(_ object: Int) throws(PropertyListError) -> Integer {
    let offset = try offset(of: object)
    let marker = bytes[offset]
    guard marker >> 4 == 0x1 else { throw wrongType(object, at: offset, expected: "an integer") }
    let exponent = Int(marker & 0x0F)
    guard exponent <= 4 else {
      throw PropertyListError(.malformed, "integer of 2^\(exponent) bytes", offset: offset)
    }
    let width = 1 << exponent
    try checkSpan(start: offset + 1, count: width, width: 1, at: offset)
    switch width {
    case 1, 2, 4: return .signed(Int64(Self.bigEndian(bytes, at: offset + 1, width: width)))
    case 8: return .signed(Int64(bitPattern: Self.bigEndian(bytes, at: offset + 1, width: 8)))
    default:
      // 16 bytes, as plistlib writes integers above Int64.max.
      let high = Self.bigEndian(bytes, at: offset + 1, width: 8)
      let low = Self.bigEndian(bytes, at: offset + 9, width: 8)
      if high == 0 { return low <= UInt64(Int64.max) ? .signed(Int64(low)) : .unsigned(low) }
      if high == UInt64.max, low >= 1 << 63 { return .signed(Int64(bitPattern: low)) }
      throw PropertyListError(.malformed, "integer does not fit in 64 bits", offset: offset)
    }
  }

  /// A real object of 4 or 8 bytes, as a double.
  public func real(_ object: Int) throws(PropertyListError) -> Double {
    let offset = try offset(of: object)
    switch bytes[offset] {
    case 0x22:
      try checkSpan(start: offset + 1, count: 4, width: 1, at: offset)
      let bits = UInt32(truncatingIfNeeded: Self.bigEndian(bytes, at: offset + 1, width: 4))
      return Double(Float(bitPattern: bits))
    case 0x23:
      try checkSpan(start: offset + 1, count: 8, width: 1, at: offset)
      return Double(bitPattern: Self.bigEndian(bytes, at: offset + 1, width: 8))
    default:
      throw wrongType(object, at: offset, expected: "a real")
    }
  }

  /// A date object, as seconds since 2001-01-01 00:00 UTC.
  public func date(_ object: Int) throws(PropertyListError) -> Double {
    let offset = try offset(of: object)
    guard bytes[offset] == 0x33 else { throw wrongType(object, at: offset, expected: "a date") }
    try checkSpan(start: offset + 1, count: 8, width: 1, at: offset)
    return Double(bitPattern: Self.bigEndian(bytes, at: offset + 1, width: 8))
  }

  /// A data object's bytes.
  public func data(_ object: Int) throws(PropertyListError) -> ArraySlice<UInt8> {
    let offset = try offset(of: object)
    guard bytes[offset] >> 4 == 0x4 else { throw wrongType(object, at: offset, expected: "data") }
    let (count, start) = try header(at: offset)
    guard count <= limits.maxDataLength else {
      throw PropertyListError(
        .limitExceeded, "data of \(count) bytes, above the limit of \(limits.maxDataLength)",
        offset: offset)
    }
    try checkSpan(start: start, count: count, width: 1, at: offset)
    return bytes[start..<(start + count)]
  }

  /// A string object, ASCII or UTF-16; unpaired surrogates become U+FFFD.
  public func string(_ object: Int) throws(PropertyListError) -> String {
    let (isASCII, start, count) = try stringSpan(object)
    if isASCII {
      return bytes.withUnsafeBufferPointer {
        String(decoding: UnsafeBufferPointer(rebasing: $0[start..<(start + count)]), as: UTF8.self)
      }
    }
    return UTF16Transcoding.string(fromBigEndianUTF16: bytes, start: start, count: count)
  }

  /// Checks a string object as ``string(_:)`` reads it, without building the string, and
  /// returns its length: ASCII bytes or UTF-16 units, at most its length in UTF-8.
  @discardableResult
  public func checkString(_ object: Int) throws(PropertyListError) -> Int {
    try stringSpan(object).count
  }

  /// Where a string object's characters lie, checked: whether they are ASCII bytes or UTF-16
  /// units, where they start, and how many there are.
  private func stringSpan(
    _ object: Int
  ) throws(PropertyListError) -> (isASCII: Bool, start: Int, count: Int) {
    let offset = try offset(of: object)
    let marker = bytes[offset] >> 4
    guard marker == 0x5 || marker == 0x6 else {
      throw wrongType(object, at: offset, expected: "a string")
    }
    let (count, start) = try header(at: offset)
    guard count <= limits.maxStringLength else {
      throw PropertyListError(
        .limitExceeded,
        "string of \(count) characters, above the limit of \(limits.maxStringLength)",
        offset: offset)
    }
    try checkSpan(start: start, count: count, width: marker == 0x5 ? 1 : 2, at: offset)
    if marker == 0x5, bytes[start..<(start + count)].contains(where: { $0 >= 0x80 }) {
      throw PropertyListError(.malformed, "ASCII string holds a non-ASCII byte", offset: offset)
    }
    return (marker == 0x5, start, count)
  }

  /// A UID object's value.
  public func uid(_ object: Int) throws(PropertyListError) -> UInt64 {
    let offset = try offset(of: object)
    let marker = bytes[offset]
    guard marker >> 4 == 0x8 else { throw wrongType(object, at: offset, expected: "a UID") }
    let width = Int(marker & 0x0F) + 1
    guard width <= 8 else {
      throw PropertyListError(.malformed, "UID of \(width) bytes", offset: offset)
    }
    try checkSpan(start: offset + 1, count: width, width: 1, at: offset)
    return Self.bigEndian(bytes, at: offset + 1, width: width)
  }

  /// An array object: its count, and where ``element(_:of:)`` finds its references.
  public func array(_ object: Int) throws(PropertyListError) -> Container {
    try container(object, marker: 0xA, expected: "an array", referencesPerElement: 1)
  }

  /// A dictionary object: its count, and where ``key(_:of:)`` and ``value(_:of:)`` find its
  /// references.
  public func dictionary(_ object: Int) throws(PropertyListError) -> Container {
    try container(object, marker: 0xD, expected: "a dictionary", referencesPerElement: 2)
  }

  /// The reference of an array's element; `index` must be below the array's count.
  public func element(_ index: Int, of array: Container) -> Int {
    reference(at: array.start + index * referenceWidth)
  }

  /// The reference of a dictionary's key; `index` must be below the dictionary's count.
  public func key(_ index: Int, of dictionary: Container) -> Int {
    reference(at: dictionary.start + index * referenceWidth)
  }

  /// The reference of a dictionary's value; `index` must be below the dictionary's count.
  public func value(_ index: Int, of dictionary: Container) -> Int {
    reference(at: dictionary.start + (dictionary.count + index) * referenceWidth)
  }

  // MARK: Internals

  private func container(
    _ object: Int, marker: UInt8, expected: String, referencesPerElement: Int
  ) throws(PropertyListError) -> Container {
    let offset = try offset(of: object)
    guard bytes[offset] >> 4 == marker else {
      throw wrongType(object, at: offset, expected: expected)
    }
    let (count, start) = try header(at: offset)
    guard count <= limits.maxCollectionCount else {
      throw PropertyListError(
        .limitExceeded,
        "container of \(count) elements, above the limit of \(limits.maxCollectionCount)",
        offset: offset)
    }
    try checkSpan(
      start: start, count: count * referencesPerElement, width: referenceWidth, at: offset)
    return Container(count: count, start: start)
  }

  /// A variable-length object's count and where its payload starts.
  private func header(at offset: Int) throws(PropertyListError) -> (count: Int, start: Int) {
    let low = Int(bytes[offset] & 0x0F)
    if low != 0x0F { return (low, offset + 1) }
    guard offset + 1 < tableStart else {
      throw PropertyListError(.truncated, "count of object is cut off", offset: offset)
    }
    let marker = bytes[offset + 1]
    guard marker >> 4 == 0x1, marker & 0x0F <= 3 else {
      throw PropertyListError(
        .malformed, "count of object is not an integer (marker 0x\(String(marker, radix: 16)))",
        offset: offset + 1)
    }
    let width = 1 << Int(marker & 0x0F)
    try checkSpan(start: offset + 2, count: 1, width: width, at: offset)
    let value = Self.bigEndian(bytes, at: offset + 2, width: width)
    guard value <= UInt64(Int32.max) else {
      throw PropertyListError(.limitExceeded, "object declares a count of \(value)", offset: offset)
    }
    return (Int(value), offset + 2 + width)
  }

  /// Checks that `count` items of `width` bytes from `start` lie inside the object area.
  private func checkSpan(
    start: Int, count: Int, width: Int, at offset: Int
  ) throws(PropertyListError) {
    let (length, overflow) = count.multipliedReportingOverflow(by: width)
    guard !overflow, start <= tableStart, length <= tableStart - start else {
      throw PropertyListError(
        .truncated,
        "object declares \(count) items of \(width) bytes, past the end of the object area",
        offset: offset)
    }
  }

  private func wrongType(_ object: Int, at offset: Int, expected: String) -> PropertyListError {
    PropertyListError(.malformed, "object \(object) is not \(expected)", offset: offset)
  }

  private func reference(at position: Int) -> Int {
    Int(truncatingIfNeeded: Self.bigEndian(bytes, at: position, width: referenceWidth))
  }

  /// The offset the table holds for an object; checked in `init`.
  private func storedOffset(_ object: Int) -> Int {
    Int(
      truncatingIfNeeded: Self.bigEndian(
        bytes, at: tableStart + object * offsetWidth, width: offsetWidth))
  }

  private static func bigEndian(_ bytes: [UInt8], at offset: Int, width: Int) -> UInt64 {
    // The widths files use, read without a loop: every object access reads one or two.
    switch width {
    case 1: return UInt64(bytes[offset])
    case 2: return UInt64(bytes[offset]) << 8 | UInt64(bytes[offset + 1])
    case 3:
      return UInt64(bytes[offset]) << 16 | UInt64(bytes[offset + 1]) << 8
        | UInt64(bytes[offset + 2])
    default: break
    }
    var value: UInt64 = 0
    for index in offset..<(offset + width) { value = value << 8 | UInt64(bytes[index]) }
    return value
  }
}
