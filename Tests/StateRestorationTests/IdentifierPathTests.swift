import StateRestoration
import TestSupport
import Testing

/// The report of preserving `roots` (in memory), with the paths archived.
private func preservedPaths(_ roots: [any StateRestoring]) -> PreservationReport {
  let engine = makeEngine(store: InMemoryArchiveStore(), delegate: TestDelegate())
  return engine.makeArchive(roots: roots).report
}

/// A root with a child without identifier (a gap), and a grandchild below the gap.
private func treeWithGap() -> (root: TestController, gap: TestController, below: TestController) {
  let root = TestController("Root")
  let gap = TestController(nil)
  let below = TestController("Below")
  root.addChild(gap)
  gap.addChild(below)
  return (root, gap, below)
}

/// An object outside the tree that references others, each under its key, in order.
private final class Referrer: StateRestoring {
  let restorationIdentifier: String? = "Referrer"
  let targets: [(key: String, object: any StateRestoring)]
  init(_ targets: [(key: String, object: any StateRestoring)]) { self.targets = targets }
  func encodeRestorableState(with coder: StateCoder) throws {
    for target in targets { coder.encode(target.object, forKey: target.key) }
  }
}

@Suite struct IdentifierPathTests {

  @Test func tabBarNavigationAndPushedControllerGetUIKitPaths() {
    let demo = TalkDemo()
    let report = preservedPaths(demo.roots)
    #expect(
      report.identifierPaths == [
        "TabController",
        "TabController/:[0]:/FirstViewController",
        "TabController/:[1]:/NavigationController",
        "TabController/:[1]:/NavigationController/:[0]:/SecondViewController",
        "TabController/:[1]:/NavigationController/:[1]:/CityViewController",
      ]
    )
  }

  @Test func presentedControllersHaveNoIndexComponent() {
    let demo = TalkDemo()
    let modal = TestController("EditNavigation")
    let editor = TestController("Editor")
    modal.addChild(editor)
    demo.city.presented = modal
    let paths = preservedPaths(demo.roots).identifierPaths
    #expect(
      paths.contains(
        "TabController/:[1]:/NavigationController/:[1]:/CityViewController/EditNavigation"))
    #expect(
      paths.contains(
        "TabController/:[1]:/NavigationController/:[1]:/CityViewController/EditNavigation/:[0]:/Editor"
      )
    )
  }

  @Test func containersWithoutIndicesJoinIdentifiersDirectly() {
    let root = TestController("Root")
    root.indexesChildren = false
    root.addChild(TestController("Child"))
    #expect(preservedPaths([root]).identifierPaths == ["Root", "Root/Child"])
  }

  @Test func viewsAttachToTheirControllerAndSkipIntermediateViews() {
    let controller = TestController("Countries")
    let container = TestView("Container")  // its identifier is not part of the table's path
    let table = TestView("CountryTable")
    let anonymous = TestView(nil)
    let deep = TestView("Deep")
    controller.installRootView()
    controller.rootView?.addSubview(container)
    container.addSubview(table)
    controller.rootView?.addSubview(anonymous)
    anonymous.addSubview(deep)
    let paths = preservedPaths([controller]).identifierPaths
    #expect(
      paths == ["Countries", "Countries/Container", "Countries/CountryTable", "Countries/Deep"])
  }

  @Test func controllerWithoutIdentifierCutsItsSubtreeAndPresentedControllers() {
    let root = TestController("Root")
    let gap = TestController(nil)
    let below = TestController("Below")
    let modal = TestController("Modal")
    root.addChild(gap)
    gap.addChild(below)
    gap.presented = modal
    let report = preservedPaths([root])
    #expect(report.identifierPaths == ["Root"])
  }

  @Test func referencedObjectUnderAGapSkipsTheGapButKeepsItsIndex() {
    // The root references the grandchild directly, as an app delegate or custom container may;
    // its path skips the parent without identifier (UIKit's silent gap rule).
    let (root, _, below) = treeWithGap()
    let report = preservedPaths([root, Referrer([("target", below)])])
    #expect(report.identifierPaths.contains("Root/:[0]:/:[0]:/Below"))
  }

  @Test func anObjectWithoutIdentifierStaysUnreferenceableAfterAPathBelowItWasComputed() {
    // The path below the gap is computed first, which remembers the gap's index component for
    // it; the gap itself must still have no path.
    let (root, gap, below) = treeWithGap()
    let engine = makeEngine(store: InMemoryArchiveStore(), delegate: TestDelegate())
    let (archive, report) = engine.makeArchive(
      roots: [Referrer([("below", below), ("gap", gap)]), root])
    let referrerIssues = report.issues.filter { $0.identifierPath == "Referrer" }
    #expect(referrerIssues.map(\.kind) == [.referenceWithoutPath])
    #expect(referrerIssues.first?.message.contains("key 'gap'") == true)
    let referrer = archive?.record(at: "Referrer")?.state
    #expect(referrer?["below"] == .reference("Root/:[0]:/:[0]:/Below"))
    #expect(referrer?["gap"] == nil)
  }

  @Test func registeredObjectsTakeTheirPathFromRestorationParent() {
    let controller = TestController("Detail")
    let model = TestObject("PetModel", parent: controller)
    let nested = TestObject("Photo", parent: model)
    let coder = StateCoder()
    coder.encode(nested, forKey: "photo")
    #expect(coder.values["photo"] == .reference("Detail/PetModel/Photo"))
    let orphan = TestObject("Orphan")
    coder.encode(orphan, forKey: "orphan")
    #expect(coder.values["orphan"] == .reference("Orphan"))
  }

  @Test func cycleInRestorationParentIsReportedAndUsesThePartialPath() {
    let a = TestObject("A")
    let b = TestObject("B", parent: a)
    a.restorationParent = b
    let delegate = TestDelegate()
    delegate.willEncode = { coder in coder.encode(a, forKey: "a") }
    let engine = makeEngine(store: InMemoryArchiveStore(), delegate: delegate)
    let (archive, report) = engine.makeArchive(roots: [])
    #expect(report.issues(of: .parentCycle).count == 1)
    // A's chain is A <- B <- A: the partial path stops before repeating A.
    #expect(archive?.records.map(\.identifierPath) == ["B/A"])
  }

  @Test func pathsLongerThanABlockOfTheirStorageRoundTripWithThePathsAroundThem() throws {
    // A pass keeps its paths' bytes in blocks of 64 KiB: a path longer than a block gets a block
    // of its own, the paths after it go on filling the current block, and a path built on the
    // long one copies it whole into another. Longer than the reader accepts by default, too.
    let long = String(repeating: "L", count: 100_000)
    let settings = RestorationSettings(limits: ArchiveLimits(maxIdentifierPathLength: 1 << 20))
    func makeTree() -> TestController {
      let root = TestController("Root")
      for index in 0..<1_500 {
        let child = TestController(
          index == 700 ? long : "Screen-\(index)-" + String(repeating: "s", count: 40))
        if index == 700 { child.addChild(TestController("Below")) }
        root.addChild(child)
      }
      return root
    }
    let root = makeTree()
    let expected =
      ["Root"]
      + (0..<1_500).map { index in
        "Root/:[\(index)]:/"
          + (index == 700 ? long : "Screen-\(index)-" + String(repeating: "s", count: 40))
      } + ["Root/:[700]:/\(long)/:[0]:/Below"]

    let store = InMemoryArchiveStore()
    let report = makeEngine(store: store, delegate: TestDelegate(), settings: settings)
      .preserveApplicationState(roots: [root])
    #expect(report.issues.isEmpty)
    #expect(report.identifierPaths == expected)
    let restored = makeEngine(store: store, delegate: TestDelegate(), settings: settings)
      .restoreApplicationState(roots: [makeTree()])
    #expect(restored.outcome == .restored)
    #expect(Set(restored.restoredPaths) == Set(expected))
  }

  @Test func aReportsPathsKeptAsBytesEqualAndHashAsTheSameStrings() {
    let root = TestController("Root")
    root.addChild(TestController("Child"))
    let report = preservedPaths([root])
    let strings = PreservationReport(
      outcome: report.outcome, identifierPaths: ["Root", "Root/:[0]:/Child"],
      issues: report.issues, timings: report.timings)
    #expect(report == strings)
    #expect(report.hashValue == strings.hashValue)
    #expect(report.description == strings.description)

    var changed = report
    changed.identifierPaths.append("Extra")
    #expect(changed != report)
    #expect(changed.identifierPaths == ["Root", "Root/:[0]:/Child", "Extra"])
    #expect(report.identifierPaths == ["Root", "Root/:[0]:/Child"])
  }

  @Test func duplicatePathsAreReportedNotMerged() {
    let root = TestController("Root")
    root.indexesChildren = false
    let first = TestController("Same")
    let second = TestController("Same")
    first.state = ["which": 1]
    second.state = ["which": 2]
    root.addChild(first)
    root.addChild(second)
    let capture = LogCapture()
    let delegate = TestDelegate()
    let engine = makeEngine(
      store: InMemoryArchiveStore(),
      delegate: delegate,
      logger: capture.makeLogger()
    )
    let (archive, report) = engine.makeArchive(roots: [root])
    #expect(report.issues(of: .duplicatePath).map(\.identifierPath) == ["Root/Same"])
    #expect(archive?.records.filter { $0.identifierPath == "Root/Same" }.count == 1)
    #expect(archive?.record(at: "Root/Same")?.state["which"] == .integer(1))
    #expect(capture.warnings.contains { $0.contains("duplicatePath") })
  }

  @Test(arguments: [nil, 0, 7, 9, 10, 99, 100, 123_456, -1, -10, Int.max, Int.min])
  func everyIndexComponentIsWrittenInDecimalBetweenItsMarkers(index: Int?) {
    final class Item: RestorationNode {
      let restorationIdentifier: String?
      let restorationContainer: RestorationParentLink?
      init(_ identifier: String?, in container: RestorationParentLink?) {
        restorationIdentifier = identifier
        restorationContainer = container
      }
      var restorationChildren: [any StateRestoring] { [] }
      func encodeRestorableState(with coder: StateCoder) throws {}
    }
    let indexComponent = index.map { ":[\($0)]:" }
    for parentIdentifier in ["Root", "Racine/Café", ""] {
      let parent = Item(parentIdentifier, in: nil)
      for identifier in ["Leaf", "", "Blätter", nil] {
        let child = Item(identifier, in: RestorationParentLink(parent: parent, index: index))
        // A child without identifier has no path of its own; its child's path shows its index.
        let grandchild = Item("Tip", in: RestorationParentLink(parent: child, index: nil))
        let coder = StateCoder()
        coder.encode(child, forKey: "child")
        coder.encode(grandchild, forKey: "grandchild")
        // A separator goes between pieces once the path so far is not empty.
        func joined(_ tail: [String?]) -> String {
          var path = ""
          for case let piece? in [parentIdentifier, indexComponent] + tail {
            if !path.isEmpty { path += "/" }
            path += piece
          }
          return path
        }
        let expectedChild = identifier.map { joined([$0]) }
        #expect(coder.values["child"] == expectedChild.map(StateValue.reference))
        #expect(
          coder.values["grandchild"] == .reference(joined([identifier, "Tip"])),
          "parent \(parentIdentifier), identifier \(identifier ?? "nil"), index \(index.map(String.init) ?? "nil")"
        )
      }
    }
  }

  @Test func pathHelpersSplitAndClimb() {
    let path = "TabController/:[1]:/NavigationController/:[1]:/CityViewController"
    #expect(
      IdentifierPath.components(of: path) == [
        "TabController", ":[1]:", "NavigationController", ":[1]:", "CityViewController",
      ]
    )
    #expect(IdentifierPath.parent(of: path) == "TabController/:[1]:/NavigationController")
    #expect(IdentifierPath.parent(of: "TabController") == nil)
    #expect(IdentifierPath.depth(of: path) == 3)
    #expect(IdentifierPath.isIndexComponent(":[12]:"))
    #expect(!IdentifierPath.isIndexComponent(":[]:"))
    #expect(!IdentifierPath.isIndexComponent("Nav"))
  }

  @Test func pathHelpersAgreeOnEdgeCasesAndNonASCIIPaths() {
    #expect(IdentifierPath.parent(of: "a//b") == "a/")
    #expect(IdentifierPath.parent(of: ":[1]:/X") == nil)
    #expect(IdentifierPath.parent(of: "A/:[1]:/X") == "A")
    #expect(IdentifierPath.parent(of: "A/:[x]:/X") == "A/:[x]:")
    #expect(IdentifierPath.depth(of: "A/:[1]:/B/:[22]:/C") == 3)
    #expect(IdentifierPath.depth(of: "") == 1)
    #expect(!IdentifierPath.isIndexComponent(":[1a]:"))
    #expect(!IdentifierPath.isIndexComponent(":[١]:"))
    #expect(IdentifierPath.components(of: "a//b") == ["a", "", "b"])
    let unicode = "Tab/:[1]:/Zürich/:[2]:/東京"
    #expect(IdentifierPath.components(of: unicode) == ["Tab", ":[1]:", "Zürich", ":[2]:", "東京"])
    #expect(IdentifierPath.parent(of: unicode) == "Tab/:[1]:/Zürich")
    #expect(IdentifierPath.depth(of: unicode) == 3)
  }

  @Test func depthCountsTheComponentsThatAreNotIndexComponentsAtEveryLength() {
    // Paths of every length up to several words, made of the bytes that matter (slashes,
    // index-component punctuation, digits), so slashes fall at every offset of a word.
    var generator = SystemRandomNumberGenerator()
    let pieces = ["/", ":[", "]:", "7", "42", "A", ":", "[", "]", "//", ":[3]:", "Screen"]
    for _ in 0..<4_000 {
      var path = ""
      for _ in 0..<Int.random(in: 0...14, using: &generator) {
        path += pieces.randomElement(using: &generator) ?? ""
      }
      let expected = path.split(separator: "/", omittingEmptySubsequences: false)
        .filter { !IdentifierPath.isIndexComponent($0) }.count
      #expect(IdentifierPath.depth(of: path) == expected, "\(path)")
    }
    #expect(IdentifierPath.depth(of: "Tab/:[12]:/Navigation/:[3]:/Screen/:[0]:") == 3)
    #expect(IdentifierPath.depth(of: ":[0]:") == 0)
    #expect(IdentifierPath.depth(of: "////////:[1]:/") == 9)
  }

  @Test func recordsFollowTheWalkAndReadBackWhateverTheIdentifiersHold() throws {
    // Identifiers with separators, one that reads as an index component, an empty one and a
    // non-ASCII one: the archive lists the children in walk order, and each path reads back
    // whole, however the file splits it into a parent and a name.
    let root = TestController("Root")
    for identifier in ["p/q/r", "B", ":[7]:", "Ñ/ñ", ""] {
      let child = TestController(identifier)
      child.addChild(TestController("Leaf"))
      root.addChild(child)
    }
    let paths = preservedPaths([root]).identifierPaths
    let expected = [
      "Root", "Root/:[0]:/p/q/r", "Root/:[1]:/B", "Root/:[2]:/:[7]:", "Root/:[3]:/Ñ/ñ",
      "Root/:[4]:/", "Root/:[0]:/p/q/r/:[0]:/Leaf", "Root/:[1]:/B/:[0]:/Leaf",
      "Root/:[2]:/:[7]:/:[0]:/Leaf", "Root/:[3]:/Ñ/ñ/:[0]:/Leaf", "Root/:[4]://:[0]:/Leaf",
    ]
    #expect(paths == expected)
    let engine = makeEngine(store: InMemoryArchiveStore(), delegate: TestDelegate())
    let archive = try #require(engine.makeArchive(roots: [root]).archive)
    #expect(archive.rootIdentifierPaths == expected)
  }
}

