import StateRestoration
import TestSupport
import Testing

/// Byte-level surgery on encoded archives, to make the damaged files the tool must diagnose.
enum Crafting {
  /// The byte offset of every object, from the trailer and the offset table.
  static func objectOffsets(_ bytes: [UInt8]) -> [Int] {
    func bigEndian(_ start: Int, _ width: Int) -> Int {
      bytes[start..<(start + width)].reduce(0) { $0 << 8 | Int($1) }
    }
    let trailer = bytes.count - 32
    let offsetSize = Int(bytes[trailer + 6])
    let count = bigEndian(trailer + 8, 8)
    let table = bigEndian(trailer + 24, 8)
    return (0..<count).map { bigEndian(table + $0 * offsetSize, offsetSize) }
  }

  /// Points every one-byte UID with value `old` at `new` instead, and fixes the checksum.
  static func retargetReferences(_ bytes: inout [UInt8], from old: UInt8, to new: UInt8) throws {
    let uids = objectOffsets(bytes).filter { bytes[$0] == 0x80 && bytes[$0 + 1] == old }
    try #require(!uids.isEmpty, "the archive has no UID \(old)")
    for offset in uids { bytes[offset + 1] = new }
    refreshArchiveChecksum(&bytes)
  }

  /// The first offset of an ASCII string in the bytes.
  static func offset(of text: String, in bytes: [UInt8]) throws -> Int {
    let needle = Array(text.utf8)
    let found = bytes.indices.first { start in
      start + needle.count <= bytes.count
        && bytes[start..<(start + needle.count)].elementsEqual(needle)
    }
    return try #require(found, "'\(text)' is not in the archive")
  }

  /// A minimal archive with the engine's top-level keys and the given records.
  static func archive(
    _ records: [RestorationArchive.Record],
    extraTopLevel: [(String, StateValue)] = []
  ) -> RestorationArchive {
    var topLevel = KeyedValues()
    topLevel[RestorationArchive.Key.bundleVersion] = .string("1")
    topLevel[RestorationArchive.Key.systemVersion] = .string("8.0")
    topLevel[RestorationArchive.Key.timestamp] = .date(DemoArchives.timestamp)
    topLevel[RestorationArchive.Key.userInterfaceIdiom] = .string("phone")
    for (key, value) in extraTopLevel { topLevel[key] = value }
    return RestorationArchive(topLevel: topLevel, records: records)
  }

  /// The bytes of an archive that declares a format version of its own.
  static func encoded(
    _ archive: RestorationArchive, major: Int = RestorationArchive.Version.current.major,
    minor: Int = 0
  ) throws -> [UInt8] {
    try archive.encoded(allowingDuplicatePaths: false, version: .init(major: major, minor: minor))
  }

  /// A view controller record.
  static func record(
    _ path: String,
    state: [(String, StateValue)] = [],
    sensitiveKeys: [String] = []
  ) -> RestorationArchive.Record {
    RestorationArchive.Record(
      identifierPath: path,
      kind: .viewController,
      className: "DemoController",
      state: KeyedValues(state),
      sensitiveKeys: sensitiveKeys
    )
  }
}
