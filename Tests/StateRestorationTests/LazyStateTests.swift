import Foundation
import StateRestoration
import TestSupport
import Testing

/// Restores that read each object's values from the checked file only when asked.
///
/// A restore checks the whole archive first, then reads values when decoders ask for them. These
/// tests hold that reading to the full reader's behaviour: the same files accepted, the same
/// typed errors for the others, the same values.
@Suite struct LazyStateTests {
  /// An archive with every kind of value: scalars, Unicode, data, dates, nested containers and
  /// references, under the engine's layout.
  func richArchive() throws -> [UInt8] {
    var archive = RestorationArchive()
    var root = KeyedValues()
    root["title"] = .string("Root")
    root["count"] = .integer(-3)
    root["big"] = .unsignedInteger(UInt64.max)
    root["ratio"] = .real(0.1)
    root["flag"] = .bool(true)
    root["when"] = .date(Date(timeIntervalSinceReferenceDate: 12.5))
    root["blob"] = .data(Data([0, 1, 2, 255]))
    root["unicode"] = .string("naïve ☃")
    // ASCII strings of every header form: empty, short, and with a count object of its own.
    root["blank"] = .string("")
    root["long"] = .string(String(repeating: "query ", count: 7))
    root["list"] = .array([.integer(1), .string("two"), .array([.bool(false)])])
    // Arrays of scalars only are read by a path of their own; a wide integer sends one back to
    // the general reader.
    let when = StateValue.date(Date(timeIntervalSinceReferenceDate: -1.5))
    root["scalars"] = .array([.integer(-5), .real(0.25), .bool(false), when, .integer(1 << 40)])
    root["wide"] = .array([.integer(1), .unsignedInteger(UInt64.max)])
    root["empty"] = .array([])
    root["map"] = .dictionary(["a": .integer(1), "b": .reference("Root/:[0]:/Child")])
    root["child"] = .reference("Root/:[0]:/Child")
    var child = KeyedValues()
    child["title"] = .string("Child")
    child["parent"] = .reference("Root")
    // More keys than the linear search handles, so the indexed lookup is exercised too.
    for index in 0..<20 { child["key\(index)"] = .integer(Int64(index)) }
    archive.records = [
      RestorationArchive.Record(
        identifierPath: "Root", kind: .viewController, className: "Root", state: root),
      RestorationArchive.Record(
        identifierPath: "Root/:[0]:/Child", kind: .viewController, className: "Child",
        state: child, sensitiveKeys: ["secret"]),
    ]
    return try archive.encoded()
  }

  /// The full reader's answer for a file: the archive, or the error.
  private func eager(_ bytes: [UInt8]) -> Result<RestorationArchive, RestorationError> {
    do {
      return .success(try RestorationArchive(decoding: bytes))
    } catch {
      return .failure(error)
    }
  }

  /// The lazy reader's answer, with every record's state read back whole.
  ///
  /// - Parameter bytes: The file's bytes.
  /// - Returns: The archive read, or the reader's error.
  func lazy(_ bytes: [UInt8]) -> Result<RestorationArchive, RestorationError> {
    do {
      let file = try CheckedArchive(bytes, limits: .default)
      var archive = file.makeArchive()
      for index in archive.records.indices {
        // Each value as a decoder reads it: key by key.
        archive.records[index].state = KeyedValues(
          file.keys(record: index).compactMap { key in
            file.value(forKey: key, record: index).map { (key, $0) }
          })
      }
      return .success(archive)
    } catch {
      return .failure(error)
    }
  }

