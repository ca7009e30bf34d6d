#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// Our own reader rather than PropertyListSerialization: Foundation's has no input limits (a file
// can declare a billion-element array, or make containers reference each other in a cycle), and
// on Linux it is several times slower. This one treats every file as untrusted: every offset,
// count and length is checked against the file before it is used, recursion is bounded, cycles
// are detected, and the number of values it materializes is capped.

/// Limits the archive reader enforces on untrusted input.
public struct ArchiveLimits: Sendable, Hashable {
  /// The largest file accepted, in bytes.
  public var maxFileSize: Int
  /// The largest number of objects in the property list's object table.
  public var maxObjectCount: Int
  /// The deepest nesting of arrays and dictionaries.
  public var maxDepth: Int
  /// The longest string, in bytes (ASCII) or UTF-16 code units.
  public var maxStringLength: Int
  /// The longest data value, in bytes.
  public var maxDataLength: Int
  /// The most elements in one array or dictionary.
  public var maxCollectionCount: Int
  /// The longest identifier path of one record, in UTF-8 bytes.
  public var maxIdentifierPathLength: Int
  /// The most components (identifiers and index components) in one identifier path.
  public var maxIdentifierPathComponents: Int
  /// The most UTF-8 bytes in all the records' identifier paths together: records may share one
  /// path object in the file, and each is still analysed.
  public var maxTotalIdentifierPathLength: Int

  /// Creates limits.
  ///
  /// - Parameters:
  ///   - maxFileSize: The largest file accepted, in bytes.
  ///   - maxObjectCount: The largest number of objects in the object table.
  ///   - maxDepth: The deepest nesting of containers.
  ///   - maxStringLength: The longest string.
  ///   - maxDataLength: The longest data value.
  ///   - maxCollectionCount: The most elements in one container.
  ///   - maxIdentifierPathLength: The longest identifier path, in UTF-8 bytes.
  ///   - maxIdentifierPathComponents: The most components in one identifier path.
  ///   - maxTotalIdentifierPathLength: The most bytes in all the records' paths together.
  public init(
    maxFileSize: Int = 256 << 20,
    maxObjectCount: Int = 16 << 20,
    maxDepth: Int = 128,
    maxStringLength: Int = 16 << 20,
    maxDataLength: Int = 64 << 20,
    maxCollectionCount: Int = 8 << 20,
    maxIdentifierPathLength: Int = 8 << 10,
    maxIdentifierPathComponents: Int = 512,
    maxTotalIdentifierPathLength: Int = 32 << 20
  ) {
    self.maxFileSize = maxFileSize
    self.maxObjectCount = maxObjectCount
    self.maxDepth = maxDepth
    self.maxStringLength = maxStringLength
    self.maxDataLength = maxDataLength
    self.maxCollectionCount = maxCollectionCount
    self.maxIdentifierPathLength = maxIdentifierPathLength
    self.maxIdentifierPathComponents = maxIdentifierPathComponents
    self.maxTotalIdentifierPathLength = maxTotalIdentifierPathLength
  }

  /// The defaults: generous for any real UI state, small enough that a hostile file cannot
  /// exhaust memory.
  public static let `default` = ArchiveLimits()

  /// Checks one record's identifier path against the path limits, and adds its length to
  /// `total`, the length of the paths checked before it.
  ///
  /// - Returns: What exceeds a limit, in words, or nil.
  package func identifierPathProblem(_ path: String, total: inout Int) -> String? {
    let length = path.utf8.count
    total += length
    if length > maxIdentifierPathLength {
      return "an identifier path of \(length) bytes, above the limit of \(maxIdentifierPathLength)"
    }
    if total > maxTotalIdentifierPathLength {
      return
        "identifier paths of \(total) bytes in all, above the limit of \(maxTotalIdentifierPathLength)"
    }
    // A path has at most one component more than it has bytes: most need no counting.
    guard length >= maxIdentifierPathComponents else { return nil }
    let components = withUTF8Bytes(of: path) { bytes in
      bytes.reduce(1) { $0 + ($1 == UInt8(ascii: "/") ? 1 : 0) }
    }
    if components > maxIdentifierPathComponents {
      return
        "an identifier path of \(components) components, above the limit of \(maxIdentifierPathComponents)"
    }
    return nil
  }
}

/// Reads a binary property list (`bplist00`) into ``StateValue``s, checking everything.
struct BinaryPropertyListReader: InPlaceAccess {
  /// The type of an object, from its marker byte.
  enum ObjectType: Equatable {
    case null, bool, integer, real, date, data, asciiString, utf16String, uid, array, set,
      dictionary, unknown
  }

  let bytes: [UInt8]
  let limits: ArchiveLimits
  let objectCount: Int
  let topObject: Int
  private let offsetTableOffset: Int
  private let offsetSize: Int
  private let referenceSize: Int

  /// The name number of each string object read with caching or as a key, or -1.
  ///
  /// Shared keys and class names are built once. Empty until the first string is cached. The
  /// reader's only table with an entry per object, four bytes each: a file declaring
  /// millions of objects costs no more memory than its own offset table.
  private var nameSlots: [Int32] = []
  private var numbersByName: [String: Int32] = [:]
  /// The names, by number.
  private(set) var keyNames: [String] = []
  /// The name numbers of the dictionaries being read or checked, one buffer for all of them: a
  /// dictionary read while its parent is stacks its numbers above the parent's (see
  /// ``noteKey(_:from:hashed:)``).
  private var scratch: [Int32] = []
  /// The containers being decoded, outermost first, to detect reference cycles; at most
  /// ``ArchiveLimits/maxDepth`` long.
  private var openContainers: [Int] = []
  /// How many more values may be materialized; bounds the work a file of shared containers
  /// (a "billion laughs" file) can cause.
  private var valueBudget: Int

