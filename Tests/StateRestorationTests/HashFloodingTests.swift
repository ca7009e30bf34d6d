import BinaryPropertyList
import Foundation
import StateRestoration
import TestSupport
import Testing

/// The engine's tables hash keys with a random seed per process, so no file can choose keys
/// that collide.
///
/// Their keys may come from a file: identifier paths read from an archive, and strings restored
/// from one and preserved again.
@Suite struct HashFloodingTests {
  private static let prefix = "Root/:[0]:/Scr"  // 14 bytes: with 2 more, two whole words

  /// The byte hash the engine's tables used when it was the same in every process, as an
  /// attacker computes it: whole words, then the tail, then MurmurHash3's finalizer.
  private static func unkeyedHash(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
    var index = 0
    while index + 8 <= bytes.count {
      var word: UInt64 = 0
      for byte in 0..<8 { word |= UInt64(bytes[index + byte]) << UInt64(8 * byte) }
      hash = (hash ^ word) &* 0x100_0000_01B3 &+ (hash >> 29)
      index += 8
    }
    if index < bytes.count {
      var tail: UInt64 = 0
      var shift: UInt64 = 0
      while index < bytes.count {
        tail |= UInt64(bytes[index]) << shift
        shift += 8
        index += 1
      }
      hash = (hash ^ tail) &* 0x100_0000_01B3 &+ (hash >> 29)
    }
    return mix(hash)
  }

  /// MurmurHash3's finalizer, which the fixed hash ended with.
  private static func mix(_ value: UInt64) -> UInt64 {
    var x = value
    x ^= x >> 33
    x &*= 0xFF51_AFD7_ED55_8CCD
    x ^= x >> 33
    x &*= 0xC4CE_B9FE_1A85_EC53
    x ^= x >> 33
    return x
  }

  /// Paths that all land in the first slot of a table of `2^slotBits` slots under the unkeyed
  /// hash: the prefix, two letters, and an eight-letter counter, searched until `count` match.
  private static func collidingPaths(count: Int, slotBits: Int) -> [String] {
    let mask = UInt64(1) << UInt64(slotBits) - 1
    let head = Array((prefix + "ee").utf8)
    // The state after the first two words, which every candidate shares.
    let length = UInt64(head.count + 8)
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ length
    for start in stride(from: 0, to: 16, by: 8) {
      var word: UInt64 = 0
      for byte in 0..<8 { word |= UInt64(head[start + byte]) << UInt64(8 * byte) }
      state = (state ^ word) &* 0x100_0000_01B3 &+ (state >> 29)
    }
    var paths: [String] = []
    var counter: UInt64 = 0
    while paths.count < count {
      // Eight letters a to p, one per 4 bits of the counter.
      var word: UInt64 = 0
      for digit in 0..<8 {
        word |= (0x61 + (counter >> UInt64(4 * digit)) & 0xF) << UInt64(8 * digit)
      }
      counter += 1
      let hash = mix((state ^ word) &* 0x100_0000_01B3 &+ (state >> 29))
      guard hash & mask == 0 else { continue }
      let letters = (0..<8).map { UInt8(truncatingIfNeeded: word >> UInt64(8 * $0)) }
      paths.append(String(decoding: head + letters, as: UTF8.self))
    }
    return paths
  }

  @Test func pathsCraftedToCollideSpreadOutUnderTheEnginesHash() {
    let paths = Self.collidingPaths(count: 2_048, slotBits: 12)
    let mask = (1 << 12) - 1
    // They do collide under the unkeyed hash: one slot for all of them.
    #expect(
      Set(paths.map { Int(truncatingIfNeeded: Self.unkeyedHash(Array($0.utf8))) & mask }).count == 1
    )
    // Under the engine's hash they spread as random keys do: 2,048 keys fill about 1,610 of
    // 4,096 slots.
    let slots = Set(paths.map { ExactString($0).hashValue & mask })
    #expect(slots.count > 1_400)
  }

  /// An archive of the crafted paths restores and preserves again, every path accounted for.
  @Test func anArchiveOfCollidingPathsRoundTrips() throws {
    let paths = Self.collidingPaths(count: 2_048, slotBits: 12)
    let top = KeyedValues()
    var records = [
      RestorationArchive.Record(identifierPath: "Root", kind: .viewController, className: "Root")
    ]
    for path in paths {
      records.append(
        RestorationArchive.Record(identifierPath: path, kind: .object, className: "Object"))
    }
    let store = InMemoryArchiveStore(
      contents: [.archive: try RestorationArchive(topLevel: top, records: records).encoded()])
    let report = makeEngine(store: store, delegate: TestDelegate())
      .restoreApplicationState(roots: [])
    #expect(report.outcome == .restored)
    #expect(report.entries.count == paths.count + 1)
  }

  /// The key is chosen at random by each process: no set of paths crafted in advance collides
  /// in every process.
  @Test func theKeyDiffersFromProcessToProcess() throws {
    let helper = try BuiltExecutable.path(named: "restoration-test-helper")
    let runs = try (0..<2).map { _ in try run(helper, ["hash-bytes", Self.prefix]) }
    for result in runs { #expect(result.status == 0, "\(result.standardError)") }
    let values = runs.map { $0.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) }
    #expect(!values[0].isEmpty)
    #expect(values[0] != values[1])
  }
}
