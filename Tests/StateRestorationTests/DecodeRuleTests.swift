import Foundation
import StateRestoration
import TestSupport
import Testing

/// A restorable object that is also `Codable`: a coder must store a reference to it, never a
/// copy of its value, whichever `encode` overload the caller's static type picks.
private final class Bookmark: StateRestoring, Codable {
  let restorationIdentifier: String?
  var title: String

  init(_ identifier: String, title: String) {
    (restorationIdentifier, self.title) = (identifier, title)
  }

  func encodeRestorableState(with coder: StateCoder) throws {
    coder.encode(title, forKey: "title")
  }
  func decodeRestorableState(with coder: StateDecoder) throws {
    title = coder.decode(String.self, forKey: "title") ?? ""
  }
}

private struct Point: Codable, Equatable {
  var x: Int
  var y: Int
}

/// A root that writes what a test asks and reads it back, every decode overload on every key.
private final class Reader: RestorationNode {
  let restorationIdentifier: String? = "Reader"
  var encode: (StateCoder) throws -> Void = { _ in }
  var decode: (StateDecoder) throws -> Void = { _ in }

  func encodeRestorableState(with coder: StateCoder) throws { try encode(coder) }
  func decodeRestorableState(with coder: StateDecoder) throws { try decode(coder) }
}

/// Reads through a generic `Decodable` parameter, as generic app code does: it must get what
/// the concrete overload gives.
private func genericDecode<T: Decodable>(_ type: T.Type, _ coder: StateDecoder, _ key: String)
  -> T?
{
  coder.decode(type, forKey: key)
}

@Suite struct DecodeRuleTests {
  /// Saves with one reader and restores into a fresh one; returns the report and the log.
  private func restore(
    encode: @escaping (StateCoder) throws -> Void,
    decode: @escaping (StateDecoder) throws -> Void,
    objects: [any StateRestoring] = []
  ) -> (report: RestorationReport, log: LogCapture) {
    let store = InMemoryArchiveStore()
    let saving = Reader()
    saving.encode = encode
    let registry = makeRegistry()
    for object in objects { registry.registerObject(object) }
    let log = LogCapture()
    let saved = makeEngine(
      store: store, delegate: TestDelegate(), registry: registry, logger: log.makeLogger()
    ).preserveApplicationState(roots: [saving])
    #expect(saved.issues == [], "\(saved)")
    let restoring = Reader()
    restoring.decode = decode
    let report = makeEngine(
      store: store, delegate: TestDelegate(), registry: registry, logger: log.makeLogger()
    ).restoreApplicationState(roots: [restoring])
    return (report, log)
  }

  @Test func aMissingKeyIsNilFromEveryDecodeAndThrownFromDecodeRequired() {
    var results: [String: Bool] = [:]
    let (report, _) = restore(
      encode: { _ in },
      decode: { coder in
        results["Int"] = coder.decode(Int.self, forKey: "absent") == nil
        results["generic Int"] = genericDecode(Int.self, coder, "absent") == nil
        results["Codable"] = coder.decode(Point.self, forKey: "absent") == nil
        results["object"] = coder.decodeObject(of: Reader.self, forKey: "absent") == nil
        for attempt in [
          { _ = try coder.decodeRequired(Int.self, forKey: "absent") },
          { _ = try coder.decodeRequired(Point.self, forKey: "absent") },
        ] as [() throws -> Void] {
          do {
            try attempt()
            results["required"] = false
          } catch let error as RestorationError {
            results["required", default: true] =
              results["required", default: true] && error.code == .keyNotFound
          } catch {
            results["required"] = false
          }
        }
      })
    #expect(report.restoredEverything, "\(report)")
    #expect(results.count == 5 && results.values.allSatisfy { $0 }, "\(results)")
    #expect(report.warnings == [])
  }