  /// Parses the header and trailer and checks the offset table.
  ///
  /// - Throws: ``RestorationError`` for a file that is not a well-formed binary property list.
  init(bytes: [UInt8], limits: ArchiveLimits = .default) throws(RestorationError) {
    self.bytes = bytes
    self.limits = limits
    guard bytes.count <= limits.maxFileSize else {
      throw RestorationError(
        .limitExceeded,
        "file is \(bytes.count) bytes, above the limit of \(limits.maxFileSize)"
      )
    }
    guard bytes.count >= 8, bytes[0..<6].elementsEqual("bplist".utf8) else {
      throw RestorationError(.notPropertyList, "not a binary property list (no bplist header)")
    }
    guard bytes[6] == UInt8(ascii: "0"), bytes[7] == UInt8(ascii: "0") else {
      throw RestorationError(
        .notPropertyList,
        "binary property list version '\(String(decoding: bytes[6..<8], as: UTF8.self))' is not supported (only 00)"
      )
    }
    guard bytes.count >= 8 + 1 + 32 else {
      throw RestorationError(.truncated, "file is \(bytes.count) bytes, too short for a trailer")
    }
    let trailer = bytes.count - 32
    offsetSize = Int(bytes[trailer + 6])
    referenceSize = Int(bytes[trailer + 7])
    let count = Self.bigEndian(bytes, at: trailer + 8, width: 8)
    let top = Self.bigEndian(bytes, at: trailer + 16, width: 8)
    let table = Self.bigEndian(bytes, at: trailer + 24, width: 8)
    // Any width from 1 to 8 bytes is valid (CoreFoundation and our writer use 3 for mid-sized
    // files), as in CoreFoundation's reader.
    guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
      throw RestorationError(
        .malformed,
        "trailer declares offset width \(offsetSize) and reference width \(referenceSize)",
        offset: trailer
      )
    }
    // Object numbers fit in 32 bits, as the name slots that index by them do.
    guard count >= 1, count <= UInt64(min(limits.maxObjectCount, Int(Int32.max))) else {
      throw RestorationError(
        count == 0 ? .malformed : .limitExceeded,
        "trailer declares \(count) objects (limit \(limits.maxObjectCount))",
        offset: trailer + 8
      )
    }
    guard top < count else {
      throw RestorationError(.malformed, "top object \(top) is outside the \(count) objects")
    }
    objectCount = Int(count)
    topObject = Int(top)
    let (tableBytes, overflow) = objectCount.multipliedReportingOverflow(by: offsetSize)
    guard !overflow, table >= 9, table <= UInt64(trailer), Int(table) + tableBytes <= trailer
    else {
      throw RestorationError(
        .truncated,
        "offset table at \(table) with \(objectCount) entries does not fit before the trailer",
        offset: trailer + 24
      )
    }
    offsetTableOffset = Int(table)
    valueBudget = 0
    // Every object must start inside the object area. The offsets stay in the file's table,
    // read from there when needed, rather than copied into memory 8 bytes each.
    var failure: RestorationError?
    let (objectCount, offsetTableOffset, offsetSize) = (objectCount, offsetTableOffset, offsetSize)
    bytes.withUnsafeBufferPointer { buffer in
      var position = offsetTableOffset
      for index in 0..<objectCount {
        var offset: UInt64 = 0
        for _ in 0..<offsetSize {
          offset = offset << 8 | UInt64(buffer[position])
          position += 1
        }
        guard offset >= 8, offset < UInt64(offsetTableOffset) else {
          failure = RestorationError(
            .malformed,
            "object \(index) starts at \(offset), outside the object area 8..<\(offsetTableOffset)",
            offset: position - offsetSize
          )
          return
        }
      }
    }
    if let failure { throw failure }
    // A file whose containers are not shared materializes at most one value per reference,
    // and there are fewer references than bytes.
    valueBudget = 2 * (bytes.count + objectCount)
  }

  // MARK: Low-level access

  private static func bigEndian(_ bytes: [UInt8], at offset: Int, width: Int) -> UInt64 {
    var value: UInt64 = 0
    for index in offset..<(offset + width) { value = value << 8 | UInt64(bytes[index]) }
    return value
  }

  /// The byte offset of an object, after checking the reference.
  @inline(__always)
  func offset(of reference: Int) throws(RestorationError) -> Int {
    guard reference >= 0, reference < objectCount else {
      throw RestorationError(
        .malformed,
        "reference to object \(reference), but there are \(objectCount) objects"
      )
    }
    return storedOffset(reference)
  }

  /// The offset the table holds for an object that exists (checked in `init`).
  @inline(__always)
  private func storedOffset(_ reference: Int) -> Int {
    let position = offsetTableOffset + reference * offsetSize
    return bytes.withUnsafeBufferPointer { buffer in
      var offset = 0
      for index in position..<(position + offsetSize) { offset = offset << 8 | Int(buffer[index]) }
      return offset
    }
  }

  /// The type of an object.
  func type(of reference: Int) throws(RestorationError) -> ObjectType {
    let marker = bytes[try offset(of: reference)]
    switch marker >> 4 {
    case 0x0:
      switch marker {
      case 0x00: return .null
      case 0x08, 0x09: return .bool
      default: return .unknown
      }
    case 0x1: return .integer
    case 0x2: return .real
    case 0x3: return .date
    case 0x4: return .data
    case 0x5: return .asciiString
    case 0x6: return .utf16String
    case 0x8: return .uid
    case 0xA: return .array
    case 0xC: return .set
    case 0xD: return .dictionary
    default: return .unknown
    }
  }

  /// Checks that `count` items of `width` bytes starting at `start` lie inside the object area.
  private func checkSpan(
    start: Int,
    count: Int,
    width: Int,
    at offset: Int
  ) throws(RestorationError) {
    let (length, overflow) = count.multipliedReportingOverflow(by: width)
    guard !overflow, start <= offsetTableOffset, length <= offsetTableOffset - start else {
      throw RestorationError(
        .truncated,
        "object declares \(count) items of \(width) bytes, past the end of the object area",
        offset: offset
      )
    }
  }

  /// Reads the count of a variable-length object and returns it with the start of its payload.
  private func header(at offset: Int) throws(RestorationError) -> (count: Int, start: Int) {
    let low = Int(bytes[offset] & 0x0F)
    if low != 0x0F { return (low, offset + 1) }
    guard offset + 1 < offsetTableOffset else {
      throw RestorationError(.truncated, "count of object is cut off", offset: offset)
    }
    let marker = bytes[offset + 1]
    guard marker >> 4 == 0x1, marker & 0x0F <= 3 else {
      throw RestorationError(
        .malformed,
        "count of object is not an integer (marker 0x\(String(marker, radix: 16)))",
        offset: offset + 1
      )
    }
    let width = 1 << Int(marker & 0x0F)
    try checkSpan(start: offset + 2, count: 1, width: width, at: offset)
    let value = Self.bigEndian(bytes, at: offset + 2, width: width)
    guard value <= UInt64(Int32.max) else {
      throw RestorationError(.limitExceeded, "object declares a count of \(value)", offset: offset)
    }
    return (Int(value), offset + 2 + width)
  }

  // MARK: Typed access

  /// Where a container's references are, after checking its marker, count and extent.
  ///
  /// Callers read the references one at a time with ``reference(at:)``, which saves an array
  /// per container.
  ///
  /// - Parameters:
  ///   - reference: The container.
  ///   - isDictionary: Whether a dictionary (keys, then values) is expected, else an array.
  /// - Returns: The element count, and the offset of the first reference.
  /// - Throws: ``RestorationError`` for another type, a count above the limit, or references
  ///   past the end of the object area.
  func containerSpan(
    _ reference: Int,
    isDictionary: Bool
  ) throws(RestorationError) -> (count: Int, start: Int) {
    let offset = try offset(of: reference)
    let marker: UInt8 = isDictionary ? 0xD : 0xA
    guard bytes[offset] >> 4 == marker else {
      throw RestorationError(
        .malformed,
        "object \(reference) is not \(isDictionary ? "a dictionary" : "an array")",
        offset: offset
      )
    }
    let (count, start) = try header(at: offset)
    try checkCollection(count, at: offset)
    try checkSpan(
      start: start, count: isDictionary ? count * 2 : count, width: referenceSize, at: offset)
    return (count, start)
  }

  /// The `index`th reference of a container whose span ``containerSpan(_:isDictionary:)``
  /// checked; dictionary values start at index `count`.
  @inline(__always)
  func reference(at start: Int, _ index: Int) -> Int {
    var position = start + index * referenceSize
    // Archives of up to 16 million objects use 1 to 3 bytes: read those without the loop,
    // which every key lookup and every check of a container runs through.
    switch referenceSize {
    case 1: return Int(bytes[position])
    case 2: return Int(bytes[position]) << 8 | Int(bytes[position + 1])
    case 3:
      return Int(bytes[position]) << 16 | Int(bytes[position + 1]) << 8
        | Int(bytes[position + 2])
    default: break
    }
    var value = 0
    for _ in 0..<referenceSize {
      value = value << 8 | Int(bytes[position])
      position += 1
    }
    return value
  }

  private func checkCollection(_ count: Int, at offset: Int) throws(RestorationError) {
    guard count <= limits.maxCollectionCount else {
      throw RestorationError(
        .limitExceeded,
        "container declares \(count) elements (limit \(limits.maxCollectionCount))",
        offset: offset
      )
    }
  }

  /// A string object.
  ///
  /// A string each file holds once, such as a record's path, is read without caching: keeping
  /// ten thousand paths for a second read that never came cost 3% of a restore.
  ///
  /// - Parameters:
  ///   - reference: The string object.
  ///   - caching: Whether to keep the string for the next read of the same object.
  /// - Returns: The string.
  /// - Throws: ``RestorationError`` when the object is not a string, or breaks a limit.
  mutating func string(_ reference: Int, caching: Bool = true) throws(RestorationError) -> String {
    let offset = try offset(of: reference)
    if !nameSlots.isEmpty, case let slot = nameSlots[reference], slot >= 0 {
      return keyNames[Int(slot)]
    }
    let (isASCII, count, start) = try stringPayload(at: offset, reference: reference)
    let result: String
    if isASCII {
      result = bytes.withUnsafeBufferPointer { buffer in
        String(
          decoding: UnsafeBufferPointer(rebasing: buffer[start..<(start + count)]), as: UTF8.self)
      }
    } else {
      var units = [UInt16](repeating: 0, count: count)
      for index in 0..<count {
        units[index] = UInt16(bytes[start + 2 * index]) << 8 | UInt16(bytes[start + 2 * index + 1])
      }
      result = String(decoding: units, as: UTF16.self)
    }
    if caching {
      if nameSlots.isEmpty { nameSlots = [Int32](repeating: -1, count: objectCount) }
      nameSlots[reference] = number(ofName: result)
    }
    return result
  }

  /// Where a string object's payload lies, with its marker, length, span and (for an ASCII
  /// string) bytes checked: what reading a string and checking one share.
  ///
  /// - Returns: Whether the payload is ASCII (else UTF-16), its length in characters, and its
  ///   first byte.
  private func stringPayload(at offset: Int, reference: Int) throws(RestorationError) -> (
    isASCII: Bool, count: Int, start: Int
  ) {
    let marker = bytes[offset] >> 4
    guard marker == 0x5 || marker == 0x6 else {
      throw RestorationError(.malformed, "object \(reference) is not a string", offset: offset)
    }
    let (count, start) = try header(at: offset)
    guard count <= limits.maxStringLength else {
      throw RestorationError(
        .limitExceeded,
        "string of \(count) characters (limit \(limits.maxStringLength))",
        offset: offset
      )
    }
    let isASCII = marker == 0x5
    try checkSpan(start: start, count: count, width: isASCII ? 1 : 2, at: offset)
    if isASCII {
      let valid = bytes.withUnsafeBufferPointer { buffer -> Bool in
        var combined: UInt8 = 0
        for byte in UnsafeBufferPointer(rebasing: buffer[start..<(start + count)]) {
          combined |= byte
        }
        return combined < 0x80
      }
      guard valid else {
        throw RestorationError(.malformed, "ASCII string holds a non-ASCII byte", offset: offset)
      }
    }
    return (isASCII, count, start)
  }

  /// Any object, as a ``StateValue``.
  ///
  /// - Parameters:
  ///   - reference: The object.
  ///   - depth: The current nesting depth.
  ///   - uid: Maps a UID to the identifier path it stands for; nil rejects UIDs.
  /// - Returns: The value.
  /// - Throws: ``RestorationError`` for malformed input or a limit exceeded.
  mutating func value(
    _ reference: Int,
    depth: Int = 0,
    uid: ((Int) throws(RestorationError) -> String)? = nil
  ) throws(RestorationError) -> StateValue {
    let (offset, marker) = try startObject(reference)
    switch marker >> 4 {
    case 0x0:
      switch marker {
      case 0x08: return .bool(false)
      case 0x09: return .bool(true)
      case 0x00:
        throw RestorationError(.malformed, "null values are not supported", offset: offset)
      default:
        throw Self.unknownMarker(marker, at: offset)
      }
    case 0x1:
      return try integer(at: offset)
    case 0x2:
      return .real(try real(at: offset))
    case 0x3:
      try checkDate(marker, at: offset)
      let seconds = Double(bitPattern: Self.bigEndian(bytes, at: offset + 1, width: 8))
      return .date(Date(timeIntervalSinceReferenceDate: seconds))
    case 0x4:
      let (count, start) = try dataSpan(at: offset)
      return .data(Data(bytes[start..<(start + count)]))
    case 0x5, 0x6:
      return .string(try string(reference))
    case 0x8:
      let index = try uidIndex(marker, at: offset)
      guard let uid else {
        throw RestorationError(
          .malformed, "UID \(index) outside an archive's objects", offset: offset)
      }
      guard index <= UInt64(Int.max) else {
        throw RestorationError(.malformed, "UID \(index) is out of range", offset: offset)
      }
      return .reference(try uid(Int(index)))
    case 0xA:
      return try container(reference, depth: depth) {
        (reader: inout BinaryPropertyListReader, depth: Int) throws(RestorationError) -> StateValue
        in
        let (count, start) = try reader.containerSpan(reference, isDictionary: false)
        var values: [StateValue] = []
        values.reserveCapacity(count)
        for index in 0..<count {
          let element = reader.reference(at: start, index)
          values.append(try reader.value(element, depth: depth + 1, uid: uid))
        }
        return .array(values)
      }
    case 0xD:
      return try container(reference, depth: depth) {
        (reader: inout BinaryPropertyListReader, depth: Int) throws(RestorationError) -> StateValue
        in
        let (count, start) = try reader.containerSpan(reference, isDictionary: true)
        var result: [String: StateValue] = [:]
        result.reserveCapacity(count)
        for index in 0..<count {
          let name = try reader.string(reader.reference(at: start, index))
          let value = reader.reference(at: start, count + index)
          guard result[name] == nil else {
            throw RestorationError(
              .malformed,
              "dictionary repeats the key '\(name)'",
              offset: offset
            )
          }
          result[name] = try reader.value(value, depth: depth + 1, uid: uid)
        }
        return .dictionary(result)
      }
    case 0xC:
      throw RestorationError(.malformed, "sets are not supported", offset: offset)
    default:
      throw Self.unknownMarker(marker, at: offset)
    }
  }

  /// Reads a dictionary into ordered key-value pairs, keeping the file's key order.
  mutating func keyedValues(
    _ reference: Int,
    depth: Int,
    uid: ((Int) throws(RestorationError) -> String)?
  ) throws(RestorationError) -> KeyedValues {
    try container(reference, depth: depth) {
      (reader: inout BinaryPropertyListReader, depth: Int) throws(RestorationError) -> KeyedValues
      in
      let (count, start) = try reader.containerSpan(reference, isDictionary: true)
      var result = KeyedValues(reservingCapacity: count)
      // Keys are compared by name number, as the check compares them: comparing each name with
      // the ones before it was a twentieth of reading an archive.
      let base = reader.scratch.count
      defer { reader.scratch.removeLast(reader.scratch.count - base) }
      var hashed: Set<Int32>?
      for index in 0..<count {
        let key = reader.reference(at: start, index)
        let number = try reader.keyNumber(key)
        guard !reader.noteKey(number, from: base, hashed: &hashed) else {
          throw RestorationError(
            .malformed,
            "dictionary repeats the key '\(reader.keyName(number))'",
            offset: try reader.offset(of: reference)
          )
        }
        let value = reader.reference(at: start, count + index)
        result.appendUnchecked(
          reader.keyName(number), try reader.value(value, depth: depth + 1, uid: uid))
      }
      return result
    }
  }

  // MARK: Checks shared by reading and checking

  /// Spends one unit of the value budget and finds an object: where it starts and its marker.
  @inline(__always)
  private mutating func startObject(
    _ reference: Int
  ) throws(RestorationError) -> (offset: Int, marker: UInt8) {
    guard valueBudget > 0 else {
      throw RestorationError(
        .limitExceeded,
        "file references its containers more often than its size allows (shared-container bomb)"
      )
    }
    valueBudget -= 1
    let offset = try offset(of: reference)
    return (offset, bytes[offset])
  }

  private static func unknownMarker(_ marker: UInt8, at offset: Int) -> RestorationError {
    RestorationError(.malformed, "unknown marker 0x\(String(marker, radix: 16))", offset: offset)
  }

  /// Checks that a date object is 8 bytes and lies in the file.
  private func checkDate(_ marker: UInt8, at offset: Int) throws(RestorationError) {
    guard marker == 0x33 else {
      throw RestorationError(.malformed, "date is not 8 bytes", offset: offset)
    }
    try checkSpan(start: offset + 1, count: 8, width: 1, at: offset)
  }

  /// A data object's length and first byte, checked against the limit and the file.
  private func dataSpan(at offset: Int) throws(RestorationError) -> (count: Int, start: Int) {
    let (count, start) = try header(at: offset)
    guard count <= limits.maxDataLength else {
      throw RestorationError(
        .limitExceeded,
        "data of \(count) bytes (limit \(limits.maxDataLength))",
        offset: offset
      )
    }
    try checkSpan(start: start, count: count, width: 1, at: offset)
    return (count, start)
  }

  /// A UID's raw value, its width and span checked; the caller checks its range.
  private func uidIndex(_ marker: UInt8, at offset: Int) throws(RestorationError) -> UInt64 {
    let width = Int(marker & 0x0F) + 1
    guard width <= 8 else {
      throw RestorationError(.malformed, "UID of \(width) bytes", offset: offset)
    }
    try checkSpan(start: offset + 1, count: width, width: 1, at: offset)
    return Self.bigEndian(bytes, at: offset + 1, width: width)
  }

  // MARK: Checking without building values

  /// Checks an object exactly as ``value(_:depth:uid:)`` reads it (the same limits, budget and
  /// errors, in the same order) without building the value; UIDs must be below `recordCount`.
  ///
  /// The engine's restore checks a whole archive this way, then reads each value only when a
  /// decoder asks for it: a value nobody reads is never built, and nothing is built twice.
  mutating func check(
    _ reference: Int,
    depth: Int,
    recordCount: Int
  ) throws(RestorationError) {
    let (offset, marker) = try startObject(reference)
    switch marker >> 4 {
    case 0x0:
      switch marker {
      case 0x08, 0x09: return
      case 0x00:
        throw RestorationError(.malformed, "null values are not supported", offset: offset)
      default:
        throw Self.unknownMarker(marker, at: offset)
      }
    case 0x1:
      _ = try integer(at: offset)
    case 0x2:
      _ = try real(at: offset)
    case 0x3:
      try checkDate(marker, at: offset)
    case 0x4:
      _ = try dataSpan(at: offset)
    case 0x5, 0x6:
      try checkString(reference)
    case 0x8:
      let index = try uidIndex(marker, at: offset)
      guard index <= UInt64(Int.max) else {
        throw RestorationError(.malformed, "UID \(index) is out of range", offset: offset)
      }
      guard index < UInt64(recordCount) else {
        throw Self.recordReferenceError(Int(index), recordCount: recordCount)
      }
    case 0xA:
      try container(reference, depth: depth) {
        (reader: inout BinaryPropertyListReader, depth: Int) throws(RestorationError) in
        let (count, start) = try reader.containerSpan(reference, isDictionary: false)
        // Arrays hold scalars or references in most states (selections, stacks): checking
        // those elements in line, as a dictionary's values are, made checking such an array
        // 40% cheaper.
        for index in 0..<count {
          let element = reader.reference(at: start, index)
          if reader.checkScalar(element, recordCount: recordCount) { continue }
          try reader.check(element, depth: depth + 1, recordCount: recordCount)
        }
      }
    case 0xD:
      try container(reference, depth: depth) {
        (reader: inout BinaryPropertyListReader, depth: Int) throws(RestorationError) in
        let (count, start) = try reader.containerSpan(reference, isDictionary: true)
        var names = Set<String>(minimumCapacity: count)
        for index in 0..<count {
          let name = try reader.string(reader.reference(at: start, index))
          guard names.insert(name).inserted else {
            throw RestorationError(
              .malformed,
              "dictionary repeats the key '\(name)'",
              offset: offset
            )
          }
          try reader.check(
            reader.reference(at: start, count + index), depth: depth + 1, recordCount: recordCount
          )
        }
      }
    case 0xC:
      throw RestorationError(.malformed, "sets are not supported", offset: offset)
    default:
      throw Self.unknownMarker(marker, at: offset)
    }
  }

  /// Checks a Boolean, an integer of up to 8 bytes, a real, a date or a UID in line, and
  /// returns true; returns false, having checked nothing and spent no budget, for any other
  /// object and for any of these that is not well formed, which ``check(_:depth:recordCount:)``
  /// then checks (and reports) in full.
  ///
  /// Most values of a state are such scalars: checking them without the general check's call
  /// and dispatch halves the cost of checking a state.
  @inline(__always)
  mutating func checkScalar(_ reference: Int, recordCount: Int) -> Bool {
    guard valueBudget > 0, reference >= 0, reference < objectCount else { return false }
    let offset = storedOffset(reference)
    let marker = bytes[offset]
    let width: Int
    switch marker {
    case 0x08, 0x09: width = 0
    case 0x10...0x13: width = 1 << Int(marker & 0x0F)
    case 0x22: width = 4
    case 0x23, 0x33: width = 8
    case 0x80...0x87: width = Int(marker & 0x0F) + 1
    default: return false
    }
    guard width <= offsetTableOffset - offset - 1 else { return false }
    if marker >> 4 == 0x8 {
      let index = Self.bigEndian(bytes, at: offset + 1, width: width)
      guard index < UInt64(recordCount) else { return false }
    }
    valueBudget -= 1
    return true
  }

  /// A Boolean, an integer of up to 8 bytes, a real or a date, read as
  /// ``value(_:depth:uid:)`` reads it; nil for any other object, or one that is not well formed,
  /// which `value` then reads (or reports) in full.
  @inline(__always)
  func scalarValue(_ reference: Int) -> StateValue? {
    guard reference >= 0, reference < objectCount else { return nil }
    let offset = storedOffset(reference)
    let marker = bytes[offset]
    let width: Int
    switch marker {
    case 0x08: return .bool(false)
    case 0x09: return .bool(true)
    case 0x10...0x13: width = 1 << Int(marker & 0x0F)
    case 0x22: width = 4
    case 0x23, 0x33: width = 8
    default: return nil
    }
    guard width <= offsetTableOffset - offset - 1 else { return nil }
    let bits = Self.bigEndian(bytes, at: offset + 1, width: width)
    switch marker {
    case 0x13: return .integer(Int64(bitPattern: bits))
    case 0x10...0x12: return .integer(Int64(bits))
    case 0x22: return .real(Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))))
    case 0x23: return .real(Double(bitPattern: bits))
    default: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits)))
    }
  }

  /// An ASCII string (titles, search texts), read without the guards and the cache of
  /// ``value(_:depth:uid:)``, which cost more than the string; nil for any other object, which
  /// ``value(_:depth:uid:)`` then reads.
  ///
  /// For files checked whole, whose ASCII strings the check found ASCII; the span is still
  /// checked, and decoding repairs what is not UTF-8, so a reader used otherwise never traps.
  func asciiStringValue(_ reference: Int) -> StateValue? {
    guard reference >= 0, reference < objectCount else { return nil }
    let offset = storedOffset(reference)
    guard bytes[offset] >> 4 == 0x5, let (count, start) = try? header(at: offset),
      start <= offsetTableOffset, count <= offsetTableOffset - start
    else { return nil }
    return bytes.withUnsafeBufferPointer { bytes in
      .string(
        String(
          decoding: UnsafeBufferPointer(rebasing: bytes[start..<(start + count)]), as: UTF8.self))
    }
  }

  /// An array whose elements are all Booleans, integers, reals or dates (a selection, a list
  /// of numbers), read without the guards for nested containers, which such an array cannot
  /// hold and which cost more than its elements; nil for any other object, which
  /// ``value(_:depth:uid:)`` then reads.
  ///
  /// For files checked whole: it spends no budget, as ``scalarValue(_:)`` spends none.
  func scalarArray(_ array: Int) -> StateValue? {
    elements(of: array) { reader, element in reader.scalarValue(element) }.map { .array($0) }
  }

  /// An array whose elements are all integers of up to 8 bytes, as `Int`s; nil for any other
  /// object, which the caller then reads as a ``StateValue``.
  ///
  /// For files checked whole: it spends no budget, as ``scalarValue(_:)`` spends none.
  func integerArray(_ array: Int) -> [Int]? {
    elements(of: array) { reader, element in
      guard element >= 0, element < reader.objectCount else { return nil }
      let offset = reader.storedOffset(element)
      let marker = reader.bytes[offset]
      guard marker >= 0x10, marker <= 0x13 else { return nil }
      let width = 1 << Int(marker & 0x0F)
      guard width <= reader.offsetTableOffset - offset - 1 else { return nil }
      let bits = Self.bigEndian(reader.bytes, at: offset + 1, width: width)
      // As `scalarValue` reads it (8-byte integers signed, narrower ones unsigned), then as
      // `Int(stateValue:)` converts it.
      return Int(exactly: marker == 0x13 ? Int64(bitPattern: bits) : Int64(bits))
    }
  }

  /// The elements of an array object, each read by `element`; nil when the object is not an
  /// array or `element` returns nil for one.
  @inline(__always)
  private func elements<Element>(
    of array: Int,
    _ element: (borrowing BinaryPropertyListReader, Int) -> Element?
  ) -> [Element]? {
    guard array >= 0, array < objectCount, bytes[storedOffset(array)] >> 4 == 0xA,
      let (count, start) = try? containerSpan(array, isDictionary: false)
    else { return nil }
    var elements: [Element] = []
    elements.reserveCapacity(count)
    for index in 0..<count {
      guard let value = element(self, reference(at: start, index)) else { return nil }
      elements.append(value)
    }
    return elements
  }

  /// Checks a dictionary exactly as ``keyedValues(_:depth:uid:)`` reads it, without building
  /// its values.
  ///
  /// Each entry's key number and value reference are appended to `entries`, so that reading a
  /// key later compares integers instead of decoding references and names from the file.
  ///
  /// - Returns: The dictionary's entry count.
  mutating func checkKeyedValues(
    _ reference: Int,
    depth: Int,
    recordCount: Int,
    into entries: inout CheckedEntries
  ) throws(RestorationError) -> Int {
    try container(reference, depth: depth) {
      (reader: inout BinaryPropertyListReader, depth: Int) throws(RestorationError) -> Int in
      let (count, start) = try reader.containerSpan(reference, isDictionary: true)
      let base = reader.scratch.count
      defer { reader.scratch.removeLast(reader.scratch.count - base) }
      var hashed: Set<Int32>?
      for index in 0..<count {
        let key = reader.reference(at: start, index)
        let number = try reader.keyNumber(key)
        guard !reader.noteKey(number, from: base, hashed: &hashed) else {
          throw RestorationError(
            .malformed,
            "dictionary repeats the key '\(try reader.string(key))'",
            offset: try reader.offset(of: reference)
          )
        }
        let value = reader.reference(at: start, count + index)
        entries.append(key: number, value: value)
        if reader.checkScalar(value, recordCount: recordCount) { continue }
        try reader.check(value, depth: depth + 1, recordCount: recordCount)
      }
      return count
    }
  }

  /// Notes a key of the dictionary whose numbers start at `base` in `scratch`, and tells
  /// whether that dictionary already had it.
  ///
  /// Keys compare by name number (one per distinct name, see ``keyNumber(_:)``): a short list
  /// is searched, a long one hashed, as ``KeyedValues`` does with names.
  ///
  /// - Parameters:
  ///   - number: The key's name number.
  ///   - base: Where the dictionary's numbers start in `scratch`.
  ///   - hashed: The dictionary's numbers once it has many; nil before.
  /// - Returns: True if the key is repeated.
  @inline(__always)
  private mutating func noteKey(_ number: Int32, from base: Int, hashed: inout Set<Int32>?) -> Bool
  {
    if hashed != nil { return hashed?.insert(number).inserted == false }
    let repeated = scratch.withUnsafeBufferPointer { numbers in
      // A loop over the buffer: `contains` on a slice of the array was not specialized.
      var index = base
      while index < numbers.count {
        if numbers[index] == number { return true }
        index += 1
      }
      return false
    }
    scratch.append(number)
    if scratch.count - base > KeyedValues.indexThreshold { hashed = Set(scratch[base...]) }
    return repeated
  }

  /// The number ``keyNumber(_:)`` gave a name, or nil when no checked key holds it.
  func keyNumber(ofName name: String) -> Int32? {
    numbersByName[name]
  }

  /// The name a key number stands for.
  func keyName(_ number: Int32) -> String {
    keyNames[Int(number)]
  }

  /// A number for the name a key object holds: equal names, in one object or several, get the
  /// same number, so that keys compare as integers.
  ///
  /// The first use of a key object reads its string (with every check of ``string(_:)``);
  /// names are numbered through a `Set`-hashed dictionary, whose seeded hash a file cannot
  /// aim collisions at.
  mutating func keyNumber(_ reference: Int) throws(RestorationError) -> Int32 {
    _ = try offset(of: reference)
    if !nameSlots.isEmpty, case let known = nameSlots[reference], known >= 0 { return known }
    _ = try string(reference, caching: true)
    return nameSlots[reference]
  }

  /// The number of a name, the next one when the name is new.
  private mutating func number(ofName name: String) -> Int32 {
    if let existing = numbersByName[name] { return existing }
    let number = Int32(truncatingIfNeeded: numbersByName.count)
    numbersByName[name] = number
    keyNames.append(name)
    return number
  }

  /// Checks a string object exactly as ``string(_:)`` reads it, without building the string.
  mutating func checkString(_ reference: Int) throws(RestorationError) {
    let offset = try offset(of: reference)
    if !nameSlots.isEmpty, nameSlots[reference] >= 0 { return }
    _ = try stringPayload(at: offset, reference: reference)
  }

  /// The error for a UID that names no record, as the archive reader reports it.
  static func recordReferenceError(_ index: Int, recordCount: Int) -> RestorationError {
    RestorationError(
      .malformed,
      "reference to object record \(index), but there are \(recordCount)"
    )
  }

  /// The record index a UID object holds, or nil when the object is not a UID.
  ///
  /// Meant for files whose values were checked (``check(_:depth:recordCount:)``); every bound
  /// is still checked, so a wrong reference reads as nil, never past the file.
  func recordIndex(ofUID reference: Int) -> Int? {
    guard reference >= 0, reference < objectCount else { return nil }
    let offset = storedOffset(reference)
    let marker = bytes[offset]
    guard marker >> 4 == 0x8 else { return nil }
    let width = Int(marker & 0x0F) + 1
    guard width <= 8, width <= offsetTableOffset - offset - 1 else { return nil }
    let value = Self.bigEndian(bytes, at: offset + 1, width: width)
    guard value <= UInt64(Int.max) else { return nil }
    return Int(value)
  }

  /// The numbers of names, numbering those not seen yet as ``keyNumber(_:)`` does: what merges
  /// the key numbers of another reader of the same file into this one's.
  ///
  /// - Returns: This reader's number for each name, in the order given.
  mutating func keyNumbers(ofNames names: [String]) -> [Int32] {
    names.map { number(ofName: $0) }
  }

  /// How much of the value budget is left.
  var remainingBudget: Int { valueBudget }

  /// Spends `amount` of the value budget, as another reader of the same file spent it; false,
  /// spending nothing, when less is left.
  ///
  /// A reader spends one unit at a time and fails when none is left, so it fails on a file
  /// exactly when the units of both readers together are more than the budget: this is where
  /// the two are added.
  mutating func spendBudget(_ amount: Int) -> Bool {
    guard amount <= valueBudget else { return false }
    valueBudget -= amount
    return true
  }

  /// Lifts the value budget once the whole file has been checked.
  ///
  /// The check spent the budget as reading every value once would; values read afterwards are
  /// those the app asks for, and a value the check accepted is within the budget on its own.
  mutating func endBudget() {
    valueBudget = Int.max
  }

  /// Runs `body` for a container, guarding depth and cycles.
  mutating func container<T>(
    _ reference: Int,
    depth: Int,
    _ body: (inout BinaryPropertyListReader, Int) throws(RestorationError) -> T
  ) throws(RestorationError) -> T {
    // The reference is checked before anything is indexed by it: the background half of a
    // states check gets each record's state reference before the calling thread has checked it.
    let offset = try offset(of: reference)
    guard depth < limits.maxDepth else {
      throw RestorationError(
        .limitExceeded,
        "containers nested deeper than \(limits.maxDepth)",
        offset: offset
      )
    }
    guard !openContainers.contains(reference) else {
      throw RestorationError(
        .malformed,
        "object \(reference) contains itself (reference cycle)",
        offset: offset
      )
    }
    openContainers.append(reference)
    defer { openContainers.removeLast() }
    return try body(&self, depth)
  }

  private func integer(at offset: Int) throws(RestorationError) -> StateValue {
    let marker = bytes[offset]
    let exponent = Int(marker & 0x0F)
    guard exponent <= 4 else {
      throw RestorationError(.malformed, "integer of 2^\(exponent) bytes", offset: offset)
    }
    let width = 1 << exponent
    try checkSpan(start: offset + 1, count: width, width: 1, at: offset)
    switch width {
    case 1, 2, 4:
      return .integer(Int64(Self.bigEndian(bytes, at: offset + 1, width: width)))
    case 8:
      return .integer(Int64(bitPattern: Self.bigEndian(bytes, at: offset + 1, width: 8)))
    default:
      let high = Self.bigEndian(bytes, at: offset + 1, width: 8)
      let low = Self.bigEndian(bytes, at: offset + 9, width: 8)
      if high == 0 {
        return low <= UInt64(Int64.max) ? .integer(Int64(low)) : .unsignedInteger(low)
      }
      if high == UInt64.max, low >= UInt64(1) << 63 {
        return .integer(Int64(bitPattern: low))
      }
      throw RestorationError(.malformed, "integer does not fit in 64 bits", offset: offset)
    }
  }

  private func real(at offset: Int) throws(RestorationError) -> Double {
    let marker = bytes[offset]
    switch marker {
    case 0x22:
      try checkSpan(start: offset + 1, count: 4, width: 1, at: offset)
      return Double(Float(bitPattern: UInt32(Self.bigEndian(bytes, at: offset + 1, width: 4))))
    case 0x23:
      try checkSpan(start: offset + 1, count: 8, width: 1, at: offset)
      return Double(bitPattern: Self.bigEndian(bytes, at: offset + 1, width: 8))
    default:
      throw RestorationError(
        .malformed,
        "real with marker 0x\(String(marker, radix: 16))",
        offset: offset
      )
    }
  }
}

