internal import BinaryPropertyList

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension RestorationError {
  /// The error of a property list that cannot be read.
  init(_ error: PropertyListError) {
    let code: Code =
      switch error.code {
      case .notPropertyList: .notPropertyList
      case .truncated: .truncated
      case .malformed: .malformed
      case .limitExceeded: .limitExceeded
      }
    self.init(code, error.message, offset: error.offset)
  }
}

/// The result of `body`, its property list error as a restoration error.
func wrapped<Result>(_ body: () throws(PropertyListError) -> Result) throws(RestorationError)
  -> Result
{
  do {
    return try body()
  } catch {
    throw RestorationError(error)
  }
}

/// Reads ``StateValue``s out of a property list, checked as they are built, bounding nesting,
/// cycles and the values read.
struct ValueReader {
  let file: BinaryPropertyListReader
  private let maxDepth: Int
  /// What a UID stands for: the records' paths; nil refuses UIDs.
  var paths: [String]?
  /// How many more values and bytes may be read.
  private var budget: Int
  /// The containers being read, outermost first.
  private var open: [Int] = []
  /// By object, the number of the name a key object holds, or -1 until it is read.
  private var nameOfObject: [Int32]
  /// Each distinct name, by number, and the number of each.
  private(set) var names: [String] = []
  private(set) var numbers: [String: Int] = [:]
  /// By name number, the last dictionary that used it, to find a repeated key without a set
  /// per dictionary.
  private var lastDictionary: [Int] = []
  private var dictionaries = 0

  init(file: BinaryPropertyListReader, maxDepth: Int, paths: [String]?) {
    (self.file, self.maxDepth, self.paths) = (file, maxDepth, paths)
    nameOfObject = Array(repeating: -1, count: file.objectCount)
    // Each growth hashes every name again, through Unicode normalization; a bounded guess.
    numbers.reserveCapacity(min(file.objectCount / 8, 4096))
    // A file that shares nothing holds fewer values than objects, and fewer string and data
    // bytes than it has bytes.
    budget = 2 * (file.bytes.count + file.objectCount)
  }

  /// A value, checked and built.
  mutating func value(_ object: Int, depth: Int) throws(RestorationError) -> StateValue {
    guard budget > 0 else {
      throw RestorationError(
        .limitExceeded,
        "values would take more than twice the file's size once read: it shares objects among "
          + "more references than its size allows")
    }
    budget -= 1
    let type = try read { (file) throws(PropertyListError) in try file.type(of: object) }
    switch type {
    case .uid:
      let index = try wrapped { () throws(PropertyListError) in try recordIndex(ofUID: object) }
      return .reference(paths?[index] ?? "")
    case .array:
      let array = try read { (file) throws(PropertyListError) in try file.array(object) }
      try enter(object, depth: depth)
      defer { open.removeLast() }
      var elements: [StateValue] = []
      elements.reserveCapacity(array.count)
      for index in 0..<array.count {
        elements.append(try value(file.element(index, of: array), depth: depth + 1))
      }
      return .array(elements)
    case .dictionary:
      var entries: [String: StateValue] = [:]
      // Sized first: each growth would hash every key again.
      entries.reserveCapacity(
        try read { (file) throws(PropertyListError) in try file.dictionary(object) }.count)
      try forEachEntry(of: object, depth: depth) { reader, key, value throws(RestorationError) in
        entries[reader.names[key]] = try reader.value(value, depth: depth + 1)
      }
      return .dictionary(entries)
    case .null, .set:
      throw RestorationError(
        .malformed, type == .null ? "null values are not supported" : "sets are not supported",
        offset: try read { (file) throws(PropertyListError) in try file.offset(of: object) })
    case .string:
      let string = try read { (file) throws(PropertyListError) in try file.string(object) }
      charge(string.utf8.count)
      return .string(string)
    case .data:
      let bytes = try read { (file) throws(PropertyListError) in try file.data(object) }
      charge(bytes.count)
      return .data(Data(bytes))
    case .bool, .integer, .real, .date:
      return try read { (file) throws(PropertyListError) in
        try Self.scalar(object, of: type, in: file)
      }
    }
  }

