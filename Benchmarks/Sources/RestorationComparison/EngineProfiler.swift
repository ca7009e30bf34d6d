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
  ///   - usesBackgroundQueues: ``RestorationSettings/usesBackgroundQueues``.
  ///   - folder: A folder for a ``FileArchiveStore``; nil keeps the archive in memory.
  /// - Throws: When the archive cannot be made, or the folder cannot hold a store.
  package init(
    objects: Int, selections: UIState.Selections = .repeated, usesBackgroundQueues: Bool = true,
    folder: String? = nil
  ) throws {
    let state = UIState(count: objects, selections: selections)
    contender = EngineContender(state: state)
    if let folder {
      store = try FileArchiveStore(stateRoot: folder, bundleIdentifier: "com.example.benchmark")
    } else {
      store = InMemoryArchiveStore()
    }
    engine = contender.makeEngine(store: store, usesBackgroundQueues: usesBackgroundQueues)
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

/// The phase times of many calls of one operation, under several engine settings measured in
/// turn in one process.
///
/// This machine's speed moves by half or more from minute to minute, so settings measured in
/// separate runs differ by whenever each ran; calls taken in turn share the machine's moments.
package struct AlternatingTimings {
  /// The settings' names, in column order.
  package let settings: [String]
  private var samples: [String: [String: [Duration]]] = [:]

  /// Starts with no calls for each of `settings`.
  package init(settings: [String]) {
    self.settings = settings
  }

  /// Adds the phase times of one call under a setting.
  package mutating func add(_ timings: [String: Duration], for setting: String) {
    for (phase, time) in timings { samples[setting, default: [:]][phase, default: []].append(time) }
  }

  /// A table of the fastest and median time of each phase under each setting, the whole call
  /// first.
  package func table() -> String {
    let phases = Set(samples.values.flatMap(\.keys)).sorted {
      ($0 == "call" ? 0 : 1, $0) < ($1 == "call" ? 0 : 1, $1)
    }
    let width = max(5, phases.map(\.count).max() ?? 0)
    let calls = settings.map { samples[$0]?["call"]?.count ?? 0 }
    var lines = [
      "phase".padded(to: width) + "  "
        + zip(settings, calls).map { "\($0) (\($1) calls): fastest / median".padded(to: 36) }
        .joined(separator: "  ")
    ]
    for phase in phases {
      let cells = settings.map { setting -> String in
        guard let times = samples[setting]?[phase].map({ $0.map(\.milliseconds) }),
          let fastest = times.min(), let median = median(times)
        else { return "-".padded(to: 36) }
        return "\(milliseconds(fastest)) / \(milliseconds(median))".padded(to: 36)
      }
      lines.append(
        phase.padded(to: width) + "  "
          + cells.joined(separator: "  "))
    }
    return lines.map { line in
      var line = line
      while line.last == " " { line.removeLast() }
      return line
    }.joined(separator: "\n")
  }
}

extension String {
  fileprivate func padded(to width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
