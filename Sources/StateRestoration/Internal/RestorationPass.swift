/// One restoration from a decoded archive, in UIKit's order: locate or create every object in
/// archive order, then decode every object in archive order (parents first), then the delegate's
/// did-decode, then every restored object's finished-restoring.
final class RestorationPass: ReferenceResolving {
  private let archive: RestorationArchive
  private let registry: RestorationRegistry
  private weak var delegate: (any RestorationDelegate)?
  private(set) weak var applicationContext: AnyObject?
  private var classNames: ClassNames
  private let debug: (String) -> Void
  private let warn: (String) -> Void

  private var resolver: IdentifierPathResolver
  /// Objects found or created, by archived path.
  private var located: [String: any StateRestoring] = [:]
  /// Which archived path each located object was restored as.
  private var locatedIdentities: [ObjectIdentifier: String] = [:]
  /// Objects of the launch hierarchy, by their current identifier path.
  private var existing: [String: any StateRestoring] = [:]
  private var mapped: Set<ObjectIdentifier> = []

  private var entries: [RestorationReport.Entry] = []
  private var entryIndex: [String: Int] = [:]
  private var coders: [StateDecoder?] = []
  private var objects: [(any StateRestoring)?] = []
  private(set) var warnings: [String] = []

  init(
    archive: RestorationArchive,
    registry: RestorationRegistry,
    delegate: (any RestorationDelegate)?,
    applicationContext: AnyObject?,
    classNames: ClassNames,
    debug: @escaping (String) -> Void,
    warn: @escaping (String) -> Void
  ) {
    self.archive = archive
    self.registry = registry
    self.delegate = delegate
    self.applicationContext = applicationContext
    self.classNames = classNames
    self.debug = debug
    self.warn = warn
    self.resolver = IdentifierPathResolver()
    resolver.onCycle = { [unowned self] message in self.warning(message) }
  }

  /// The class-name cache, handed back to the engine.
  var updatedClassNames: ClassNames { classNames }

  /// The report entries, in archive order.
  var reportEntries: [RestorationReport.Entry] { entries }

  /// The top-level decoder; references in it resolve once objects are located.
  private(set) lazy var topLevelDecoder = StateDecoder(
    values: archive.topLevel,
    identifierPath: nil,
    context: self
  )

  // MARK: Locating objects

  /// Maps every node of the launch hierarchy, and every registered object, by current path.
  func mapExistingObjects(roots: [any StateRestoring]) {
    for root in roots { mapSubtree(root) }
    for object in registry.registeredObjects { mapSubtree(object) }
  }

  /// Adds an object and the nodes below it to the existing-object map; stops at objects
  /// already mapped, so mapping is linear however often it is called.
  private func mapSubtree(_ root: any StateRestoring) {
    var stack = [root]
    while let object = stack.popLast() {
      guard mapped.insert(ObjectIdentifier(object)).inserted else { continue }
      if let path = resolver.path(of: object), existing[path] == nil {
        existing[path] = object
      }
      if let node = object as? any RestorationNode {
        stack.append(contentsOf: node.restorationChildren.reversed())
      }
    }
  }

  /// Finds or creates the object for every record, in archive order.
  func locateObjects() {
    entries.reserveCapacity(archive.records.count)
    coders.reserveCapacity(archive.records.count)
    objects.reserveCapacity(archive.records.count)
    for (index, record) in archive.records.enumerated() {
      let decoder = StateDecoder(
        values: record.state, identifierPath: record.identifierPath, context: self)
      var entry = RestorationReport.Entry(
        identifierPath: record.identifierPath,
        kind: record.kind,
        className: record.className,
        status: .restored,
        source: nil,
        notes: []
      )
      let found = locate(record, decoder: decoder, entry: &entry)
      if let found {
        located[record.identifierPath] = found
        locatedIdentities[ObjectIdentifier(found)] = record.identifierPath
        resolver.pin(found, to: record.identifierPath)
        mapSubtree(found)
        debug(
          "Object in root set for index [\(index)] for identifier path \(record.identifierPath): <\(classNames.name(of: found))>"
        )
      } else if case .skipped(let reason) = entry.status {
        debug("Skipping identifier path \(record.identifierPath): \(reason)")
      }
      if entryIndex[record.identifierPath] == nil {
        entryIndex[record.identifierPath] = entries.count
      }
      entries.append(entry)
      coders.append(found == nil ? nil : decoder)
      objects.append(found)
    }
  }

