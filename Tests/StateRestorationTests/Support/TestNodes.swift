import StateRestoration
import Synchronization

/// Records the order of lifecycle calls across objects.
final class EventLog {
  var events: [String] = []
  func record(_ event: String) { events.append(event) }
}

/// A minimal view-controller-like node.
///
/// It has containment with indices, presentation, views, and arbitrary state. Containers encode references to their children and relink them on decode,
/// like a navigation controller.
class TestController: RestorationNode {
  var restorationIdentifier: String?
  var objectRestorationClass: (any ObjectRestoration.Type)?
  var restorationStoryboard: StoryboardReference?
  weak var parent: TestController?
  weak var presenting: TestController?
  private(set) var children: [TestController] = []
  var presented: TestController? {
    didSet {
      oldValue?.presenting = nil
      presented?.presenting = self
    }
  }
  var rootView: TestView?
  /// Whether children get `:[i]:` components.
  var indexesChildren = true
  /// Whether to encode child references (as a navigation controller does).
  var encodesChildren = true
  var state: [String: Int] = [:]
  var decodedState: [String: Int]?
  var log: EventLog?
  var willDecodeCalls = 0
  /// The identifier components a restoration class received when creating this controller.
  var receivedComponents: [String]?
  var finishedCalls = 0
  var decodeError: (any Error)?

  init(_ identifier: String?, log: EventLog? = nil) {
    restorationIdentifier = identifier
    self.log = log
  }

  func addChild(_ child: TestController) {
    child.parent = self
    children.append(child)
  }

  func setChildren(_ newChildren: [TestController]) {
    for child in children { child.parent = nil }
    children = []
    for child in newChildren { addChild(child) }
  }

  var restorationKind: RestorationKind { .viewController }

  var restorationContainer: RestorationParentLink? {
    if let parent {
      let index = parent.indexesChildren ? parent.children.firstIndex { $0 === self } : nil
      return RestorationParentLink(parent: parent, index: index)
    }
    if let presenting { return RestorationParentLink(parent: presenting) }
    return nil
  }

  var restorationChildren: [any StateRestoring] {
    var result: [any StateRestoring] = children
    if let rootView { result.append(rootView) }
    return result
  }

  var restorationPresentedNode: (any StateRestoring)? { presented }

  func restorationWillDecode(with coder: StateDecoder) {
    willDecodeCalls += 1
    log?.record("willDecode \(restorationIdentifier ?? "?")")
  }

  func encodeRestorableState(with coder: StateCoder) throws {
    for (key, value) in state { coder.encode(value, forKey: key) }
    if encodesChildren, !children.isEmpty { coder.encode(children, forKey: "children") }
    if let presented { coder.encode(presented, forKey: "presented") }
  }

  func decodeRestorableState(with coder: StateDecoder) throws {
    log?.record("decode \(restorationIdentifier ?? "?")")
    if let decodeError { throw decodeError }
    var decoded: [String: Int] = [:]
    // Every key but the references is a number: reading those as Int would be a type mismatch.
    for key in coder.allKeys where key != "children" && key != "presented" {
      if let value = coder.decode(Int.self, forKey: key) { decoded[key] = value }
    }
    decodedState = decoded
    if let references = coder.decodeReferences(forKey: "children") {
      var relinked: [TestController] = []
      for (index, reference) in references.enumerated() {
        guard let child = reference.object as? TestController else {
          coder.reportTruncation(
            of: references[index...].map(\.identifierPath),
            reason:
              "Can't find Child View Controller at index \(index) with identifier \(reference.identifierPath), truncating child array"
          )
          break
        }
        relinked.append(child)
      }
      setChildren(relinked)
    }
    if let presented = coder.decodeObject(of: TestController.self, forKey: "presented") {
      self.presented = presented
    }
  }

  func applicationFinishedRestoringState() {
    finishedCalls += 1
    log?.record("finished \(restorationIdentifier ?? "?")")
  }
}

/// A subclass, to check the class-mismatch rule accepts subclasses.
final class SpecialController: TestController {}

/// A view-like node: attaches to the controller that owns it, crosses views without identifier.
final class TestView: RestorationNode {
  var restorationIdentifier: String?
  weak var owner: TestController?
  weak var superview: TestView?
  private(set) var subviews: [TestView] = []
  var offset = 0
  var decodedOffset: Int?

  init(_ identifier: String?) { restorationIdentifier = identifier }

  func addSubview(_ view: TestView) {
    view.superview = self
    subviews.append(view)
  }

