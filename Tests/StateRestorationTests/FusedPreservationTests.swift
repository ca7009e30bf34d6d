import Foundation
import StateRestoration
import TestSupport
import Testing

/// A preserve writes its archive straight from the objects' coders; these tests hold it to the
/// bytes of the public model's path, `makeArchive(roots:)` followed by `encoded()`.
@Suite struct FusedPreservationTests {
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

  /// Both paths' bytes, after checking they are equal and that the model's path reads back.
  @discardableResult
  private func expectSameBytes(
    _ engine: RestorationEngine,
    roots: [any StateRestoring],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [UInt8] {
    let archive = try #require(engine.makeArchive(roots: roots).archive)
    let modelBytes = try archive.encoded()
    let fused = try #require(engine.makeArchiveBytes(roots: roots).bytes)
    #expect(fused == modelBytes, sourceLocation: sourceLocation)
    #expect(try RestorationArchive(decoding: fused) == archive, sourceLocation: sourceLocation)
    return fused
  }

  /// A pass sizes its tables for the last pass's object count; a tree that grows or shrinks
  /// between preserves must still be archived exactly as a fresh engine archives it.
  @Test func passesSizedByTheLastPassArchiveGrowingAndShrinkingTrees() throws {
    func tree(_ count: Int) -> TestController {
      let root = TestController("Root")
      for index in 0..<count {
        let child = TestController("Child\(index)")
        child.state = ["index": index]
        root.addChild(child)
      }
      return root
    }
    let reused = engine(TestDelegate())
    for count in [3, 200, 5, 0, 50] {
      let root = tree(count)
      let bytes = try #require(reused.makeArchiveBytes(roots: [root]).bytes)
      let fresh = try #require(engine(TestDelegate()).makeArchiveBytes(roots: [root]).bytes)
      #expect(bytes == fresh, "\(count) children")
      #expect(try RestorationArchive(decoding: bytes).records.count == count + 1)
    }
  }

  @Test func talkDemoWithEveryValueTypeIsByteIdentical() throws {
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
    let bytes = try expectSameBytes(engine, roots: demo.roots)
    // What a preserve stores is the same archive.
    engine.preserveApplicationState(roots: demo.roots)
    #expect(store.contents[.archive] == bytes)
  }

  @Test func rewrittenRemovedAndSensitiveKeysAreByteIdentical() throws {
    let object = KeyChurner("Churner")
    let delegate = TestDelegate()
    delegate.willEncode = { coder in coder.encode(object, forKey: "churner") }
    let engine = engine(delegate)
    try expectSameBytes(engine, roots: [])
    let archive = try #require(engine.makeArchive(roots: []).archive)
    let record = try #require(archive.record(at: "Churner"))
    #expect(record.state.keys == ["kept", "rewritten", "late"])
    #expect(record.state["rewritten"] == .string("second"))
    #expect(record.sensitiveKeys == ["password", "pin"])
  }

  @Test func aCoderWithManyKeysKeepsOrderThroughRewritesAndRemovals() {
    // Past a dozen keys the coder finds keys through an index; removals rebuild it.
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

  @Test func recordsReorderedByDepthAreByteIdentical() throws {
    // The root's encode references a deep object outside the tree before the walk reaches the
    // tree's second level, so the walk's order is not the archive's.
    let root = TestController("Root")
    let child = TestController("Child")
    root.addChild(child)
    let parent = TestObject("Parent")
    let deep = TestObject("Deep", parent: TestObject("Middle", parent: parent))
    let delegate = TestDelegate()
    delegate.willEncode = { coder in
      coder.encode(deep, forKey: "deep")
      coder.encode(parent, forKey: "parent")
    }
    let engine = engine(delegate)
    try expectSameBytes(engine, roots: [root])
    let paths = try #require(engine.makeArchive(roots: [root]).archive).rootIdentifierPaths
    #expect(paths == ["Parent", "Root", "Root/:[0]:/Child", "Parent/Middle/Deep"])
  }

  @Test func aReferenceToAPathWithoutRecordFailsBothWays() throws {
    let delegate = TestDelegate()
    delegate.willEncode = { coder in coder.encodeValue(.reference("Nowhere"), forKey: "dangling") }
    let engine = engine(delegate)
    let archive = try #require(engine.makeArchive(roots: [TestController("Root")]).archive)
    #expect(throws: RestorationError.self) { try archive.encoded() }
    let (bytes, report) = engine.makeArchiveBytes(roots: [TestController("Root")])
    #expect(bytes == nil)
    guard case .failed(let error) = report.outcome else {
      Issue.record("expected a failed outcome, got \(report.outcome)")
      return
    }
    #expect(error.code == .encodingFailed)
  }

  @Test func aCoderUsedWhileAPathIsComputedIsRefusedNotCorrupted() throws {
    let keeper = CoderKeeper()
    let delegate = TestDelegate()
    let engine = engine(delegate)
    let (bytes, report) = engine.makeArchiveBytes(roots: [keeper, ReenteringNode(keeper)])
    let archive = try RestorationArchive(decoding: try #require(bytes))
    #expect(archive.rootIdentifierPaths == ["Keeper", "Reentering"])
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
    let bytes = try #require(engine.makeArchiveBytes(roots: []).bytes)
    let text = bytes.map { String(format: "%02x", $0) }.joined()
    #expect(text.contains("223fc00000"))  // 1.5 as a float32
    #expect(text.contains("233fb999999999999a"))  // 0.1 needs a float64
    let archive = try RestorationArchive(decoding: bytes)
    #expect(archive.topLevel["exact"] == .real(1.5))
    #expect(archive.topLevel["inexact"] == .real(0.1))
  }
}

/// Keeps the coder it is given.
private final class CoderKeeper: StateRestoring {
  let restorationIdentifier: String? = "Keeper"
  var kept: StateCoder?
  func encodeRestorableState(with coder: StateCoder) throws { kept = coder }
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
