import Foundation
import StateRestoration
import TestSupport
import Testing

/// The reader against damaged and crafted files: every failure is a typed error, never a crash,
/// whatever the bytes.
@Suite struct ArchiveReaderHostileInputTests {
  /// A small archive with references, nested values and the engine's fields.
  private func smallArchive() throws -> [UInt8] {
    let delegate = TestDelegate()
    delegate.willEncode = { coder in
      coder.encode([1.5, -2.25], forKey: "reals")
      coder.encode("naïve ☃", forKey: "unicode")
      coder.encode(["a": 1, "b": 2], forKey: "map")
      coder.encode(Data([1, 2, 3, 4, 5, 6]), forKey: "blob")
    }
    let engine = makeEngine(store: InMemoryArchiveStore(), delegate: delegate)
    let archive = try #require(engine.makeArchive(roots: TalkDemo().roots).archive)
    return try archive.encoded()
  }

  /// A binary property list from raw objects, with 1-byte offsets and references.
  private func propertyList(_ objects: [[UInt8]], top: Int = 0) -> [UInt8] {
    var bytes = Array("bplist00".utf8)
    var offsets: [UInt8] = []
    for object in objects {
      offsets.append(UInt8(bytes.count))
      bytes += object
    }
    let table = bytes.count
    bytes += offsets
    bytes += [0, 0, 0, 0, 0, 0, 1, 1]
    for value in [objects.count, top, table] {
      bytes += withUnsafeBytes(of: UInt64(value).bigEndian) { Array($0) }
    }
    return bytes
  }

  private func code(_ bytes: [UInt8]) -> RestorationError.Code? {
    do {
      _ = try RestorationArchive(decoding: bytes)
      return nil
    } catch {
      return error.code
    }
  }

  @Test func truncationAtEveryByteIsATypedError() throws {
    let bytes = try smallArchive()
    for length in 0..<bytes.count {
      let result = code(Array(bytes.prefix(length)))
      #expect(result != nil, "a file cut to \(length) bytes was accepted")
    }
  }

  @Test func bitFlipsAreCaughtByTheChecksum() throws {
    let bytes = try smallArchive()
    // Every byte is covered: the magic, the checksum object itself, and the CRC-32 over the rest
    // (objects, offset table and trailer), so no flip anywhere may be accepted.
    for index in bytes.indices {
      var damaged = bytes
      damaged[index] ^= 0x10
      let result = code(damaged)
      #expect(result != nil, "a flip at byte \(index) was accepted")
    }
  }

  @Test func bitFlipsBehindAValidChecksumNeverCrashTheReader() throws {
    let bytes = try smallArchive()
    // Recomputing the checksum makes the reader parse the damaged structure itself.
    for index in 13..<bytes.count {
      for bit in [0x01, 0x08, 0x80] as [UInt8] {
        var damaged = bytes
        damaged[index] ^= bit
        refreshArchiveChecksum(&damaged)
        // Either a typed error or a well-formed archive; what matters is no crash or hang.
        _ = code(damaged)
      }
    }
  }

  @Test func aContainerThatContainsItselfIsRejected() throws {
    // Object 0: an array whose only element is object 0.
    let bytes = propertyList([[0xA1, 0x00]])
    #expect(throws: RestorationError.self) { try PropertyList.read(bytes) }
    // A dictionary whose value is itself.
    let dictionary = propertyList([[0xD1, 0x01, 0x00], [0x51, UInt8(ascii: "k")]])
    #expect(throws: RestorationError.self) { try PropertyList.read(dictionary) }
  }

  @Test func hugeDeclaredLengthsAreRejectedBeforeAnyAllocation() throws {
    // A string declaring 2^31 - 1 characters, an array declaring 2^28 elements, a data object
    // declaring more bytes than the file holds.
    let cases: [[UInt8]] = [
      [0x5F, 0x12, 0x7F, 0xFF, 0xFF, 0xFF],
      [0xAF, 0x12, 0x10, 0x00, 0x00, 0x00],
      [0x4F, 0x11, 0x03, 0xE8],
      [0x5F, 0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
    ]
    for object in cases {
      let bytes = propertyList([object])
      #expect(throws: RestorationError.self) { try PropertyList.read(bytes) }
    }
  }

  @Test func offsetsAndReferencesOutsideTheFileAreRejected() throws {
    // An array referencing object 9 of 1, and an offset table pointing past the objects.
    #expect(throws: RestorationError.self) { try PropertyList.read(propertyList([[0xA1, 0x09]])) }
    var bytes = propertyList([[0x08]])
    bytes[bytes.count - 32 - 1] = 0xF0
    #expect(throws: RestorationError.self) { try PropertyList.read(bytes) }
  }

  @Test func nestingDeeperThanTheLimitIsRejected() throws {
    var value = StateValue.integer(1)
    for _ in 0..<200 { value = .array([value]) }
    let bytes = try PropertyList.write(value)
    #expect(throws: RestorationError.self) { try PropertyList.read(bytes) }
    var shallow = StateValue.integer(1)
    for _ in 0..<100 { shallow = .array([shallow]) }
    #expect(try PropertyList.read(try PropertyList.write(shallow)) == shallow)
  }

  @Test func everyLimitIsEnforcedWithItsOwnError() throws {
    let bytes = try smallArchive()
    #expect(try RestorationArchive(decoding: bytes, limits: .default).records.count == 5)
    let tight: [(String, ArchiveLimits)] = [
      ("file size", ArchiveLimits(maxFileSize: bytes.count - 1)),
      ("object count", ArchiveLimits(maxObjectCount: 10)),
      ("depth", ArchiveLimits(maxDepth: 2)),
      ("string length", ArchiveLimits(maxStringLength: 5)),
      ("data length", ArchiveLimits(maxDataLength: 3)),
      ("collection count", ArchiveLimits(maxCollectionCount: 2)),
    ]
    for (name, limits) in tight {
      let error = #expect(throws: RestorationError.self, "\(name)") {
        try RestorationArchive(decoding: bytes, limits: limits)
      }
      #expect(error?.code == .limitExceeded, "\(name): \(String(describing: error))")
    }
  }

  @Test func sharedContainersCannotMultiplyTheWork() throws {
    // Each array holds its predecessor twice: 2^40 values if materialized naively.
    var objects: [[UInt8]] = [[0x10, 0x01]]
    for index in 1..<41 { objects.append([0xA2, UInt8(index - 1), UInt8(index - 1)]) }
    let bytes = propertyList(objects, top: 40)
    #expect(throws: RestorationError.self) { try PropertyList.read(bytes) }
  }

  @Test func largeArchivesUseThreeByteWidthsThatPlistlibReads() throws {
    let root = TestController("Root")
    for index in 0..<3_000 {
      let child = TestController("Child\(index)")
      child.state = ["value": index]
      root.addChild(child)
    }
    let engine = makeEngine(store: InMemoryArchiveStore(), delegate: TestDelegate())
    let archive = try #require(engine.makeArchive(roots: [root]).archive)
    let bytes = try archive.encoded()
    let trailer = bytes.count - 32
    #expect(bytes.count > 65_536)
    #expect(bytes[trailer + 6] == 3, "offsets of a file between 64 KiB and 16 MiB take 3 bytes")
    #expect(try RestorationArchive(decoding: bytes) == archive)

    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("data.data")
    try Data(bytes).write(to: file)
    let result = try python(
      """
      import plistlib, sys
      archive = plistlib.loads(open(sys.argv[1], "rb").read())
      print(len(archive["objects"]["name"]), archive["objects"]["state"][-1]["value"])
      """,
      [file.path]
    )
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "3001 2999")
  }
}
