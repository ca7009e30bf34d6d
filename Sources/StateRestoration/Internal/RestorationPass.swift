internal import BinaryPropertyList

/// One restoration from a decoded archive, in UIKit's order: locate or create every object in
/// archive order, then decode every object in archive order (parents first), then the delegate's
/// did-decode, then every restored object's finished-restoring.
final class RestorationPass {
  /// The archive, whose states are read when decoders ask for them.
  private let archive: CheckedArchive
  private let registry: RestorationRegistry
  private weak var delegate: (any RestorationDelegate)?
  private(set) weak var applicationContext: AnyObject?
  /// The class-name cache, handed back to the engine.
  private(set) var classNames: ClassNames
  /// Nil when debug logging is off: debug lines are built only when on, since building them for
  /// every object cost a fifth of a restore.
  private let debugSink: ((String) -> Void)?
  private let warn: (String) -> Void

  private var resolver: IdentifierPathResolver
  /// Objects of the launch hierarchy, by their current identifier path: indices into
  /// `existingObjects`.
  private var existing: [PathKey: Int] = [:]
  private var existingObjects: [any StateRestoring] = []
  private var mapped: Set<ObjectIdentifier> = []
  /// Objects located whose subtrees are not mapped yet.
  private var unmapped: [any StateRestoring] = []
  /// The components of the last parent whose child's path was split.
  private var parentComponents: (record: Int, components: [String]) = (-1, [])

  /// The report's entries: one per record located so far, in archive order.
  private(set) var entries: [RestorationReport.Entry] = []
  private var coders: [StateDecoder?] = []
  private var objects: [(any StateRestoring)?] = []
  private(set) var warnings: [String] = []

  init(
    archive: CheckedArchive, registry: RestorationRegistry,
    delegate: (any RestorationDelegate)?, applicationContext: AnyObject?,
    classNames: ClassNames, debug: ((String) -> Void)?, warn: @escaping (String) -> Void
  ) {
    (self.archive, self.registry, self.delegate) = (archive, registry, delegate)
    (self.applicationContext, self.classNames) = (applicationContext, classNames)
    (debugSink, self.warn) = (debug, warn)
    resolver = IdentifierPathResolver()
    resolver.onCycle = { [unowned self] message in self.warning(message) }
  }

  /// The top-level decoder; references in it resolve once objects are located.
  private(set) lazy var topLevelDecoder = StateDecoder(
    values: archive.topLevel, identifierPath: nil, pass: self)

  // MARK: Locating objects

  /// Maps every node of the launch hierarchy, and every registered object, by current path.
  func mapExistingObjects(roots: [any StateRestoring]) {
    for root in roots { mapSubtree(root) }
    for object in registry.registeredObjects { mapSubtree(object) }
  }

  /// Adds an object and the nodes below it to the existing-object map; stops at objects
  /// already mapped, so mapping is linear however often it is called.
  private func mapSubtree(_ root: any StateRestoring, includingRoot: Bool = true) {
    guard mapped.insert(ObjectIdentifier(root)).inserted else { return }
    // A located object needs no entry of its own: its path has a record, so a later record with
    // that path is a duplicate, skipped before the map is asked. Only what is below it counts.
    if includingRoot { mapPath(of: root) }
    var stack: [any StateRestoring] = []
    Self.pushBelow(root, onto: &stack)
    while let object = stack.popLast() {
      guard mapped.insert(ObjectIdentifier(object)).inserted else { continue }
      mapPath(of: object)
      Self.pushBelow(object, onto: &stack)
    }
  }

  /// Pushes what is below an object, if it is a node, so that it pops in walk order.
  private static func pushBelow(
    _ object: any StateRestoring, onto stack: inout [any StateRestoring]
  ) {
    guard let node = object as? any RestorationNode else { return }
    if let presented = node.restorationPresentedNode { stack.append(presented) }
    stack.append(contentsOf: node.restorationChildren.reversed())
  }

  private func mapPath(of object: any StateRestoring) {
    // The first object in walk order keeps a path that two objects share.
    guard let path = resolver.path(of: object), existing[PathKey(path)] == nil else { return }
    existing[PathKey(path)] = existingObjects.count
    existingObjects.append(object)
  }