extension BinaryPropertyListReader {
  /// Reads a whole property list whose top object is a dictionary, UIDs rejected.
  ///
  /// - Parameters:
  ///   - bytes: The file.
  ///   - limits: The input limits.
  /// - Returns: The top-level value.
  /// - Throws: ``RestorationError`` for malformed input.
  static func readValue(
    _ bytes: [UInt8],
    limits: ArchiveLimits = .default
  ) throws(RestorationError) -> StateValue {
    var reader = try BinaryPropertyListReader(bytes: bytes, limits: limits)
    return try reader.value(reader.topObject)
  }
}

/// Reading and writing any binary property list, outside the archive layout.
package enum PropertyList {
  /// Reads a binary property list; UIDs are rejected.
  ///
  /// - Parameters:
  ///   - bytes: The file's bytes.
  ///   - limits: The input limits.
  /// - Returns: The top object.
  /// - Throws: ``RestorationError`` for malformed input.
  package static func read(
    _ bytes: [UInt8],
    limits: ArchiveLimits = .default
  ) throws(RestorationError) -> StateValue {
    try BinaryPropertyListReader.readValue(bytes, limits: limits)
  }

  /// Writes a value as a binary property list.
  ///
  /// - Parameter value: The top object; references are not allowed.
  /// - Returns: The file's bytes.
  /// - Throws: ``RestorationError`` when the value holds a reference.
  package static func write(_ value: StateValue) throws(RestorationError) -> [UInt8] {
    var writer = BinaryPropertyListWriter()
    let top = writer.add(value)
    if let (path, _) = writer.resolveReferences({ _ in nil }) {
      throw RestorationError(
        .encodingFailed, "a plain property list cannot hold the reference '\(path)'")
    }
    return writer.makeBytes(top: top)
  }
}
