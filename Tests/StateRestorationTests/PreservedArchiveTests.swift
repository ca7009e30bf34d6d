import Foundation
import StateRestoration
import TestSupport
import Testing

/// What a preserve archives: every value as written last, records parents first, and the
/// failures a preserve reports instead of writing a broken archive.
@Suite struct PreservedArchiveTests {
  /// An engine with a fixed clock, so two passes write the same timestamp.
  private func engine(
    _ delegate: TestDelegate,
    store: any ArchiveStore = InMemoryArchiveStore(),
    registry: RestorationRegistry = makeRegistry()
  ) -> RestorationEngine {
    let engine = makeEngine(store: store, delegate: delegate, registry: registry)
    engine.now = { Date(timeIntervalSinceReferenceDate: 700_000_000) }
    return engine
  }

  /// Every value type round-trips, and a preserve stores `makeArchive`'s archive.
  @Test func everyValueTypeRoundTripsAndAPreserveStoresTheArchive() throws {
    let demo = TalkDemo()
    demo.first.state = ["sliderValue": 89, "b": 2, "a": 1]
    demo.city.restorationStoryboard = StoryboardReference(name: "Main", identifier: "City")
    let delegate = TestDelegate()
    delegate.willEncode = { coder in
      coder.encode("3.1", forKey: "uiVersion")
      coder.encode(Data([1, 2, 3]), forKey: "blob")
      coder.encode(Date(timeIntervalSinceReferenceDate: 426_352_000), forKey: "when")
      coder.encode([1.5, -2.25, 0.1, .infinity, -0.0], forKey: "reals")
      coder.encode("naïve ☃", forKey: "unicode")
      coder.encode(UInt64.max, forKey: "huge")
      coder.encode(-7, forKey: "negative")
      coder.encode(["x": [1, 2], "y": [3]], forKey: "nested")
      coder.encode(demo.city, forKey: "city")
    }
    let store = InMemoryArchiveStore()
    let engine = engine(delegate, store: store)
    let archive = try #require(engine.makeArchive(roots: demo.roots).archive)
    let bytes = try archive.encoded()
    #expect(try RestorationArchive(decoding: bytes) == archive)
    engine.preserveApplicationState(roots: demo.roots)
    #expect(try RestorationArchive(decoding: try #require(store.contents[.archive])) == archive)
  }

  @Test func rewrittenRemovedAndSensitiveKeysAreArchivedAsLastWritten() throws {
    let object = KeyChurner("Churner")
    let delegate = TestDelegate()
    delegate.willEncode = { coder in coder.encode(object, forKey: "churner") }
    let engine = engine(delegate)
    let archive = try #require(engine.makeArchive(roots: []).archive)
    #expect(try RestorationArchive(decoding: archive.encoded()) == archive)
    let record = try #require(archive.record(at: "Churner"))
    #expect(record.state.keys == ["kept", "rewritten", "late"])
    #expect(record.state["rewritten"] == .string("second"))
    #expect(record.sensitiveKeys == ["password", "pin"])
  }

  /// Rewrites and removals keep one value per key, however many keys a coder holds.
  @Test func aHundredKeysRewriteAndRemoveAsAFewDo() {
    let coder = StateCoder()
    for index in 0..<100 { coder.encode(index, forKey: "key\(index)") }
    coder.encode("low", forKey: "key3")
    coder.encode("high", forKey: "key80")
    coder.removeValue(forKey: "key4")
    coder.removeValue(forKey: "key90")
    coder.encode(-4, forKey: "key4")
    coder.encode(-90, forKey: "key90")
    coder.encode("again", forKey: "key4")
    let values = coder.values
    #expect(values.keys.count == 100)
    #expect(Set(values.keys).count == 100)
    #expect(values.keys.suffix(2) == ["key4", "key90"])
    #expect(values["key3"] == .string("low"))
    #expect(values["key80"] == .string("high"))
    #expect(values["key4"] == .string("again"))
    #expect(values["key90"] == .integer(-90))
    #expect(coder.contains("key63") && coder.contains("key64") && coder.contains("key99"))

    let object = KeyChurner("Churner")
    let delegate = TestDelegate()
    delegate.willEncode = { coder in
      for index in 0..<70 { coder.encode(index, forKey: "key\(index)") }
      coder.encode(object, forKey: "churner")
    }
    let engine = makeEngine(store: InMemoryArchiveStore(), delegate: delegate)
    let archive = engine.makeArchive(roots: []).archive
    #expect(archive?.topLevel["key69"] == .integer(69))
    #expect(archive?.record(at: "Churner")?.state.keys == ["kept", "rewritten", "late"])
  }

