import Foundation
import StateRestoration
import TestSupport
import Testing

/// A node that keeps its children in an array of its own type.
private final class HandingNode: RestorationNode {
  let restorationIdentifier: String?
  weak var parent: HandingNode?
  /// Whether the parent numbers its children (`:[i]:`); without, siblings with one identifier
  /// share a path.
  var indexed = true
  private(set) var children: [HandingNode] = []
  var value = 0
  var decodedValue: Int?

  init(_ identifier: String?, value: Int = 0) {
    restorationIdentifier = identifier
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

  var restorationChildren: [any StateRestoring] { children }

  func encodeRestorableState(with coder: StateCoder) throws {
    coder.encode(value, forKey: "value")
  }

  func decodeRestorableState(with coder: StateDecoder) throws {
    decodedValue = coder.decode(Int.self, forKey: "value")
  }
}

/// The engine walks a tree breadth-first, a node's children in order, as UIKit does.
@Suite struct WalkOrderTests {
  @Test func preservationWalksBreadthFirstAndChildrenInOrder() throws {
    let root = HandingNode("Root")
    for name in ["A", "B", "C"] { root.add(HandingNode(name)) }
    root.children[1].add(HandingNode("Leaf"))
    let engine = makeEngine(store: InMemoryArchiveStore(), delegate: TestDelegate())
    // One timestamp for both archives.
    engine.now = { Date(timeIntervalSinceReferenceDate: 700_000_000) }

    let archive = try #require(engine.makeArchive(roots: [root]).archive)
    #expect(
      archive.records.map(\.identifierPath) == [
        "Root", "Root/:[0]:/A", "Root/:[1]:/B", "Root/:[2]:/C", "Root/:[1]:/B/:[0]:/Leaf",
      ])
    #expect(try RestorationArchive(decoding: archive.encoded()) == archive)
  }

  /// Two existing children with one path: the first in walk order gets the record's state.
  @Test func restorationMapsExistingChildrenInWalkOrder() throws {
    let savedRoot = HandingNode("Root")
    savedRoot.add(HandingNode("Same", value: 7))
    savedRoot.children[0].indexed = false
    let store = InMemoryArchiveStore()
    let saving = makeEngine(store: store, delegate: TestDelegate())
    guard case .saved = saving.preserveApplicationState(roots: [savedRoot]).outcome else {
      Issue.record("nothing was saved")
      return
    }

    let root = HandingNode("Root")
    let first = HandingNode("Same")
    let second = HandingNode("Same")
    for child in [first, second] {
      root.add(child)
      child.indexed = false
    }
    let report = makeEngine(store: store, delegate: TestDelegate())
      .restoreApplicationState(roots: [root])
    #expect(report.entry(for: "Root/Same")?.source == .existing)
    #expect(first.decodedValue == 7)
    #expect(second.decodedValue == nil)
  }
}
