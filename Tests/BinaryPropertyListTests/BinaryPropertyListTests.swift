import BinaryPropertyList
import Foundation
import TestSupport
import Testing

/// A value tree for the tests, read back object by object.
private indirect enum Value: Equatable {
  case bool(Bool)
  case integer(BinaryPropertyListReader.Integer)
  case real(Double)
  case date(Double)
  case data([UInt8])
  case string(String)
  case uid(UInt64)
  case array([Value])
  case dictionary([String: Value])

  func add(to writer: inout BinaryPropertyListWriter) -> Int {
    switch self {
    case .bool(let value): writer.addBool(value)
    case .integer(.signed(let value)): writer.addInteger(value)
    case .integer(.unsigned(let value)): writer.addUnsignedInteger(value)
    case .real(let value): writer.addReal(value)
    case .date(let value): writer.addDate(value)
    case .data(let value): writer.addData(value)
    case .string(let value): writer.addString(value)
    case .uid(let value): writer.addUID(value)
    case .array(let elements): writer.addArray(elements.map { $0.add(to: &writer) })
    case .dictionary(let entries):
      {
        let sorted = entries.sorted { $0.key < $1.key }
        let keys = sorted.map { writer.addString($0.key) }
        let values = sorted.map { $0.value.add(to: &writer) }
        return writer.addDictionary(keys: keys, values: values)
      }()
    }
  }

  static func read(_ object: Int, _ reader: BinaryPropertyListReader) throws -> Value {
    switch try reader.type(of: object) {
    case .bool: return .bool(try reader.bool(object))
    case .integer: return .integer(try reader.integer(object))
    case .real: return .real(try reader.real(object))
    case .date: return .date(try reader.date(object))
    case .data: return .data(Array(try reader.data(object)))
    case .string: return .string(try reader.string(object))
    case .uid: return .uid(try reader.uid(object))
    case .array:
      let array = try reader.array(object)
      return .array(try (0..<array.count).map { try read(reader.element($0, of: array), reader) })
    case .dictionary:
      let dictionary = try reader.dictionary(object)
      var entries: [String: Value] = [:]
      for index in 0..<dictionary.count {
        entries[try reader.string(reader.key(index, of: dictionary))] = try read(
          reader.value(index, of: dictionary), reader)
      }
      return .dictionary(entries)
    case .null, .set:
      throw PropertyListError(.malformed, "unsupported")
    }
  }
}

private func bytes(of value: Value) -> [UInt8] {
  var writer = BinaryPropertyListWriter()
  let top = value.add(to: &writer)
  return writer.makeBytes(top: top)
}

private let everyType = Value.dictionary([
  "bool": .bool(true), "false": .bool(false),
  "small": .integer(.signed(7)), "negative": .integer(.signed(-3)),
  "wide": .integer(.signed(1 << 40)), "min": .integer(.signed(.min)),
  "huge": .integer(.unsigned(.max)),
  "float": .real(0.5), "double": .real(0.1), "date": .date(700_000_000.25),
  "data": .data(Array(0..<40)), "ascii": .string("Countries"),
  "accented": .string("Zürich 東京 🎉"), "uid": .uid(300),
  "long": .array((0..<20).map { .integer(.signed(Int64($0))) }),
  "nested": .dictionary(["inner": .array([.string("x"), .dictionary([:])])]),
])

@Suite struct BinaryPropertyListTests {
  @Test func everyTypeRoundTrips() throws {
    let file = bytes(of: everyType)
    let reader = try BinaryPropertyListReader(file)
    #expect(try Value.read(reader.topObject, reader) == everyType)
  }

  @Test func scalarsAreWrittenOnceAndDataAndUIDsEachTime() throws {
    var writer = BinaryPropertyListWriter()
    #expect(writer.addString("a") == writer.addString("a"))
    #expect(writer.addInteger(5) == writer.addInteger(5))
    #expect(writer.addReal(1.5) == writer.addReal(1.5))
    #expect(writer.addDate(1) == writer.addDate(1))
    #expect(writer.addBool(true) == writer.addBool(true))
    #expect(writer.addUID(2) != writer.addUID(2))
    #expect(writer.addData([1]) != writer.addData([1]))
    #expect(writer.objectCount == 9)
  }

