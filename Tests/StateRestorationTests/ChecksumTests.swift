import StateRestoration
import TestSupport
import Testing

/// The archive checksum, against zlib's CRC-32 computed bit by bit.
@Suite struct ChecksumTests {
  private func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var state = seed
    return (0..<count).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: state >> 56)
    }
  }

  private func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    bytes.withUnsafeBytes { CRC32.checksum($0) }
  }

  @Test func checksumIsZlibs() {
    for count in [0, 1, 7, 8, 9, 63, 1_000] {
      let data = bytes(count, seed: UInt64(count))
      #expect(checksum(data[...]) == referenceCRC32(data[...]), "\(count) bytes")
    }
  }

  /// Folding whole blocks with carry-less multiplication gives zlib's checksum.
  ///
  /// At every length around the block sizes and the folding threshold, from aligned and
  /// unaligned starts, and for a long buffer. Runs only where the processor folds.
  @Test(.enabled(if: CRC32.foldingAvailable))
  func foldedChecksumIsZlibs() {
    let data = bytes(4_200, seed: 3)
    for count in Array(0...300) + [511, 512, 513, 1_023, 1_024, 1_025, 4_096, 4_100] {
      for start in [0, 1, 3, 8, 15] where start + count <= data.count {
        let slice = data[start..<(start + count)]
        let folded = slice.withUnsafeBytes { CRC32.checksum($0, folding: true) }
        #expect(folded == referenceCRC32(slice), "\(count) bytes from \(start)")
      }
    }
    let long = bytes(1_000_003, seed: 4)
    #expect(
      long.withUnsafeBytes { CRC32.checksum($0, folding: true) }
        == long.withUnsafeBytes { CRC32.checksum($0, folding: false) })
    #expect(long.withUnsafeBytes { CRC32.checksum($0, folding: true) } == referenceCRC32(long[...]))
  }

  /// Two ranges' checksums combine into the checksum of both: at every split of short data,
  /// empty halves included, and at splits of longer data.
  @Test func checksumsOfTwoRangesCombineIntoTheChecksumOfBoth() {
    let short = bytes(40, seed: 1)
    for split in 0...short.count {
      let combined = CRC32.combine(
        checksum(short[..<split]), checksum(short[split...]), secondLength: short.count - split)
      #expect(combined == referenceCRC32(short[...]), "split at \(split)")
    }
    let long = bytes(300_000, seed: 2)
    let whole = referenceCRC32(long[...])
    for split in [1, 4_096, 150_000, 299_999] {
      let combined = CRC32.combine(
        checksum(long[..<split]), checksum(long[split...]), secondLength: long.count - split)
      #expect(combined == whole, "split at \(split)")
    }
  }
}
