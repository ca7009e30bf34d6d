/// A record whose fields its coder holds: the pass sets them once the object's encode has
/// returned, and never changes them after.
protocol CoderHeldRecord {
  var coder: StateCoder { get }
}

extension CoderHeldRecord {
  var identifierPath: String { coder.identifierPath ?? "" }
  var identifierPathBytes: PathBytes? { coder.path }
  var kind: RestorationKind { coder.recordKind }
  var className: String { coder.recordClassName }
  var restorationClassName: String? { coder.recordRestorationClassName }
  var storyboard: StoryboardReference? { coder.recordStoryboard }
}

/// One preserved object of a pass: its coder as the object left it.
struct PassRecord: CoderHeldRecord {
  let coder: StateCoder
}

/// One walk of the object tree that builds an archive's records.
///
/// Objects are visited breadth-first from the roots; each gets a fresh coder. References
/// encoded into a coder add the referenced object to the walk (UIKit's "roots to preserve"), so a
/// registered object or a controller under a parent without identifier is still archived when
/// something references it. Records are finally ordered by depth, so parents always precede
/// children in the archive.
///
/// The records keep their coders: ``archiveBytes(topLevel:)`` writes the archive straight from
/// them, and ``archiveRecords()`` makes the public ``RestorationArchive/Record`` values only when
/// ``RestorationEngine/makeArchive(roots:)`` asks for them.
final class PreservationPass {
  // The tables below are marked `@exclusivity(unchecked)`: each object touches them a dozen
  // times, and the runtime's exclusivity checks of class properties cost more than the tables'
  // own work. The pass never holds an access to one across a call into app code that could
  // reenter it (an encode method encoding a reference).
  private let registry: RestorationRegistry
  @exclusivity(unchecked) private var classNames: ClassNames
  private let warn: (String) -> Void
  @exclusivity(unchecked) private var resolver: IdentifierPathResolver

  /// The objects still to visit, in order; each is moved out to `visited` for its visit.
  @exclusivity(unchecked) private var queue: [(any StateRestoring)?] = []
  /// The objects visited, held until the walk ends, so that no object's identity is reused
  /// while the pass's tables key on it.
  ///
  /// Moved out of the queue rather than read from it: a read retained and released each object,
  /// on the runtime's slow path for an object that is referenced weakly (1.7 M instructions per
  /// preserve of 10,000 objects), and an `unowned(unsafe)` read or a borrowed slot did not spare
  /// the pair.
  @exclusivity(unchecked) private var visited: [any StateRestoring] = []
  @exclusivity(unchecked) private var enqueued = IdentityMap<Bool>()
  /// The record that owns each archived path, as its index in `records`.
  @exclusivity(unchecked) private var pathOwners = PathTable()
  /// The bytes of every path of the pass; each coder keeps it alive for its own.
  private let paths = PathStorage()
  /// The key names of every coder of the pass.
  let keys = CoderKeys()
  /// The pass as its coders see it.
  private let link = PassLink<PreservationPass>()
  /// The restoration class seen last, with its registered name: most objects share a handful.
  @exclusivity(unchecked) private var lastRestorationClass:
    (type: ObjectIdentifier, name: String, registered: Bool)?
  @exclusivity(unchecked) private(set) var records: [PassRecord] = []
  @exclusivity(unchecked) private var depths: [Int] = []
  /// The archive order, as indices into `records`; nil when the walk's order is already the
  /// archive's (parents first), as it almost always is.
  private var order: [Int]?
  private(set) var issues: [PreservationReport.Issue] = []
  /// The reader's limits, which every archived path must meet.
  private let limits: ArchiveLimits
  /// The length of the paths archived so far.
  private var pathLength = 0

  /// The writer adding records on a background queue, once the walk has archived
  /// `concurrentWriteThreshold` records, counting each encoded reference as one more.
  private var concurrentWriter: ConcurrentRecordWriter?
  private let concurrentWriteThreshold: Int
  private let expectedObjects: Int
  /// How many records, and key names, have been sent to `concurrentWriter`.
  private var sentRecords = 0
  private var sentKeyNames = 0
  /// How many references the walk's coders have encoded.
  @exclusivity(unchecked) private var encodedReferenceCount = 0
  /// The records plus references when the last batch was sent.
  private var sentWork = 0
  /// Records sent to the concurrent writer at a time, counting references as in the threshold:
  /// few enough that it starts early and keeps up, many enough that queueing costs nothing next
  /// to writing them.
  private static let concurrentBatchSize = 128

