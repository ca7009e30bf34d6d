import StateRestoration
import Testing

/// Coders and decoders an app keeps past the pass that made them.
///
/// The pass is freed when its call returns; a kept coder must then act as one outside any pass,
/// and never reach the freed pass.
@Suite struct KeptCoderTests {
  /// A tree with a root and one child, the child holding a value.
  private func tree() -> (root: TestController, child: TestController) {
    let root = TestController("Root")
    let child = TestController("Child")
    child.state = ["value": 7]
    root.addChild(child)
    return (root, child)
  }

  @Test func aCoderKeptPastItsPreservationEncodesReferencesAsACoderOutsideAPass() throws {
    let delegate = TestDelegate()
    var kept: StateCoder?
    delegate.willEncode = { kept = $0 }
    let engine = makeEngine(store: InMemoryArchiveStore(), delegate: delegate)
    let (root, child) = tree()
    let first = engine.preserveApplicationState(roots: [root])
    #expect(first.issues.isEmpty)
    let coder = try #require(kept)

    // The pass is gone: the reference's path comes from the tree, and nothing is reported.
    coder.encode(child, forKey: "late")
    #expect(coder.values["late"] == .reference("Root/:[0]:/Child"))
    let orphan = TestController(nil)
    coder.encode(orphan, forKey: "orphan")
    #expect(coder.values["orphan"] == nil)

    // A later pass gets a coder of its own and archives the tree as before.
    kept = nil
    let second = engine.preserveApplicationState(roots: [root])
    #expect(second.issues.isEmpty)
    #expect(second.identifierPaths == first.identifierPaths)
    let fresh = try #require(kept)
    #expect(fresh !== coder)
    #expect(fresh.values["late"] == nil)
  }

  @Test func aCoderKeptPastItsPassKeepsItsPathAndTheReferencesItHolds() throws {
    let engine = makeEngine(store: InMemoryArchiveStore(), delegate: TestDelegate())
    let root = CoderKeeper("Root")
    root.addChild(TestController("Child"))
    do {
      let report = engine.preserveApplicationState(roots: [root])
      #expect(report.issues.isEmpty)
      #expect(report.identifierPaths == ["Root", "Root/:[0]:/Child"])
    }
    let coder = try #require(root.kept)

    // The pass, its tables and its report are freed; preserves of other trees reuse their
    // memory. The kept coder's path and references must not change with it.
    for round in 0..<20 {
      let other = TestController("Other\(round)" + String(repeating: "z", count: 40))
      for index in 0..<200 { other.addChild(TestController("Leaf\(index)")) }
      #expect(engine.preserveApplicationState(roots: [other]).issues.isEmpty)
    }
    #expect(coder.identifierPath == "Root")
    #expect(coder.values["children"] == .array([.reference("Root/:[0]:/Child")]))
  }

  @Test func aDecoderKeptPastItsRestorationResolvesNothingAndReachesNoPass() throws {
    let store = InMemoryArchiveStore()
    let saving = makeEngine(store: store, delegate: TestDelegate())
    let (root, _) = tree()
    #expect(saving.preserveApplicationState(roots: [root]).issues.isEmpty)

    let delegate = TestDelegate()
    var keptTopLevel: StateDecoder?
    var contextDuringPass: AnyObject?
    delegate.didDecode = { decoder in
      keptTopLevel = decoder
      contextDuringPass = decoder.applicationContext
    }
    let context = TestController("Context")
    let engine = makeEngine(store: store, delegate: delegate)
    engine.applicationContext = context
    let launchedRoot = DecoderKeeper("Root")
    let launchedChild = TestController("Child")
    launchedRoot.addChild(launchedChild)
    let report = engine.restoreApplicationState(roots: [launchedRoot])
    #expect(report.outcome == .restored)
    #expect(contextDuringPass === context)
    #expect(launchedRoot.resolvedDuringDecode === launchedChild)
    let topLevel = try #require(keptTopLevel)
    let decoder = try #require(launchedRoot.kept)

    // The pass is gone: paths are still read, but nothing resolves and notes go nowhere.
    #expect(topLevel.applicationContext == nil)
    #expect(decoder.applicationContext == nil)
    let references = try #require(decoder.decodeReferences(forKey: "children"))
    #expect(references.map(\.identifierPath) == ["Root/:[0]:/Child"])
    #expect(references.allSatisfy { $0.object == nil })
    decoder.reportNote("after the pass")
    decoder.reportTruncation(of: ["Root/:[0]:/Child"], reason: "after the pass")
    decoder.debugLog("after the pass")
    let entries = try #require(engine.lastRestorationReport?.entries)
    #expect(entries.count == 2)
    #expect(entries.allSatisfy { $0.status == .restored && $0.notes.isEmpty })
  }
}

/// A controller that keeps the coder it encodes with.
private final class CoderKeeper: TestController {
  var kept: StateCoder?

  override func encodeRestorableState(with coder: StateCoder) throws {
    kept = coder
    try super.encodeRestorableState(with: coder)
  }
}

/// A controller that keeps the decoder it is given, and what its first child reference
/// resolved to while the pass ran.
private final class DecoderKeeper: TestController {
  var kept: StateDecoder?
  var resolvedDuringDecode: (any StateRestoring)?

  override func decodeRestorableState(with coder: StateDecoder) throws {
    kept = coder
    resolvedDuringDecode = coder.decodeReferences(forKey: "children")?.first?.object
    try super.decodeRestorableState(with: coder)
  }
}
