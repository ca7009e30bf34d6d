import StateRestoration
import Testing

/// The byte hash behind the passes' and the writer's string tables.
@Suite struct HashBytesTests {
  /// The hash as first written: whole words, then the tail gathered byte by byte, then the
  /// tables' finalizer.
  private func byteByByte(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
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
    return mixBits(hash)
  }

  @Test func everyLengthAndStartHashesAsGatheringTheTailByteByByte() {
    let bytes = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
    bytes.withUnsafeBytes { all in
      for start in 0..<8 {
        for length in 0...(all.count - start) {
          let slice = UnsafeRawBufferPointer(rebasing: all[start..<(start + length)])
          #expect(hashBytes(slice) == byteByByte(slice), "start \(start), length \(length)")
        }
      }
    }
  }

  @Test func aChangeInAnyTailByteChangesTheHash() {
    for length in 9...23 {
      var bytes = [UInt8](repeating: 0x61, count: length)
      let original = bytes.withUnsafeBytes(hashBytes)
      for position in (length / 8 * 8)..<length {
        bytes[position] = 0x62
        #expect(bytes.withUnsafeBytes(hashBytes) != original, "length \(length), byte \(position)")
        bytes[position] = 0x61
      }
    }
  }
}
