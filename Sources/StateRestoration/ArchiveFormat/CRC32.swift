// The archive checksum is zlib's CRC-32, so any language can verify an archive
// (`zlib.crc32(data[13:])` in Python). CRC-32 catches every single-bit flip and every burst
// of up to 32 bits, which is what torn writes and bad sectors produce. It is written here rather
// than taken from zlib because zlib is not guaranteed to be present on every Linux host, and a
// slicing-by-8 table loop keeps it far below a millisecond per megabyte. Where the processor has
// carry-less multiplication (x86-64 with PCLMULQDQ), whole blocks of 16 bytes are folded by the
// C target CRC32Folding instead, several times faster; the table loop does the rest.

import CRC32Folding

/// CRC-32 (IEEE 802.3, reflected, as in zlib and PNG).
package enum CRC32 {
  /// Eight 256-entry tables for slicing-by-8, flattened: table `k` starts at `k * 256`.
  private static let table: [UInt32] = {
    var table = [UInt32](repeating: 0, count: 8 * 256)
    for byte in 0..<256 {
      var crc = UInt32(byte)
      for _ in 0..<8 {
        crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
      }
      table[byte] = crc
    }
    for byte in 0..<256 {
      var crc = table[byte]
      for slice in 1..<8 {
        crc = table[Int(crc & 0xFF)] ^ (crc >> 8)
        table[slice * 256 + byte] = crc
      }
    }
    return table
  }()

  /// The checksum of a byte range.
  ///
  /// - Parameter bytes: The bytes.
  /// - Returns: The CRC-32, as zlib computes it with an initial value of 0.
  package static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    checksum(bytes, folding: foldingAvailable)
  }

  /// Whether whole blocks are folded with carry-less multiplication on this processor.
  package static let foldingAvailable = crc32_folding_available() != 0

  /// The fewest bytes folded: the folding needs 64; shorter ranges (the trailer and small
  /// archives' pieces) go through the table loop alone.
  private static let foldingThreshold = 256

  /// The checksum of a byte range, folding whole blocks where `folding` allows it.
  ///
  /// - Parameters:
  ///   - bytes: The bytes.
  ///   - folding: Fold blocks of 16 bytes with carry-less multiplication; must be false where
  ///     ``foldingAvailable`` is false.
  /// - Returns: The CRC-32, as zlib computes it with an initial value of 0.
  package static func checksum(_ bytes: UnsafeRawBufferPointer, folding: Bool) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    var index = 0
    if folding, bytes.count >= foldingThreshold, let start = bytes.baseAddress {
      let folded = bytes.count & ~15
      crc = crc32_folding_fold(start.assumingMemoryBound(to: UInt8.self), folded, crc)
      index = folded
    }
    return table.withUnsafeBufferPointer { t in
      let count = bytes.count
      while index + 8 <= count {
        let low =
          UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self)) ^ crc
        let high = UInt32(
          littleEndian: bytes.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self)
        )
        let a = t[0x700 + Int(low & 0xFF)] ^ t[0x600 + Int((low >> 8) & 0xFF)]
        let b = t[0x500 + Int((low >> 16) & 0xFF)] ^ t[0x400 + Int(low >> 24)]
        let c = t[0x300 + Int(high & 0xFF)] ^ t[0x200 + Int((high >> 8) & 0xFF)]
        let d = t[0x100 + Int((high >> 16) & 0xFF)] ^ t[Int(high >> 24)]
        crc = a ^ b ^ c ^ d
        index += 8
      }
      while index < count {
        crc = t[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
        index += 1
      }
      return crc ^ 0xFFFF_FFFF
    }
  }

  /// The checksum of two byte ranges one after the other, from the checksum of each and the
  /// length of the second: two halves of a file can then be checked on two threads.
  ///
  /// The first checksum, as a polynomial, is multiplied by x^(8 × `secondLength`) modulo the
  /// CRC polynomial, which appends that many zero bytes to it, then the second is added. The
  /// power is assembled from x^(2^k) for the bits of the length: 64 small products at most.
  ///
  /// - Parameters:
  ///   - first: The checksum of the first range.
  ///   - second: The checksum of the second range.
  ///   - secondLength: The second range's length in bytes.
  /// - Returns: The checksum of both ranges, as ``checksum(_:)`` computes it over them.
  package static func combine(_ first: UInt32, _ second: UInt32, secondLength: Int) -> UInt32 {
    var power: UInt32 = 1 << 31  // x^0, in the reflected order
    var square: UInt32 = 1 << 30  // x^1
    // x^(2^3) = x^8: one byte. Squaring three times from x^1 gets there.
    for _ in 0..<3 { square = multiply(square, square) }
    var remaining = UInt(secondLength)
    while remaining != 0 {
      if remaining & 1 != 0 { power = multiply(power, square) }
      square = multiply(square, square)
      remaining >>= 1
    }
    return multiply(power, first) ^ second
  }

  /// The product of two polynomials modulo the CRC polynomial, bits in the reflected order.
  private static func multiply(_ a: UInt32, _ b: UInt32) -> UInt32 {
    var product: UInt32 = 0
    var multiplier = a
    var shifted = b
    // The reflected order puts x^0 in the top bit: walk `multiplier` from it down.
    while multiplier != 0 {
      if multiplier & (1 << 31) != 0 { product ^= shifted }
      multiplier <<= 1
      shifted = shifted & 1 != 0 ? (shifted >> 1) ^ 0xEDB8_8320 : shifted >> 1
    }
    return product
  }
}
