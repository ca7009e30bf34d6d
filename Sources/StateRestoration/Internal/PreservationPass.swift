/// One walk of the object tree that builds an archive's records.
///
/// Objects are visited breadth-first from the roots; each gets a fresh coder. References
/// encoded into a coder add the referenced object to the walk (UIKit's "roots to preserve"), so a
/// registered object or a controller under a parent without identifier is still archived when
/// something references it. Records are finally ordered by depth, so parents always precede
/// children in the archive.
final class PreservationPass: ReferenceEncoding {
  private let registry: RestorationRegistry
  private var classNames: ClassNames
  private let warn: (String) -> Void
  private var resolver: IdentifierPathResolver

  private var queue: [any StateRestoring] = []
  private var enqueued = IdentityMap<Bool>()
  /// The object that owns each archived path, as its identity's bits.
  private var pathOwners = StringTable()
  /// The restoration class seen last, with its registered name: most objects share a handful.
  private var lastRestorationClass: (type: ObjectIdentifier, name: String, registered: Bool)?
  private var records: [RestorationArchive.Record] = []
  private var depths: [Int] = []
  private(set) var issues: [PreservationReport.Issue] = []

  init(registry: RestorationRegistry, classNames: ClassNames, warn: @escaping (String) -> Void) {
    self.registry = registry
    self.classNames = classNames
    self.warn = warn
    self.resolver = IdentifierPathResolver()
    resolver.onCycle = { [unowned self] message in
      self.issue(.parentCycle, nil, message)
    }
  }

  /// The class-name cache, handed back to the engine for the next pass.
  var updatedClassNames: ClassNames { classNames }

  /// Makes the top-level coder, whose references join the walk.
  func makeTopLevelCoder() -> StateCoder {
    StateCoder(identifierPath: nil, context: self)
  }

  /// Walks from the roots and returns the records, parents first.
  func run(roots: [any StateRestoring]) -> [RestorationArchive.Record] {
    for root in roots { enqueue(root) }
    var head = 0
    while head < queue.count {
      let object = queue[head]
      head += 1
      visit(object)
    }
    return recordsByDepth()
  }

  private func enqueue(_ object: any StateRestoring) {
    if enqueued.insert(true, for: ObjectIdentifier(object)) {
      queue.append(object)
    }
  }

  private func visit(_ object: any StateRestoring) {
    let node = object as? any RestorationNode
    guard let path = resolver.path(of: object) else {
      // No identifier: a controller or object cuts itself and its subtree out (UIKit's rule);
      // a view is crossed, so identified views deeper in its controller's tree are found.
      if let node, node.restorationKind == .view {
        for child in node.restorationChildren { enqueue(child) }
      }
      return
    }
    let identity = Int(bitPattern: UInt(bitPattern: ObjectIdentifier(object)))
    let owner = pathOwners.insert(path, identity).value
    if owner != identity {
      issue(
        .duplicatePath,
        path,
        "a \(classNames.name(of: object)) has the same identifier path as an object already archived; it and its subtree were left out"
      )
      return
    }
    // Tree children join the walk before the encode runs, so the archive lists them in tree
    // order even when the encode references one of them (a tab bar's selected tab), as UIKit's
    // root paths are listed.
    if let node {
      for child in node.restorationChildren { enqueue(child) }
    }

    let coder = StateCoder(identifierPath: path, context: self)
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
      let typeIdentity = ObjectIdentifier(type)
      let registered: Bool
      if let last = lastRestorationClass, last.type == typeIdentity {
        restorationClassName = last.name
        registered = last.registered
      } else {
        let name = registry.name(of: type)
        registered = registry.isRegistered(type)
        restorationClassName = name
        lastRestorationClass = (typeIdentity, name, registered)
      }
      if !registered {
        issue(
          .restorationClassNotRegistered,
          path,
          "restoration class \(String(describing: type)) is not registered; the object cannot be re-created at launch"
        )
      }
    }

    records.append(
      RestorationArchive.Record(
        identifierPath: path,
        kind: node?.restorationKind ?? .object,
        className: classNames.name(of: object),
        restorationClassName: restorationClassName,
        storyboard: node?.restorationStoryboard,
        state: coder.values,
        sensitiveKeys: coder.sensitiveKeys.sorted()
      )
    )
    depths.append(IdentifierPath.depth(of: path))
  }

  func encodeReference(to object: any StateRestoring, key: String, in coderPath: String?) -> String?
  {
    guard let path = resolver.path(of: object) else {
      issue(
        .referenceWithoutPath,
        coderPath,
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

  /// A stable counting sort by depth: linear, and parents (shallower) always come first.
  private func recordsByDepth() -> [RestorationArchive.Record] {
    guard let deepest = depths.max(), deepest > 1 else { return records }
    // A breadth-first walk is usually in depth order already; copying every record into a new
    // order costs a dozen reference-count operations per record.
    if zip(depths, depths.dropFirst()).allSatisfy({ $0 <= $1 }) { return records }
    var counts = [Int](repeating: 0, count: deepest + 2)
    for depth in depths { counts[depth + 1] += 1 }
    for index in 1..<counts.count { counts[index] += counts[index - 1] }
    var order = [Int](repeating: 0, count: records.count)
    for (index, depth) in depths.enumerated() {
      order[counts[depth]] = index
      counts[depth] += 1
    }
    return order.map { records[$0] }
  }
}