  /// The archive holds each key's last write once, in the order keys were first written (again
  /// after a removal), however many keys and removals a coder sees.
  @Test func manyKeysAreArchivedAsLastWrittenAfterChurn() throws {
    let delegate = TestDelegate()
    delegate.willEncode = { coder in
      for index in 0..<20 { coder.encode(index, forKey: "key\(index)") }
      for round in 0..<20_000 {
        coder.encode(round, forKey: "scratch")
        coder.removeValue(forKey: "scratch")
      }
      coder.removeValue(forKey: "key5")
      coder.encode("ten", forKey: "key10")
      coder.encode(true, forKey: "key5")
    }
    let archive = try #require(engine(delegate).makeArchive(roots: []).archive)
    let appKeys = archive.topLevel.keys.filter { $0.hasPrefix("key") || $0 == "scratch" }
    #expect(appKeys == (0..<20).filter { $0 != 5 }.map { "key\($0)" } + ["key5"])
    #expect(archive.topLevel["key10"] == .string("ten"))
    #expect(archive.topLevel["key5"] == .bool(true))
  }

  /// Keys of one byte count, and of byte counts 64 apart, are still told apart and replaced.
  @Test func keysOfOneLengthAreReplacedNotRepeated() throws {
    let long = "k" + String(repeating: "x", count: 64)
    let delegate = TestDelegate()
    delegate.willEncode = { coder in
      for key in ["ka", "kb", "k", long] { coder.encode(key, forKey: key) }
      coder.encode(1, forKey: "kb")
      coder.encode(2, forKey: long)
      coder.encode(3, forKey: "k")
      coder.removeValue(forKey: "ka")
      coder.encode(4, forKey: "ka")
    }
    let archive = try #require(engine(delegate).makeArchive(roots: []).archive)
    let appKeys = archive.topLevel.keys.filter { $0.hasPrefix("k") }
    #expect(appKeys == ["kb", "k", long, "ka"])
    #expect(archive.topLevel["kb"] == .integer(1))
    #expect(archive.topLevel[long] == .integer(2))
    #expect(archive.topLevel["k"] == .integer(3))
    #expect(archive.topLevel["ka"] == .integer(4))
  }

  /// Keys that Swift calls equal are one key, however their bytes differ: a composed and a
  /// decomposed `é` once repeated a key in the file, which then could not be read.
  @Test(arguments: [0, 14, 70])
  func keysEqualInSwiftAreOneKey(writtenBefore: Int) throws {
    let delegate = TestDelegate()
    delegate.willEncode = { coder in
      for index in 0..<writtenBefore { coder.encode(index, forKey: "pad\(index)") }
      coder.encode(1, forKey: "cl\u{E9}")
      coder.encode(2, forKey: "cle\u{301}")
      coder.encode(3, forKey: "\u{212A}")
      coder.encode(4, forKey: "K")
    }
    let store = InMemoryArchiveStore()
    _ = engine(delegate, store: store).preserveApplicationState(roots: [])
    let bytes = try #require(try store.read(.archive, maxSize: .max))
    let archive = try RestorationArchive(decoding: bytes)
    #expect(archive.topLevel.keys.filter { $0 == "cl\u{E9}" || $0 == "K" }.count == 2)
    #expect(archive.topLevel["cl\u{E9}"] == .integer(2))
    #expect(archive.topLevel["K"] == .integer(4))
  }

  /// Past the first dozen keys, keys told apart by their last bytes, and keys that are not
  /// ASCII, are still replaced, never repeated.
  @Test func keysPastTheFirstDozenAreReplacedNotRepeated() throws {
    let keys = (0..<30).map { "item\($0)" } + ["clé", "cle\u{301}s", "b", "ba", "ab"]
    let delegate = TestDelegate()
    delegate.willEncode = { coder in
      for key in keys { coder.encode(key, forKey: key) }
      coder.encode(25, forKey: "item25")
      coder.encode(1, forKey: "clé")
      coder.encode(2, forKey: "ab")
      coder.removeValue(forKey: "item13")
      coder.encode(13, forKey: "item13")
      coder.encode(3, forKey: "cle\u{301}s")
    }
    let archive = try #require(engine(delegate).makeArchive(roots: []).archive)
    let appKeys = archive.topLevel.keys.filter { keys.contains($0) }
    #expect(appKeys == keys.filter { $0 != "item13" } + ["item13"])
    #expect(archive.topLevel["item25"] == .integer(25))
    #expect(archive.topLevel["clé"] == .integer(1))
    #expect(archive.topLevel["ab"] == .integer(2))
    #expect(archive.topLevel["item13"] == .integer(13))
    #expect(archive.topLevel["cle\u{301}s"] == .integer(3))
    #expect(archive.topLevel["item29"] == .string("item29"))
  }