/// A node that presents another and encodes nothing: only the presented-node link reaches what
/// it presents.
private final class PresentingNode: RestorationNode {
  let restorationIdentifier: String?
  weak var presenter: PresentingNode?
  var children: [PresentingNode] = []
  var presented: PresentingNode? {
    didSet { presented?.presenter = self }
  }
  weak var parent: PresentingNode?

  init(_ identifier: String?) { restorationIdentifier = identifier }

  func add(_ child: PresentingNode) {
    child.parent = self
    children.append(child)
  }

  var restorationContainer: RestorationParentLink? {
    if let parent {
      return RestorationParentLink(
        parent: parent, index: parent.children.firstIndex { $0 === self })
    }
    return presenter.map { RestorationParentLink(parent: $0) }
  }
  var restorationChildren: [any StateRestoring] { children }
  var restorationPresentedNode: (any StateRestoring)? { presented }
  func encodeRestorableState(with coder: StateCoder) throws {}
  func decodeRestorableState(with coder: StateDecoder) throws {}
}

@Suite struct PresentedNodeTests {
  @Test func thePresentedNodeIsWalkedAfterTheChildrenAndCutWithItsPresenter() {
    let root = PresentingNode("Root")
    root.add(PresentingNode("Child"))
    let modal = PresentingNode("Modal")
    root.presented = modal
    modal.add(PresentingNode("Editor"))
    #expect(
      preservedPaths([root]).identifierPaths == [
        "Root", "Root/:[0]:/Child", "Root/Modal", "Root/Modal/:[0]:/Editor",
      ])

