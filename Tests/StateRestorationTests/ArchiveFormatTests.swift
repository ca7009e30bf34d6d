import Foundation
import StateRestoration
import TestSupport
import Testing

@Suite struct ArchiveFormatTests {
  /// The talk demo preserved, with a variety of value types.
  private func demoArchive() throws -> (RestorationArchive, [UInt8]) {
    let demo = TalkDemo()
    demo.first.state = ["sliderValue": 89]
    let delegate = TestDelegate()
    delegate.willEncode = { coder in
      coder.encode("3.1", forKey: "uiVersion")
      coder.encode(Data([1, 2, 3]), forKey: "blob")
      coder.encode(Date(timeIntervalSinceReferenceDate: 426_352_000), forKey: "when")
      coder.encode([1.5, -2.25], forKey: "reals")
      coder.encode("naïve ☃", forKey: "unicode")
      coder.encode(UInt64.max, forKey: "huge")
      coder.encode(-7, forKey: "negative")
    }
    let engine = makeEngine(store: InMemoryArchiveStore(), delegate: delegate)
    let archive = try #require(engine.makeArchive(roots: demo.roots).archive)
    return (archive, try archive.encoded())
  }

  /// Equal integers, reals and dates are written once, each referenced by every record that
  /// holds it, as `PropertyListEncoder` writes them: the archive is no larger than its.
  @Test func equalIntegersRealsAndDatesAreWrittenOnce() throws {
    /// The number of objects in a binary property list, from its trailer.
    func objectCount(_ bytes: [UInt8]) -> Int {
      bytes[(bytes.count - 24)..<(bytes.count - 16)].reduce(0) { $0 << 8 | Int($1) }
    }
    func archive(sharing: Bool) throws -> [UInt8] {
      var archive = RestorationArchive()
      for index in 0..<200 {
        let value = sharing ? 0 : index + 1
        var state = KeyedValues()
        state["integer"] = .integer(1_000 + Int64(value))
        state["real"] = .real(0.25 + Double(value))
        state["date"] = .date(Date(timeIntervalSinceReferenceDate: 1_000 + Double(value)))
        archive.records.append(
          RestorationArchive.Record(
            identifierPath: "Item\(index)", kind: .object, className: "Item", state: state))
      }
      return try archive.encoded()
    }
    let shared = try archive(sharing: true)
    let distinct = try archive(sharing: false)
    #expect(objectCount(distinct) - objectCount(shared) == 3 * 199)
    #expect(
      try RestorationArchive(decoding: shared).records.allSatisfy {
        $0.state["integer"] == .integer(1_000) && $0.state["real"] == .real(0.25)
          && $0.state["date"] == .date(Date(timeIntervalSinceReferenceDate: 1_000))
      })
  }

  /// Large files of every kind of value, of every size, with headers short and long, read back
  /// as written, and are written the same twice.
  @Test func largeArchivesOfEveryKindOfValueRoundTrip() throws {
    let path = { (index: Int) in "Root/:[\(index)]:/Item\(index)" }
    for count in [1_500, 1_501, 1_503, 1_507] {
      var archive = RestorationArchive()
      archive.records = [
        RestorationArchive.Record(identifierPath: "Root", kind: .viewController, className: "R")
      ]
      for index in 0..<count {
        var state = KeyedValues()
        // Unique values, so that the objects of every kind spread across the file.
        state["flag"] = .bool(index.isMultiple(of: 2))
        state["small"] = .integer(Int64(index % 200))
        state["wide"] = .integer(Int64(index) << (8 * (index % 8)))
        state["negative"] = .integer(-Int64(index))
        state["huge"] = .unsignedInteger(UInt64.max - UInt64(index))
        state["single"] = .real(Double(index) + 0.5)
        state["double"] = .real(Double(index) / 3)
        state["when"] = .date(Date(timeIntervalSinceReferenceDate: Double(index)))
        state["blob"] = .data(Data(repeating: UInt8(index % 256), count: index % 20))
        state["ascii"] = .string(String(repeating: "a", count: index % 20) + "\(index)")
        state["unicode"] = .string("☃ \(index) " + String(repeating: "é", count: index % 18))
        state["list"] = .array((0..<(index % 17)).map { .integer(Int64($0 + index)) })
        state["map"] = .dictionary(
          Dictionary(uniqueKeysWithValues: (0..<(index % 16)).map { ("k\($0)", .integer(1)) }))
        state["parent"] = .reference("Root")
        if index > 0 { state["previous"] = .reference(path(index - 1)) }
        archive.records.append(
          RestorationArchive.Record(
            identifierPath: path(index), kind: .object, className: "Item", state: state))
      }
      let bytes = try archive.encoded()
      #expect(try archive.encoded() == bytes, "\(count) records")
      #expect(try RestorationArchive(decoding: bytes) == archive)
    }
  }

  @Test func archiveRoundTripsThroughItsBinaryForm() throws {
    let (archive, bytes) = try demoArchive()
    let decoded = try RestorationArchive(decoding: bytes)
    #expect(decoded == archive)
    #expect(decoded.version == .current)
    #expect(Array(bytes.prefix(8)) == Array("bplist00".utf8))
    // Written twice, byte for byte the same.
    #expect(try archive.encoded() == bytes)
  }

  @Test func pythonPlistlibReadsTheArchiveAndVerifiesItsChecksum() throws {
    let (archive, bytes) = try demoArchive()
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("data.data")
    try Data(bytes).write(to: file)
    let script = """
      import json, plistlib, sys, zlib
      raw = open(sys.argv[1], "rb").read()
      archive = plistlib.loads(raw)
      assert raw[8] == 0x44, "checksum object is not at byte 8"
      assert int.from_bytes(raw[9:13], "big") == zlib.crc32(raw[13:]), "checksum mismatch"
      assert archive["checksum"] == raw[9:13]
      # Format 3: one column per field, one element per record; kinds and classes in "types".
      columns, records = archive["objects"], []
      for i, name in enumerate(columns["name"]):
          r = dict(archive["types"][columns["type"][i]], state=columns["state"][i])
          parent = columns["parent"][i]
          r["path"] = name if parent < 0 else records[parent]["path"] + "/" + name
          records.append(r)
      def plain(value):
          if isinstance(value, plistlib.UID):
              return {"$ref": records[value.data]["path"]}
          if isinstance(value, dict):
              return {key: plain(item) for key, item in value.items()}
          if isinstance(value, list):
              return [plain(item) for item in value]
          if isinstance(value, bytes):
              return value.hex()
          if hasattr(value, "isoformat"):
              return value.isoformat()
          return value
      print(json.dumps({
          "format": archive["format"],
          "top": plain(archive["topLevel"]),
          "records": [
              {"path": r["path"], "kind": r["kind"], "class": r["class"],
               "restorationClass": r.get("restorationClass"), "state": plain(r["state"])}
              for r in records
          ],
      }))
      """
    let result = try python(script, [file.path])
    #expect(result.status == 0, "\(result.standardError)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
    )
    #expect(json["format"] as? String == "StateRestorationArchive")
    let top = try #require(json["top"] as? [String: Any])
    #expect(top["kUIStateRestorationArchiveMajorVersionKey"] as? Int == 3)
    #expect(top["uiVersion"] as? String == "3.1")
    #expect(top["unicode"] as? String == "naïve ☃")
    #expect(top["blob"] as? String == "010203")
    #expect(top["negative"] as? Int == -7)
    #expect((top["huge"] as? NSNumber)?.uint64Value == UInt64.max)
    #expect(top["when"] as? String == "2014-07-06T15:06:40")
    let records = try #require(json["records"] as? [[String: Any]])
    #expect(records.map { $0["path"] as? String } == archive.rootIdentifierPaths)
    let navigation = try #require(
      records.first { ($0["path"] as? String)?.hasSuffix("NavigationController") == true })
    let state = try #require(navigation["state"] as? [String: Any])
    let children = try #require(state["children"] as? [[String: String]])
    #expect(
      children.map { $0["$ref"] } == [
        "TabController/:[1]:/NavigationController/:[0]:/SecondViewController",
        "TabController/:[1]:/NavigationController/:[1]:/CityViewController",
      ]
    )
    let city = try #require(records.last)
    #expect(city["restorationClass"] as? String == "CityRestoration")
  }

  /// `plutil`: the Swift toolchain's on Linux, the system's on macOS; nil when neither is there.
  static let plutil = ["/opt/swift/usr/bin/plutil", "/usr/bin/plutil"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  // Skipped, and shown as skipped, when the toolchain has no plutil where it usually is.
  @Test(.enabled(if: plutil != nil, "plutil is not at /opt/swift/usr/bin or /usr/bin"))
  func plutilAcceptsTheArchive() throws {
    let plutil = try #require(Self.plutil)
    let (_, bytes) = try demoArchive()
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("data.data")
    try Data(bytes).write(to: file)
    let result = try run(plutil, ["-lint", file.path])
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    #expect(result.standardOutput.contains("OK"))
  }

  @Test func readerReadsWhatPythonPlistlibWrites() throws {
    let script = """
      import datetime, plistlib, sys
      value = {
          "bool": True, "false": False, "int": 42, "negative": -5, "big": 2**40,
          "huge": 2**64 - 1, "real": 0.8926057, "string": "hello",
          "unicode": "Zürich 東京", "data": b"\\x00\\xff", "date": datetime.datetime(2014, 7, 6, 16, 5, 18),
          "array": [1, "two", [3.0]], "nested": {"a": {"b": [True]}},
          "long": "x" * 40, "many": list(range(20)),
      }
      sys.stdout.buffer.write(plistlib.dumps(value, fmt=plistlib.FMT_BINARY))
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let bytes = [UInt8](pipe.fileHandleForReading.readDataToEndOfFile())
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let value = try PropertyList.read(bytes)
    guard case .dictionary(let fields) = value else {
      Issue.record("expected a dictionary, got \(value)")
      return
    }
    #expect(fields["bool"] == .bool(true))
    #expect(fields["false"] == .bool(false))
    #expect(fields["int"] == .integer(42))
    #expect(fields["negative"] == .integer(-5))
    #expect(fields["big"] == .integer(1 << 40))
    #expect(fields["huge"] == .unsignedInteger(UInt64.max))
    #expect(fields["real"] == .real(0.8926057))
    #expect(fields["string"] == .string("hello"))
    #expect(fields["unicode"] == .string("Zürich 東京"))
    #expect(fields["data"] == .data(Data([0, 255])))
    #expect(fields["date"] == .date(Date(timeIntervalSince1970: 1_404_662_718)))
    #expect(fields["array"] == .array([.integer(1), .string("two"), .array([.real(3)])]))
    #expect(fields["nested"] == .dictionary(["a": .dictionary(["b": .array([.bool(true)])])]))
    #expect(fields["long"] == .string(String(repeating: "x", count: 40)))
    #expect(fields["many"] == .array((0..<20).map { .integer(Int64($0)) }))
  }

  @Test func plainPropertyListsRoundTripThroughTheWriter() throws {
    let value = StateValue.dictionary([
      "a": .array((0..<300).map { .integer(Int64($0 * 1_000)) }),
      "b": .string(String(repeating: "é", count: 20)),
      "c": .data(Data(repeating: 7, count: 70_000)),
    ])
    #expect(try PropertyList.read(try PropertyList.write(value)) == value)
    #expect(throws: RestorationError.self) { try PropertyList.write(.reference("x")) }
  }

  @Test func notAnArchiveIsRejectedWithTheRightCode() throws {
    func code(_ bytes: [UInt8]) -> RestorationError.Code? {
      do {
        _ = try RestorationArchive(decoding: bytes)
        return nil
      } catch {
        return error.code
      }
    }
    #expect(code([]) == .notPropertyList)
    #expect(code(Array("hello, world, this is text".utf8)) == .notPropertyList)
    #expect(code(Array("bplist15".utf8) + [UInt8](repeating: 0, count: 40)) == .notPropertyList)
    // A valid property list that is not an archive.
    #expect(code(try PropertyList.write(.dictionary(["a": .integer(1)]))) == .notArchive)
    let (_, bytes) = try demoArchive()
    #expect(code(Array(bytes.prefix(20))) == .truncated)
  }
}
