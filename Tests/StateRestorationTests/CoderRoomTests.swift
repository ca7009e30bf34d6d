import Foundation
import StateRestoration
import Testing

/// Counts the buffers of data values freed.
private final class FreedBuffers: @unchecked Sendable {
  var count = 0
}

/// A coder keeps its first values in itself and moves them to an array when they outgrow that
/// room, or when one changes after the pass handed them to its concurrent writer.
@Suite struct CoderRoomTests {
  @Test func rewritesAndRemovalsInTheRoomKeepOrder() {
    let coder = StateCoder()
    for index in 0..<4 { coder.encode(index, forKey: "key\(index)") }
    coder.encode("two", forKey: "key2")
    #expect(coder.values.keys == ["key0", "key1", "key2", "key3"])
    #expect(coder.values["key2"] == .string("two"))
    coder.removeValue(forKey: "key1")
    coder.encode(true, forKey: "key4")
    coder.encode(-1, forKey: "key1")
    #expect(coder.values.keys == ["key0", "key2", "key3", "key4", "key1"])
    #expect(coder.values["key1"] == .integer(-1))
    #expect(coder.values["key4"] == .bool(true))
  }

  /// Filling the room and going past it, at every count around its size.
  @Test(arguments: 0...12)
  func valuesPastTheRoomFollowTheFirstOnes(count: Int) {
    let coder = StateCoder()
    for index in 0..<count { coder.encode("value \(index)", forKey: "key\(index)") }
    if count > 0 { coder.encode([1, 2, 3], forKey: "key0") }
    let values = coder.values
    #expect(values.keys == (0..<count).map { "key\($0)" })
    for index in 1..<max(1, count) {
      #expect(values["key\(index)"] == .string("value \(index)"))
    }
    if count > 0 {
      #expect(values["key0"] == .array([.integer(1), .integer(2), .integer(3)]))
    }
  }

  /// What the concurrent writer reads stays as it was handed off, whatever the app writes to
  /// the coder afterwards; the coder itself has the change.
  @Test(arguments: [0, 3, 8, 9])
  func handedOffValuesDoNotChangeWithTheCoder(count: Int) {
    let coder = StateCoder()
    for index in 0..<count { coder.encode("value \(index)", forKey: "key\(index)") }
    let before = coder.values
    let handedOff = coder.handOffForReading()
    if count > 0 {
      coder.encode("rewritten", forKey: "key0")
      coder.removeValue(forKey: "key\(count - 1)")
    }
    coder.encode("added", forKey: "added")
    #expect(handedOff() == before)
    var expected = before
    if count > 0 {
      expected["key0"] = .string("rewritten")
      expected["key\(count - 1)"] = nil
    }
    expected["added"] = .string("added")
    #expect(coder.values == expected)
  }

  /// Values in the room are freed with the coder, as values spilled out of it are.
  @Test(arguments: [1, 8, 9, 20])
  func valuesAreFreedWithTheCoder(count: Int) {
    let freed = FreedBuffers()
    do {
      let coder = StateCoder()
      for index in 0..<count {
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 8)
        bytes.initializeMemory(as: UInt8.self, repeating: UInt8(index), count: 64)
        let data = Data(
          bytesNoCopy: bytes, count: 64,
          deallocator: .custom { pointer, _ in
            pointer.deallocate()
            freed.count += 1
          })
        coder.encode(data, forKey: "key\(index)")
      }
      #expect(coder.values.keys.count == count)
      #expect(freed.count == 0)
    }
    #expect(freed.count == count)
  }
}