    // A presenter without identifier takes what it presents out with it.
    let anonymous = PresentingNode(nil)
    anonymous.presented = PresentingNode("Sheet")
    #expect(preservedPaths([anonymous]).identifierPaths.isEmpty)
  }

  @Test func anExistingPresentedNodeIsFoundByIdentifierWithoutIndex() {
    let root = PresentingNode("Root")
    let modal = PresentingNode("Modal")
    root.presented = modal
    #expect(root.restorationChild(withIdentifier: "Modal", index: nil) === modal)
    #expect(root.restorationChild(withIdentifier: "Modal", index: 0) == nil)
  }
}

/// An object that becomes a tree node only in a subclass, so its conformance to
/// `StateRestoring` comes from a class that is not a node.
private class PlainRestorable: StateRestoring {
  let restorationIdentifier: String?
  init(_ identifier: String) { restorationIdentifier = identifier }
}

private final class NodeSubclass: PlainRestorable, RestorationNode {
  var children: [any StateRestoring] = []
  var restorationChildren: [any StateRestoring] { children }
}

private final class ChildNode: RestorationNode {
  let restorationIdentifier: String? = "Child"
  weak var parent: NodeSubclass?
  var restorationContainer: RestorationParentLink? {
    parent.map { RestorationParentLink(parent: $0, index: 0) }
  }
}

@Suite struct RestorationNodeLookupTests {
  @Test func aClassThatBecomesANodeInASubclassIsWalkedAsANode() {
    let parent = NodeSubclass("Parent")
    let child = ChildNode()
    child.parent = parent
    parent.children = [child]
    let restorable: any StateRestoring = parent
    #expect(restorable.restorationNode === parent)
    #expect((PlainRestorable("Plain") as any StateRestoring).restorationNode == nil)
    #expect(preservedPaths([parent]).identifierPaths == ["Parent", "Parent/:[0]:/Child"])
  }
}
