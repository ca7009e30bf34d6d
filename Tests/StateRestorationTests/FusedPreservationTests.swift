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
    registry: RestorationRegistry = makeRegistry(),
    concurrentWriteThreshold: Int? = nil
  ) -> RestorationEngine {
    let engine = makeEngine(store: store, delegate: delegate, registry: registry)
    engine.now = { Date(timeIntervalSinceReferenceDate: 700_000_000) }
    engine.concurrentWriteThreshold = concurrentWriteThreshold
    if concurrentWriteThreshold != nil { engine.offloadsToBackgroundQueues = true }
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

  /// A process's first preserve sizes its tables for the archive its restore read; a count of
  /// the engine's own preserves wins over it, and the bytes are a fresh engine's either way.
  @Test func aRestoredArchiveSizesTheFirstPreserve() throws {
    let store = InMemoryArchiveStore()
    let preserver = engine(TestDelegate(), store: store)
    #expect(preserver.expectedPreservedObjectCount == 0)
    preserver.preserveApplicationState(roots: [wideTree(50)])
    #expect(preserver.expectedPreservedObjectCount == 51)
    let archived = try #require(store.contents[.archive])

    // An engine that has preserved keeps its own count through a restore of another size.
    let preservedFirst = engine(TestDelegate(), store: store)
    _ = preservedFirst.makeArchiveBytes(roots: [wideTree(20)])
    #expect(preservedFirst.expectedPreservedObjectCount == 21)
    #expect(preservedFirst.restoreApplicationState(roots: [wideTree(50)]).outcome == .restored)
    #expect(preservedFirst.expectedPreservedObjectCount == 21)

    store.contents[.archive] = archived
    let restorer = engine(TestDelegate(), store: store)
    #expect(restorer.restoreApplicationState(roots: [wideTree(50)]).outcome == .restored)
    #expect(restorer.expectedPreservedObjectCount == 51)
    // One tree for both engines: its values' dictionaries list their keys in an order of their
    // own.
    let small = wideTree(10)
    let bytes = try #require(restorer.makeArchiveBytes(roots: [small]).bytes)
    #expect(restorer.expectedPreservedObjectCount == 11)
    #expect(bytes == (try #require(engine(TestDelegate()).makeArchiveBytes(roots: [small]).bytes)))
  }

  /// A tree of `count` children under one root, each with a few values.
  private func wideTree(_ count: Int) -> TestController {
    let root = TestController("Root")
    for index in 0..<count {
      let child = TestController("Child\(index)")
      child.state = ["index": index, "double": index * 2, "even": index % 2]
      root.addChild(child)
    }
    return root
  }

  /// Records added on a background queue while the walk goes on give the sequential bytes:
  /// from the first record, from the second, and in many batches.
  @Test(arguments: [1, 2, 300])
  func recordsWrittenConcurrentlyAreByteIdentical(threshold: Int) throws {
    let demo = TalkDemo()
    demo.first.state = ["sliderValue": 89, "b": 2, "a": 1]
    demo.city.restorationStoryboard = StoryboardReference(name: "Main", identifier: "City")
    let tree = wideTree(1_000)
    let churner = KeyChurner("Churner")
    let delegate = TestDelegate()
    delegate.willEncode = { coder in
      coder.encode(churner, forKey: "churner")
      coder.encode(Data([1, 2, 3]), forKey: "blob")
      coder.encode(["x": [1, 2], "y": [3]], forKey: "nested")
    }
    let store = InMemoryArchiveStore()
    let engine = engine(delegate, store: store, concurrentWriteThreshold: threshold)
    let roots: [any StateRestoring] = demo.roots + [tree]
    let bytes = try expectSameBytes(engine, roots: roots)
    #expect(engine.lastArchiveWrittenConcurrently)
    let sequential = self.engine(delegate, concurrentWriteThreshold: nil)
    #expect(try #require(sequential.makeArchiveBytes(roots: roots).bytes) == bytes)
    #expect(!sequential.lastArchiveWrittenConcurrently)
    // What a preserve stores is the same archive, and it restores.
    engine.preserveApplicationState(roots: roots)
    #expect(store.contents[.archive] == bytes)
    #expect(engine.lastArchiveWrittenConcurrently)
    let archive = try RestorationArchive(decoding: bytes)
    #expect(archive.record(at: "Root/:[999]:/Child999")?.state["double"] == .integer(1_998))
  }

  @Test func noBackgroundQueuesWhenTheSettingsSaySo() throws {
    let engine = engine(TestDelegate(), concurrentWriteThreshold: 1)
    engine.settings.usesBackgroundQueues = false
    let root = wideTree(300)
    let bytes = try expectSameBytes(engine, roots: [root])
    #expect(!engine.lastArchiveWrittenConcurrently)
    engine.settings.usesBackgroundQueues = true
    #expect(try #require(engine.makeArchiveBytes(roots: [root]).bytes) == bytes)
    #expect(engine.lastArchiveWrittenConcurrently)
  }

  /// A preserve of an archive large enough to checksum on two threads writes the bytes of one
  /// that checksums on one, and they read back.
  @Test func aLargeArchiveChecksummedInTwoHalvesIsByteIdentical() throws {
    let root = wideTree(4_000)
    let concurrent = engine(TestDelegate(), concurrentWriteThreshold: 512)
    concurrent.offloadsToBackgroundQueues = true
    let bytes = try expectSameBytes(concurrent, roots: [root])
    #expect(bytes.count >= RestorationArchive.concurrentChecksumThreshold + 1_000)
    let sequential = engine(TestDelegate())
    sequential.settings.usesBackgroundQueues = false
    #expect(try #require(sequential.makeArchiveBytes(roots: [root]).bytes) == bytes)
    #expect(try RestorationArchive(decoding: bytes).records.count == 4_001)
  }

  /// A coder changed after its values went to the concurrent writer is archived with the change.
  ///
  /// The app keeps the coder and changes it from a later object's encode; the archive is then
  /// written from the coders after the walk. Each kind of change on its own.
  /// References resolved as the background queue adds the records they name give the bytes of
  /// references resolved after the walk: to the first record, to records added before the
  /// referring one and after it, in the same batch and in others.
  @Test(arguments: [1, 2, 7, 300])
  func referencesResolvedAsRecordsAreAddedAreByteIdentical(threshold: Int) throws {
    let root = Sibling("Root")
    for index in 0..<300 { root.add(Sibling("Item\(index)")) }
    let engine = engine(TestDelegate(), concurrentWriteThreshold: threshold)
    let bytes = try expectSameBytes(engine, roots: [root])
    #expect(engine.lastArchiveWrittenConcurrently)
    let archive = try RestorationArchive(decoding: bytes)
    let item = try #require(archive.record(at: "Root/:[150]:/Item150"))
    #expect(item.state["parent"] == .reference("Root"))
    #expect(item.state["previous"] == .reference("Root/:[149]:/Item149"))
    #expect(item.state["next"] == .reference("Root/:[151]:/Item151"))
  }

  /// The background writer starts by the walk's work, its records and the references their
  /// coders encoded, not by records alone: a container whose encode references a thousand
  /// descendants has done a thousand records' worth of work before they are archived.
  @Test func referencesCountTowardsStartingTheBackgroundWriter() throws {
    let root = Sibling("Root")
    for index in 0..<100 { root.add(Sibling("Item\(index)")) }
    // 101 records, and 498 references: the root's two arrays of 100, and each item's parent
    // and neighbours.
    let engine = engine(TestDelegate(), concurrentWriteThreshold: 400)
    try expectSameBytes(engine, roots: [root])
    #expect(engine.lastArchiveWrittenConcurrently)
    // 300 records without references stay below it.
    let unreferenced = self.engine(TestDelegate(), concurrentWriteThreshold: 400)
    try expectSameBytes(unreferenced, roots: (0..<300).map { Sibling("Loner\($0)") })
    #expect(!unreferenced.lastArchiveWrittenConcurrently)
  }

  /// References filed under the hashes the walk carries give the sequential writer's bytes.
  ///
  /// The walk hands each reference to the queue with its path's hash, computed as it built the
  /// path. Paths of every kind of character, in single references and in both kinds of arrays
  /// of references, must give the bytes of the sequential writer, which hashes every path.
  @Test func referencesFiledByTheWalksHashesAreByteIdentical() throws {
    let root = Sibling("Racine é")
    for index in 0..<40 {
      root.add(Sibling(index.isMultiple(of: 3) ? "Élément \(index)" : "项目\(index)"))
    }
    root.children[5].add(Sibling("👩‍👩‍👧 /\u{301}"))
    let engine = engine(TestDelegate(), concurrentWriteThreshold: 1)
    let bytes = try expectSameBytes(engine, roots: [root])
    #expect(engine.lastArchiveWrittenConcurrently)
    let archive = try RestorationArchive(decoding: bytes)
    let record = try #require(archive.record(at: "Racine é"))
    let paths = archive.records.map(\.identifierPath).filter { $0 != "Racine é" }
    #expect(paths.count == 41)
    #expect(record.state["members"] == .array(paths.prefix(40).map { .reference($0) }))
    #expect(record.state["everyone"] == record.state["members"])
    let element = try #require(archive.record(at: "Racine é/:[3]:/Élément 3"))
    #expect(element.state["previous"] == .reference("Racine é/:[2]:/项目2"))
  }

  @Test(arguments: ["value", "sensitive", "removal"])
  func aCoderChangedAfterItsRecordWasSentIsArchivedWithTheChange(change: String) throws {
    let keeper = CoderKeeper()
    keeper.initial = ["removed later": "by Late"]
    let late = LateWriter(keeper) { coder in
      switch change {
      case "value": coder.encode("by Late", forKey: "written later")
      case "sensitive": coder.encode("secret", forKey: "withheld later", sensitive: true)
      default: coder.removeValue(forKey: "removed later")
      }
    }
    let engine = engine(TestDelegate(), concurrentWriteThreshold: 1)
    let roots: [any StateRestoring] = [keeper, wideTree(300), late]
    let bytes = try expectSameBytes(engine, roots: roots)
    #expect(!engine.lastArchiveWrittenConcurrently)
    let record = try #require(try RestorationArchive(decoding: bytes).record(at: "Keeper"))
    switch change {
    case "value": #expect(record.state["written later"] == .string("by Late"))
    case "sensitive": #expect(record.sensitiveKeys == ["withheld later"])
    default: #expect(record.state["removed later"] == nil)
    }
  }

  /// A walk whose order is not the archive's falls back to writing after the walk.
  @Test func recordsReorderedByDepthAreNotWrittenConcurrently() throws {
    let (root, delegate) = treeWalkedOutOfDepthOrder()
    let engine = engine(delegate, concurrentWriteThreshold: 1)
    try expectSameBytes(engine, roots: [root])
    #expect(!engine.lastArchiveWrittenConcurrently)
  }

  @Test func aReferenceToAPathWithoutRecordFailsWhenWrittenConcurrently() throws {
    let delegate = TestDelegate()
    delegate.willEncode = { coder in coder.encodeValue(.reference("Nowhere"), forKey: "dangling") }
    let engine = engine(delegate, concurrentWriteThreshold: 1)
    let (bytes, report) = engine.makeArchiveBytes(roots: [wideTree(10)])
    #expect(bytes == nil)
    #expect(engine.lastArchiveWrittenConcurrently)
    guard case .failed(let error) = report.outcome else {
      Issue.record("expected a failed outcome, got \(report.outcome)")
      return
    }
    #expect(error.code == .encodingFailed)
    #expect(error.message.contains("Nowhere"))
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

  /// Arrays of integers stay the app's arrays in the coder until the archive is written: both
  /// writers must write the bytes of the arrays of integer values they stand for, and the
  /// public values must show those arrays.
  @Test(arguments: [nil, 1])
  func integerArraysKeptAsTheAppsArraysAreByteIdentical(concurrentWriteThreshold: Int?) throws {
    let objects = (0..<3).map { IntegerArrays("Integers\($0)", seed: $0) }
    let delegate = TestDelegate()
    delegate.willEncode = { coder in
      for object in objects { coder.encode(object, forKey: object.restorationIdentifier ?? "") }
    }
    let engine = engine(delegate, concurrentWriteThreshold: concurrentWriteThreshold)
    let bytes = try expectSameBytes(engine, roots: [])
    if concurrentWriteThreshold != nil { #expect(engine.lastArchiveWrittenConcurrently) }

    let archive = try RestorationArchive(decoding: bytes)
    let record = try #require(archive.record(at: "Integers2"))
    #expect(record.state.keys == ["selection", "empty", "extremes", "replaced", "shared"])
    #expect(record.state["selection"] == .array([.integer(2), .integer(-1), .integer(2)]))
    #expect(record.state["empty"] == .array([]))
    #expect(
      record.state["extremes"]
        == .array([.integer(Int64(Int.min)), .integer(0), .integer(Int64(Int.max))]))
    #expect(record.state["replaced"] == .array([.integer(7)]))
    #expect(record.sensitiveKeys == ["secret"])
    #expect(record.state["secret"] == nil)

    let coder = StateCoder()
    try objects[1].encodeRestorableState(with: coder)
    #expect(coder.values["selection"] == .array([.integer(1), .integer(-1), .integer(1)]))
    #expect(coder.values["replaced"] == .array([.integer(7)]))
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

  /// Rewrites and removals keep one value per key, on both sides of the 64th key number.
  ///
  /// A coder knows which of the first 64 key numbers it holds without searching; keys numbered
  /// past them are searched for.
  @Test func keysNumberedPastSixtyFourRewriteAndRemoveAsTheFirstOnes() {
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

    // A small coder whose keys the pass numbered past 64, because the top-level coder took the
    // first 70 numbers: it scans for them.
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

  @Test func recordsReorderedByDepthAreByteIdentical() throws {
    let (root, delegate) = treeWalkedOutOfDepthOrder()
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
  /// Values written before the coder is kept.
  var initial: [String: String] = [:]
  func encodeRestorableState(with coder: StateCoder) throws {
    for (key, value) in initial { coder.encode(value, forKey: key) }
    kept = coder
  }
}

/// Changes the coder another object kept, from its own encode.
private final class LateWriter: StateRestoring {
  let restorationIdentifier: String? = "Late"
  let keeper: CoderKeeper
  let change: (StateCoder) -> Void
  init(_ keeper: CoderKeeper, change: @escaping (StateCoder) -> Void) {
    self.keeper = keeper
    self.change = change
  }
  func encodeRestorableState(with coder: StateCoder) throws {
    if let kept = keeper.kept { change(kept) }
  }
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

/// Writes arrays of integers: repeated, empty, extreme, rewritten over another value, shared
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

/// A node whose children reference their parent and both neighbours, and which references its
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
