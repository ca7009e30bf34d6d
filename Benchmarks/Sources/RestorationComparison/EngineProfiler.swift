import StateRestoration

/// Repeats one engine operation on the benchmark's state, so a profiler sees nothing else.
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
  let count: Int

  /// Builds the state and one archive of it.
  ///
  /// - Parameters:
  ///   - objects: The number of objects.
  ///   - selections: How the screens' selections vary.
  ///   - folder: A folder for a ``FileArchiveStore``; nil keeps the archive in memory.
  /// - Throws: When the archive cannot be made, or the folder cannot hold a store.
  package init(
    objects: Int, selections: UIState.Selections = .repeated, folder: String? = nil
  ) throws {
    let state = UIState(count: objects, selections: selections)
    contender = EngineContender(state: state)
    if let folder {
      store = try FileArchiveStore(stateRoot: folder, bundleIdentifier: "com.example.benchmark")
    } else {
      store = InMemoryArchiveStore()
    }
    engine = contender.makeEngine(store: store)
    bytes = try contender.encode(with: engine)
    count = objects
  }

  /// Walks the tree and encodes it.
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
    let report = engine.preserveApplicationState(roots: [contender.root])
    let call = clock.now - start
    guard case .saved = report.outcome else { throw ComparisonFailure("not saved") }
    return Self.timings(report.timings, call: call)
  }

  /// A full restore into a fresh launch tree.
  ///
  /// - Returns: The time of each phase, and of the whole call as `call`.
  @inline(never)
  @discardableResult
  package func restore() throws -> [String: Duration] {
    // Put back before the timed call: a restore removes the archive once it is done.
    try store.write(bytes, to: .archive)
    let launch = contender.makeLaunchTree()
    let clock = ContinuousClock()
    let start = clock.now
    let report = engine.restoreApplicationState(roots: [launch])
    let call = clock.now - start
    guard report.restoredPaths.count == count else {
      throw ComparisonFailure("restored \(report.restoredPaths.count) of \(count)")
    }
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
