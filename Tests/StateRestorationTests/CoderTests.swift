import Foundation
import StateRestoration
import Testing

private struct Pet: Codable, Equatable {
  enum Kind: String, Codable { case dog, cat }
  var id: Int
  var name: String
  var kind: Kind
  var nicknames: [String]
  var weight: Double?
  var adopted: Date
  var photo: URL?
  var tags: [String: Int]
}

@Suite struct CoderTests {
  /// Encodes with `encode`, round-trips through the binary archive, and returns the decoder.
  private func roundTrip(_ encode: (StateCoder) throws -> Void) throws -> StateDecoder {
    let coder = StateCoder()
    try encode(coder)
    var archive = RestorationArchive()
    archive.records = [
      .init(identifierPath: "Object", kind: .object, className: "Object", state: coder.values)
    ]
    let decoded = try RestorationArchive(decoding: try archive.encoded())
    return StateDecoder(values: decoded.records[0].state, identifierPath: "Object")
  }

  @Test func builtInTypesRoundTripThroughTheArchive() throws {
    let date = Date(timeIntervalSinceReferenceDate: 426_352_000.25)
    let url = try #require(URL(string: "https://example.com/pages/a.html?x=1#top"))
    let decoder = try roundTrip { coder in
      coder.encode(true, forKey: "bool")
      coder.encode(-42, forKey: "int")
      coder.encode(Int8(-8), forKey: "int8")
      coder.encode(UInt16(65_000), forKey: "uint16")
      coder.encode(Int64.min, forKey: "int64min")
      coder.encode(UInt64.max, forKey: "uint64max")
      coder.encode(0.8926057, forKey: "double")
      coder.encode(Float(0.5), forKey: "float")
      coder.encode("Zürich 東京 👋", forKey: "string")
      coder.encode(Data([0, 1, 2, 255]), forKey: "data")
      coder.encode(date, forKey: "date")
      coder.encode(url, forKey: "url")
      coder.encode([1, 2, 3], forKey: "ints")
      coder.encode(["a": "x", "b": "y"], forKey: "strings")
      coder.encode([["nested": [1.5]]], forKey: "nested")
    }
    #expect(decoder.decode(Bool.self, forKey: "bool") == true)
    #expect(decoder.decode(Int.self, forKey: "int") == -42)
    #expect(decoder.decode(Int8.self, forKey: "int8") == -8)
    #expect(decoder.decode(UInt16.self, forKey: "uint16") == 65_000)
    #expect(decoder.decode(Int64.self, forKey: "int64min") == Int64.min)
    #expect(decoder.decode(UInt64.self, forKey: "uint64max") == UInt64.max)
    #expect(decoder.decode(Double.self, forKey: "double") == 0.8926057)
    #expect(decoder.decode(Float.self, forKey: "float") == 0.5)
    #expect(decoder.decode(String.self, forKey: "string") == "Zürich 東京 👋")
    #expect(decoder.decode(Data.self, forKey: "data") == Data([0, 1, 2, 255]))
    #expect(decoder.decode(Date.self, forKey: "date") == date)
    #expect(decoder.decode(URL.self, forKey: "url") == url)
    #expect(decoder.decode([Int].self, forKey: "ints") == [1, 2, 3])
    #expect(decoder.decode([String: String].self, forKey: "strings") == ["a": "x", "b": "y"])
    #expect(decoder.decode([[String: [Double]]].self, forKey: "nested") == [["nested": [1.5]]])
    #expect(decoder.allKeys.first == "bool")
  }

  @Test func codableValuesRoundTrip() throws {
    let pet = Pet(
      id: 7,
      name: "Rex",
      kind: .dog,
      nicknames: ["R", "Rexy"],
      weight: nil,
      adopted: Date(timeIntervalSinceReferenceDate: 1_000),
      photo: URL(string: "file:///pets/rex.png"),
      tags: ["good": 1]
    )
    let decoder = try roundTrip { coder in
      try coder.encode(pet, forKey: "pet")
      try coder.encode([pet, pet], forKey: "pets")
      try coder.encode([Pet.Kind.cat, .dog], forKey: "kinds")
      try coder.encode([1, nil, 3] as [Int?], forKey: "optionals")
    }
    #expect(decoder.decode(Pet.self, forKey: "pet") == pet)
    #expect(decoder.decode([Pet].self, forKey: "pets") == [pet, pet])
    #expect(decoder.decode([Pet.Kind].self, forKey: "kinds") == [.cat, .dog])
    #expect(decoder.decode([Int?].self, forKey: "optionals") == [1, nil, 3])
    #expect(decoder.decode(Pet.self, forKey: "absent") == nil)
  }