  private func locate(
    _ record: RestorationArchive.Record,
    decoder: StateDecoder,
    entry: inout RestorationReport.Entry
  ) -> (any StateRestoring)? {
    func skip(_ reason: RestorationReport.SkipReason) -> (any StateRestoring)? {
      entry.status = .skipped(reason)
      return nil
    }
    let path = record.identifierPath
    if entryIndex[path] != nil { return skip(.duplicatePath) }
    if let ancestor = nearestArchivedAncestor(of: path), located[ancestor] == nil {
      return skip(.missingParent(ancestor))
    }
    let components = IdentifierPath.components(of: path)

    var found: (any StateRestoring)?
    if let name = record.restorationClassName {
      // A restoration class is final: nil stops the lookup (UIKit's rule).
      guard let type = registry.restorationClass(named: name) else {
        return skip(.restorationClassNotRegistered(name))
      }
      guard let object = type.object(withRestorationIdentifierPath: components, coder: decoder)
      else {
        return skip(.restorationClassReturnedNil(name))
      }
      found = object
      entry.source = .restorationClass
    } else {
      if record.kind == .viewController,
        let object = delegate?.object(withRestorationIdentifierPath: components, coder: decoder)
      {
        found = object
        entry.source = .delegate
      } else if let object = existing[path] ?? childOfLocatedContainer(at: path) {
        found = object
        entry.source = .existing
      } else if let storyboard = record.storyboard,
        let board = registry.storyboard(named: storyboard.name),
        let object = board.instantiateForRestoration(
          withIdentifier: storyboard.identifier ?? components.last ?? path
        )
      {
        found = object
        entry.source = .storyboard
      }
    }
    guard let object = found else {
      if let container = locatedContainerPath(of: path) {
        return skip(.containerHasNoSuchChild(container))
      }
      return skip(.notFound)
    }
    if let earlier = locatedIdentities[ObjectIdentifier(object)] {
      return skip(.objectAlreadyRestored(earlier))
    }
    return object
  }

  /// Asks the restored container of `path` for a child with the same identifier and index.
  private func childOfLocatedContainer(at path: String) -> (any StateRestoring)? {
    guard let container = locatedContainerPath(of: path),
      let node = located[container] as? any RestorationNode
    else { return nil }
    var components = IdentifierPath.components(of: path)
    guard let identifier = components.popLast() else { return nil }
    var index: Int?
    if let last = components.last, IdentifierPath.isIndexComponent(last) {
      index = Int(last.dropFirst(2).dropLast(2))
    }
    guard let child = node.restorationChild(withIdentifier: identifier, index: index),
      locatedIdentities[ObjectIdentifier(child)] == nil
    else { return nil }
    return child
  }

  /// The path of the direct container of `path` when that container was restored.
  private func locatedContainerPath(of path: String) -> String? {
    guard let parent = IdentifierPath.parent(of: path), located[parent] != nil else { return nil }
    return parent
  }

  /// The closest proper ancestor path that has a record of its own.
  private func nearestArchivedAncestor(of path: String) -> String? {
    var current = IdentifierPath.parent(of: path)
    while let candidate = current {
      if entryIndex[candidate] != nil { return candidate }
      current = IdentifierPath.parent(of: candidate)
    }
    return nil
  }

  // MARK: Decoding

  /// Decodes every located object, parents first, each with its own coder.
  func decodeObjects() {
    for index in entries.indices {
      guard let object = objects[index], let coder = coders[index] else { continue }
      let record = archive.records[index]
      let lineage = classNames.lineage(of: object)
      guard lineage.contains(record.className) else {
        entries[index].status = .skipped(
          .classMismatch(archived: record.className, found: classNames.name(of: object))
        )
        warning(
          "\(record.identifierPath): found \(classNames.name(of: object)) but the archive holds \(record.className); not decoded"
        )
        continue
      }
      if let node = object as? any RestorationNode {
        node.restorationWillDecode(with: coder)
      }
      do {
        try object.decodeRestorableState(with: coder)
      } catch {
        let failure =
          (error as? RestorationError)
          ?? RestorationError(.decodingFailed, "\(error)", identifierPath: record.identifierPath)
        entries[index].status = .skipped(.decodeFailed(failure))
        warning("\(record.identifierPath): decode failed: \(failure)")
      }
    }
  }

  /// Calls the delegate's did-decode, then finished-restoring on every restored object.
  func finish() {
    delegate?.didDecodeRestorableState(with: topLevelDecoder)
    for index in entries.indices where entries[index].status == .restored {
      objects[index]?.applicationFinishedRestoringState()
    }
  }

  // MARK: ReferenceResolving

  func resolveReference(_ path: String) -> (any StateRestoring)? {
    located[path]
  }

  func noteTruncation(of paths: [String], reason: String, in coderPath: String?) {
    for path in paths {
      guard let index = entryIndex[path] else { continue }
      if entries[index].status == .restored {
        entries[index].status = .truncated(reason)
      }
    }
    debug(reason)
  }

  func debugLog(_ message: String) {
    debug(message)
  }

  func addNote(_ note: String, for path: String) {
    guard let index = entryIndex[path] else { return }
    entries[index].notes.append(note)
    debug("\(path): \(note)")
  }

  private func warning(_ message: String) {
    warnings.append(message)
    warn(message)
  }
}
