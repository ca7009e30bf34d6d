internal import BinaryPropertyList
internal import DequeModule

/// One preservation, UIKit's walk: breadth-first from the roots, and every object referenced.
///
/// A node's children come, then what it presents; an object without an identifier cuts its
/// subtree out, except a view, crossed to the identified views below it. An object gets its
/// record's number as it joins, so references are numbers, and its values go into the archive
/// as its encode returns; the archive lists parents first, otherwise in walk order.
final class PreservationPass {
  private let registry: RestorationRegistry
  private let limits: ArchiveLimits
  private let warn: (String) -> Void
  /// The class-name cache, handed back to the engine for the next pass.
  private(set) var classNames: ClassNames
  private var resolver = IdentifierPathResolver()
  /// An object to visit, as a node if it is one, with its record's number or -1 for a view
  /// crossed without one.
  private typealias Visit = (object: any StateRestoring, node: (any RestorationNode)?, record: Int)
  private typealias RecordTypeNumber = (number: Int, isRegistered: Bool)
  /// The walk, in one value so that each step of it is one access to the pass; no app code runs
  /// within a step.
  private struct Walk {
    var queue: Deque<Visit> = []
    /// A view crossed without a record: what its children's paths start with, and the record
    /// of its nearest archived ancestor, or -1.
    var crossed: [ObjectIdentifier: (prefix: String, ancestor: Int)] = [:]
    /// The record of each object that joined the walk; -1 for one without a path, -2 for one
    /// left out for its path.
    var joined: [ObjectIdentifier: Int] = [:]
    /// By record: the object (held so its identity stays its own), its path, and its nearest
    /// archived ancestor's record (-1 for none; -2 until the walk ends when its container's
    /// visit did not find it).
    var objects: [any StateRestoring] = []
    var paths: [String] = []
    var parents: [Int] = []
    var recordsByPath: [PathKey: Int] = [:]
    var writer = ArchiveWriter()
    var types: [TypeKey: RecordTypeNumber] = [:]
    /// The type last looked up: siblings mostly share one, found again without hashing.
    var lastType: (key: TypeKey, type: RecordTypeNumber)?
    /// The length of the paths archived so far, for the limit on their total.
    var pathLength = 0
    /// Whether a path is being computed: a coder used from app code that computes one (a kept
    /// coder, from `restorationIdentifier`) must not start another.
    var resolving = false

    /// Marks an object as joining, left out until it has a record; when it joined before,
    /// returns its record (or a negative number) and path.
    mutating func startJoining(_ id: ObjectIdentifier) -> (record: Int, path: String?)? {
      let (isNew, known) = joined.insert(-2, forKey: id)
      return isNew ? nil : (known, known < 0 ? nil : paths[known])
    }

    /// Starts computing a path, unless one is being computed.
    mutating func startResolving() -> Bool {
      if resolving { return false }
      resolving = true
      return true
    }

    /// The number of a type already in the archive.
    mutating func knownType(_ key: TypeKey) -> RecordTypeNumber? {
      if let last = lastType, last.key == key { return last.type }
      guard let type = types[key] else { return nil }
      lastType = (key, type)
      return type
    }

    /// Gives an object with a path its record, and queues its visit; nil and why when its path
    /// is beyond the limits, nil alone when it is already archived.
    mutating func admit(
      _ object: any StateRestoring, _ id: ObjectIdentifier, node: (any RestorationNode)?,
      path: String, parent: Int, type: Int, limits: ArchiveLimits
    ) -> (record: Int?, problem: String?) {
      if let problem = limits.identifierPathProblem(path, total: &pathLength) {
        pathLength -= path.utf8.count
        return (nil, problem)
      }
      let record = paths.count
      guard recordsByPath.value(forKey: PathKey(path), insertingIfAbsent: record) == record else {
        return (nil, nil)
      }
      writer.addRecord(type: type)
      joined[id] = record
      objects.append(object)
      paths.append(path)
      parents.append(parent)
      queue.append((object, node, record))
      return (record, nil)
    }
  }
  // Unchecked, for speed (docs/Performance.md): no app code runs or object is freed in a step.
  @exclusivity(unchecked) private var walk = Walk()
  /// Records whose values reference paths that had no record yet when their encode returned.
  private var deferred: [(record: Int, coder: StateCoder)] = []
  /// An archived object's coder that nothing else holds, to reuse for the next object.
  private var spareCoder: StateCoder?
  private(set) var issues: [PreservationReport.Issue] = []

