import Foundation
import StateRestoration
import StateRestorationStorage

/// A Foundation contender's full preserve and restore, as an app that saved its screens as
/// `Codable` values would run them: the app's state into `Codable` records, encoded, written
/// to a file as the engine writes its archive; and the file read, decoded, and the live objects
/// built from the records, as the engine's restore builds them.
package struct FoundationFullCycle {
  let contender: Contender
  let workload: Workload
  let store: FileArchiveStore

  /// A full cycle of `contender` (``Contender/propertyListEncoder`` or
  /// ``Contender/jsonEncoder``) in a store of its own under `folder`.
  package init(_ contender: Contender, _ workload: Workload, folder: String) throws {
    self.contender = contender
    self.workload = workload
    store = try FileArchiveStore(
      stateRoot: folder, bundleIdentifier: "com.example.benchmark.\(contender.rawValue)")
  }

  /// The state into records, encoded, written.
  package func preserve() throws {
    let bytes: [UInt8]
    switch workload {
    case .linear(let state): bytes = try encode(CodableArchive(state))
    case .app(let state): bytes = try encode(AppCodableArchive(state))
    }
    try store.write(bytes, to: .archive)
  }

  /// The file read, decoded, and the live objects built from it.
  ///
  /// - Returns: The live objects' roots, for the caller to hold while it times the call.
  package func restore() throws -> [AnyObject] {
    guard let bytes = try store.read(.archive, maxSize: .max) else {
      throw ComparisonFailure("\(contender.rawValue) wrote no file")
    }
    switch workload {
    case .linear(let state):
      let archive = try decode(CodableArchive.self, bytes)
      guard archive.count == state.count else { throw ComparisonFailure("lost records") }
      return archive.makeLiveObjects()
    case .app(let state):
      let archive = try decode(AppCodableArchive.self, bytes)
      guard archive.count == state.count else { throw ComparisonFailure("lost records") }
      return archive.makeLiveObjects()
    }
  }

  private func encode(_ archive: some Encodable) throws -> [UInt8] {
    switch contender {
    case .jsonEncoder:
      return [UInt8](try JSONEncoder().encode(archive))
    default:
      let encoder = PropertyListEncoder()
      encoder.outputFormat = .binary
      return [UInt8](try encoder.encode(archive))
    }
  }

  private func decode<Archive: Decodable>(_ type: Archive.Type, _ bytes: [UInt8]) throws -> Archive
  {
    switch contender {
    case .jsonEncoder: try JSONDecoder().decode(type, from: Data(bytes))
    default: try PropertyListDecoder().decode(type, from: Data(bytes))
    }
  }
}

extension CodableArchive {
  /// The live nodes the records describe: each of its class, its values set and its children
  /// linked, as the engine's restore leaves them.
  func makeLiveObjects() -> [AnyObject] {
    let nodes = objects.map { record -> ModelNode in
      let role: UIState.Role =
        record.state.tabs != nil ? .tabBar : record.state.stack != nil ? .navigation : .screen
      let node = ModelNode.make(
        identifier: String(record.path.split(separator: "/").last ?? ""), role: role)
      let state = record.state
      node.title = state.title ?? ""
      node.number = state.selectedIndex ?? state.selectedRow ?? 0
      node.real = state.barOffset ?? state.scrollOffset ?? 0
      node.flag = state.isCustomizing ?? state.isToolbarHidden ?? state.isEditing ?? false
      node.date = state.lastSelected ?? state.lastPush ?? state.lastOpened ?? node.date
      node.list = state.tabOrder ?? state.selection ?? []
      node.text = state.badge ?? state.searchText ?? ""
      return node
    }
    for (index, record) in objects.enumerated() {
      for child in record.state.tabs ?? record.state.stack ?? [] where nodes.indices.contains(child)
      {
        nodes[index].add(nodes[child])
      }
      if let previous = record.state.previous, nodes.indices.contains(previous) {
        nodes[index].previous = nodes[previous]
      }
    }
    return nodes.first.map { [$0] } ?? []
  }
}

extension AppCodableArchive {
  /// The live controllers and model objects the records describe, linked as the engine's
  /// restore links them: screens make their own child controllers, lists get their cells.
  func makeLiveObjects() -> [AnyObject] {
    var controllers: [AppController?] = []
    var models: [AppModelObject?] = []
    var store: DocumentStore?
    // The child controllers screens made, by the path their records have.
    var made: [String: AppController] = [:]
    func register(_ controller: AppController, at path: String) {
      for (index, child) in controller.children.enumerated() {
        let childPath = path + "/:[\(index)]:/" + child.kind.rawValue
        made[childPath] = child
        register(child, at: childPath)
      }
    }
    for record in objects {
      let kind = AppState.Kind(rawValue: record.class) ?? .feed
      let identifier = String(record.path.split(separator: "/").last ?? "")
      switch kind {
      case .store, .document:
        let model =
          kind == .store ? DocumentStore(identifier: identifier) : Document(identifier: identifier)
        model.values = record.state.values
        if let document = model as? Document { store?.add(document) }
        if let made = model as? DocumentStore { store = made }
        models.append(model)
        controllers.append(nil)
      default:
        let controller =
          made[record.path]
          ?? {
            let controller = AppController.make(kind, createsChildren: true)
            register(controller, at: record.path)
            return controller
          }()
        controller.values = record.state.values
        controllers.append(controller)
        models.append(nil)
      }
    }
    for (index, record) in objects.enumerated() {
      let state = record.state
      guard let controller = controllers[index] else { continue }
      for child in state.tabs ?? state.stack ?? state.cells ?? [] {
        if let childController = controllers[child] { controller.add(childController) }
      }
      controller.store = state.store.flatMap { models[$0] }
      controller.document = state.document.flatMap { models[$0] }
      controller.previous = state.previous.flatMap { controllers[$0] }
      controller.related = state.related.flatMap { controllers[$0] }
    }
    return controllers.compactMap { $0 } + models.compactMap { $0 }
  }
}