  /// Finds or creates the object for every record, in archive order.
  func locateObjects() {
    let count = archive.paths.count
    entries.reserveCapacity(count)
    coders.reserveCapacity(count)
    objects.reserveCapacity(count)
    for index in 0..<count { locate(at: index) }
  }

  /// Locates the record at `index` and adds its entry, coder and object.
  private func locate(at index: Int) {
    let path = archive.paths[index]
    let type = archive.types[archive.typeOfRecord[index]]
    let decoder = StateDecoder(
      values: nil, archive: archive, record: index, identifierPath: path, pass: self)
    var entry = RestorationReport.Entry(
      identifierPath: path, kind: type.kind, className: type.className, status: .restored)
    let found = locate(at: index, type: type, decoder: decoder, entry: &entry)
    if let found {
      // The pin also records which archived path the object was restored as.
      resolver.pin(found, to: path)
      unmapped.append(found)
      debug(
        "Object in root set for index [\(index)] for identifier path \(path): <\(classNames.name(of: found))>"
      )
    } else if case .skipped(let reason) = entry.status {
      debug("Skipping identifier path \(path): \(reason)")
    }
    entries.append(consume entry)
    coders.append(found == nil ? nil : decoder)
    objects.append(found)
  }

  private func locate(
    at index: Int, type: RecordType, decoder: StateDecoder, entry: inout RestorationReport.Entry
  ) -> (any StateRestoring)? {
    func skip(_ reason: RestorationReport.SkipReason) -> (any StateRestoring)? {
      entry.status = .skipped(reason)
      return nil
    }
    let path = archive.paths[index]
    entry.migrations = archive.migrations[index] ?? []
    if archive.firstRecordOfPath[index] != index { return skip(.duplicatePath) }
    let parent = archive.parents[index]
    if parent >= 0, objects[parent] == nil { return skip(.missingParent(archive.paths[parent])) }
    // Split only for the calls that take them: most objects are found without.
    var components: [String] { self.components(ofRecord: index) }

    var found: (any StateRestoring)?
    if let name = type.restorationClassName {
      // A restoration class is final: nil stops the lookup (UIKit's rule).
      guard let type = registry.restorationClass(named: name) else {
        warning("\(path): restoration class '\(name)' is not registered; not restored")
        return skip(.restorationClassNotRegistered(name))
      }
      guard let object = type.object(withRestorationIdentifierPath: components, coder: decoder)
      else {
        return skip(.restorationClassReturnedNil(name))
      }
      found = object
      entry.source = .restorationClass
    } else {
      if type.kind == .viewController,
        let object = delegate?.object(withRestorationIdentifierPath: components, coder: decoder)
      {
        found = object
        entry.source = .delegate
      } else if let object = existing[PathKey(path)].map({ existingObjects[$0] })
        ?? childOfLocatedContainer(ofRecord: index) ?? existingBelowLocated(at: path)
      {
        found = object
        entry.source = .existing
      } else if let storyboard = type.storyboard,
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
      if let container = locatedContainer(ofRecord: index) {
        let reason = container.object.restorationNode?.restorationMissingChildReason(
          identifier: container.identifier, index: container.index)
        return skip(.containerHasNoSuchChild(archive.paths[container.record], reason: reason))
      }
      return skip(.notFound)
    }
    if let earlier = resolver.pinnedPath(of: object) {
      return skip(.objectAlreadyRestored(earlier))
    }
    return object
  }

  /// A record's path split into components, its parent's shared with its siblings', which
  /// follow one another.
  private func components(ofRecord index: Int) -> [String] {
    let parent = archive.parents[index]
    guard parent >= 0 else { return IdentifierPath.components(of: archive.paths[index]) }
    if parentComponents.record != parent {
      parentComponents = (parent, IdentifierPath.components(of: archive.paths[parent]))
    }
    return IdentifierPath.components(of: archive.paths[index], after: parentComponents.components)
  }

  /// An object at `path` below the objects located so far, which are mapped only once a record
  /// is found neither as an existing object nor as its container's child: most are.
  private func existingBelowLocated(at path: String) -> (any StateRestoring)? {
    guard !unmapped.isEmpty else { return nil }
    for object in unmapped { mapSubtree(object, includingRoot: false) }
    unmapped = []
    return existing[PathKey(path)].map { existingObjects[$0] }
  }

