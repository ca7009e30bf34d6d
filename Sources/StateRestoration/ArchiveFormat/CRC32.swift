// The archive checksum is zlib's CRC-32, so any language can verify an archive
// (`zlib.crc32(data[13:])` in Python). CRC-32 catches every single-bit flip and every burst
// of up to 32 bits, which is what torn writes and bad sectors produce. It is written here rather
// than taken from zlib because zlib is not guaranteed to be present on every Linux host, and a
// slicing-by-8 table loop keeps it far below a millisecond per megabyte.

/// CRC-32 (IEEE 802.3, reflected, as in zlib and PNG).
enum CRC32 {
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
  static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    table.withUnsafeBufferPointer { t in
      var crc: UInt32 = 0xFFFF_FFFF
      let count = bytes.count
      var index = 0
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
}
