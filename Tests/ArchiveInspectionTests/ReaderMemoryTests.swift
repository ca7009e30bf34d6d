import BinaryPropertyList
import Foundation
import StateRestoration
import TestSupport
import Testing

/// What reading a file costs in memory is bounded by the file's size, whatever its trailer
/// declares: a file of millions of one-byte objects is read with a small multiple of its size.
@Suite struct ReaderMemoryTests {
  /// An archive root whose `format` is wrong, followed by `count - 4` null objects, each a byte
  /// of its own, with 3-byte offsets: about 4 bytes of file per object.
  private static func manyObjects(_ count: Int) -> [UInt8] {
    let head: [[UInt8]] = [
      [0x44, 0, 0, 0, 0],  // the checksum
      [0xD1, 0, 0, 2, 0, 0, 3],  // the root: { object 2: object 3 }
      [0x56] + Array("format".utf8),
      [0x51, UInt8(ascii: "x")],
    ]
    let headSize = head.reduce(0) { $0 + $1.count }
    let table = 8 + headSize + (count - head.count)
    let size = table + 3 * count + 32
    // Written in place: appending 12 MB byte by byte took seconds in a debug build.
    var bytes = [UInt8](repeating: 0, count: size)
    bytes.withUnsafeMutableBufferPointer { file in
      var position = 0
      for byte in "bplist00".utf8 {
        file[position] = byte
        position += 1
      }
      var offsets: [Int] = []
      for object in head {
        offsets.append(position)
        for byte in object {
          file[position] = byte
          position += 1
        }
      }
      // The null objects are the zeros already there, one byte each.
      var entry = table
      for index in 0..<count {
        let offset = index < offsets.count ? offsets[index] : 8 + headSize + index - offsets.count
        file[entry] = UInt8(truncatingIfNeeded: offset >> 16)
        file[entry + 1] = UInt8(truncatingIfNeeded: offset >> 8)
        file[entry + 2] = UInt8(truncatingIfNeeded: offset)
        entry += 3
      }
      file[entry + 6] = 3
      file[entry + 7] = 3
      for (field, value) in [count, 1, table].enumerated() {
        for byte in 0..<8 {
          file[entry + 8 + 8 * field + byte] = UInt8(truncatingIfNeeded: value >> (8 * (7 - byte)))
        }
      }
    }
    // The engine's checksum: the tests' reference one, bit by bit, takes seconds on 16 MB.
    let checksum = bytes[13...].withUnsafeBytes { CRC32.checksum($0) }
    for index in 0..<4 {
      bytes[9 + index] = UInt8(truncatingIfNeeded: checksum >> (24 - 8 * index))
    }
    return bytes
  }

  /// The peak memory, in bytes, of the archive tool validating a file.
  private static func peakMemory(validating path: String) throws -> Int {
    let tool = try BuiltExecutable.path(named: "restoration-archive-tool")
    let result = try python(
      """
      import resource, subprocess, sys
      subprocess.run(sys.argv[1:], capture_output=True)
      print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
      """, [tool, "validate", path])
    let kilobytes = try #require(
      Int(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)),
      "\(result.standardError)")
    return kilobytes * 1024
  }

  @Test func aFileDeclaringMillionsOfObjectsIsReadInTwiceItsSize() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let small = folder.appendingPathComponent("small.data")
    let large = folder.appendingPathComponent("large.data")
    try Data(Self.manyObjects(16)).write(to: small)
    let bytes = Self.manyObjects(4 << 20)
    try Data(bytes).write(to: large)
    // Both files are refused for their format, after the reader has read the root's keys.
    let baseline = try Self.peakMemory(validating: small.path)
    let peak = try Self.peakMemory(validating: large.path)
    let growth = peak - baseline
    #expect(
      growth <= 5 * bytes.count / 2,
      "a file of \(bytes.count) bytes took \(growth) bytes more than a tiny one")
  }
}