  /// Creates a pass.
  ///
  /// - Parameters:
  ///   - registry: The registry of restoration classes.
  ///   - classNames: The class-name cache.
  ///   - limits: The reader's limits, which every archived path must meet.
  ///   - expectedObjects: How many objects the walk is expected to visit (the last pass's
  ///     count): its tables are sized for as many up front, where growing them step by step
  ///     rehashed every identity and path several times.
  ///   - concurrentWriteThreshold: How many records, counting each reference their coders
  ///     encoded as one more, the walk archives before a background queue starts adding them to
  ///     the archive; `Int.max` writes every record after the walk.
  ///   - warn: Where warnings go.
  init(
    registry: RestorationRegistry,
    classNames: ClassNames,
    limits: ArchiveLimits = .default,
    expectedObjects: Int = 0,
    concurrentWriteThreshold: Int = .max,
    warn: @escaping (String) -> Void
  ) {
    self.registry = registry
    self.limits = limits
    self.expectedObjects = expectedObjects
    self.concurrentWriteThreshold = max(1, concurrentWriteThreshold)
    self.classNames = classNames
    self.warn = warn
    self.resolver = IdentifierPathResolver(storage: paths)
    resolver.onCycle = { [unowned self] message in
      self.issue(.parentCycle, nil, message)
    }
    link.attach(self)
    if expectedObjects > 0 {
      resolver.reserveCapacity(expectedObjects)
      enqueued.reserveCapacity(expectedObjects)
      pathOwners = PathTable(capacity: expectedObjects)
      queue.reserveCapacity(expectedObjects)
      visited.reserveCapacity(expectedObjects)
      records.reserveCapacity(expectedObjects)
      depths.reserveCapacity(expectedObjects)
    }
  }

  deinit {
    link.cut()
  }

  /// How many objects the walk visited (archived or not).
  private(set) var visitedObjectCount = 0

  /// The class-name cache, handed back to the engine for the next pass.
  var updatedClassNames: ClassNames { classNames }

  /// Makes the top-level coder, whose references join the walk.
  func makeTopLevelCoder() -> StateCoder {
    StateCoder(path: nil, storage: paths, link: link, keys: keys)
  }

  /// Walks from the roots, encoding every object; the records are then in `records`, and
  /// ``identifierPathList`` lists them in archive order.
  func run(roots: [any StateRestoring]) {
    for root in roots { enqueue(root) }
    var head = 0
    while head < queue.count {
      guard let object = queue[head].take() else { preconditionFailure("walk queue revisited") }
      head += 1
      visit(object)
      visited.append(consume object)
      let work = records.count + encodedReferenceCount
      if work >= concurrentWriteThreshold, records.count > sentRecords,
        work - sentWork >= Self.concurrentBatchSize || concurrentWriter == nil
      {
        sendRecords()
        sentWork = work
      }
    }
    if concurrentWriter != nil, sentRecords < records.count { sendRecords() }
    order = orderByDepth()
    // The walk's references to the app's objects are let go here, on the calling thread (an
    // object the app dropped meanwhile is freed where the app expects), and now, while the
    // concurrent writer adds the records the walk left it: releasing ten thousand objects took
    // half a millisecond that the calling thread otherwise spent after the archive was done.
    visitedObjectCount = visited.count
    queue = []
    visited = []
  }

  /// Sends the records archived since the last batch to the concurrent writer, starting it
  /// first if need be.
  private func sendRecords() {
    let writer: ConcurrentRecordWriter
    if let concurrentWriter {
      writer = concurrentWriter
    } else {
      // Sized by the work so far, as the start is: a first pass, with no count from a pass
      // before, starts the writer after a handful of records when they reference many objects,
      // and tables sized for four times that handful grew and rehashed nine times over.
      writer = ConcurrentRecordWriter(
        estimatedRecordCount: max(expectedObjects, (records.count + encodedReferenceCount) * 4))
      concurrentWriter = writer
    }
    var batch: [RecordSnapshot] = []
    batch.reserveCapacity(records.count - sentRecords)
    records.withUnsafeBufferPointer { records in
      for index in sentRecords..<records.count {
        let coder = records[index].coder
        let sensitiveKeys = coder.sensitiveKeys
        batch.append(
          RecordSnapshot(
            coder: coder,
            entries: coder.handOffEntries(),
            sensitiveKeys: sensitiveKeys.isEmpty ? [] : sensitiveKeys.sorted()
          ))
      }
    }
    sentRecords = records.count
    let names = keys.names
    let newKeyNames = sentKeyNames < names.count ? Array(names[sentKeyNames...]) : []
    sentKeyNames = names.count
    writer.add(batch, newKeyNames: newKeyNames)
  }

