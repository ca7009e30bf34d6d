package import StateRestoration

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A controller of the benchmark's tree, in the engine's terms: a ``RestorationNode`` that saves
/// its values in `encodeRestorableState(with:)` and reads them back in
/// `decodeRestorableState(with:)`.
package final class ModelNode: RestorationNode {
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

/// Re-creates screens at launch, as a view controller's restoration class does.
package enum ScreenRestoration: ObjectRestoration {
  package static func object(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> (any StateRestoring)? {
    ModelNode(identifier: identifierComponents.last ?? "ScreenController", role: .screen)
  }
}

/// Opts in to saving and restoring.
final class ModelDelegate: RestorationDelegate {
  func shouldSaveApplicationState(with coder: StateCoder) -> Bool { true }
  func shouldRestoreApplicationState(with coder: StateDecoder) -> Bool { true }
}

/// The engine's side of the comparison: the live tree, and an engine per store.
package final class EngineContender {
  /// The live tree's root.
  package let root: ModelNode
  let state: UIState
  let delegate = ModelDelegate()
  let registry: RestorationRegistry

  /// Builds the live tree for a state.
  package init(state: UIState) {
    self.state = state
    root = Self.makeTree(state, withScreens: true)
    registry = RestorationRegistry()
    registry.register(ScreenRestoration.self, named: "ScreenRestoration")
  }

  /// The tree as the app builds it at launch, before restoration: the tab bar and its tabs;
  /// the screens are re-created by their restoration class.
  package func makeLaunchTree() -> ModelNode {
    Self.makeTree(state, withScreens: false)
  }

  static func makeTree(_ state: UIState, withScreens: Bool) -> ModelNode {
    var nodes: [ModelNode?] = Array(repeating: nil, count: state.count)
    for (index, object) in state.objects.enumerated() {
      if object.role == .screen, !withScreens { continue }
      let node = ModelNode(identifier: object.identifier, role: object.role)
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
    return nodes[0] ?? ModelNode(identifier: "TabBarController", role: .tabBar)
  }

  /// An engine over a store.
  package func makeEngine(store: any ArchiveStore) -> RestorationEngine {
    let engine = RestorationEngine(
      applicationInfo: ApplicationInfo(
        bundleIdentifier: "com.example.benchmark", bundleVersion: "1", systemVersion: "1",
        userInterfaceIdiom: "phone"),
      store: store,
      registry: registry,
      settings: RestorationSettings()
    )
    engine.delegate = delegate
    return engine
  }

  /// Walks the tree and encodes it: the archive's bytes, as a preserve writes them.
  package func encode(with engine: RestorationEngine) throws -> [UInt8] {
    guard let archive = engine.makeArchive(roots: [root]).archive else {
      throw ComparisonFailure("the engine made no archive")
    }
    return try archive.encoded()
  }

  /// Decodes an archive's bytes.
  package func decode(_ bytes: [UInt8]) throws -> RestorationArchive {
    try RestorationArchive(decoding: bytes)
  }
}

/// A failed benchmark step.
package struct ComparisonFailure: Error, CustomStringConvertible {
  package var description: String
  package init(_ description: String) { self.description = description }
}