  @Test func wrongTypesReadAsNilOrThrowFromDecodeRequiredAndNeverTrap() throws {
    let decoder = try roundTrip { coder in
      coder.encode("not a number", forKey: "string")
      coder.encode(300, forKey: "big")
      coder.encode(-1, forKey: "negative")
      coder.encode([1, 2], forKey: "ints")
      coder.encode(["x": 1], forKey: "dictionary")
    }
    #expect(decoder.decode(Int.self, forKey: "string") == nil)
    #expect(decoder.decode(Int8.self, forKey: "big") == nil)
    #expect(decoder.decode(UInt.self, forKey: "negative") == nil)
    #expect(decoder.decode([String].self, forKey: "ints") == nil)
    #expect(decoder.decode(Bool.self, forKey: "absent") == nil)
    #expect(decoder.decode(URL.self, forKey: "ints") == nil)

    #expect(decoder.decode(Pet.self, forKey: "dictionary") == nil)
    let mismatch = #expect(throws: RestorationError.self) {
      try decoder.decodeRequired(Pet.self, forKey: "dictionary")
    }
    #expect(mismatch?.code == .typeMismatch)
    #expect(mismatch?.key == "dictionary")
    #expect(mismatch?.identifierPath == "Object")

    let missing = #expect(throws: RestorationError.self) {
      try decoder.decodeRequired(Int.self, forKey: "absent")
    }
    #expect(missing?.code == .keyNotFound)
    let wrong = #expect(throws: RestorationError.self) {
      try decoder.decodeRequired(Int.self, forKey: "string")
    }
    #expect(wrong?.code == .typeMismatch)
    #expect(wrong?.description == "object 'Object', key 'string': expected Int, found String")
    #expect(try decoder.decodeRequired(Int.self, forKey: "big") == 300)
  }

  @Test func anArrayOfOneClassIsArchivedAsTheSameArrayOfReferencesAsAnArrayOfExistentials() {
    final class Leaf: RestorationNode {
      let restorationIdentifier: String?
      let restorationContainer: RestorationParentLink?
      init(_ identifier: String?, in parent: any StateRestoring, at index: Int) {
        restorationIdentifier = identifier
        restorationContainer = RestorationParentLink(parent: parent, index: index)
      }
      var restorationChildren: [any StateRestoring] { [] }
      func encodeRestorableState(with coder: StateCoder) throws {}
    }
    final class Holder: StateRestoring {
      let restorationIdentifier: String?
      var leaves: [Leaf] = []
      let asExistentials: Bool
      init(_ identifier: String, asExistentials: Bool) {
        restorationIdentifier = identifier
        self.asExistentials = asExistentials
      }
      func encodeRestorableState(with coder: StateCoder) throws {
        if asExistentials {
          coder.encode(leaves as [any StateRestoring], forKey: "leaves")
        } else {
          coder.encode(leaves, forKey: "leaves")
        }
      }
    }
    var archives: [RestorationArchive] = []
    for asExistentials in [false, true] {
      let holder = Holder("Holder", asExistentials: asExistentials)
      holder.leaves = [
        Leaf("A", in: holder, at: 0), Leaf(nil, in: holder, at: 1), Leaf("C", in: holder, at: 2),
      ]
      let engine = makeEngine(store: InMemoryArchiveStore(), delegate: TestDelegate())
      let (archive, report) = engine.makeArchive(roots: [holder])
      // The leaves are not the holder's tree children: only the references pull them in, and
      // the one without an identifier is left out with an issue.
      #expect(report.identifierPaths == ["Holder", "Holder/:[0]:/A", "Holder/:[2]:/C"])
      #expect(report.issues.map(\.kind) == [.referenceWithoutPath])
      #expect(
        archive?.record(at: "Holder")?.state["leaves"]
          == .array([.reference("Holder/:[0]:/A"), .reference("Holder/:[2]:/C")]))
      if let archive { archives.append(archive) }
    }
    #expect(archives.count == 2 && archives[0].records == archives[1].records)
  }

  @Test func containsReportsWrittenKeysAndLaterWritesReplace() {
    let coder = StateCoder()
    #expect(!coder.contains("a"))
    coder.encode(1, forKey: "a")
    coder.encode(2, forKey: "a")
    coder.encode(3, forKey: "b")
    #expect(coder.contains("a"))
    #expect(coder.values.keys == ["a", "b"])
    #expect(coder.values["a"] == .integer(2))
    coder.removeValue(forKey: "a")
    #expect(!coder.contains("a"))
    let decoder = StateDecoder(values: coder.values)
    #expect(decoder.contains("b"))
    #expect(!decoder.contains("a"))
  }

  @Test func manyKeysStayLinear() {
    // A key written again replaces its value and keeps its place.
    let coder = StateCoder()
    for index in 0..<5_000 { coder.encode(index, forKey: "key\(index)") }
    coder.encode(-1, forKey: "key2500")
    let decoder = StateDecoder(values: coder.values)
    #expect(decoder.allKeys.count == 5_000)
    #expect(decoder.decode(Int.self, forKey: "key4999") == 4_999)
    #expect(decoder.decode(Int.self, forKey: "key2500") == -1)
  }

  @Test func failingCodableValueThrowsAndLeavesTheKey() {
    struct Failing: Encodable {
      func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "nope"))
      }
    }
    let coder = StateCoder()
    coder.encode(1, forKey: "kept")
    let error = #expect(throws: RestorationError.self) {
      try coder.encode(Failing(), forKey: "bad")
    }
    #expect(error?.code == .encodingFailed)
    #expect(error?.key == "bad")
    #expect(!coder.contains("bad"))
    #expect(coder.contains("kept"))
  }

  @Test func sensitiveKeysAreNamedButNeverStored() throws {
    let root = TestController("Login")
    final class Login: TestController {
      override func encodeRestorableState(with coder: StateCoder) throws {
        coder.encode("alice", forKey: "user")
        coder.encode("hunter2", forKey: "password", sensitive: true)
      }
    }
    let login = Login("Form")
    root.addChild(login)
    let store = InMemoryArchiveStore()
    makeEngine(store: store, delegate: TestDelegate()).preserveApplicationState(roots: [root])
    let bytes = try #require(store.contents[.archive])
    #expect(!String(decoding: bytes, as: UTF8.self).contains("hunter2"))
    let archive = try RestorationArchive(decoding: bytes)
    let record = try #require(archive.record(at: "Login/:[0]:/Form"))
    #expect(record.sensitiveKeys == ["password"])
    #expect(record.state["password"] == nil)
    #expect(record.state["user"] == .string("alice"))
  }

  /// Each object's coder starts empty, although the pass reuses one that nothing holds.
  @Test func anObjectsCoderHoldsNothingOfTheObjectBefore() throws {
    final class Form: TestController {
      override func encodeRestorableState(with coder: StateCoder) throws {
        #expect(coder.values.isEmpty && coder.sensitiveKeys.isEmpty)
        #expect(coder.identifierPath?.hasSuffix("/\(restorationIdentifier ?? "")") == true)
        if restorationIdentifier == "A" {
          coder.encode("a", forKey: "only-a")
          coder.encode("secret", forKey: "password", sensitive: true)
        } else {
          coder.encode("b", forKey: "only-b")
        }
      }
    }
    let root = TestController("Root")
    root.addChild(Form("A"))
    root.addChild(Form("B"))
    let store = InMemoryArchiveStore()
    let report = makeEngine(store: store, delegate: TestDelegate()).preserveApplicationState(
      roots: [root])
    #expect(report.issues.isEmpty)
    let archive = try RestorationArchive(decoding: try #require(store.contents[.archive]))
    let b = try #require(archive.record(at: "Root/:[1]:/B"))
    #expect(b.state.keys == ["only-b"])
    #expect(b.sensitiveKeys.isEmpty)
    #expect(archive.record(at: "Root/:[0]:/A")?.sensitiveKeys == ["password"])
  }

  @Test func sensitiveKeysComeBackAbsent() throws {
    final class Login: TestController {
      var restoredPassword: String?
      var sawPasswordKey = false
      var restoredUser: String?
      override func encodeRestorableState(with coder: StateCoder) throws {
        coder.encode("alice", forKey: "user")
        coder.encode("hunter2", forKey: "password", sensitive: true)
      }
      override func decodeRestorableState(with coder: StateDecoder) throws {
        sawPasswordKey = coder.contains("password")
        restoredPassword = coder.decode(String.self, forKey: "password")
        restoredUser = coder.decode(String.self, forKey: "user")
      }
    }
    let store = InMemoryArchiveStore()
    let saved = TestController("Login")
    saved.addChild(Login("Form"))
    makeEngine(store: store, delegate: TestDelegate()).preserveApplicationState(roots: [saved])

    let launched = TestController("Login")
    let form = Login("Form")
    launched.addChild(form)
    let report = makeEngine(store: store, delegate: TestDelegate())
      .restoreApplicationState(roots: [launched])
    #expect(report.outcome == .restored)
    #expect(form.restoredUser == "alice")
    #expect(!form.sawPasswordKey)
    #expect(form.restoredPassword == nil)
  }
}
