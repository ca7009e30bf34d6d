import Foundation
import StateRestoration
import TestSupport
import Testing

/// A large archive's later states are checked on a background queue while the calling thread
/// checks the rest: a file must be accepted or refused as one thread accepts or refuses it,
/// with the same error and the same values.
extension LazyStateTests {
  /// An archive of `count` records whose states hold every kind of value; some key names appear
  /// only in the first third of the records, some only in the last.
  func archiveForHalves(records count: Int = 1_200) throws -> [UInt8] {
    var archive = try RestorationArchive(decoding: richArchive())
    let itemPath = { (index: Int) in "Root/:[0]:/Child/Item\(index)" }
    for index in 0..<(count - archive.records.count) {
      var state = KeyedValues()
      state["index"] = .integer(Int64(index))
      state["label"] = .string(index.isMultiple(of: 3) ? "Item ☃ \(index)" : "Item \(index)")
      state["values"] = .array([
        .integer(Int64(index)), .real(Double(index) / 4), .bool(index.isMultiple(of: 2)),
      ])
      state["nested"] = .dictionary(["a": .integer(Int64(index)), "b": .array([.string("x")])])
      state["parent"] = .reference("Root")
      if index > 0 { state["previous"] = .reference(itemPath(index - 1)) }
      if index < count / 3 {
        state["early\(index % 5)"] = .integer(1)
      } else if index > count * 2 / 3 {
        state["late\(index % 5)"] = .string("late")
      }
      archive.records.append(
        RestorationArchive.Record(
          identifierPath: itemPath(index), kind: .object, className: "Item", state: state))
    }
    return try archive.encoded()
  }

  /// A crafted archive of `count` records, each with the state `state` gives it.
  func craftedArchive(
    records count: Int, state: (Int) -> [(String, CraftedValue)]
  ) -> [UInt8] {
    craftedArchive(
      records: (0..<count).map { index -> CraftedValue in
        .dictionary([
          ("path", .string(craftedPath(index))), ("kind", .string("object")),
          ("class", .string("Item")), ("state", .dictionary(state(index))),
        ])
      })
  }

  /// A crafted archive of the given records, in a valid root.
  func craftedArchive(records: [CraftedValue]) -> [UInt8] {
    CraftedArchive.bytes([
      ("format", .string("StateRestorationArchive")),
      (
        "topLevel",
        .dictionary([
          (RestorationArchive.Key.majorVersion, .integer(1)),
          (RestorationArchive.Key.minorVersion, .integer(0)),
        ])
      ),
      ("objects", .array(records)),
    ])
  }

  func craftedPath(_ index: Int) -> String { "Root/:[\(index)]:/Item" }

  /// Whether a lazy read of `bytes` checked half of the states on a background queue.
  func checkedInHalves(_ bytes: [UInt8]) throws -> Bool {
    try RestorationArchive.readLazily(bytes, limits: .default, concurrently: true).states
      .checkedConcurrently
  }

  @Test func statesCheckedInHalvesReadAsOnOneThread() throws {
    let bytes = try archiveForHalves()
    // The values, key names and key order of every record, whatever half checked its state.
    #expect(try lazy(bytes, concurrently: true).get() == lazy(bytes).get())
    #expect(try checkedInHalves(bytes))
    let alone = try RestorationArchive.readLazily(bytes, limits: .default).states
    #expect(!alone.checkedConcurrently)
    // Below the threshold, one thread checks every state.
    let small = try archiveForHalves(
      records: RestorationArchive.concurrentStateCheckThreshold - 1)
    #expect(try lazy(small, concurrently: true).get() == lazy(small).get())
    #expect(try !checkedInHalves(small))
    let large = try archiveForHalves(records: RestorationArchive.concurrentStateCheckThreshold)
    #expect(try checkedInHalves(large))
  }

