import Foundation
import StateRestoration
import Testing

/// Writes an object's keys with the closure it is given.
private final class Scripted: StateRestoring {
  let restorationIdentifier: String?
  let script: (StateCoder) -> Void
  init(_ identifier: String, _ script: @escaping (StateCoder) -> Void) {
    restorationIdentifier = identifier
    self.script = script
  }
  func encodeRestorableState(with coder: StateCoder) throws { script(coder) }
}

/// What a preservation writes into the file, as it writes it: each value once, replaced and
/// removed values never, references as record numbers.
@Suite struct OnePassTests {
  private func preserved(
    _ roots: [any StateRestoring], willEncode: ((StateCoder) -> Void)? = nil
  ) throws -> (bytes: [UInt8], report: PreservationReport) {
    let store = InMemoryArchiveStore()
    let delegate = TestDelegate()
    delegate.willEncode = willEncode
    let report = makeEngine(store: store, delegate: delegate).preserveApplicationState(
      roots: roots)
    return (try #require(store.contents[.archive]), report)
  }

  /// Whether the bytes hold a text, as a property list writes it: ASCII, or UTF-16 big-endian.
  private func holds(_ bytes: [UInt8], _ text: String) -> Bool {
    let ascii = Array(text.utf8)
    let utf16 = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    return [ascii, utf16].contains { needle in
      bytes.indices.contains { start in
        start + needle.count <= bytes.count
          && bytes[start..<(start + needle.count)].elementsEqual(needle)
      }
    }
  }

  @Test(arguments: [
    "short", String(repeating: "a long value, written without a lookup ", count: 3),
  ])
  func replacedRemovedAndWithheldValuesLeaveNothingInTheFile(suffix: String) throws {
    let object = Scripted("Object") { coder in
      coder.encode("REPLACED-" + suffix, forKey: "replaced")
      coder.encode("kept", forKey: "other")
      coder.encode("FINAL-" + suffix, forKey: "replaced")
      coder.encode("REMOVED-" + suffix, forKey: "removed")
      coder.removeValue(forKey: "removed")
      coder.encode("WITHHELD-" + suffix, forKey: "secret")
      coder.encode("", forKey: "secret", sensitive: true)
      // Sensitive once, sensitive for good: a later plain write is withheld too.
      coder.encode("LATER-" + suffix, forKey: "secret")
      coder.encode(Data([0xDE, 0xAD, 0xBE, 0xEF]), forKey: "blob")
      coder.removeValue(forKey: "blob")
    }
    let (bytes, report) = try preserved([object])
    #expect(report.issues.isEmpty)
    for secret in ["REPLACED-", "REMOVED-", "WITHHELD-", "LATER-"] {
      #expect(!holds(bytes, secret + suffix), "\(secret) is in the file")
    }
    #expect(!bytes.indices.contains { bytes[$0...].starts(with: [0xDE, 0xAD, 0xBE, 0xEF]) })
    #expect(holds(bytes, "FINAL-" + suffix))
    let record = try #require(try RestorationArchive(decoding: bytes).record(at: "Object"))
    #expect(record.state.keys == ["replaced", "other"])
    #expect(record.state["replaced"] == .string("FINAL-" + suffix))
    #expect(record.sensitiveKeys == ["secret"])
  }

  /// Class names, keys and field names are each in the file once, however many records have
  /// them.
  @Test func namesAreStoredOncePerArchive() throws {
    let objects = (0..<50).map { index in
      Scripted("Item\(index)") { coder in coder.encode(index, forKey: "aDistinctKeyName") }
    }
    let (bytes, _) = try preserved(objects)
    func count(_ text: String) -> Int {
      let needle = Array(text.utf8)
      return bytes.indices.filter {
        $0 + needle.count <= bytes.count && bytes[$0..<($0 + needle.count)].elementsEqual(needle)
      }.count
    }
    #expect(count("aDistinctKeyName") == 1)
    #expect(count("Scripted") == 1)
  }

  /// An object left out for its path leaves no reference to it, whether it is a duplicate or
  /// beyond the limits, and a reference made by hand to a path without a record is left out
  /// alike: the key goes, an issue names it, the rest is saved.
  @Test func referencesToRecordsThatDoNotExistAreLeftOutWithAnIssue() throws {
    let first = TestController("Same")
    let duplicate = TestController("Same")
    let long = TestController(String(repeating: "x", count: 9_000))
    let referrer = Scripted("Referrer") { coder in
      coder.encode(first, forKey: "first")
      coder.encode(duplicate, forKey: "duplicate")
      coder.encode(long, forKey: "long")
      coder.encodeValue(.reference("Nowhere"), forKey: "byHand")
      coder.encode(7, forKey: "value")
    }
    let (bytes, report) = try preserved([referrer, first, duplicate])
    guard case .saved = report.outcome else {
      Issue.record("not saved: \(report.outcome)")
      return
    }
    let issues = report.issues(of: .referenceWithoutPath).map(\.message)
    #expect(issues.contains { $0.contains("'duplicate'") && $0.contains("left out") })
    #expect(issues.contains { $0.contains("'long'") && $0.contains("left out") })
    #expect(issues.contains { $0.contains("'byHand'") && $0.contains("'Nowhere'") })
    #expect(report.issues(of: .duplicatePath).count == 1)
    let archive = try RestorationArchive(decoding: bytes)
    let state = try #require(archive.record(at: "Referrer")).state
    #expect(state.keys == ["first", "value"])
    #expect(state["first"] == .reference("Same"))
    #expect(archive.rootIdentifierPaths == ["Referrer", "Same"])
  }

  @Test func makeArchiveReportsAnArchiveEncodedNotWritten() throws {
    let engine = makeEngine(store: InMemoryArchiveStore(), delegate: TestDelegate())
    let (archive, report) = engine.makeArchive(roots: [TestController("Root")])
    #expect(archive?.rootIdentifierPaths == ["Root"])
    guard case .encoded(let bytes) = report.outcome else {
      Issue.record("expected .encoded, got \(report.outcome)")
      return
    }
    #expect(bytes > 0)
    engine.delegate = nil
    let declined = engine.makeArchive(roots: [TestController("Root")])
    #expect(declined.archive == nil)
    #expect(declined.report.outcome == .notOptedIn)
  }

  /// What the public initializers make reads back equal; the format version is the writer's.
  @Test func archivesMadeInMemoryReadBackEqual() throws {
    #expect(
      try RestorationArchive(decoding: RestorationArchive().encoded()) == RestorationArchive())
    var archive = RestorationArchive(
      topLevel: KeyedValues([("app", .string("é")), ("pick", .reference("A/B"))]),
      records: [
        .init(
          identifierPath: "A/B", kind: .view, className: "V",
          state: KeyedValues([("x", .integer(1))])),
        .init(
          identifierPath: "A", kind: .viewController, className: "C", restorationClassName: "R",
          storyboard: StoryboardReference(name: "Main", identifier: nil), sensitiveKeys: ["s"]),
      ])
    let read = try RestorationArchive(decoding: archive.encoded())
    #expect(read == archive)
    #expect(read.version == .current)
    archive.topLevel[RestorationArchive.Key.majorVersion] = .integer(9)
    let error = #expect(throws: RestorationError.self) { try archive.encoded() }
    #expect(error?.code == .encodingFailed)
  }
}