  /// What makes two records' types equal, without their names.
  private struct TypeKey: Hashable {
    var type: ObjectIdentifier
    var restorationClass: ObjectIdentifier?
    var kind: RestorationKind
    var storyboard: StoryboardReference?
    // Objects of one class nearly always share the rest: its identity alone is hashed.
    func _rawHashValue(seed: Int) -> Int { type._rawHashValue(seed: seed) }
  }

  init(
    registry: RestorationRegistry, classNames: ClassNames, limits: ArchiveLimits,
    warn: @escaping (String) -> Void
  ) {
    (self.registry, self.classNames, self.limits, self.warn) = (registry, classNames, limits, warn)
    resolver.onCycle = { [unowned self] in self.issue(.parentCycle, nil, $0) }
  }

  /// The coder of the top level, whose references join the walk.
  func makeTopLevelCoder() -> StateCoder { StateCoder(identifierPath: nil, pass: self) }

  /// Walks from the roots, encoding every object.
  func run(roots: [any StateRestoring]) {
    for root in roots { join(root) }
    while let (object, node, record) = walk.queue.popFirst() { visit(object, node, record: record) }
  }

  /// Adds an object to the walk, and returns its record and path if it has a path that can be
  /// archived; a `container` being visited (its record or -1, its path or prefix) extends its
  /// child's path.
  @discardableResult
  private func join(
    _ object: any StateRestoring,
    in container: (object: AnyObject, record: Int, path: String)? = nil
  ) -> (record: Int, path: String)? {
    let id = ObjectIdentifier(object)
    // Marked left out until it has a record, so that a reference to it while its path is
    // computed is not followed.
    if let known = walk.startJoining(id) { return known.path.map { (known.record, $0) } }
    let node = object as? any RestorationNode
    var path: String?
    var parent = -2
    if let container, walk.startResolving() {
      if let link = IdentifierPathResolver.parentLink(of: object, node: node),
        link.parent === container.object
      {
        let identifier = object.restorationIdentifier
        let prefix = IdentifierPath.joining(
          container.path, index: link.index, identifier: identifier)
        path = identifier == nil ? nil : prefix
        parent =
          container.record >= 0
          ? container.record : walk.crossed[ObjectIdentifier(container.object)]?.ancestor ?? -1
        if identifier == nil, let node, node.restorationKind == .view {
          walk.crossed[id] = (prefix, parent)
        }
      } else {
        path = resolver.path(of: object)
      }
      walk.resolving = false
    } else {
      path = computePath(of: object)
    }
    guard let path else {
      walk.joined[id] = -1
      // A view without an identifier is crossed, to the identified views below it.
      if let node, node.restorationKind == .view { walk.queue.append((object, node, -1)) }
      return nil
    }
    let restorationClass = object.objectRestorationClass
    let type = typeNumber(of: object, node: node, restorationClass: restorationClass)
    let (record, problem) = walk.admit(
      object, id, node: node, path: path, parent: parent, type: type.number, limits: limits)
    if let problem {
      issue(
        .identifierPathTooLong, path,
        "a \(classNames.name(of: object)) has \(problem); it and its subtree were left out, since the archive could not be read back"
      )
    } else if record == nil {
      issue(
        .duplicatePath, path,
        "a \(classNames.name(of: object)) has the same identifier path as an object already archived; it and its subtree were left out"
      )
    } else if !type.isRegistered, let restorationClass {
      issue(
        .restorationClassNotRegistered, path,
        "restoration class \(ClassNames.typeName(restorationClass)) is not registered; the object cannot be re-created at launch"
      )
    }
    return record.map { ($0, path) }
  }