  /// Strings of 17 to 32 bytes added adaptively are shared while they repeat, and no longer
  /// looked up once hundreds were added and few found again; shorter ones always are.
  @Test func longerStringsAreSharedWhileTheyRepeat() throws {
    let label = "お気に入りの項目"  // 24 bytes
    var writer = BinaryPropertyListWriter()
    let first = writer.addString(label, adaptively: true)
    for _ in 0..<500 { #expect(writer.addString(label, adaptively: true) == first) }

    var texts = BinaryPropertyListWriter()
    for index in 0..<300 { _ = texts.addString("a text that is unique \(index)", adaptively: true) }
    // Looked up 1 time in 8 now: two in a row are not both looked up.
    let again = texts.addString(label, adaptively: true)
    #expect(texts.addString(label, adaptively: true) != again)
    #expect(texts.addString(label) == texts.addString(label))
    #expect(
      texts.addString("short", adaptively: true) == texts.addString("short", adaptively: true))
  }

  /// Numbers that do not repeat stop being looked up, and are shared again once they repeat.
  @Test func numbersAreSharedAgainOnceTheyRepeat() throws {
    var writer = BinaryPropertyListWriter()
    for index in 0..<1_000 {
      _ = writer.addReal(Double(index) + 0.25)
      _ = writer.addInteger(100_000 + Int64(index))
    }
    let before = writer.objectCount
    let reals = (0..<2_000).map { _ in writer.addReal(0.5) }
    let integers = (0..<2_000).map { _ in writer.addInteger(70_000) }
    #expect(Set(reals.suffix(1_000)).count == 1)
    #expect(Set(integers.suffix(1_000)).count == 1)
    // A few hundred sampled lookups find them again, then every one is looked up.
    #expect(writer.objectCount - before < 4_000 / 4)
  }

  /// Data from a buffer, from a contiguous collection and from one that is not are the same file.
  @Test func dataIsWrittenAlikeFromEveryKindOfCollection() throws {
    let payload: [UInt8] = (0..<40).map { UInt8($0 * 7 % 256) }
    func file(_ add: (inout BinaryPropertyListWriter) -> Int) -> [UInt8] {
      var writer = BinaryPropertyListWriter()
      let top = add(&writer)
      return writer.makeBytes(top: top)
    }
    let fromBuffer = file { writer in payload.withUnsafeBytes { writer.addData($0) } }
    #expect(fromBuffer == file { $0.addData(payload) })
    #expect(fromBuffer == file { $0.addData(payload.lazy.map { $0 }) })
    let reader = try BinaryPropertyListReader(fromBuffer)
    #expect(try Array(reader.data(reader.topObject)) == payload)
  }