  /// The archive builder with every record added by the concurrent writer, once it is done.
  ///
  /// Nil when there is no writer, or when its records cannot be used: the archive's order is not
  /// the walk's, or a coder was changed after its record was sent.
  func concurrentlyAddedRecords() -> ArchiveBuilder? {
    guard let concurrentWriter else { return nil }
    self.concurrentWriter = nil
    // `run` sent the last records after the walk, so every record is with the writer.
    guard order == nil, !keys.writtenAfterHandOff else { return nil }
    return concurrentWriter.finish()
  }

  /// Frees the pass's tables on a background queue; the pass is spent afterwards.
  ///
  /// They hold no app object: ``run(roots:)`` let go of those on the calling thread.
  func releaseTablesInBackground() {
    // Taken out of the pass into the call's argument, with no copy left here: a copy released
    // at the end of this scope would free the tables here whenever the queue dropped its own
    // first.
    BackgroundRelease.release(
      (
        exchange(&records, with: []), exchange(&pathOwners, with: PathTable()),
        exchange(&resolver, with: IdentifierPathResolver()),
        exchange(&enqueued, with: IdentityMap()), exchange(&depths, with: []),
        exchange(&positions, with: [])
      ))
  }

  /// The number of records.
  var recordCount: Int { records.count }

  /// The index in `records` of the record at a position of the archive.
  @inline(__always)
  func recordIndex(at position: Int) -> Int {
    guard let order else { return position }
    return order[position]
  }

  /// The archived paths, in archive order, as bytes that become strings when first read.
  var identifierPathList: IdentifierPathList {
    IdentifierPathList(
      bytes: (0..<records.count).map { records[recordIndex(at: $0)].coder.path ?? .empty },
      in: paths)
  }

  /// The records as the public model, in archive order.
  func archiveRecords() -> [RestorationArchive.Record] {
    (0..<records.count).map { position in
      let record = records[recordIndex(at: position)]
      return RestorationArchive.Record(
        identifierPath: record.identifierPath,
        kind: record.kind,
        className: record.className,
        restorationClassName: record.restorationClassName,
        storyboard: record.storyboard,
        state: record.coder.values,
        sensitiveKeys: record.coder.sensitiveKeys.sorted()
      )
    }
  }

  /// The archive position of the record that owns a path.
  func archivePosition(ofPath path: PathBytes) -> Int? {
    guard let index = pathOwners.inPlace({ $0.value(for: path) }) else { return nil }
    guard let order else { return index }
    if positions.isEmpty {
      positions = [Int](repeating: 0, count: order.count)
      for (position, index) in order.enumerated() { positions[index] = position }
    }
    return positions[index]
  }
  @exclusivity(unchecked) private var positions: [Int] = []

  // Borrowing and inlined, so that a child passed from its parent's array is not copied for
  // the call: a retain and a release on the runtime's slow path for an object that is referenced
  // weakly (a child's parent usually is). The queue's own copy is the only one made.
  @inline(__always)
  private func enqueue(_ object: borrowing any StateRestoring) {
    if enqueued.insert(true, for: ObjectIdentifier(object)) {
      queue.append(copy object)
    }
  }

  /// Adds a node's children, then what it presents, to the walk.
  private func enqueueNodes(below node: any RestorationNode) {
    // Handed over one by one: the array of `restorationChildren` was an allocation per node, and
    // a retain and a release of every child on the runtime's slow path.
    node.forEachRestorationChild { enqueue($0) }
    if let presented = node.restorationPresentedNode { enqueue(presented) }
  }