  /// What `body` reads from the file, its error a restoration error; the file is lent, not
  /// copied, as a capture in a closure would copy it.
  private func read<Result>(
    _ body: (BinaryPropertyListReader) throws(PropertyListError) -> Result
  ) throws(RestorationError) -> Result {
    do {
      return try body(file)
    } catch {
      throw RestorationError(error)
    }
  }

  /// Charges a string's or data's length beyond what the writer shares: a file sharing a longer
  /// one among many references pays for each.
  private mutating func charge(_ length: Int) {
    budget -= max(0, length - BinaryPropertyListWriter.uniquedStringLength)
  }

  /// A scalar, read and checked.
  private static func scalar(
    _ object: Int, of type: BinaryPropertyListReader.ObjectType, in file: BinaryPropertyListReader
  ) throws(PropertyListError) -> StateValue {
    switch type {
    case .bool: .bool(try file.bool(object))
    case .integer:
      switch try file.integer(object) {
      case .signed(let value): .integer(value)
      case .unsigned(let value): .unsignedInteger(value)
      }
    case .real: .real(try file.real(object))
    default: .date(Date(timeIntervalSinceReferenceDate: try file.date(object)))
    }
  }

  /// A dictionary's values in the file's key order, checked and built.
  mutating func keyedValues(_ object: Int, depth: Int) throws(RestorationError) -> KeyedValues {
    var result = KeyedValues()
    try forEachEntry(of: object, depth: depth) { reader, key, value throws(RestorationError) in
      result[reader.names[key]] = try reader.value(value, depth: depth + 1)
    }
    return result
  }

  /// Calls `body` with the name number of each key of a dictionary and its value's object,
  /// having checked every key first, and guarding the depth and cycles as any container.
  mutating func forEachEntry(
    of object: Int, depth: Int,
    _ body: (inout ValueReader, Int, Int) throws(RestorationError) -> Void
  ) throws(RestorationError) {
    let dictionary = try wrapped { () throws(PropertyListError) in try file.dictionary(object) }
    try enter(object, depth: depth)
    defer { open.removeLast() }
    // Every key is checked before any value is read: a dictionary nested in a value numbers
    // its own keys, which would hide this one's repeats if the two interleaved.
    dictionaries += 1
    for index in 0..<dictionary.count {
      let number = try nameNumber(file.key(index, of: dictionary))
      guard lastDictionary[number] != dictionaries else {
        throw RestorationError(
          .malformed, "dictionary repeats the key '\(names[number])'",
          offset: try wrapped { () throws(PropertyListError) in try file.offset(of: object) })
      }
      lastDictionary[number] = dictionaries
    }
    for index in 0..<dictionary.count {
      try body(
        &self, readNameNumber(file.key(index, of: dictionary)), file.value(index, of: dictionary))
    }
  }

  /// The number of a key object's name, read once per object; equal names share a number.
  mutating func nameNumber(_ object: Int) throws(RestorationError) -> Int {
    if object >= 0, object < nameOfObject.count, nameOfObject[object] >= 0 {
      return Int(nameOfObject[object])
    }
    let name = try wrapped { () throws(PropertyListError) in try file.string(object) }
    let number = number(ofName: name)
    nameOfObject[object] = Int32(number)
    return number
  }

  /// The number of a name, numbered now if it has none yet.
  mutating func number(ofName name: String) -> Int {
    let number = numbers.value(forKey: name, insertingIfAbsent: names.count)
    if number == names.count {
      names.append(name)
      lastDictionary.append(0)
    }
    return number
  }

  /// The number of a key object's name, once read.
  func readNameNumber(_ object: Int) -> Int { Int(nameOfObject[object]) }

  /// The record a UID names, checked against the records.
  func recordIndex(ofUID object: Int) throws(PropertyListError) -> Int {
    try Self.recordIndex(ofUID: object, in: file, paths: paths)
  }

