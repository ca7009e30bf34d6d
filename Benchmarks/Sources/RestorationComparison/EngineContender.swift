package import StateRestoration

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A shape's state in the engine's terms: the live objects a preserve walks, and what an app
/// builds at launch before it restores.
package protocol EngineModel: AnyObject {
  /// The number of objects a preserve archives and a restore must bring back.
  var objectCount: Int { get }
  /// The live tree's roots.
  var roots: [any StateRestoring] { get }
  /// The live process's registry: restoration classes and registered objects.
  var registry: RestorationRegistry { get }
  /// The objects as a new process builds them at launch, before restoration.
  func makeLaunch() -> EngineLaunch
}

/// What an app has at launch before it restores: the controllers it builds itself, and the
/// registry of a new process, with the registered objects it created.
package struct EngineLaunch {
  /// The roots of the launch hierarchy.
  package var roots: [any StateRestoring]
  /// The new process's registry.
  package var registry: RestorationRegistry
  /// Objects the registry holds weakly, kept alive until the restore is over.
  var retained: [AnyObject] = []
}

/// Opts in to saving and restoring.
final class ModelDelegate: RestorationDelegate {
  func shouldSaveApplicationState(with coder: StateCoder) -> Bool { true }
  func shouldRestoreApplicationState(with coder: StateDecoder) -> Bool { true }
}

/// The engine's side of the comparison: a shape's live objects, and engines over stores.
package final class EngineContender {
  /// The shape's objects.
  package let model: any EngineModel
  let delegate = ModelDelegate()

  /// Builds the live objects of a shape's state.
  package init(_ workload: Workload) {
    switch workload {
    case .linear(let state): model = LinearEngineModel(state: state)
    case .app(let state): model = AppEngineModel(state: state)
    }
  }

  /// The number of objects.
  package var count: Int { model.objectCount }

  /// An engine over a store, with the live process's registry unless given another.
  package func makeEngine(
    store: any ArchiveStore, registry: RestorationRegistry? = nil
  ) -> RestorationEngine {
    let engine = RestorationEngine(
      applicationInfo: ApplicationInfo(
        bundleIdentifier: "com.example.benchmark", bundleVersion: "1", systemVersion: "1",
        userInterfaceIdiom: "phone"),
      store: store,
      registry: registry ?? model.registry,
      settings: RestorationSettings()
    )
    engine.delegate = delegate
    return engine
  }

  /// Walks the objects and encodes them: the archive's bytes, as a preserve writes them into
  /// the engine's store (in memory, for the comparison's encode).
  package func encode(with engine: RestorationEngine) throws -> [UInt8] {
    try check(engine.preserveApplicationState(roots: model.roots))
    guard let bytes = try engine.store.read(.archive, maxSize: .max) else {
      throw ComparisonFailure("the engine's store holds no archive")
    }
    return bytes
  }

  /// Decodes an archive's bytes.
  package func decode(_ bytes: [UInt8]) throws -> RestorationArchive {
    try RestorationArchive(decoding: bytes)
  }

  /// Throws unless a preserve saved every object.
  package func check(_ report: PreservationReport) throws {
    guard case .saved = report.outcome, report.identifierPaths.count == count else {
      throw ComparisonFailure(
        "preservation failed: \(report.outcome), \(report.identifierPaths.count) of \(count) saved"
      )
    }
  }

  /// Throws unless a restore brought every object back.
  package func check(_ report: RestorationReport) throws {
    guard report.outcome == .restored, report.restoredPaths.count == count else {
      throw ComparisonFailure(
        "restoration failed: \(report.outcome), \(report.restoredPaths.count) of \(count) restored"
      )
    }
  }

  /// Preserves the live objects, restores them into a launch's objects, and returns the records
  /// of an archive of what was restored: the state an app gets back, as records.
  ///
  /// - Throws: ``ComparisonFailure`` when a step loses an object.
  package func recordsAfterRestore() throws -> [ComparableRecord] {
    let store = InMemoryArchiveStore()
    try check(makeEngine(store: store).preserveApplicationState(roots: model.roots))
    let launch = model.makeLaunch()
    let engine = makeEngine(store: store, registry: launch.registry)
    try check(engine.restoreApplicationState(roots: launch.roots))
    guard let archive = engine.makeArchive(roots: launch.roots).archive else {
      throw ComparisonFailure("the restored objects made no archive")
    }
    return withExtendedLifetime(launch) { ComparableRecord.records(of: archive) }
  }
}

/// A failed benchmark step.
package struct ComparisonFailure: Error, CustomStringConvertible {
  package var description: String
  package init(_ description: String) { self.description = description }
}

// MARK: - The linear shape

