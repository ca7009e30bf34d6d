import StateRestoration
import StateRestorationStorage

/// Repeats one engine operation on a shape's state, so a profiler sees nothing else.
///
/// Preserve and restore use an in-memory store unless given a folder: profilers count
/// instructions, and the file system's time is not the engine's. With a folder they use a
/// ``FileArchiveStore`` there, to time what a preserve or restore costs with a real disk.
package struct EngineProfiler {
  let contender: EngineContender
  let engine: RestorationEngine
  let store: any ArchiveStore
  /// The archive of the state.
  package let bytes: [UInt8]

  /// What a restore starts from: a new process's launch objects and engine, and the archive in
  /// the store.
  package struct Launch {
    let launch: EngineLaunch
    let engine: RestorationEngine
  }

  /// Builds the state and one archive of it.
  ///
  /// - Parameters:
  ///   - objects: The number of objects.
  ///   - shape: The state's shape.
  ///   - selections: How the linear shape's selections vary.
  ///   - folder: A folder for a ``FileArchiveStore``; nil keeps the archive in memory.
  /// - Throws: When the archive cannot be made, or the folder cannot hold a store.
  package init(
    objects: Int, shape: StateShape = .linear, selections: UIState.Selections = .repeated,
    folder: String? = nil
  ) throws {
    contender = EngineContender(Workload(shape: shape, count: objects, selections: selections))
    if let folder {
      store = try FileArchiveStore(stateRoot: folder, bundleIdentifier: "com.example.benchmark")
    } else {
      store = InMemoryArchiveStore()
    }
    engine = contender.makeEngine(store: store)
    bytes = try contender.encode(with: engine)
  }

  /// Walks the objects and encodes them.
  package func encode() throws { try step(encoding: true) }

  /// Decodes the archive.
  package func decode() throws { try step(encoding: false) }

  @inline(never)
  func step(encoding: Bool) throws {
    if encoding {
      _ = try contender.encode(with: engine)
    } else {
      _ = try contender.decode(bytes)
    }
  }

  /// A full preserve.
  ///
  /// - Returns: The time of each phase, and of the whole call as `call`.
  @inline(never)
  @discardableResult
  package func preserve() throws -> [String: Duration] {
    let clock = ContinuousClock()
    let start = clock.now
    let report = engine.preserveApplicationState(roots: contender.model.roots)
    let call = clock.now - start
    try contender.check(report)
    return Self.timings(report.timings, call: call)
  }

  /// Puts the archive back in the store (a restore removes it once done) and builds what a new
  /// process has at launch, outside ``restore(_:)`` so that a profiler collecting it alone
  /// leaves this out.
  package func makeLaunch() throws -> Launch {
    try store.write(bytes, to: .archive)
    let launch = contender.model.makeLaunch()
    return Launch(
      launch: launch, engine: contender.makeEngine(store: store, registry: launch.registry))
  }

  /// A full restore into a launch's objects.
  ///
  /// - Returns: The time of each phase, and of the whole call as `call`.
  @inline(never)
  @discardableResult
  package func restore(_ launch: Launch) throws -> [String: Duration] {
    let clock = ContinuousClock()
    let start = clock.now
    let report = launch.engine.restoreApplicationState(roots: launch.launch.roots)
    let call = clock.now - start
    try contender.check(report)
    return Self.timings(report.timings, call: call)
  }

  private static func timings<Phase: RawRepresentable<String>>(
    _ phases: [Phase: Duration], call: Duration
  ) -> [String: Duration] {
    var result = Dictionary(uniqueKeysWithValues: phases.map { ($0.key.rawValue, $0.value) })
    result["call"] = call
    return result
  }
}

/// A Foundation contender's encode or decode, repeated for a profiler: both run in
/// `*ContenderProfiler*step*`, so that instruction counts compare with the engine's.
package struct ContenderProfiler {
  let coder: any ContenderCoder
  let bytes: [UInt8]

  /// Makes the contender's coder for a shape's state, and its bytes.
  package init(_ contender: Contender, _ workload: Workload) throws {
    coder = makeCoder(contender, workload)
    bytes = try coder.encode()
  }

  /// Encodes the state, or decodes its bytes.
  @inline(never)
  package func step(encoding: Bool) throws {
    if encoding {
      _ = try coder.encode()
    } else {
      try coder.decode(bytes)
    }
  }
}