  /// The record a UID of `file` names, checked against `paths`; a static function, as a call
  /// on a reader held in a class copies the reader.
  static func recordIndex(
    ofUID object: Int, in file: BinaryPropertyListReader, paths: [String]?
  ) throws(PropertyListError) -> Int {
    let index = try file.uid(object)
    guard let paths else {
      throw PropertyListError(
        .malformed, "UID \(index) outside an archive's objects", offset: try file.offset(of: object)
      )
    }
    guard index < UInt64(paths.count) else {
      throw PropertyListError(
        .malformed, "reference to object record \(index), but there are \(paths.count)")
    }
    return Int(index)
  }

  /// Opens a container, guarding the depth and cycles; the caller closes it.
  private mutating func enter(_ object: Int, depth: Int) throws(RestorationError) {
    guard depth < maxDepth, !open.contains(object) else {
      let offset = try wrapped { () throws(PropertyListError) in try file.offset(of: object) }
      guard depth < maxDepth else {
        throw RestorationError(
          .limitExceeded, "containers nested deeper than \(maxDepth)", offset: offset)
      }
      throw RestorationError(
        .malformed, "object \(object) contains itself (reference cycle)", offset: offset)
    }
    open.append(object)
  }
}

/// Writes ``StateValue``s into a property list.
extension BinaryPropertyListWriter {
  /// Adds a value; a reference becomes the UID `reference` gives for its path (none throws
  /// `encodingFailed`).
  mutating func add(
    _ value: StateValue, reference: (String, inout BinaryPropertyListWriter) -> Int?
  ) throws(RestorationError) -> Int {
    switch value {
    case .bool(let value): return addBool(value)
    case .integer(let value): return addInteger(value)
    case .unsignedInteger(let value): return addUnsignedInteger(value)
    case .real(let value): return addReal(value)
    // Short values (labels, states, raw values) repeat; longer ones in some states, not most.
    case .string(let value): return addString(value, adaptively: true)
    // Through its buffer: `Data`'s own contiguous-storage call is not specialized here.
    case .data(let value): return value.withUnsafeBytes { addData($0) }
    case .date(let value): return addDate(value.timeIntervalSinceReferenceDate)
    case .reference(let path):
      guard let object = reference(path, &self) else {
        throw RestorationError(
          .encodingFailed, "reference to '\(path)', which has no record in the archive")
      }
      return object
    case .array(let elements):
      var objects: [Int] = []
      objects.reserveCapacity(elements.count)
      for element in elements { objects.append(try add(element, reference: reference)) }
      return addArray(objects)
    case .dictionary(let entries):
      // Sorted by their bytes, so that equal values give equal bytes.
      let sorted = entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
      var keys: [Int] = []
      var values: [Int] = []
      keys.reserveCapacity(sorted.count)
      values.reserveCapacity(sorted.count)
      for (key, value) in sorted {
        keys.append(addString(key))
        values.append(try add(value, reference: reference))
      }
      return addDictionary(keys: keys, values: values)
    }
  }
}

/// Reading and writing any binary property list, outside the archive layout, as the crash
/// guard's marker and the apps' settings files are.
package enum PropertyList {
  /// Reads a binary property list; UIDs are refused.
  package static func read(
    _ bytes: [UInt8], limits: ArchiveLimits = .default
  ) throws(RestorationError) -> StateValue {
    let file = try wrapped { () throws(PropertyListError) in
      try BinaryPropertyListReader(bytes, limits: limits.propertyList)
    }
    var reader = ValueReader(file: file, maxDepth: limits.maxDepth, paths: nil)
    return try reader.value(file.topObject, depth: 0)
  }

  /// Writes a value as a binary property list; a reference throws.
  package static func write(_ value: StateValue) throws(RestorationError) -> [UInt8] {
    var writer = BinaryPropertyListWriter()
    let top = try writer.add(value) { _, _ in nil }
    return writer.makeBytes(top: top)
  }
}