  /// Damage behind a valid checksum, all over a large file: each half's check must refuse what
  /// one thread refuses, with the same error, and read the rest identically.
  @Test func damageInEitherHalfIsRefusedAsOnOneThread() throws {
    let bytes = try archiveForHalves()
    let archive = try lazy(bytes).get()
    let laterPaths = Set(
      archive.records[(archive.records.count / 2)...].map(\.identifierPath))
    var refusedInFirstHalf = 0
    var refusedInLaterHalf = 0
    for (step, index) in stride(from: 13, to: bytes.count, by: bytes.count / 150).enumerated() {
      var damaged = bytes
      damaged[index] ^= step % 2 == 0 ? 0x02 : 0x40
      refreshArchiveChecksum(&damaged)
      let error = expectSameAnswer(
        lazy(damaged), lazy(damaged, concurrently: true), "byte \(index)")
      guard let path = error?.identifierPath else { continue }
      if laterPaths.contains(path) {
        refusedInLaterHalf += 1
      } else {
        refusedInFirstHalf += 1
      }
    }
    // The damage reached the states of both halves.
    #expect(refusedInFirstHalf >= 5)
    #expect(refusedInLaterHalf >= 5)
  }

  /// When both halves hold an error, the one earlier in the file is reported, as one thread
  /// finds it first; when only the later half holds one, that one is.
  @Test func theFirstErrorInFileOrderIsReportedWhicheverHalfFindsIt() throws {
    let count = 1_000
    let badReference = 20
    let repeatedKey = 900
    for bad in [[], [badReference], [repeatedKey], [badReference, repeatedKey]] as [Set<Int>] {
      let bytes = craftedArchive(records: count) { index in
        switch index {
        case badReference where bad.contains(index):
          [("value", .integer(1)), ("next", .uid(UInt32(count + 5)))]
        case repeatedKey where bad.contains(index):
          [("value", .integer(1)), ("value", .integer(2))]
        default:
          [("value", .integer(Int64(index))), ("next", .uid(UInt32((index + 1) % count)))]
        }
      }
      let concurrent = lazy(bytes, concurrently: true)
      let error = expectSameAnswer(lazy(bytes), concurrent, "errors in records \(bad.sorted())")
      if bad.isEmpty {
        #expect(try checkedInHalves(bytes))
        #expect(try concurrent.get().records[7].state["value"] == .integer(7))
      } else if bad.contains(badReference) {
        #expect(error?.identifierPath == craftedPath(badReference))
        #expect(error?.message.contains("reference to object record \(count + 5)") == true)
      } else {
        #expect(error?.identifierPath == craftedPath(repeatedKey))
        #expect(error?.message.contains("repeats the key 'value'") == true)
      }
    }
  }