  /// Asks the restored container of a record's path for a child of the same identifier and index.
  private func childOfLocatedContainer(ofRecord record: Int) -> (any StateRestoring)? {
    guard let container = locatedContainer(ofRecord: record),
      let node = container.object.restorationNode,
      let child = node.restorationChild(
        withIdentifier: container.identifier, index: container.index),
      resolver.pinnedPath(of: child) == nil
    else { return nil }
    return child
  }

  /// The direct container of a record's path, when it has a record and was restored, with the
  /// record's last identifier and index.
  private func locatedContainer(
    ofRecord record: Int
  ) -> (record: Int, object: any StateRestoring, identifier: String, index: Int?)? {
    let path = archive.paths[record]
    let (identifier, index, length) = IdentifierPath.lastLink(of: path)
    guard let length else { return nil }
    // The record it is archived under is its direct container when their paths differ by one
    // link, as most do; a path names its container otherwise.
    let parent = archive.parents[record]
    let container =
      parent >= 0 && archive.paths[parent].utf8.count == length
      ? parent
      : archive.firstRecord(
        of: String(decoding: path.utf8.prefix(length), as: UTF8.self), among: objects.count)
    guard let container, let object = objects[container] else { return nil }
    return (container, object, identifier, index)
  }

  // MARK: Decoding

  /// Decodes every located object, parents first, each with its own coder.
  func decodeObjects() {
    for index in entries.indices {
      guard let object = objects[index], let coder = coders[index] else { continue }
      let className = archive.types[archive.typeOfRecord[index]].className
      guard classNames.object(object, isKindOf: className) else {
        let path = archive.paths[index]
        entries[index].status = .skipped(
          .classMismatch(archived: className, found: classNames.name(of: object))
        )
        warning(
          "\(path): found \(classNames.name(of: object)) but the archive holds \(className); not decoded"
        )
        continue
      }
      (object as? any RestorationNode)?.restorationWillDecode(with: coder)
      do {
        guard coder.stateVersion <= object.restorationStateVersion else {
          let version = "state version \(coder.stateVersion) is later than its class's"
          throw RestorationError(.unsupportedVersion, version, identifierPath: archive.paths[index])
        }
        try object.decodeRestorableState(with: coder)
      } catch {
        let failure =
          (error as? RestorationError)
          ?? RestorationError(.decodingFailed, "\(error)", identifierPath: archive.paths[index])
        entries[index].status = .skipped(.decodeFailed(failure))
        warning("\(archive.paths[index]): decode failed: \(failure)")
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

  // MARK: What decoders ask of the pass

  /// The live object restored for an identifier path, if any.
  func resolveReference(_ path: String) -> (any StateRestoring)? {
    archive.firstRecord(of: path, among: objects.count).flatMap { objects[$0] }
  }

  /// The live object restored for the archive record at an index, as ``resolveReference(_:)``
  /// resolves that record's path.
  func resolveReference(record index: Int) -> (any StateRestoring)? {
    // The record's first entry, as its path finds it: a duplicate path resolves to the first
    // record with that path. Records not yet located resolve to nil, as their paths do.
    guard index >= 0, index < objects.count else { return nil }
    return objects[archive.firstRecordOfPath[index]]
  }

  /// Records that objects archived under `paths` were dropped by a container.
  func noteTruncation(of paths: [String], reason: String) {
    for path in paths {
      if let index = archive.firstRecord(of: path, among: entries.count),
        entries[index].status == .restored
      {
        entries[index].status = .truncated(reason)
      }
    }
    debug(reason)
  }

  /// Adds a note to the report entry of the object at `path`.
  func addNote(_ note: String, for path: String) {
    guard let index = archive.firstRecord(of: path, among: entries.count) else { return }
    entries[index].notes.append(note)
    debug("\(path): \(note)")
  }

  /// Writes a line to the debug log, if debug logging is on.
  func debug(_ message: @autoclosure () -> String) { debugSink?(message()) }

  func warning(_ message: String) {
    warnings.append(message)
    warn(message)
  }
}