  /// Expects two readers to answer a file alike: the same values, or the same error.
  ///
  /// - Returns: The error, when both refused the file.
  @discardableResult
  func expectSameAnswer(
    _ first: Result<RestorationArchive, RestorationError>,
    _ second: Result<RestorationArchive, RestorationError>,
    _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> RestorationError? {
    switch (first, second) {
    case (.success(let expected), .success(let read)):
      #expect(
        read == expected, "\(what): the second reader read other values",
        sourceLocation: sourceLocation)
      return nil
    case (.failure(let expected), .failure(let read)):
      #expect(
        read.code == expected.code, "\(what): \(read) against \(expected)",
        sourceLocation: sourceLocation)
      #expect(read.message == expected.message, "\(what)", sourceLocation: sourceLocation)
      #expect(
        read.identifierPath == expected.identifierPath, "\(what)", sourceLocation: sourceLocation)
      return expected
    case (.success, .failure(let read)):
      Issue.record(
        "\(what): only the second reader refused it: \(read)", sourceLocation: sourceLocation)
      return nil
    case (.failure(let expected), .success):
      Issue.record(
        "\(what): only the first reader refused it: \(expected)", sourceLocation: sourceLocation)
      return nil
    }
  }

  @Test func lazyReadingGivesTheFullReadersValues() throws {
    let bytes = try richArchive()
    let full = try RestorationArchive(decoding: bytes)
    let states = try CheckedArchive(bytes, limits: .default)
    let archive = states.makeArchive()
    #expect(archive.records.map(\.identifierPath) == full.records.map(\.identifierPath))
    #expect(archive.topLevel == full.topLevel)
    for (index, record) in full.records.enumerated() {
      #expect(states.values(record: index) == record.state)
      #expect(states.keys(record: index) == record.state.keys)
      for (key, value) in record.state {
        #expect(states.value(forKey: key, record: index) == value)
      }
      #expect(states.value(forKey: "absent", record: index) == nil)
    }
  }

  /// Keys are found by name number through a cache keyed by the bits of the key's `String`:
  /// keys built at run time (whose storage is freed and reused between calls), keys of one
  /// length that differ only in content, keys that only another record holds, and absent keys
  /// must all read as the full reader reads them.
  @Test func keysBuiltAtRunTimeAndKeysOfOtherRecordsReadAsTheFullReaderReadsThem() throws {
    var archive = RestorationArchive()
    // Names longer than a `String` holds inline, all of one length.
    let long = (0..<6).map { "a key name too long to fit inline #\($0)" }
    for record in 0..<3 {
      var state = KeyedValues()
      for (index, name) in long.enumerated() where index % 3 != record {
        state[name] = .integer(Int64(record * 10 + index))
      }
      state["short\(record)"] = .string("record \(record)")
      archive.records.append(
        RestorationArchive.Record(
          identifierPath: "Object\(record)", kind: .object, className: "Object", state: state))
    }
    let bytes = try archive.encoded()
    let states = try CheckedArchive(bytes, limits: .default)
    // Absent names too, one of them as long as the others.
    let absent = String(repeating: "z", count: long[0].utf8.count)
    let names = long + ["short0", "short1", "short2", "absent", absent]
    for round in 0..<3 {
      for (index, record) in archive.records.enumerated() {
        for name in names {
          // A new string each time, made at run time rather than taken from a literal.
          let key = String(("x" + name).dropFirst())
          #expect(
            states.value(forKey: key, record: index) == record.state[name],
            "record \(index), key \(name), round \(round)")
          #expect((states.value(forKey: key, record: index) != nil) == (record.state[name] != nil))
        }
      }
    }
  }

  /// Every damaged structure behind a valid checksum: the lazy reader must refuse exactly the
  /// files the full reader refuses, with the same error, and read the others identically.
  @Test func lazyReadingRejectsExactlyWhatTheFullReaderRejects() throws {
    let bytes = try richArchive()
    var rejected = 0
    for index in 13..<bytes.count {
      for bit in [0x01, 0x04, 0x10, 0x80] as [UInt8] {
        var damaged = bytes
        damaged[index] ^= bit
        refreshArchiveChecksum(&damaged)
        if expectSameAnswer(eager(damaged), lazy(damaged), "byte \(index) bit \(bit)") != nil {
          rejected += 1
        }
      }
    }
    // The flips must have reached the states' checks, not only the layout's.
    #expect(rejected > 100)
  }

  /// A decoder finds each key whatever order it asks in: as written, reversed, or skipping keys
  /// and asking for absent ones, in records of a few keys and of many.
  @Test(arguments: [5, 40])
  func keysAreFoundInAnyOrderAsked(count: Int) throws {
    let keys = (0..<count).map { "key\($0)" }
    let orders = [
      keys, keys.reversed(), keys.enumerated().map { $0 % 2 == 0 ? "absent\($0)" : $1 },
    ]
    let store = InMemoryArchiveStore()
    for order in orders {
      let saved = Probe()
      saved.encode = { coder in
        for (index, key) in keys.enumerated() { coder.encode(index, forKey: key) }
      }
      _ = makeEngine(store: store, delegate: TestDelegate()).preserveApplicationState(roots: [saved]
      )
      let restored = Probe()
      var found: [String: Int] = [:]
      restored.decode = { coder in
        for key in order { found[key] = coder.decode(Int.self, forKey: key) }
      }
      _ = makeEngine(store: store, delegate: TestDelegate()).restoreApplicationState(roots: [
        restored
      ])
      let expected = order.compactMap { key in keys.firstIndex(of: key).map { (key, $0) } }
      #expect(found == Dictionary(uniqueKeysWithValues: expected), "\(order.prefix(3))")
    }
  }

  /// Arrays of integers decode as `[Int]` exactly as through their `StateValue`, whatever their
  /// elements (integers of every width,
  /// negative ones, one too large for `Int`, other types mixed in, nested arrays), and so must
  /// values that are not arrays and keys that are absent.
  @Test func integerArraysDecodeAsThroughTheirStateValues() throws {
    var archive = RestorationArchive()
    var state = KeyedValues()
    state["widths"] = .array([
      .integer(0), .integer(255), .integer(300), .integer(70_000), .integer(1 << 40),
      .integer(Int64.max), .integer(-1), .integer(Int64.min),
    ])
    state["tooLarge"] = .array([.integer(1), .unsignedInteger(UInt64.max)])
    state["unsigned"] = .array([.unsignedInteger(7), .unsignedInteger(UInt64(Int64.max))])
    state["withReal"] = .array([.integer(1), .real(2)])
    state["withBool"] = .array([.integer(1), .bool(true)])
    state["withString"] = .array([.string("1")])
    state["nested"] = .array([.array([.integer(1)])])
    state["empty"] = .array([])
    state["scalar"] = .integer(3)
    state["text"] = .string("[1, 2]")
    archive.records = [
      RestorationArchive.Record(
        identifierPath: "Probe", kind: .object, className: "IntegerArrayProbe", state: state)
    ]
    let store = InMemoryArchiveStore()
    store.contents[.archive] = try archive.encoded()
    let probe = IntegerArrayProbe()
    let report = makeEngine(store: store, delegate: TestDelegate())
      .restoreApplicationState(roots: [probe])
    #expect(report.outcome == .restored)
    let keys = state.keys + ["absent"]
    #expect(probe.decoded.map(\.key) == keys)
    for (key, typed, throughValue) in probe.decoded {
      #expect(typed == throughValue, "\(key)")
    }
    // The cases are not all nil.
    let widths: [Int] = [0, 255, 300, 70_000, 1 << 40, .max, -1, .min]
    #expect(probe.decoded.first?.typed == widths)
    #expect(probe.decoded.contains { $0.key == "unsigned" && $0.typed == [7, .max] })
    #expect(probe.decoded.contains { $0.key == "empty" && $0.typed == [] })
  }

  /// The check reads an array's scalar and reference elements in line: it must spend the value
  /// budget on each of them, and refuse a bad reference among them, exactly as the full reader
  /// does, so that the two refuse the same files with the same error.
  @Test func arraysOfScalarsSpendTheBudgetAndAreRefusedAsByTheFullReader() throws {
    func archive(sharing elements: Int, badReference: Bool = false) -> [UInt8] {
      let list = (0..<elements).map { element -> CraftedValue in
        switch element % 3 {
        case 0: .integer(Int64(element))
        case 1: .uid(badReference && element == elements - 2 ? 900 : 1)
        default: .bool(true)
        }
      }
      return CraftedArchive.bytes(
        records: (0..<600).map { index in
          .dictionary([
            ("name", .string("Root/:[\(index)]:/Item")), ("kind", .string("object")),
            ("class", .string("Item")),
            ("state", .dictionary([("list", .shared("list", .array(list)))])),
          ])
        })
    }
    func overspent(_ bytes: [UInt8]) -> Bool {
      guard case .failure(let error) = eager(bytes) else { return false }
      return error.code == .limitExceeded
    }
    // The shortest shared list the full reader refuses for the budget.
    var (within, over) = (1, 4_096)
    let bounded = !overspent(archive(sharing: within)) && overspent(archive(sharing: over))
    try #require(bounded)
    while over - within > 1 {
      let middle = (within + over) / 2
      if overspent(archive(sharing: middle)) { over = middle } else { within = middle }
    }
    let overspending = archive(sharing: over)
    #expect(
      expectSameAnswer(eager(overspending), lazy(overspending), "\(over)")?.code == .limitExceeded)
    let spending = archive(sharing: within)
    #expect(expectSameAnswer(eager(spending), lazy(spending), "\(within)") == nil)

    let bad = archive(sharing: 30, badReference: true)
    let error = expectSameAnswer(eager(bad), lazy(bad), "a reference past the records")
    #expect(error?.message.contains("reference to object record 900, but there are 600") == true)
  }

  @Test func aBadValueInAStateDiscardsTheWholeArchiveBeforeAnyDecode() throws {
    // A record whose state references a record that does not exist: found by the check, before
    // any object is located or decoded.
    var archive = RestorationArchive()
    var state = KeyedValues()
    state["value"] = .integer(1)
    state["sibling"] = .reference("TabController/:[1]:/NavigationController")
    archive.records = [
      RestorationArchive.Record(
        identifierPath: "TabController", kind: .viewController, className: "TestController",
        state: state),
      RestorationArchive.Record(
        identifierPath: "TabController/:[1]:/NavigationController", kind: .viewController,
        className: "TestController"),
    ]
    var bytes = try archive.encoded()
    // Point the UID (the only one, record 1) past the records, and fix the checksum.
    let uid = try #require(
      bytes.indices.dropFirst(13).dropLast(33).first { bytes[$0] == 0x80 && bytes[$0 + 1] == 1 })
    bytes[uid + 1] = 7
    refreshArchiveChecksum(&bytes)

    let store = InMemoryArchiveStore()
    store.contents[.archive] = bytes
    let demo = TalkDemo(pushCity: false)
    let report = makeEngine(store: store, delegate: TestDelegate())
      .restoreApplicationState(roots: demo.roots)
    guard case .discarded(.unreadable(let error)) = report.outcome else {
      Issue.record("expected an unreadable archive, got \(report.outcome)")
      return
    }
    #expect(error.code == .malformed)
    #expect(error.message.contains("reference to object record 7"))
    #expect(error.identifierPath == "TabController")
    #expect(demo.tab.decodedState == nil)
  }

  @Test func aLazilyReadDecoderReportsTypesAndAbsenceWithTypedErrors() throws {
    let store = InMemoryArchiveStore()
    let saved = Probe()
    saved.encode = { coder in
      coder.encode("hello", forKey: "text")
      coder.encode(7, forKey: "number")
      coder.encode([1, 2], forKey: "list")
    }
    let delegate = TestDelegate()
    _ = makeEngine(store: store, delegate: delegate).preserveApplicationState(roots: [saved])

    let restored = Probe()
    var checks: [String: Bool] = [:]
    restored.decode = { coder in
      do throws(RestorationError) {
        _ = try coder.decodeRequired(Int.self, forKey: "text")
        checks["typeMismatch"] = false
      } catch {
        checks["typeMismatch"] =
          error.code == .typeMismatch && error.key == "text" && error.identifierPath == "Probe"
      }
      do throws(RestorationError) {
        _ = try coder.decodeRequired(String.self, forKey: "missing")
        checks["keyNotFound"] = false
      } catch {
        checks["keyNotFound"] = error.code == .keyNotFound && error.key == "missing"
      }
      checks["optionalMismatch"] = coder.decode(Int.self, forKey: "text") == nil
      checks["absent"] = coder.decode(String.self, forKey: "missing") == nil
      checks["text"] = coder.decode(String.self, forKey: "text") == "hello"
      checks["number"] = coder.decode(Int.self, forKey: "number") == 7
      checks["list"] = coder.decode([Int].self, forKey: "list") == [1, 2]
      checks["contains"] = coder.contains("number") && !coder.contains("missing")
      checks["allKeys"] = coder.allKeys == ["text", "number", "list"]
      checks["values"] =
        coder.values
        == KeyedValues([
          ("text", .string("hello")), ("number", .integer(7)),
          ("list", .array([.integer(1), .integer(2)])),
        ])
    }
    let report = makeEngine(store: store, delegate: delegate)
      .restoreApplicationState(roots: [restored])
    #expect(report.outcome == .restored)
    #expect(checks.count == 10)
    for (name, passed) in checks.sorted(by: { $0.key < $1.key }) {
      #expect(passed, "\(name)")
    }
  }
}

/// A root object whose encode and decode the test supplies.
private final class Probe: StateRestoring {
  var restorationIdentifier: String? { "Probe" }
  var encode: ((StateCoder) -> Void)?
  var decode: ((StateDecoder) -> Void)?

  func encodeRestorableState(with coder: StateCoder) throws { encode?(coder) }
  func decodeRestorableState(with coder: StateDecoder) throws { decode?(coder) }
}

/// Decodes each of its keys as `[Int]`, directly and through the key's `StateValue`.
private final class IntegerArrayProbe: StateRestoring {
  let restorationIdentifier: String? = "Probe"
  private(set) var decoded: [(key: String, typed: [Int]?, throughValue: [Int]?)] = []

  func decodeRestorableState(with coder: StateDecoder) throws {
    for key in coder.allKeys + ["absent"] {
      let typed = coder.decode([Int].self, forKey: key)
      let throughValue = coder.decodeValue(forKey: key).flatMap { [Int](stateValue: $0) }
      decoded.append((key, typed, throughValue))
    }
  }
}
