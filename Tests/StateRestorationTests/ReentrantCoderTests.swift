import Foundation
import StateRestoration
import Testing

/// App code that writes to a coder while the coder is in use.
///
/// A `Codable` value's own encode and the deallocator of a `Data` the coder releases both run
/// outside the coder's own accesses to its log, so each write lands whole.
@Suite struct ReentrantCoderTests {
  @Test func aValueWhoseEncodeWritesToTheCoderKeepsBothKeys() throws {
    let coder = StateCoder()
    try coder.encode(Writer(coder: coder, keys: (0..<40).map { "inner\($0)" }), forKey: "outer")
    #expect(coder.values.keys == (0..<40).map { "inner\($0)" } + ["outer"])
    #expect(coder.values["outer"] == .string("written"))
    #expect(coder.values["inner39"] == .integer(39))
  }

  @Test func aReplacedDataWhoseDeallocatorWritesToTheCoderLeavesEveryWrite() {
    let coder = StateCoder()
    let released = Flag()
    do {
      let data = Data.releasing(count: 64) {
        for index in 0..<40 { coder.encode(index, forKey: "late\(index)") }
        released.isSet = true
      }
      coder.encode(data, forKey: "blob")
    }
    #expect(!released.isSet)
    coder.encode("text", forKey: "blob")
    #expect(released.isSet)
    #expect(coder.values["blob"] == .string("text"))
    #expect(coder.values.keys == ["blob"] + (0..<40).map { "late\($0)" })
    coder.removeValue(forKey: "late0")
    #expect(coder.values.keys.count == 40)
  }

  /// A pass reuses an archived object's coder for the next object: what the first object's
  /// values run when released then finds the coder emptied, and its writes are not archived.
  @Test func aDeallocatorRunWhenAPassEmptiesACoderWritesNothingArchived() throws {
    let released = Flag()
    let objects = (0..<3).map { DataWriter(index: $0, released: released) }
    let engine = makeEngine(store: InMemoryArchiveStore(), delegate: TestDelegate())
    let archive = try #require(engine.makeArchive(roots: objects).archive)
    #expect(released.isSet)
    for index in 0..<3 {
      let record = try #require(archive.record(at: "Object\(index)"))
      #expect(record.state.keys == ["blob", "index"])
      #expect(record.state["index"] == .integer(Int64(index)))
    }
    #expect(try RestorationArchive(decoding: archive.encoded()) == archive)
  }
}

private final class Flag: @unchecked Sendable {
  var isSet = false
}

extension Data {
  /// Bytes of its own, whose deallocator calls `released`.
  fileprivate static func releasing(count: Int, _ released: @escaping () -> Void) -> Data {
    let bytes = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 1)
    bytes.initializeMemory(as: UInt8.self, repeating: 7, count: count)
    return Data(
      bytesNoCopy: bytes, count: count,
      deallocator: .custom { pointer, _ in
        pointer.deallocate()
        released()
      })
  }
}

/// A value whose encode writes keys to a coder before encoding itself.
private struct Writer: Encodable {
  let coder: StateCoder
  let keys: [String]

  func encode(to encoder: any Encoder) throws {
    for (index, key) in keys.enumerated() { coder.encode(index, forKey: key) }
    var container = encoder.singleValueContainer()
    try container.encode("written")
  }
}

/// An object that writes a `Data` whose deallocator writes to the coder it was written to.
private final class DataWriter: StateRestoring {
  let index: Int
  let released: Flag
  var restorationIdentifier: String? { "Object\(index)" }

  init(index: Int, released: Flag) { (self.index, self.released) = (index, released) }

  func encodeRestorableState(with coder: StateCoder) throws {
    let data = Data.releasing(count: 32) { [weak coder, released] in
      coder?.encode(true, forKey: "released")
      released.isSet = true
    }
    coder.encode(data, forKey: "blob")
    coder.encode(index, forKey: "index")
  }
}