  @Test func aCoderWithManyKeysKeepsOrderThroughRewritesAndRemovals() {
    let coder = StateCoder()
    for index in 0..<20 { coder.encode(index, forKey: "key\(index)") }
    coder.removeValue(forKey: "key5")
    coder.encode("ten", forKey: "key10")
    coder.encode(true, forKey: "key5")
    coder.removeValue(forKey: "missing")
    let keys = coder.values.keys
    #expect(keys.count == 20)
    #expect(keys.first == "key0")
    #expect(keys.last == "key5")
    #expect(!keys.dropLast().contains("key5"))
    #expect(coder.values["key10"] == .string("ten"))
    #expect(coder.values["key19"] == .integer(19))
    #expect(coder.contains("key5"))
    #expect(!coder.contains("missing"))
  }

  /// Records are archived parents first, even when the walk reaches a deep object early; a
  /// record moves only as far as it must, after its parent.
  @Test func recordsAreArchivedParentsFirst() throws {
    let (root, delegate) = treeWalkedOutOfDepthOrder()
    let engine = engine(delegate)
    let (made, report) = engine.makeArchive(roots: [root])
    let archive = try #require(made)
    let paths = ["Parent", "Parent/Middle/Deep", "Root", "Root/:[0]:/Child"]
    #expect(archive.rootIdentifierPaths == paths)
    #expect(report.identifierPaths == paths)
    // The references follow their records to their places.
    #expect(archive.topLevel["deep"] == .reference("Parent/Middle/Deep"))
    #expect(archive.topLevel["parent"] == .reference("Parent"))
  }

  /// A reference to a path that has no record, made by hand, leaves its key out and says so;
  /// the rest is saved.
  @Test func aReferenceToAPathWithoutRecordLeavesItsKeyOut() throws {
    let delegate = TestDelegate()
    delegate.willEncode = { coder in
      coder.encodeValue(.reference("Nowhere"), forKey: "dangling")
      coder.encodeValue(.array([.reference("Root"), .reference("Gone")]), forKey: "list")
      coder.encodeValue(.reference("Root"), forKey: "root")
    }
    let engine = engine(delegate)
    let report = engine.preserveApplicationState(roots: [TestController("Root")])
    guard case .saved = report.outcome else {
      Issue.record("expected the archive saved, got \(report.outcome)")
      return
    }
    let issues = report.issues(of: .referenceWithoutPath).map(\.message)
    #expect(issues.count == 2)
    #expect(issues.contains { $0.contains("'dangling'") && $0.contains("'Nowhere'") })
    #expect(issues.contains { $0.contains("'list'") && $0.contains("'Gone'") })
    let archive = try #require(engine.makeArchive(roots: [TestController("Root")]).archive)
    #expect(archive.topLevel["dangling"] == nil)
    #expect(archive.topLevel["list"] == nil)
    #expect(archive.topLevel["root"] == .reference("Root"))
    // Built by hand, such an archive cannot be written at all.
    var crafted = archive
    crafted.topLevel["dangling"] = .reference("Nowhere")
    #expect(throws: RestorationError.self) { try crafted.encoded() }
  }

  @Test func aCoderUsedWhileAPathIsComputedIsRefusedNotCorrupted() throws {
    let keeper = CoderKeeper()
    let delegate = TestDelegate()
    let engine = engine(delegate)
    // The holder's child joins the walk after the keeper's encode kept its coder.
    let (made, report) = engine.makeArchive(roots: [keeper, Holder(ReenteringNode(keeper))])
    let archive = try RestorationArchive(decoding: try #require(made).encoded())
    #expect(archive.rootIdentifierPaths == ["Keeper", "Holder", "Reentering"])
    #expect(
      report.issues(of: .referenceWithoutPath).contains {
        $0.message.contains("while an identifier path was being computed")
      })
  }

  @Test func realsAFloatHoldsTakeFourBytes() throws {
    let delegate = TestDelegate()
    delegate.willEncode = { coder in
      coder.encode(1.5, forKey: "exact")
      coder.encode(0.1, forKey: "inexact")
    }
    let engine = engine(delegate)
    let bytes = try #require(engine.makeArchive(roots: []).archive).encoded()
    let text = bytes.map { String(format: "%02x", $0) }.joined()
    #expect(text.contains("223fc00000"))  // 1.5 as a float32
    #expect(text.contains("233fb999999999999a"))  // 0.1 needs a float64
    let archive = try RestorationArchive(decoding: bytes)
    #expect(archive.topLevel["exact"] == .real(1.5))
    #expect(archive.topLevel["inexact"] == .real(0.1))
  }