  /// Containers and UIDs are written after the scalars, UIDs with the values a mapping gives.
  @Test func uidsAreWrittenWithTheValuesTheMappingGives() throws {
    var writer = BinaryPropertyListWriter()
    let first = writer.addUID(0)
    let second = writer.addUID(1)
    let top = writer.addArray([first, second, writer.addString("after")])
    let file = writer.makeBytes(top: top) { $0 == 0 ? 300 : 7 }
    let reader = try BinaryPropertyListReader(file)
    #expect(
      try Value.read(reader.topObject, reader) == .array([.uid(300), .uid(7), .string("after")]))
    #expect(writer.objectCount == 0, "the writer is empty once the file is made")
  }

  /// Strings are shared only when their bytes are equal: a precomposed `é` and `e` with a
  /// combining accent are equal as `String`s, but each keeps its own bytes.
  @Test func stringsAreSharedOnlyWhenTheirBytesAreEqual() throws {
    let precomposed = "caf\u{E9}"
    let combining = "cafe\u{301}"
    #expect(precomposed == combining)
    var writer = BinaryPropertyListWriter()
    let first = writer.addString(precomposed)
    let second = writer.addString(combining)
    #expect(first != second)
    let top = writer.addArray([first, second])
    let reader = try BinaryPropertyListReader(writer.makeBytes(top: top))
    #expect(Array(try reader.string(first).utf8) == Array(precomposed.utf8))
    #expect(Array(try reader.string(second).utf8) == Array(combining.utf8))
  }

  /// UTF-16 strings read as `String(decoding:as:)` reads them, unpaired surrogates included,
  /// and a check accepts exactly what a read accepts.
  @Test(arguments: 0..<40)
  func utf16StringsReadAsTheStandardLibraryDecodesThem(seed: Int) throws {
    var generator = SeededGenerator(seed: UInt64(seed))
    let pool: [UInt16] = [
      0x41, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x4E2D, 0xFFFD, 0xFFFF, 0xD83D, 0xDE00, 0xD800, 0xDBFF,
      0xDC00, 0xDFFF,
    ]
    let units = (0..<Int.random(in: 1...40, using: &generator)).map { _ in
      pool.randomElement(using: &generator) ?? 0
    }
    // One UTF-16 string object at byte 8, its offset table and the trailer.
    var file = Array("bplist00".utf8)
    file.append(0x6F)
    file.append(0x10)
    file.append(UInt8(units.count))
    for unit in units { file += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
    let table = file.count
    file.append(8)
    file += [0, 0, 0, 0, 0, 0, 1, 1]
    file += [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0]
    file += [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
    let reader = try BinaryPropertyListReader(file)
    #expect(try reader.checkString(0) == units.count)
    #expect(Array(try reader.string(0).utf8) == Array(String(decoding: units, as: UTF16.self).utf8))
  }

  /// References and offsets take the fewest bytes that hold the largest value.
  @Test(arguments: [(10, 1, 1), (300, 2, 2), (5_000, 2, 3), (70_000, 3, 3)])
  func widthsGrowWithTheFile(strings: Int, referenceWidth: UInt8, offsetWidth: UInt8) throws {
    let value = Value.array((0..<strings).map { .string("string number \($0)") })
    let file = bytes(of: value)
    #expect(file[file.count - 26] == offsetWidth)
    #expect(file[file.count - 25] == referenceWidth)
    let reader = try BinaryPropertyListReader(file)
    #expect(try Value.read(reader.topObject, reader) == value)
  }

  @Test func theFirstObjectAddedStartsAtByteEight() throws {
    var writer = BinaryPropertyListWriter()
    let first = writer.addData([0, 0, 0, 0])
    let top = writer.addArray([first])
    let file = writer.makeBytes(top: top)
    #expect(file[8] == 0x44)
    #expect(try BinaryPropertyListReader(file).offset(of: first) == 8)
  }

  /// Python's `plistlib` reads what the writer wrote, value for value, and the reader reads
  /// what `plistlib` wrote.
  @Test(
    .enabled(if: executableInPath(named: "python3") != nil, "needs python3 (.ci/run installs it)"))
  func pythonReadsTheWriterAndTheReaderReadsPython() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let ours = folder.appendingPathComponent("ours.plist")
    try Data(bytes(of: everyType)).write(to: ours)
    let theirs = folder.appendingPathComponent("theirs.plist")
    let result = try python(
      """
      import plistlib, sys
      value = plistlib.load(open(sys.argv[1], "rb"))
      assert value["accented"] == "Zürich 東京 🎉", value["accented"]
      assert value["huge"] == 2**64 - 1 and value["min"] == -2**63 and value["wide"] == 2**40
      assert value["uid"] == plistlib.UID(300) and value["data"] == bytes(range(40))
      assert value["long"] == list(range(20)) and value["nested"] == {"inner": ["x", {}]}
      assert value["float"] == 0.5 and value["double"] == 0.1 and value["bool"] is True
      plistlib.dump(value, open(sys.argv[2], "wb"), fmt=plistlib.FMT_BINARY, sort_keys=False)
      print("ok")
      """, [ours.path, theirs.path])
    #expect(result.standardOutput == "ok\n", "\(result.standardError)")
    let reader = try BinaryPropertyListReader([UInt8](try Data(contentsOf: theirs)))
    #expect(try Value.read(reader.topObject, reader) == everyType)
  }

  /// A file cut short anywhere, or with any byte changed, reads as values or as an error:
  /// never a trap or a read outside the file.
  @Test func everyTruncationAndEveryByteChangeIsHandled() throws {
    let file = bytes(of: everyType)
    func readAll(_ bytes: [UInt8]) {
      guard let reader = try? BinaryPropertyListReader(bytes) else { return }
      var budget = 10_000
      func walk(_ object: Int, depth: Int) {
        budget -= 1
        guard budget > 0, depth < 16 else { return }
        switch try? reader.type(of: object) {
        case .array:
          if let array = try? reader.array(object) {
            for index in 0..<array.count {
              walk(reader.element(index, of: array), depth: depth + 1)
            }
          }
        case .dictionary:
          if let dictionary = try? reader.dictionary(object) {
            for index in 0..<dictionary.count {
              _ = try? reader.string(reader.key(index, of: dictionary))
              walk(reader.value(index, of: dictionary), depth: depth + 1)
            }
          }
        default:
          _ = try? Value.read(object, reader)
        }
      }
      walk(reader.topObject, depth: 0)
    }
    for length in 0..<file.count { readAll(Array(file.prefix(length))) }
    for position in file.indices {
      for flip: UInt8 in [0x01, 0x80, 0xFF] {
        var changed = file
        changed[position] ^= flip
        readAll(changed)
      }
    }
  }

  @Test func eachLimitIsChecked() throws {
    let file = bytes(of: .array([.string("abcdef"), .data([1, 2, 3, 4]), .string("x")]))
    func error(_ limits: PropertyListLimits, _ body: (BinaryPropertyListReader) throws -> Void)
      -> PropertyListError?
    {
      do {
        try body(try BinaryPropertyListReader(file, limits: limits))
        return nil
      } catch {
        return error as? PropertyListError
      }
    }
    let array = { (reader: BinaryPropertyListReader) throws in
      _ = try reader.array(reader.topObject)
    }
    let element = { (position: Int) in
      { (reader: BinaryPropertyListReader) throws in
        let array = try reader.array(reader.topObject)
        _ =
          try reader.type(of: reader.element(position, of: array)) == .string
          ? reader.string(reader.element(position, of: array)).count
          : reader.data(reader.element(position, of: array)).count
      }
    }
    #expect(error(PropertyListLimits(maxFileSize: file.count - 1), array)?.code == .limitExceeded)
    #expect(error(PropertyListLimits(maxObjectCount: 3), array)?.code == .limitExceeded)
    #expect(error(PropertyListLimits(maxCollectionCount: 2), array)?.code == .limitExceeded)
    #expect(error(PropertyListLimits(maxStringLength: 5), element(0))?.code == .limitExceeded)
    #expect(error(PropertyListLimits(maxDataLength: 3), element(1))?.code == .limitExceeded)
    #expect(error(PropertyListLimits(), element(0)) == nil)
  }

  @Test func aWrongTypeSaysWhatWasExpected() throws {
    let reader = try BinaryPropertyListReader(bytes(of: .array([.string("x")])))
    let thrown = #expect(throws: PropertyListError.self) { try reader.dictionary(reader.topObject) }
    #expect(thrown?.code == .malformed)
    #expect(thrown?.message == "object \(reader.topObject) is not a dictionary")
    let missing = #expect(throws: PropertyListError.self) { try reader.string(99) }
    #expect(missing?.message == "reference to object 99, but there are 2 objects")
  }

  @Test func notAPropertyListAndAShortFileSaySo() {
    let text = #expect(throws: PropertyListError.self) {
      try BinaryPropertyListReader(Array("hello".utf8))
    }
    #expect(text?.code == .notPropertyList)
    let short = #expect(throws: PropertyListError.self) {
      try BinaryPropertyListReader(Array("bplist00".utf8) + [0x08])
    }
    #expect(short?.code == .truncated)
  }
}

@Suite struct CRC32Tests {
  @Test func matchesZlibsCheckValue() {
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(CRC32.checksum([UInt8]()) == 0)
  }

  /// The folded path and the table agree with a bit-by-bit reference at every length around
  /// the blocks the folding takes.
  @Test func everyLengthMatchesTheReference() {
    let bytes = (0..<1_200).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
    for length in Array(0..<40) + Array(240..<300) + [1_024, 1_199, 1_200] {
      #expect(CRC32.checksum(bytes[0..<length]) == referenceCRC32(bytes[0..<length]), "\(length)")
    }
  }
}
