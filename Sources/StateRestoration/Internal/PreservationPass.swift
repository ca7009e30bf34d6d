internal import BinaryPropertyList
internal import DequeModule

/// One preservation: walks the tree from the roots, and every object referenced from an encode
/// method, encoding each object with an identifier path into a coder of its own.
///
/// The walk is UIKit's: breadth-first from the roots, a node's children then what it presents;
/// an object without an identifier cuts itself and its subtree out, except a view, which is
/// crossed so that identified views below it are still found. The archive lists parents before
/// their children.
final class PreservationPass {
  private let registry: RestorationRegistry
  private let limits: ArchiveLimits
  private let warn: (String) -> Void
  /// The class-name cache, handed back to the engine for the next pass.
  private(set) var classNames: ClassNames
  private var resolver = IdentifierPathResolver()
  private var queue: Deque<any StateRestoring> = []
  private var enqueued: Set<ObjectIdentifier> = []
  /// The objects enqueued, held until the walk ends so that their identities stay theirs.
  private var walked: [any StateRestoring] = []
  private var archived: Set<PathKey> = []
  private var records: [(record: RestorationArchive.Record, coder: StateCoder, depth: Int)] = []
  /// The length of the paths archived so far, for the limit on their total.
  private var pathLength = 0
  /// Whether a path is being computed: a coder used from app code that computes one (a kept
  /// coder, from `restorationIdentifier`) must not start another.
  private var resolving = false
  private(set) var issues: [PreservationReport.Issue] = []

  init(
    registry: RestorationRegistry, classNames: ClassNames, limits: ArchiveLimits,
    warn: @escaping (String) -> Void
  ) {
    self.registry = registry
    self.classNames = classNames
    self.limits = limits
    self.warn = warn
    resolver.onCycle = { [unowned self] in self.issue(.parentCycle, nil, $0) }
  }

  /// The coder of the top level, whose references join the walk.
  func makeTopLevelCoder() -> StateCoder {
    StateCoder(identifierPath: nil, pass: self)
  }

  /// Walks from the roots, encoding every object.
  func run(roots: [any StateRestoring]) {
    for root in roots { enqueue(root) }
    while let object = queue.popFirst() { visit(object) }
    walked = []
  }

  /// The records in archive order: parents before children, otherwise in walk order.
  func archiveRecords() -> [RestorationArchive.Record] {
    // A breadth-first walk is almost always in depth order; a stable sort keeps it so.
    let ordered =
      zip(records, records.dropFirst()).allSatisfy({ $0.depth <= $1.depth })
      ? records
      : records.enumerated().sorted {
        ($0.element.depth, $0.offset) < ($1.element.depth, $1.offset)
      }
      .map(\.element)
    var result = ordered.map { entry in
      var record = entry.record
      record.state = entry.coder.values
      record.sensitiveKeys = entry.coder.sensitiveKeys.sorted()
      return record
    }
    for index in result.indices where leftOut {
      result[index].state = withoutReferencesLeftOut(
        result[index].state, in: result[index].identifierPath)
    }
    return result
  }

  /// Whether an object with a path was left out of the archive for its path.
  private var leftOut = false

  /// The values without references to objects left out of the archive for their path, which
  /// would dangle; an issue says so for each.
  func withoutReferencesLeftOut(_ values: KeyedValues, in path: String?) -> KeyedValues {
    guard leftOut else { return values }
    func kept(_ value: StateValue, key: String) -> StateValue? {
      switch value {
      case .reference(let target) where !archived.contains(PathKey(target)):
        issue(
          .referenceWithoutPath, path,
          "key '\(key)' references an object left out of the archive; the reference was removed")
        return nil
      case .array(let elements):
        return .array(elements.compactMap { kept($0, key: key) })
      case .dictionary(let entries):
        return .dictionary(entries.compactMapValues { kept($0, key: key) })
      default:
        return value
      }
    }
    return KeyedValues(
      values.compactMap { entry in kept(entry.value, key: entry.key).map { (entry.key, $0) } })
  }
  private func enqueue(_ object: any StateRestoring) {
    guard enqueued.insert(ObjectIdentifier(object)).inserted else { return }
    queue.append(object)
    walked.append(object)
  }

  private func enqueueChildren(of node: any RestorationNode) {
    for child in node.restorationChildren { enqueue(child) }
    if let presented = node.restorationPresentedNode { enqueue(presented) }
  }

  private func visit(_ object: any StateRestoring) {
    let node = object as? any RestorationNode
    guard let (path, depth) = computePath(of: object) else {
      // A view without an identifier is crossed, to the identified views below it.
      if let node, node.restorationKind == .view { enqueueChildren(of: node) }
      return
    }
    if let problem = limits.identifierPathProblem(path, total: &pathLength) {
      pathLength -= path.utf8.count
      leftOut = true
      issue(
        .identifierPathTooLong, path,
        "a \(classNames.name(of: object)) has \(problem); it and its subtree were left out, since the archive could not be read back"
      )
      return
    }
    guard archived.insert(PathKey(path)).inserted else {
      issue(
        .duplicatePath, path,
        "a \(classNames.name(of: object)) has the same identifier path as an object already archived; it and its subtree were left out"
      )
      return
    }
    // Children join the walk before the encode runs, so that the archive lists them in tree
    // order even when the encode references one of them.
    if let node { enqueueChildren(of: node) }
    let coder = StateCoder(identifierPath: path, pass: self)
    var thrown: (any Error)?
    do {
      try object.encodeRestorableState(with: coder)
    } catch {
      thrown = error
    }
    for error in coder.errors {
      issue(.encodeFailed, path, "\(error.message); the other keys are kept")
    }
    if let thrown, !((thrown as? RestorationError).map(coder.errors.contains) ?? false) {
      issue(.encodeFailed, path, "encode threw \(thrown); the keys written before it are kept")
    }
    var restorationClassName: String?
    if let type = object.objectRestorationClass {
      restorationClassName = registry.name(of: type)
      if !registry.isRegistered(type) {
        issue(
          .restorationClassNotRegistered, path,
          "restoration class \(ClassNames.typeName(type)) is not registered; the object cannot be re-created at launch"
        )
      }
    }
    let record = RestorationArchive.Record(
      identifierPath: path, kind: node?.restorationKind ?? .object,
      className: classNames.name(of: object), restorationClassName: restorationClassName,
      storyboard: node?.restorationStoryboard)
    records.append((record, coder, depth))
  }

  private func computePath(of object: any StateRestoring) -> (path: String, depth: Int)? {
    guard !resolving else { return nil }
    resolving = true
    defer { resolving = false }
    return resolver.pathAndDepth(of: object)
  }

  /// Returns the identifier path of `object` and adds it to the walk, or nil when the object
  /// has no path (it is then not referenced, and the report says why).
  func encodeReference(
    to object: any StateRestoring, key: String, from coderPath: String?
  ) -> String? {
    if resolving {
      issue(
        .referenceWithoutPath, coderPath,
        "key '\(key)' was encoded while an identifier path was being computed; the reference was not encoded"
      )
      return nil
    }
    guard let (path, _) = computePath(of: object) else {
      issue(
        .referenceWithoutPath, coderPath,
        "key '\(key)' references a \(classNames.name(of: object)) that has no restoration identifier path; the reference was not encoded"
      )
      return nil
    }
    enqueue(object)
    return path
  }

  func issue(_ kind: PreservationReport.Issue.Kind, _ path: String?, _ message: String) {
    let issue = PreservationReport.Issue(kind: kind, identifierPath: path, message: message)
    issues.append(issue)
    warn("Warning! \(issue)")
  }
}