  /// The number of an object's type in the archive, its names looked up once per type.
  private func typeNumber(
    of object: any StateRestoring, node: (any RestorationNode)?,
    restorationClass: (any ObjectRestoration.Type)?
  ) -> RecordTypeNumber {
    let key = TypeKey(
      type: ObjectIdentifier(type(of: object)),
      restorationClass: restorationClass.map(ObjectIdentifier.init),
      kind: node?.restorationKind ?? .object, storyboard: node?.restorationStoryboard)
    if let known = walk.knownType(key) { return known }
    let type = RecordType(
      kind: key.kind, className: classNames.name(of: object),
      restorationClassName: restorationClass.map(registry.name(of:)),
      storyboard: key.storyboard, stateVersion: max(0, object.restorationStateVersion))
    let made = (
      walk.writer.typeNumber(of: type), restorationClass.map(registry.isRegistered) ?? true
    )
    (walk.types[key], walk.lastType) = (made, (key, made))
    return made
  }

  private func visit(_ object: any StateRestoring, _ node: (any RestorationNode)?, record: Int) {
    // Children join the walk before the encode runs, so that the archive lists them in tree
    // order even when the encode references one of them.
    if let node {
      // A view crossed by the resolver has no prefix here: its children take the resolver's way.
      let path = record >= 0 ? walk.paths[record] : walk.crossed[ObjectIdentifier(object)]?.prefix
      let container = path.map { (object as AnyObject, record, $0) }
      for child in node.restorationChildren { join(child, in: container) }
      if let presented = node.restorationPresentedNode { join(presented, in: container) }
    }
    guard record >= 0 else { return }
    let path = walk.paths[record]
    var coder: StateCoder
    if let spare = spareCoder {
      spareCoder = nil
      spare.reset(identifierPath: path)
      coder = spare
    } else {
      coder = StateCoder(identifierPath: path, pass: self)
    }
    var thrown: (any Error)?
    do {
      try object.encodeRestorableState(with: coder)
    } catch { thrown = error }
    for error in coder.errors {
      issue(.encodeFailed, path, "\(error.message); the other keys are kept")
    }
    if let thrown, !((thrown as? RestorationError).map(coder.errors.contains) ?? false) {
      issue(.encodeFailed, path, "encode threw \(thrown); the keys written before it are kept")
    }
    if write(coder, record: record, final: false) == nil {
      deferred.append((record, coder))
    } else if isKnownUniquelyReferenced(&coder) {
      spareCoder = coder
    }
  }

  private func computePath(of object: any StateRestoring) -> String? {
    guard walk.startResolving() else { return nil }
    defer { walk.resolving = false }
    return resolver.path(of: object)
  }

  /// Adds `object` to the walk and returns its record's number and path, or nil when it has no
  /// path that can be archived (it is then not referenced, and the report says why).
  func encodeReference(
    to object: any StateRestoring, key: String, from coderPath: String?
  ) -> (Int, String)? {
    if walk.resolving {
      issue(
        .referenceWithoutPath, coderPath,
        "key '\(key)' was encoded while an identifier path was being computed; the reference was not encoded"
      )
      return nil
    }
    if let joined = join(object) { return joined }
    issue(
      .referenceWithoutPath, coderPath,
      walk.joined[ObjectIdentifier(object)] == -2
        ? "key '\(key)' references an object left out of the archive; the reference was not encoded"
        : "key '\(key)' references a \(classNames.name(of: object)) that has no restoration identifier path; the reference was not encoded"
    )
    return nil
  }

  // MARK: Writing

  /// Writes what a coder holds as a record's state, or with `record` -1 returns the top
  /// level's keys and value objects; nil, writing nothing, when a value references a path
  /// without a record and `final` is false.
  @discardableResult
  private func write(
    _ coder: StateCoder, record: Int, final: Bool
  ) -> [(key: String, value: Int)]? {
    let log = coder.log
    let sensitive = log.sensitiveKeys
    let recordsByPath = walk.recordsByPath
    // The writes of sensitive keys, and of keys left out. A reference made by hand is checked
    // before anything is written: its record may come later in the walk, and a key that cannot
    // be written must leave nothing in the file.
    var skipped: Set<Int> = []
    for index in log.writes.indices where !log.writes[index].isRemoval {
      if !sensitive.isEmpty, sensitive.contains(log.keys[index]) {
        skipped.insert(index)
        continue
      }
      guard record < 0 || log.writes[index].mayReferencePath else { continue }
      let key = log.keys[index]
      if record < 0, RestorationArchive.Key.reserved.contains(key) {
        issue(
          .reservedKey, nil, "the top-level key '\(key)' is reserved; the app's value was ignored")
        skipped.insert(index)
      } else if case .value(let value) = log.writes[index],
        let path = Self.missingPath(in: value, recordsByPath)
      {
        guard final else { return nil }
        issue(
          .referenceWithoutPath, record < 0 ? nil : walk.paths[record],
          "key '\(key)' references '\(path)', which has no record in the archive; the key was left out"
        )
        skipped.insert(index)
      }
    }
    let written = walk.writer.add(
      log, record: record, skipping: skipped,
      sensitiveKeys: sensitive.isEmpty ? [] : sensitive.sorted(),
      records: recordsByPath)
    return written.map { (log.keys[$0.write], $0.value) }
  }