/// A controller of the linear shape's tree: a ``RestorationNode`` that saves its values in
/// `encodeRestorableState(with:)` and reads them back in `decodeRestorableState(with:)`.
///
/// Each role has a subclass, so that the archive records the class names the other
/// contenders record.
package class ModelNode: RestorationNode {
  package let restorationIdentifier: String?
  let role: UIState.Role
  weak var parent: ModelNode?
  var index: Int?
  var children: [ModelNode] = []
  weak var previous: ModelNode?
  var title = ""
  var number = 0
  var real = 0.0
  var flag = false
  var date = Date(timeIntervalSinceReferenceDate: 0)
  var list: [Int] = []
  var text = ""

  init(identifier: String, role: UIState.Role) {
    restorationIdentifier = identifier
    self.role = role
  }

  /// A node of the role's class.
  static func make(identifier: String, role: UIState.Role) -> ModelNode {
    switch role {
    case .tabBar: TabBarController(identifier: identifier, role: role)
    case .navigation: NavigationController(identifier: identifier, role: role)
    case .screen: ScreenController(identifier: identifier, role: role)
    }
  }

  func add(_ child: ModelNode) {
    child.parent = self
    child.index = children.count
    children.append(child)
  }

  package var restorationContainer: RestorationParentLink? {
    parent.map { RestorationParentLink(parent: $0, index: index) }
  }

  package var restorationChildren: [any StateRestoring] { children }

  package var objectRestorationClass: (any ObjectRestoration.Type)? {
    role == .screen ? ScreenRestoration.self : nil
  }

  package func encodeRestorableState(with coder: StateCoder) throws {
    switch role {
    case .tabBar:
      coder.encode(number, forKey: "selectedIndex")
      coder.encode(list, forKey: "tabOrder")
      coder.encode(text, forKey: "badge")
      coder.encode(children, forKey: "tabs")
      coder.encode(date, forKey: "lastSelected")
      coder.encode(flag, forKey: "isCustomizing")
    case .navigation:
      coder.encode(title, forKey: "title")
      coder.encode(flag, forKey: "isToolbarHidden")
      coder.encode(real, forKey: "barOffset")
      coder.encode(children, forKey: "stack")
      coder.encode(children.last, forKey: "top")
      coder.encode(date, forKey: "lastPush")
    case .screen:
      coder.encode(title, forKey: "title")
      coder.encode(real, forKey: "scrollOffset")
      coder.encode(number, forKey: "selectedRow")
      coder.encode(flag, forKey: "isEditing")
      coder.encode(text, forKey: "searchText")
      coder.encode(list, forKey: "selection")
      coder.encode(date, forKey: "lastOpened")
      if let previous { coder.encode(previous, forKey: "previous") }
    }
  }

  package func decodeRestorableState(with coder: StateDecoder) throws {
    switch role {
    case .tabBar:
      number = coder.decode(Int.self, forKey: "selectedIndex") ?? 0
      list = coder.decode([Int].self, forKey: "tabOrder") ?? []
      text = coder.decode(String.self, forKey: "badge") ?? ""
      date = coder.decode(Date.self, forKey: "lastSelected") ?? date
      flag = coder.decode(Bool.self, forKey: "isCustomizing") ?? false
    case .navigation:
      title = coder.decode(String.self, forKey: "title") ?? ""
      flag = coder.decode(Bool.self, forKey: "isToolbarHidden") ?? false
      real = coder.decode(Double.self, forKey: "barOffset") ?? 0
      date = coder.decode(Date.self, forKey: "lastPush") ?? date
      // Relink the stack from the restored screens, as a navigation controller does.
      let stack = coder.decodeReferences(forKey: "stack") ?? []
      children.removeAll(keepingCapacity: true)
      for reference in stack {
        if let screen = reference.object as? ModelNode { add(screen) }
      }
    case .screen:
      title = coder.decode(String.self, forKey: "title") ?? ""
      real = coder.decode(Double.self, forKey: "scrollOffset") ?? 0
      number = coder.decode(Int.self, forKey: "selectedRow") ?? 0
      flag = coder.decode(Bool.self, forKey: "isEditing") ?? false
      text = coder.decode(String.self, forKey: "searchText") ?? ""
      list = coder.decode([Int].self, forKey: "selection") ?? []
      date = coder.decode(Date.self, forKey: "lastOpened") ?? date
      previous = coder.decodeObject(of: ModelNode.self, forKey: "previous")
    }
  }
}

final class TabBarController: ModelNode {}
final class NavigationController: ModelNode {}
final class ScreenController: ModelNode {}

/// Re-creates screens at launch, as a view controller's restoration class does.
package enum ScreenRestoration: ObjectRestoration {
  package static func object(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> (any StateRestoring)? {
    ModelNode.make(identifier: identifierComponents.last ?? "ScreenController", role: .screen)
  }
}

/// The linear shape's live tree.
final class LinearEngineModel: EngineModel {
  let state: UIState
  let root: ModelNode
  let registry: RestorationRegistry

  init(state: UIState) {
    self.state = state
    root = Self.makeTree(state, withScreens: true)
    registry = Self.makeRegistry()
  }

  var objectCount: Int { state.count }
  var roots: [any StateRestoring] { [root] }

  static func makeRegistry() -> RestorationRegistry {
    let registry = RestorationRegistry()
    registry.register(ScreenRestoration.self, named: UIState.screenRestorationName)
    return registry
  }

  /// The tab bar and its tabs; the screens are re-created by their restoration class.
  func makeLaunch() -> EngineLaunch {
    EngineLaunch(roots: [Self.makeTree(state, withScreens: false)], registry: Self.makeRegistry())
  }

  static func makeTree(_ state: UIState, withScreens: Bool) -> ModelNode {
    var nodes: [ModelNode?] = Array(repeating: nil, count: state.count)
    for (index, object) in state.objects.enumerated() {
      if object.role == .screen, !withScreens { continue }
      let node = ModelNode.make(identifier: object.identifier, role: object.role)
      node.title = object.title
      node.number = object.number
      node.real = object.real
      node.flag = object.flag
      node.date = object.date
      node.list = object.list
      node.text = object.text
      if let parent = object.parent { nodes[parent]?.add(node) }
      if let previous = object.previous { node.previous = nodes[previous] }
      nodes[index] = node
    }
    return nodes[0] ?? ModelNode.make(identifier: "TabBarController", role: .tabBar)
  }
}