  /// The controller whose view tree holds this view.
  var owningController: TestController? {
    var current: TestView? = self
    while let view = current {
      if let owner = view.owner { return owner }
      current = view.superview
    }
    return nil
  }

  var restorationKind: RestorationKind { .view }
  var restorationContainer: RestorationParentLink? {
    owningController.map { RestorationParentLink(parent: $0) }
  }
  var restorationChildren: [any StateRestoring] { subviews }

  func encodeRestorableState(with coder: StateCoder) throws {
    coder.encode(offset, forKey: "offset")
  }

  func decodeRestorableState(with coder: StateDecoder) throws {
    decodedOffset = coder.decode(Int.self, forKey: "offset")
  }
}

extension TestController {
  /// Gives the controller a root view, owned by it.
  func installRootView(_ view: TestView = TestView(nil)) {
    view.owner = self
    rootView = view
  }
}

/// A registered object outside the tree.
final class TestObject: StateRestoring {
  var restorationIdentifier: String?
  var restorationParent: (any StateRestoring)?
  var objectRestorationClass: (any ObjectRestoration.Type)?
  var value = 0
  var decodedValue: Int?
  var finishedCalls = 0

  init(_ identifier: String?, parent: (any StateRestoring)? = nil) {
    restorationIdentifier = identifier
    restorationParent = parent
  }

  func encodeRestorableState(with coder: StateCoder) throws {
    coder.encode(value, forKey: "value")
  }

  func decodeRestorableState(with coder: StateDecoder) throws {
    decodedValue = coder.decode(Int.self, forKey: "value")
  }

  func applicationFinishedRestoringState() { finishedCalls += 1 }
}

/// A delegate that opts in and can create controllers by identifier.
final class TestDelegate: RestorationDelegate {
  var shouldSave = true
  var shouldRestore = true
  var factory: (([String]) -> (any StateRestoring)?)?
  var willEncode: ((StateCoder) -> Void)?
  var didDecode: ((StateDecoder) -> Void)?
  var requestedPaths: [[String]] = []
  var log: EventLog?
  var seenTopLevel: KeyedValues?
  /// Called as the engine asks whether to restore: the first app code of a restore.
  var onShouldRestore: (() -> Void)?

  func shouldSaveApplicationState(with coder: StateCoder) -> Bool { shouldSave }

  func shouldRestoreApplicationState(with coder: StateDecoder) -> Bool {
    onShouldRestore?()
    seenTopLevel = coder.values
    return shouldRestore
  }

  func willEncodeRestorableState(with coder: StateCoder) { willEncode?(coder) }

  func didDecodeRestorableState(with coder: StateDecoder) {
    log?.record("didDecode")
    didDecode?(coder)
  }

  func object(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> (any StateRestoring)? {
    requestedPaths.append(identifierComponents)
    return factory?(identifierComponents)
  }
}

/// A restoration class, like the talk demo's CityViewController's.
///
/// Its behaviour comes from the
/// archived state, so tests running in parallel do not share anything: `returnNil` makes it
/// return nil, `special` makes it return a subclass.
enum CityRestoration: ObjectRestoration {
  static func object(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> (any StateRestoring)? {
    if coder.decode(Int.self, forKey: "returnNil") == 1 { return nil }
    let controller =
      coder.decode(Int.self, forKey: "special") == 1 ? SpecialController(nil) : TestController(nil)
    controller.restorationIdentifier = identifierComponents.last
    controller.objectRestorationClass = CityRestoration.self
    controller.receivedComponents = identifierComponents
    return controller
  }
}

/// A restoration class that returns an object of an unrelated class.
enum WrongClassRestoration: ObjectRestoration {
  /// The identifiers of the objects it made, and of those that were then decoded.
  static let made = Mutex<[String]>([])
  static let decoded = Mutex<[String]>([])

  static func object(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> (any StateRestoring)? {
    let identifier = identifierComponents.last ?? ""
    made.withLock { $0.append(identifier) }
    return MismatchedObject(identifier: identifier)
  }
}

/// What ``WrongClassRestoration`` returns: not a `TestController`, and it records any decode.
final class MismatchedObject: StateRestoring {
  let restorationIdentifier: String?

  init(identifier: String) { restorationIdentifier = identifier }

  func decodeRestorableState(with coder: StateDecoder) throws {
    let identifier = restorationIdentifier ?? ""
    WrongClassRestoration.decoded.withLock { $0.append(identifier) }
  }
}