  @Test func aWrongTypeIsNilFromEveryDecodeWithAWarningAndThrownFromDecodeRequired() throws {
    var read: [String: String] = [:]
    var thrown: [RestorationError] = []
    let (report, log) = restore(
      encode: { coder in
        coder.encode("seven", forKey: "number")
        coder.encode(7, forKey: "point")
      },
      decode: { coder in
        read["Int"] = "\(String(describing: coder.decode(Int.self, forKey: "number")))"
        read["generic Int"] = "\(String(describing: genericDecode(Int.self, coder, "number")))"
        read["Codable"] = "\(String(describing: coder.decode(Point.self, forKey: "point")))"
        read["generic Codable"] = "\(String(describing: genericDecode(Point.self, coder, "point")))"
        do { _ = try coder.decodeRequired(Int.self, forKey: "number") } catch let error
          as RestorationError
        {
          thrown.append(error)
        }
        do { _ = try coder.decodeRequired(Point.self, forKey: "point") } catch let error
          as RestorationError
        {
          thrown.append(error)
        }
      })
    #expect(
      read == ["Int": "nil", "generic Int": "nil", "Codable": "nil", "generic Codable": "nil"])
    #expect(thrown.map(\.code) == [.typeMismatch, .typeMismatch])
    #expect(
      thrown.first?.description == "object 'Reader', key 'number': expected Int, found String")
    // Each read as nil is a warning, in the report and in the log; the object still came back.
    #expect(report.restoredEverything, "\(report)")
    #expect(report.warnings.count == 4, "\(report.warnings)")
    #expect(
      report.warnings.first
        == "object 'Reader', key 'number': expected Int, found String; read as nil")
    let readAsNil = report.warnings.filter { (warning: String) in warning.hasSuffix("; read as nil")
    }
    #expect(readAsNil == report.warnings)
    #expect(log.warnings == report.warnings)
  }

  @Test func anObjectOfAnotherClassIsNilWithAWarning() {
    let other = TestObject("Other")
    var found: Reader?
    var foundAny: (any StateRestoring)?
    let (report, _) = restore(
      encode: { coder in coder.encode(other, forKey: "other") },
      decode: { coder in
        found = coder.decodeObject(of: Reader.self, forKey: "other")
        foundAny = coder.decodeObject(forKey: "other")
      },
      objects: [other])
    #expect(found == nil)
    #expect(foundAny === other)
    #expect(
      report.warnings == [
        "object 'Reader', key 'other': expected Reader, found TestObject; read as nil"
      ])
  }

  @Test func aRestorableCodableObjectIsAlwaysEncodedAsAReference() throws {
    let bookmark = Bookmark("Bookmark", title: "Dresden")
    let coder = StateCoder()
    // The object picks the `Encodable` overload by its static type, the array the references'.
    try coder.encode(bookmark, forKey: "one")
    coder.encode([bookmark], forKey: "many")
    func encodeGenerically<T: Encodable>(_ value: T, forKey key: String) throws {
      try coder.encode(value, forKey: key)
    }
    try encodeGenerically(bookmark, forKey: "generic")
    try encodeGenerically([bookmark], forKey: "generic many")
    #expect(coder.values["one"] == .reference("Bookmark"))
    #expect(coder.values["generic"] == .reference("Bookmark"))
    #expect(coder.values["many"] == .array([.reference("Bookmark")]))
    #expect(coder.values["generic many"] == .array([.reference("Bookmark")]))
  }

  @Test func aRestorableCodableObjectComesBackAsTheRestoredObject() {
    let saved = Bookmark("Bookmark", title: "Dresden")
    let restored = Bookmark("Bookmark", title: "")
    var decoded: Bookmark?
    var generic: Bookmark?
    var required: Bookmark?
    let store = InMemoryArchiveStore()
    let registry = makeRegistry()
    registry.registerObject(saved)
    let saving = Reader()
    saving.encode = { coder in try coder.encode(saved, forKey: "bookmark") }
    makeEngine(store: store, delegate: TestDelegate(), registry: registry)
      .preserveApplicationState(roots: [saving])
    // The archive holds the bookmark once, as a record of its own, and the reader's reference.
    let archive = try? RestorationArchive(decoding: store.contents[.archive] ?? [])
    #expect(Set(archive?.records.map(\.identifierPath) ?? []) == ["Reader", "Bookmark"])

    let next = makeRegistry()
    next.registerObject(restored)
    let reading = Reader()
    reading.decode = { coder in
      decoded = coder.decode(Bookmark.self, forKey: "bookmark")
      generic = genericDecode(Bookmark.self, coder, "bookmark")
      required = try coder.decodeRequired(Bookmark.self, forKey: "bookmark")
    }
    let report = makeEngine(store: store, delegate: TestDelegate(), registry: next)
      .restoreApplicationState(roots: [reading])
    #expect(report.restoredEverything, "\(report)")
    #expect(decoded === restored && generic === restored && required === restored)
    #expect(restored.title == "Dresden")
    #expect(report.warnings == [])
  }
}
