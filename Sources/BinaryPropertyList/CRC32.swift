// zlib's CRC-32, so that any language can verify a file (`zlib.crc32(data)` in Python). Written
// here because zlib is not on every Linux host; whole 16-byte blocks are folded with carry-less
// multiplication (the C target) where the processor has it, several times faster than a table.
import CRC32Folding

/// CRC-32 (IEEE 802.3, reflected), as zlib and PNG compute it.
public enum CRC32 {
  /// The checksum of bytes, as zlib computes it with an initial value of 0.
  public static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    var index = 0
    if foldingAvailable, bytes.count >= 256, let start = bytes.baseAddress {
      let folded = bytes.count & ~15
      crc = crc32_folding_fold(start.assumingMemoryBound(to: UInt8.self), folded, crc)
      index = folded
    }
    return table.withUnsafeBufferPointer { table in
      while index < bytes.count {
        crc = table[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
        index += 1
      }
      return crc ^ 0xFFFF_FFFF
    }
  }

  /// The checksum of bytes, as zlib computes it with an initial value of 0.
  public static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
    if let crc = bytes.withContiguousStorageIfAvailable({ checksum(UnsafeRawBufferPointer($0)) }) {
      return crc
    }
    return Array(bytes).withUnsafeBytes { checksum($0) }
  }

  static let foldingAvailable = crc32_folding_available() != 0

  private static let table: [UInt32] = (0..<256).map { byte in
    var crc = UInt32(byte)
    for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    return crc
  }
}