  /// The background check reads the later records' fields itself, from before the calling
  /// thread has read any path: a later record that is not a dictionary, a later state that is
  /// not one, a later record without a state, and a broken path in the first half (with the
  /// later half sound, its check already under way) are each read as one thread reads them.
  @Test func laterRecordsReadByTheBackgroundCheckAreJudgedAsOnOneThread() throws {
    let count = 1_000
    let late = 900
    func archive(_ record: (Int) -> CraftedValue?) -> [UInt8] {
      craftedArchive(
        records: (0..<count).map { index -> CraftedValue in
          record(index)
            ?? .dictionary([
              ("path", .string(craftedPath(index))), ("kind", .string("object")),
              ("class", .string("Item")),
              ("state", .dictionary([("value", .integer(Int64(index)))])),
            ])
        })
    }
    func fields(_ index: Int, state: CraftedValue?, path: CraftedValue? = nil) -> CraftedValue {
      var fields: [(String, CraftedValue)] = [
        ("path", path ?? .string(craftedPath(index))), ("kind", .string("object")),
        ("class", .string("Item")),
      ]
      if let state { fields.append(("state", state)) }
      return .dictionary(fields)
    }
    let cases: [(String, [UInt8], String?)] = [
      (
        "a later record that is an array",
        archive { $0 == late ? .array([.string(craftedPath(late))]) : nil },
        "object record \(late) is not a dictionary"
      ),
      (
        "a later state that is a string",
        archive { $0 == late ? fields(late, state: .string("state")) : nil },
        "'state'"
      ),
      (
        "a later record without a state", archive { $0 == late ? fields(late, state: nil) : nil },
        nil
      ),
      (
        "a first-half path that is an integer",
        archive { $0 == 10 ? fields(10, state: .dictionary([]), path: .integer(10)) : nil },
        "'path'"
      ),
    ]
    for (what, bytes, message) in cases {
      let error = expectSameAnswer(lazy(bytes), lazy(bytes, concurrently: true), what)
      if let message {
        #expect(error?.message.contains(message) == true, "\(what): \(String(describing: error))")
      } else {
        #expect(error == nil, "\(what)")
        #expect(try checkedInHalves(bytes), "\(what)")
        #expect(
          try lazy(bytes, concurrently: true).get().records[late - 1].state["value"]
            == .integer(Int64(late - 1)), "\(what)")
      }
    }
  }

  /// A record of the later half whose state references an object past the file's objects is
  /// refused as one thread refuses it; the background check, which gets the reference before
  /// the calling thread has checked it, must not index anything by it.
  @Test func aStateReferencePastTheObjectsInTheLaterHalfIsRefusedAsOnOneThread() throws {
    let count = 1_000
    let target = 900
    var bytes = craftedArchive(records: count) { index in
      index == target ? [("TargetStateKey", .integer(1))] : [("value", .integer(Int64(index)))]
    }
    // The trailer gives the reference size and the offset table; find the target's state
    // dictionary (its only key is the unique name) and the record dictionary that names it.
    let trailer = bytes.count - 32
    let offsetSize = Int(bytes[trailer + 6])
    let referenceSize = Int(bytes[trailer + 7])
    func integer(at start: Int, width: Int) -> Int {
      bytes[start..<(start + width)].reduce(0) { $0 << 8 | Int($1) }
    }
    let objectCount = integer(at: trailer + 8, width: 8)
    let tableStart = integer(at: trailer + 24, width: 8)
    let offsets = (0..<objectCount).map {
      integer(at: tableStart + $0 * offsetSize, width: offsetSize)
    }
    let name = Array("TargetStateKey".utf8)
    let nameObject = try #require(
      offsets.firstIndex { offset in
        bytes[offset] == 0x50 | UInt8(name.count)
          && Array(bytes[(offset + 1)...].prefix(name.count)) == name
      })
    let stateObject = try #require(
      offsets.firstIndex { offset in
        bytes[offset] == 0xD1 && integer(at: offset + 1, width: referenceSize) == nameObject
      })
    // A record dictionary: four keys, then four values, the state's among them.
    let patched = try #require(
      offsets.lazy.compactMap { offset -> Int? in
        guard bytes[offset] == 0xD4 else { return nil }
        return (4..<8).lazy.map { offset + 1 + $0 * referenceSize }
          .first { integer(at: $0, width: referenceSize) == stateObject }
      }.first)
    for byte in 0..<referenceSize { bytes[patched + byte] = 0xFF }
    refreshArchiveChecksum(&bytes)

    let error = expectSameAnswer(
      lazy(bytes), lazy(bytes, concurrently: true), "a state reference past the objects")
    #expect(error?.code == .malformed)
    #expect(
      error?.message.contains("reference to object \((1 << (8 * referenceSize)) - 1)") == true)
  }

  /// States that share one container spend the value budget once per reference: two halves
  /// that each stay within it but together overspend it are refused as one thread refuses them.
  @Test func halvesThatTogetherOverspendTheBudgetAreRefusedAsOnOneThread() throws {
    func archive(sharing elements: Int) -> [UInt8] {
      craftedArchive(records: 600) { _ in
        [("list", .shared("list", .array((0..<elements).map { .integer(Int64($0)) })))]
      }
    }
    func overspent(_ bytes: [UInt8]) -> Bool {
      guard case .failure(let error) = lazy(bytes) else { return false }
      return error.code == .limitExceeded
    }
    // The shortest shared list that overspends the budget on one thread.
    var (within, over) = (1, 4_096)
    try #require(!overspent(archive(sharing: within)))
    try #require(overspent(archive(sharing: over)))
    while over - within > 1 {
      let middle = (within + over) / 2
      if overspent(archive(sharing: middle)) { over = middle } else { within = middle }
    }
    // Each half spends about half of what one thread spends, well within the budget.
    let overspending = archive(sharing: over)
    let error = expectSameAnswer(
      lazy(overspending), lazy(overspending, concurrently: true), "\(over) elements")
    #expect(error?.code == .limitExceeded)
    let spending = archive(sharing: within)
    expectSameAnswer(lazy(spending), lazy(spending, concurrently: true), "\(within) elements")
    #expect(try checkedInHalves(spending))
  }
}
