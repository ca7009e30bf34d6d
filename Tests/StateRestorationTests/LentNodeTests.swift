import Foundation
import StateRestoration
import TestSupport
import Testing

/// The node a ``Holder`` lends for it: its children are the holder's.
private final class HolderNode: RestorationNode {
  var restorationIdentifier: String? { holder?.restorationIdentifier }
  weak var holder: Holder?

  init(holder: Holder) {
    self.holder = holder
  }

  func forEachRestorationChild(_ body: (any StateRestoring) -> Void) {
    holder?.children.forEachRestorationChild(body)
  }
}

/// An object that is not a node itself and lends a separate one for the tree, counting how often
/// it is asked.
private final class Holder: StateRestoring {
  let restorationIdentifier: String?
  var children: [HeldChild] = []
  private(set) lazy var node = HolderNode(holder: self)
  var lendings = 0

  init(_ identifier: String) {
    restorationIdentifier = identifier
  }

  func withRestorationNode<Result>(_ body: ((any RestorationNode)?) -> Result) -> Result {
    lendings += 1
    return body(node)
  }
}

/// A child of a ``Holder`` that finds it through `restorationParent`.
private final class HeldChild: StateRestoring {
  let restorationIdentifier: String?
  weak var holder: Holder?
  var value = 0
  var decodedValue: Int?

  init(_ identifier: String, holder: Holder, value: Int = 0) {
    restorationIdentifier = identifier
    self.holder = holder
    self.value = value
  }

  var restorationParent: (any StateRestoring)? { holder }

  func encodeRestorableState(with coder: StateCoder) throws {
    coder.encode(value, forKey: "value")
  }

  func decodeRestorableState(with coder: StateDecoder) throws {
    decodedValue = coder.decode(Int.self, forKey: "value")
  }
}

/// A class that becomes a node only in a subclass.
private class PlainBase: StateRestoring {
  var restorationIdentifier: String? { "Base" }
}

private final class NodeSubclass: PlainBase, RestorationNode {}

/// Objects lend their node to the engine through `withRestorationNode(_:)`, which the passes ask
/// instead of casting each object or taking a retained node.
@Suite struct LentNodeTests {
  private func makeHolder() -> Holder {
    let holder = Holder("Holder")
    holder.children = [
      HeldChild("First", holder: holder, value: 1), HeldChild("Second", holder: holder, value: 2),
    ]
    return holder
  }

  @Test func theDefaultsLendTheNodeItselfOrNothing() {
    let controller = TestController("Root")
    #expect(controller.withRestorationNode { $0 === controller })
    #expect(controller.restorationNode === controller)
    let plain = PlainBase()
    #expect(plain.withRestorationNode { $0 == nil })
    #expect(plain.restorationNode == nil)
    // The default of a class that is no node casts, so its node subclass lends itself.
    let subclass: PlainBase = NodeSubclass()
    #expect(subclass.withRestorationNode { $0 === subclass })
  }

  @Test func preservationWalksTheChildrenOfTheLentNode() throws {
    let holder = makeHolder()
    let engine = makeEngine(store: InMemoryArchiveStore(), delegate: TestDelegate())
    let archive = try #require(engine.makeArchive(roots: [holder]).archive)
    #expect(archive.records.map(\.identifierPath) == ["Holder", "Holder/First", "Holder/Second"])
    #expect(archive.records.map(\.kind) == [.viewController, .object, .object])
    #expect(holder.lendings > 0)
  }

  @Test func restorationFindsExistingObjectsBelowTheLentNode() throws {
    let store = InMemoryArchiveStore()
    let saving = makeEngine(store: store, delegate: TestDelegate())
    guard case .saved = saving.preserveApplicationState(roots: [makeHolder()]).outcome else {
      Issue.record("nothing was saved")
      return
    }
    let holder = Holder("Holder")
    holder.children = [HeldChild("First", holder: holder), HeldChild("Second", holder: holder)]
    let report = makeEngine(store: store, delegate: TestDelegate())
      .restoreApplicationState(roots: [holder])
    #expect(report.entry(for: "Holder/Second")?.source == .existing)
    #expect(holder.children.map(\.decodedValue) == [1, 2])
  }
}