  /// A tree whose walk is not in the archive's order: the top level references a deep object
  /// outside the tree before the walk reaches the tree's second level.
  private func treeWalkedOutOfDepthOrder() -> (root: TestController, delegate: TestDelegate) {
    let root = TestController("Root")
    root.addChild(TestController("Child"))
    let parent = TestObject("Parent")
    let deep = TestObject("Deep", parent: TestObject("Middle", parent: parent))
    let delegate = TestDelegate()
    delegate.willEncode = { coder in
      coder.encode(deep, forKey: "deep")
      coder.encode(parent, forKey: "parent")
    }
    return (root, delegate)
  }

}

/// Keeps the coder it is given.
private final class CoderKeeper: StateRestoring {
  let restorationIdentifier: String? = "Keeper"
  var kept: StateCoder?
  /// Values written before the coder is kept.
  var initial: [String: String] = [:]
  func encodeRestorableState(with coder: StateCoder) throws {
    for (key, value) in initial { coder.encode(value, forKey: key) }
    kept = coder
  }
}

/// A node that holds one child.
private final class Holder: RestorationNode {
  let restorationIdentifier: String? = "Holder"
  let child: any StateRestoring
  init(_ child: any StateRestoring) { self.child = child }
  var restorationChildren: [any StateRestoring] { [child] }
}

/// A node whose container getter encodes into a kept coder: it reenters the pass while the
/// pass computes its path.
private final class ReenteringNode: RestorationNode {
  let restorationIdentifier: String? = "Reentering"
  let keeper: CoderKeeper
  init(_ keeper: CoderKeeper) { self.keeper = keeper }
  var restorationContainer: RestorationParentLink? {
    keeper.kept?.encode(keeper, forKey: "reentered")
    return nil
  }
}

/// An object that rewrites, removes and withholds keys while encoding.
private final class KeyChurner: StateRestoring {
  let restorationIdentifier: String?
  init(_ identifier: String) { restorationIdentifier = identifier }

  func encodeRestorableState(with coder: StateCoder) throws {
    coder.encode(1, forKey: "kept")
    coder.encode("first", forKey: "rewritten")
    coder.encode(2, forKey: "removed")
    coder.encode("secret", forKey: "password", sensitive: true)
    coder.encode("second", forKey: "rewritten")
    coder.removeValue(forKey: "removed")
    coder.encode(1234, forKey: "pin", sensitive: true)
    coder.encode(true, forKey: "late")
  }
}

/// between keys, and sensitive.
private final class IntegerArrays: StateRestoring {
  let restorationIdentifier: String?
  let seed: Int

  init(_ identifier: String, seed: Int) {
    restorationIdentifier = identifier
    self.seed = seed
  }

  func encodeRestorableState(with coder: StateCoder) throws {
    let selection = [seed, -1, seed]
    coder.encode(selection, forKey: "selection")
    coder.encode([Int](), forKey: "empty")
    coder.encode([Int.min, 0, Int.max], forKey: "extremes")
    coder.encode("a string first", forKey: "replaced")
    coder.encode([7], forKey: "replaced")
    coder.encode(selection, forKey: "shared")
    coder.encode([1, 2, 3], forKey: "secret", sensitive: true)
  }

  func decodeRestorableState(with coder: StateDecoder) throws {}
}

/// children as an array of its own class and as an array of existentials.
private final class Sibling: RestorationNode {
  let restorationIdentifier: String?
  weak var parent: Sibling?
  var children: [Sibling] = []

  init(_ identifier: String) { restorationIdentifier = identifier }

  func add(_ child: Sibling) {
    child.parent = self
    children.append(child)
  }

  var restorationKind: RestorationKind { .viewController }

  var restorationContainer: RestorationParentLink? {
    parent.map { RestorationParentLink(parent: $0, index: $0.children.firstIndex { $0 === self }) }
  }

  var restorationChildren: [any StateRestoring] { children }

  func encodeRestorableState(with coder: StateCoder) throws {
    if !children.isEmpty {
      coder.encode(children, forKey: "members")
      coder.encode(children as [any StateRestoring], forKey: "everyone")
    }
    guard let parent, let index = parent.children.firstIndex(where: { $0 === self }) else {
      return
    }
    coder.encode(parent, forKey: "parent")
    if index > 0 { coder.encode(parent.children[index - 1], forKey: "previous") }
    if index + 1 < parent.children.count {
      coder.encode(parent.children[index + 1], forKey: "next")
    }
  }

  func decodeRestorableState(with coder: StateDecoder) throws {}
}