  private func visit(_ object: any StateRestoring) {
    guard let (path, depth) = pathAndDepth(of: object) else {
      // No identifier: a controller or object cuts itself and its subtree out (UIKit's rule);
      // a view is crossed, so identified views deeper in its controller's tree are found.
      object.withRestorationNode { node in
        switch node {
        case .some(let node) where node.restorationKind == .view: enqueueNodes(below: node)
        default: break
        }
      }
      return
    }
    if let problem = limits.identifierPathProblem(path.string, total: &pathLength) {
      pathLength -= path.string.utf8.count
      issue(
        .identifierPathTooLong,
        path.string,
        "a \(classNames.name(of: object)) has \(problem); it and its subtree were left out, since the archive could not be read back"
      )
      return
    }
    let lookup = pathOwners.inPlace { $0.lookUp(path) }
    if lookup.value != nil {
      issue(
        .duplicatePath,
        path.string,
        "a \(classNames.name(of: object)) has the same identifier path as an object already archived; it and its subtree were left out"
      )
      return
    }
    // Tree children join the walk before the encode runs, so the archive lists them in tree
    // order even when the encode references one of them (a tab bar's selected tab), as UIKit's
    // root paths are listed. The node's kind and storyboard are read while it is lent.
    let (kind, storyboard) = object.withRestorationNode {
      node -> (RestorationKind, StoryboardReference?) in
      // A switch borrows the lent node, where `guard let` copied it.
      switch node {
      case .some(let node):
        enqueueNodes(below: node)
        return (node.restorationKind, node.restorationStoryboard)
      case .none:
        return (.object, nil)
      }
    }

    pathOwners.insert(path, records.count, at: lookup)
    let coder = StateCoder(path: path, storage: paths, link: link, keys: keys)
    var thrown: (any Error)?
    do {
      try object.encodeRestorableState(with: coder)
    } catch {
      thrown = error
    }
    for error in coder.errors {
      issue(.encodeFailed, path.string, "\(error.message); the other keys are kept")
    }
    if let thrown, !((thrown as? RestorationError).map(coder.errors.contains) ?? false) {
      issue(
        .encodeFailed, path.string, "encode threw \(thrown); the keys written before it are kept"
      )
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
          path.string,
          "restoration class \(ClassNames.typeName(type)) is not registered; the object cannot be re-created at launch"
        )
      }
    }

    coder.recordKind = kind
    coder.recordClassName = classNames.name(of: object)
    coder.recordRestorationClassName = restorationClassName
    coder.recordStoryboard = storyboard
    records.append(PassRecord(coder: coder))
    depths.append(depth)
  }

  /// The path of an object with its hash, computed while no other computation is running.
  ///
  /// Computing a path calls the app's `restorationIdentifier` and `restorationContainer`; a
  /// coder kept from an earlier encode and used from one of those would come back here in the
  /// middle of the resolver's change, which its unchecked exclusivity does not allow: such a
  /// reference is refused instead.
  // Inlined into `encodeReference`, its one caller, where a call per reference was a hundredth
  // of the walk.
  @inline(__always)
  private func path(of object: any StateRestoring) -> PathBytes? {
    resolve { $0.pathBytes(of: object) }
  }

  /// The path of an object with its depth, computed as ``path(of:)`` computes it.
  private func pathAndDepth(of object: any StateRestoring) -> (path: PathBytes, depth: Int)? {
    resolve { $0.pathAndDepth(of: object) }.map { ($0.path, Int($0.depth)) }
  }

  /// Runs `body` on the resolver unless a computation is already running, which gets nil.
  private func resolve<Result>(_ body: (inout IdentifierPathResolver) -> Result?) -> Result? {
    guard !resolving else { return nil }
    resolving = true
    defer { resolving = false }
    return body(&resolver)
  }
  private var resolving = false

  /// Returns the identifier path of `object` and adds it to the archive, or nil when the object
  /// has no path (it is then not referenced, and the pass reports why).
  func encodeReference(
    to object: any StateRestoring, key: String, in coderPath: PathBytes?
  ) -> PathBytes? {
    if resolving {
      issue(
        .referenceWithoutPath,
        coderPath?.string,
        "key '\(key)' was encoded while an identifier path was being computed; the reference was not encoded"
      )
      return nil
    }
    guard let path = path(of: object) else {
      issue(
        .referenceWithoutPath,
        coderPath?.string,
        "key '\(key)' references a \(classNames.name(of: object)) that has no restoration identifier path; the reference was not encoded"
      )
      return nil
    }
    enqueue(object)
    encodedReferenceCount += 1
    return path
  }

  func issue(_ kind: PreservationReport.Issue.Kind, _ path: String?, _ message: String) {
    let issue = PreservationReport.Issue(kind: kind, identifierPath: path, message: message)
    issues.append(issue)
    warn("Warning! \(issue)")
  }

  /// A stable counting sort by depth: linear, and parents (shallower) always come first.
  ///
  /// - Returns: The archive order, or nil when the walk's order is already by depth.
  private func orderByDepth() -> [Int]? {
    guard let deepest = depths.max(), deepest > 1 else { return nil }
    // A breadth-first walk is usually in depth order already.
    if zip(depths, depths.dropFirst()).allSatisfy({ $0 <= $1 }) { return nil }
    var counts = [Int](repeating: 0, count: deepest + 2)
    for depth in depths { counts[depth + 1] += 1 }
    for index in 1..<counts.count { counts[index] += counts[index - 1] }
    var order = [Int](repeating: 0, count: records.count)
    for (index, depth) in depths.enumerated() {
      order[counts[depth]] = index
      counts[depth] += 1
    }
    return order
  }
}