  /// The first path a value references that has no record, if any.
  private static func missingPath(in value: StateValue, _ records: [PathKey: Int]) -> String? {
    switch value {
    case .reference(let path): return records[PathKey(path)] == nil ? path : nil
    case .array(let elements):
      return elements.lazy.compactMap { missingPath(in: $0, records) }.first
    case .dictionary(let entries):
      return entries.values.lazy.compactMap { missingPath(in: $0, records) }.first
    default: return nil
    }
  }

  /// The archive: the records whose references waited for the walk to end, the top level (the
  /// engine's keys, then the app's from `topCoder`), and every record's place.
  func finish(
    engineKeys: [(key: String, value: StateValue)], topCoder: StateCoder
  ) -> (bytes: [UInt8], paths: [String]) {
    for (record, coder) in deferred { write(coder, record: record, final: true) }
    deferred = []
    var top: [(key: String, value: Int)] = engineKeys.compactMap { key, value in
      (try? walk.writer.add(value, records: [:])).map { (key, $0) }
    }
    top += write(topCoder, record: -1, final: true) ?? []
    let (paths, parents) = (walk.paths, nearestArchivedAncestors())
    let order = parentsFirst(parents)
    let bytes = walk.writer.finish(topLevel: top, paths: paths, parents: parents, order: order)
    return (bytes, order.map { $0.map { paths[$0] } } ?? paths)
  }

  /// Each record's nearest ancestor in the archive, found by climbing the objects above it
  /// once each; -1 for none.
  private func nearestArchivedAncestors() -> [Int] {
    var nearest: [ObjectIdentifier: Int] = [:]
    let (objects, parents) = (walk.objects, walk.parents)
    return objects.indices.map { record in
      guard parents[record] == -2 else { return parents[record] }
      var climbed: [ObjectIdentifier] = []
      var current = resolver.parent(of: ObjectIdentifier(objects[record]))
      var found = -1
      while let id = current {
        if let known = nearest[id] {
          found = known
          break
        }
        if let number = walk.joined[id], number >= 0 {
          found = number
          break
        }
        climbed.append(id)
        current = resolver.parent(of: id)
      }
      for id in climbed { nearest[id] = found }
      return found
    }
  }

  /// The records parents first, otherwise in the order numbered; nil when that is the order
  /// numbered already, as a breadth-first walk almost always is.
  private func parentsFirst(_ parents: [Int]) -> [Int]? {
    guard parents.indices.contains(where: { parents[$0] > $0 }) else { return nil }
    var waiting: [Int: [Int]] = [:]
    var placed = [Bool](repeating: false, count: parents.count)
    var order: [Int] = []
    order.reserveCapacity(parents.count)
    for record in parents.indices {
      guard parents[record] < 0 || placed[parents[record]] else {
        waiting[parents[record], default: []].append(record)
        continue
      }
      var ready = [record]
      while let next = ready.popLast() {
        order.append(next)
        placed[next] = true
        ready.append(contentsOf: (waiting.removeValue(forKey: next) ?? []).reversed())
      }
    }
    // Parents are ancestors, so every record was placed; a record that was not keeps a place.
    for record in parents.indices where !placed[record] { order.append(record) }
    return order
  }

  func issue(_ kind: PreservationReport.Issue.Kind, _ path: String?, _ message: String) {
    let issue = PreservationReport.Issue(kind: kind, identifierPath: path, message: message)
    issues.append(issue)
    warn("Warning! \(issue)")
  }
}
