import Foundation
import StateRestoration
import TestSupport
import Testing

/// How often a tree's nodes were asked for their children, each way.
private final class ChildRequests {
  var arrays = 0
  var handOvers = 0
}

/// A node that keeps its children in an array of its own type and hands them over one by one,
/// counting how it is asked for them.
private final class HandingNode: RestorationNode {
  let restorationIdentifier: String?
  weak var parent: HandingNode?
  /// Whether the parent numbers its children (`:[i]:`); without, siblings with one identifier
  /// share a path.
  var indexed = true
  private(set) var children: [HandingNode] = []
  let requests: ChildRequests
  var value = 0
  var decodedValue: Int?

  init(_ identifier: String?, _ requests: ChildRequests, value: Int = 0) {
    restorationIdentifier = identifier
    self.requests = requests
    self.value = value
  }

  func add(_ child: HandingNode) {
    child.parent = self
    children.append(child)
  }

  var restorationContainer: RestorationParentLink? {
    guard let parent else { return nil }
    return RestorationParentLink(
      parent: parent, index: indexed ? parent.children.firstIndex { $0 === self } : nil)
  }

  var restorationChildren: [any StateRestoring] {
    requests.arrays += 1
    return children
  }

  func forEachRestorationChild(_ body: (any StateRestoring) -> Void) {
    requests.handOvers += 1
    children.forEachRestorationChild(body)
  }

  func encodeRestorableState(with coder: StateCoder) throws {
    coder.encode(value, forKey: "value")
  }

  func decodeRestorableState(with coder: StateDecoder) throws {
    decodedValue = coder.decode(Int.self, forKey: "value")
  }
}

/// Nodes hand their children to the engine through `forEachRestorationChild(_:)`, without
/// making the array of `restorationChildren`.
@Suite struct ChildHandOverTests {
  @Test func anArrayHandsOverEveryElementInOrder() {
    let requests = ChildRequests()
    let nodes = (0..<5).map { HandingNode("Node\($0)", requests) }
    var handed: [ObjectIdentifier] = []
    nodes.forEachRestorationChild { handed.append(ObjectIdentifier($0)) }
    #expect(handed == nodes.map(ObjectIdentifier.init))
    var calls = 0
    [HandingNode]().forEachRestorationChild { _ in calls += 1 }
    #expect(calls == 0)
  }

  @Test func theDefaultHandsOverTheChildrenArrayInOrder() {
    let root = TestController("Root")
    let first = TestController("First")
    let second = TestController("Second")
    root.addChild(first)
    root.addChild(second)
    root.rootView = TestView("View")
    var handed: [ObjectIdentifier] = []
    root.forEachRestorationChild { handed.append(ObjectIdentifier($0)) }
    #expect(handed == root.restorationChildren.map { ObjectIdentifier($0) })
    #expect(handed.count == 3)
  }

  @Test func preservationWalksTheChildrenHandedOver() throws {
    let requests = ChildRequests()
    let root = HandingNode("Root", requests)
    for name in ["A", "B", "C"] { root.add(HandingNode(name, requests)) }
    root.children[1].add(HandingNode("Leaf", requests))
    let engine = makeEngine(store: InMemoryArchiveStore(), delegate: TestDelegate())
    // One timestamp for both archives.
    engine.now = { Date(timeIntervalSinceReferenceDate: 700_000_000) }

    let archive = try #require(engine.makeArchive(roots: [root]).archive)
    #expect(
      archive.records.map(\.identifierPath) == [
        "Root", "Root/:[0]:/A", "Root/:[1]:/B", "Root/:[2]:/C", "Root/:[1]:/B/:[0]:/Leaf",
      ])
    #expect(requests.arrays == 0)
    #expect(requests.handOvers == 5)
    let bytes = try #require(engine.makeArchiveBytes(roots: [root]).bytes)
    #expect(try RestorationArchive(decoding: bytes) == archive)
    #expect(requests.arrays == 0)
  }

  /// Two existing children with one path: the first in walk order gets the record's state, as
  /// it did when the children came as an array.
  @Test func restorationMapsExistingChildrenInWalkOrder() throws {
    let saved = ChildRequests()
    let savedRoot = HandingNode("Root", saved)
    savedRoot.add(HandingNode("Same", saved, value: 7))
    savedRoot.children[0].indexed = false
    let store = InMemoryArchiveStore()
    let saving = makeEngine(store: store, delegate: TestDelegate())
    guard case .saved = saving.preserveApplicationState(roots: [savedRoot]).outcome else {
      Issue.record("nothing was saved")
      return
    }

    let launched = ChildRequests()
    let root = HandingNode("Root", launched)
    let first = HandingNode("Same", launched)
    let second = HandingNode("Same", launched)
    for child in [first, second] {
      root.add(child)
      child.indexed = false
    }
    let report = makeEngine(store: store, delegate: TestDelegate())
      .restoreApplicationState(roots: [root])
    #expect(report.entry(for: "Root/Same")?.source == .existing)
    #expect(first.decodedValue == 7)
    #expect(second.decodedValue == nil)
    #expect(launched.arrays == 0)
    #expect(launched.handOvers > 0)
  }
}
