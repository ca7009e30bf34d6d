import Foundation
import StateRestoration
import StateRestorationStorage

// glibc's malloc_trim, which the Glibc module does not export; it returns freed memory to the
// system so that one contender's leftovers do not hide the next one's peak.
@_silgen_name("malloc_trim")
private func mallocTrim(_ pad: Int) -> Int32

/// An encoder under comparison.
package enum Contender: String, CaseIterable, Sendable, Codable {
  case engine
  case propertyListEncoder = "plist-encoder"
  case propertyListSerialization = "plist-serialization"
  case jsonEncoder = "json-encoder"
  case keyedArchiver = "keyed-archiver"

  /// The name in tables.
  package var title: String {
    switch self {
    case .engine: "StateRestoration engine"
    case .propertyListEncoder: "PropertyListEncoder (binary)"
    case .propertyListSerialization: "PropertyListSerialization (binary)"
    case .jsonEncoder: "JSONEncoder"
    case .keyedArchiver: "NSKeyedArchiver"
    }
  }
}

/// What one contender measured at one size of one shape; times are medians, in milliseconds.
package struct Measurement: Codable, Sendable {
  package var contender: Contender
  /// The state's shape; runs saved before there were shapes measured the linear one.
  package var shape: StateShape
  package var objects: Int
  /// Encode to bytes (the engine: walk, coders and writer).
  package var encode: Double?
  /// Decode from bytes.
  package var decode: Double?
  /// The engine's full preserve: walk, encode, atomic write to a file.
  package var preserve: Double?
  /// The part of `preserve` spent writing the file (write, fsync, rename, fsync of the folder).
  package var preserveWrite: Double?
  /// The engine's full restore: read, decode, locate or re-create, decode every object.
  package var restore: Double?
  /// The engine's full preserve with the archive kept in memory (walk and encode, no file):
  /// the process's CPU time.
  package var preserveCPUTime: Double?
  /// The engine's full restore from an archive in memory (read, decode, re-create and decode
  /// every object, no file): the process's CPU time.
  package var restoreCPUTime: Double?
  /// The number of in-memory preserves and restores behind those two medians.
  package var cpuTimedCalls: Int?
  /// The bytes produced.
  package var bytes: Int?
  /// How far the resident set grew above its level before, while encoding and decoding once.
  package var peakMemory: Int?
  /// The number of timed runs behind each median.
  package var runs: Int
  /// Why the contender was not measured at this size.
  package var skipped: String?
  /// Each timed encode and decode, in the order they ran; the medians above are theirs.
  package var timedRuns: [TimedRun] = []
}

extension Measurement {
  /// Reads a measurement, of the linear shape when the file predates shapes.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    contender = try container.decode(Contender.self, forKey: .contender)
    shape = try container.decodeIfPresent(StateShape.self, forKey: .shape) ?? .linear
    objects = try container.decode(Int.self, forKey: .objects)
    encode = try container.decodeIfPresent(Double.self, forKey: .encode)
    decode = try container.decodeIfPresent(Double.self, forKey: .decode)
    preserve = try container.decodeIfPresent(Double.self, forKey: .preserve)
    preserveWrite = try container.decodeIfPresent(Double.self, forKey: .preserveWrite)
    restore = try container.decodeIfPresent(Double.self, forKey: .restore)
    preserveCPUTime = try container.decodeIfPresent(Double.self, forKey: .preserveCPUTime)
    restoreCPUTime = try container.decodeIfPresent(Double.self, forKey: .restoreCPUTime)
    cpuTimedCalls = try container.decodeIfPresent(Int.self, forKey: .cpuTimedCalls)
    bytes = try container.decodeIfPresent(Int.self, forKey: .bytes)
    peakMemory = try container.decodeIfPresent(Int.self, forKey: .peakMemory)
    runs = try container.decode(Int.self, forKey: .runs)
    skipped = try container.decodeIfPresent(String.self, forKey: .skipped)
    timedRuns = try container.decodeIfPresent([TimedRun].self, forKey: .timedRuns) ?? []
  }
}

/// One timed encode and decode of a contender.
package struct TimedRun: Codable, Sendable {
  /// When the encode started, in seconds since the comparison began: runs of two contenders
  /// that started close together compare best on a machine whose speed drifts.
  package var startedAt: Double
  /// The encode, in milliseconds.
  package var encode: Double
  /// The decode of the bytes that encode made, in milliseconds.
  package var decode: Double
}

/// Runs every contender at every size of every shape, side by side in one process.
package struct Comparison {
  package var sizes: [Int]
  package var runs: Int
  /// A contender is skipped at a size when its encode and decode would take longer than this.
  package var timeCap: Double
  package var contenders: [Contender]
  /// Where the engine's full preserve writes its archive.
  package var folder: String
  /// How the linear shape's selections vary.
  package var selections: UIState.Selections
  /// The shapes, measured one after the other at each size.
  package var shapes: [StateShape]

  package init(
    sizes: [Int], runs: Int, timeCap: Double, contenders: [Contender], folder: String,
    selections: UIState.Selections = .repeated, shapes: [StateShape] = StateShape.allCases
  ) {
    self.sizes = sizes
    self.runs = runs
    self.timeCap = timeCap
    self.contenders = contenders
    self.folder = folder
    self.selections = selections
    self.shapes = shapes
  }

  /// The most in-memory preserves and restores timed per measurement, and the CPU time after
  /// which no more are started once `runs` are done: enough calls for a steady median where
  /// one takes a millisecond, no more than `runs` where one takes a tenth of a second.
  static let cpuCallLimit = 101
  static let cpuTimeBudget = 100.0

  /// Measures everything.
  ///
  /// At each size, each shape in turn: every contender first encodes and decodes once, alone,
  /// for its peak memory. The timed runs then go in rounds: each round times every contender
  /// once, one after another, each timed run after an untimed round trip of its own, so that
  /// the runs a ratio compares were taken seconds apart, not minutes, on a machine whose speed
  /// drifts. Then the engine's full preserve and restore, to a file and in memory.
  ///
  /// - Parameter progress: Called with a line before each step.
  /// - Returns: One measurement per contender, shape and size, in the order measured.
  /// - Throws: ``ComparisonFailure`` when a contender loses data, or its encoder's error.
  package func run(progress: (String) -> Void) throws -> [Measurement] {
    var results: [Measurement] = []
    var history: [StateShape: History] = [:]
    let began = ContinuousClock().now
    for size in sizes {
      for shape in shapes {
        let workload = Workload(shape: shape, count: size, selections: selections)
        results += try measure(
          workload, history: &history[shape, default: [:]], since: began, progress: progress)
      }
    }
    return results
  }

  /// The encode and decode times of each contender at the sizes measured so far, in seconds.
  typealias History = [Contender: [(objects: Int, seconds: Double)]]

  /// Measures every contender on one shape at one size.
  private func measure(
    _ workload: Workload, history: inout History, since began: ContinuousClock.Instant,
    progress: (String) -> Void
  ) throws -> [Measurement] {
    let size = workload.count
    let label = "at \(size) (\(workload.shape.rawValue))"
    var measured: [(measurement: Measurement, repeats: Bool)] = []
    for contender in contenders {
      if let prediction = predict(history[contender] ?? [], size), prediction > timeCap {
        progress("\(contender.rawValue) \(label): skipped (predicted \(Int(prediction)) s)")
        measured.append(
          (
            Measurement(
              contender: contender, shape: workload.shape, objects: size, runs: 0,
              skipped:
                "predicted \(Int(prediction)) s for one encode and decode, above the cap of \(Int(timeCap)) s"
            ), false
          ))
        continue
      }
      progress("\(contender.rawValue) \(label)")
      measured.append(try measureFirstRoundTrip(contender, workload, since: began))
    }
    let timed = measured.indices.filter { measured[$0].repeats }
    if !timed.isEmpty {
      progress(
        "\(runs) round\(runs == 1 ? "" : "s") of \(timed.map { measured[$0].measurement.contender.rawValue }.joined(separator: ", ")) \(label)"
      )
    }
    do {
      // Made again, after every contender's peak was measured alone: a coder kept from its
      // first round trip held pages that later contenders then filled without growing the
      // resident set, and their peaks read low. Freed before the engine's full cycle.
      let coders = timed.map { makeCoder(measured[$0].measurement.contender, workload) }
      for _ in 0..<runs {
        for (index, coder) in zip(timed, coders) {
          measured[index].measurement.timedRuns.append(try timeRun(coder, since: began))
        }
      }
    }
    var results: [Measurement] = []
    for (var measurement, repeats) in measured {
      if repeats {
        measurement.encode = median(measurement.timedRuns.map(\.encode))
        measurement.decode = median(measurement.timedRuns.map(\.decode))
        measurement.runs = measurement.timedRuns.count
      }
      if measurement.skipped == nil {
        if measurement.contender == .engine {
          try measureInMemory(workload, into: &measurement)
        }
        history[measurement.contender, default: []].append(
          (size, ((measurement.encode ?? 0) + (measurement.decode ?? 0)) / 1000))
      }
      results.append(measurement)
    }
    // The full cycles, from the app's state to a file and back to live objects, in rounds too.
    let cycling = results.indices.filter {
      results[$0].skipped == nil
        && [.engine, .propertyListEncoder, .jsonEncoder].contains(results[$0].contender)
    }
    if !cycling.isEmpty {
      progress(
        "full preserve and restore of \(cycling.map { results[$0].contender.rawValue }.joined(separator: ", ")) \(label)"
      )
      try measureFullCycles(workload, into: &results, at: cycling)
    }
    return results
  }

  /// The time one encode and decode would take at `size`, from the sizes measured so far:
  /// extrapolated with the growth seen between the last two sizes, or as quadratic from one.
  private func predict(_ history: [(objects: Int, seconds: Double)], _ size: Int) -> Double? {
    guard let last = history.last else { return nil }
    var exponent = 2.0
    if history.count >= 2 {
      let previous = history[history.count - 2]
      if previous.seconds > 0, last.seconds > 0, last.objects > previous.objects {
        exponent =
          log(last.seconds / previous.seconds)
          / log(Double(last.objects) / Double(previous.objects))
        exponent = min(2.5, max(1, exponent))
      }
    }
    return last.seconds * pow(Double(size) / Double(last.objects), exponent)
  }

  /// Encodes and decodes once, measuring the peak memory; says whether the contender is to be
  /// timed again in rounds.
  ///
  /// A contender whose round trip took over a second is timed by it alone: at that length a
  /// warm-up changes nothing measurable, and a quadratic contender's second run would double a
  /// run of minutes.
  private func measureFirstRoundTrip(
    _ contender: Contender, _ workload: Workload, since began: ContinuousClock.Instant
  ) throws -> (measurement: Measurement, repeats: Bool) {
    let coder = makeCoder(contender, workload)
    let memoryBefore = Memory.startPeakTracking()
    let clock = ContinuousClock()
    let start = clock.now
    let bytes = try coder.encode()
    let encode = (clock.now - start).milliseconds
    let decodeStart = clock.now
    try coder.decode(bytes)
    let decode = (clock.now - decodeStart).milliseconds
    let peak = Memory.peakGrowth(since: memoryBefore)
    var measurement = Measurement(
      contender: contender, shape: workload.shape, objects: workload.count, bytes: bytes.count,
      peakMemory: peak, runs: 0)
    guard encode + decode <= 1000 else {
      measurement.timedRuns = [
        TimedRun(startedAt: (start - began).seconds, encode: encode, decode: decode)
      ]
      measurement.encode = encode
      measurement.decode = decode
      measurement.runs = 1
      return (measurement, false)
    }
    return (measurement, true)
  }

  /// Times one encode and one decode of the bytes it made, after a round trip untimed.
  ///
  /// The untimed round trip warms the contender up again after the others' runs: without it,
  /// a contender whose calls take a millisecond ran from cold caches, and one taking a hundred
  /// barely did (the engine's encode of 1,000 objects took 1.5 ms against 0.9 ms back to back).
  private func timeRun(
    _ coder: any ContenderCoder, since began: ContinuousClock.Instant
  ) throws -> TimedRun {
    let clock = ContinuousClock()
    try coder.decode(try coder.encode())
    let encodeStart = clock.now
    let bytes = try coder.encode()
    let encode = (clock.now - encodeStart).milliseconds
    let decodeStart = clock.now
    try coder.decode(bytes)
    let decode = (clock.now - decodeStart).milliseconds
    return TimedRun(startedAt: (encodeStart - began).seconds, encode: encode, decode: decode)
  }

  /// Each contender's full preserve (the app's state to a real file) and full restore (the
  /// file back to live objects), in wall-clock time, in rounds of one of each per contender.
  ///
  /// The engine's are its `preserveApplicationState` and `restoreApplicationState`, each restore
  /// a new process's: the objects the app builds at launch, and an engine with that launch's
  /// registry, made before the timed call. A Foundation contender's are
  /// ``FoundationFullCycle``'s, written as the engine writes its archive.
  private func measureFullCycles(
    _ workload: Workload, into results: inout [Measurement], at indices: [Int]
  ) throws {
    let contender = EngineContender(workload)
    let store = try FileArchiveStore(stateRoot: folder, bundleIdentifier: "com.example.benchmark")
    let engine = contender.makeEngine(store: store)
    let foundation = try indices.map { index in
      results[index].contender == .engine
        ? nil : try FoundationFullCycle(results[index].contender, workload, folder: folder)
    }
    var times = [(preserve: [Double], write: [Double], restore: [Double])](
      repeating: ([], [], []), count: indices.count)
    let clock = ContinuousClock()
    // The first round warms up the file system and the allocator.
    for round in 0..<max(1, runs) + 1 {
      for (position, cycle) in foundation.enumerated() {
        var (preserve, write, restore) = (0.0, 0.0, 0.0)
        if let cycle {
          let start = clock.now
          try cycle.preserve()
          preserve = (clock.now - start).milliseconds
          let restoreStart = clock.now
          let objects = try cycle.restore()
          restore = (clock.now - restoreStart).milliseconds
          withExtendedLifetime(objects) {}
        } else {
          let start = clock.now
          let report = engine.preserveApplicationState(roots: contender.model.roots)
          preserve = (clock.now - start).milliseconds
          try contender.check(report)
          write = report.timings[.write]?.milliseconds ?? 0
          let launch = contender.model.makeLaunch()
          let restoring = contender.makeEngine(store: store, registry: launch.registry)
          let restoreStart = clock.now
          let restored = restoring.restoreApplicationState(roots: launch.roots)
          restore = (clock.now - restoreStart).milliseconds
          try contender.check(restored)
          withExtendedLifetime(launch) {}
        }
        guard round > 0 else { continue }
        times[position].preserve.append(preserve)
        times[position].write.append(write)
        times[position].restore.append(restore)
      }
    }
    for (position, index) in indices.enumerated() {
      results[index].preserve = median(times[position].preserve)
      results[index].restore = median(times[position].restore)
      if results[index].contender == .engine {
        results[index].preserveWrite = median(times[position].write)
      }
    }
  }

  /// The engine's full preserve and restore with the archive in memory, in CPU time: what the
  /// engine costs without the disk, as a budget per call reads it.
  ///
  /// At least `runs` calls of each after one untimed, more while they take under
  /// ``cpuTimeBudget`` in all, up to ``cpuCallLimit``.
  private func measureInMemory(_ workload: Workload, into measurement: inout Measurement) throws {
    let contender = EngineContender(workload)
    let store = InMemoryArchiveStore()
    let engine = contender.makeEngine(store: store)
    var preserveTimes: [Double] = []
    var restoreTimes: [Double] = []
    var spent = 0.0
    var warm = false
    while preserveTimes.count < runs
      || (preserveTimes.count < Self.cpuCallLimit && spent < Self.cpuTimeBudget)
    {
      let launch = contender.model.makeLaunch()
      let restoring = contender.makeEngine(store: store, registry: launch.registry)
      let start = processCPUTime()
      let report = engine.preserveApplicationState(roots: contender.model.roots)
      let preserve = processCPUTime() - start
      try contender.check(report)
      let restoreStart = processCPUTime()
      let restored = restoring.restoreApplicationState(roots: launch.roots)
      let restore = processCPUTime() - restoreStart
      try contender.check(restored)
      withExtendedLifetime(launch) {}
      // The first cycle warms up the allocator and the engine's caches.
      if warm {
        preserveTimes.append(preserve)
        restoreTimes.append(restore)
        spent += preserve + restore
      }
      warm = true
    }
    measurement.preserveCPUTime = median(preserveTimes)
    measurement.restoreCPUTime = median(restoreTimes)
    measurement.cpuTimedCalls = preserveTimes.count
  }
}

// MARK: - The contenders' encode and decode

/// Encodes a shape's state held in a contender's terms, and decodes bytes back into those
/// terms.
package protocol ContenderCoder {
  /// The state's bytes.
  func encode() throws -> [UInt8]
  /// Decodes bytes and checks that no object was lost.
  func decode(_ bytes: [UInt8]) throws
  /// Decodes bytes into the records they hold, to compare contenders.
  func records(decoding bytes: [UInt8]) throws -> [ComparableRecord]
}

/// A contender's coder for a shape's state.
package func makeCoder(_ contender: Contender, _ workload: Workload) -> any ContenderCoder {
  switch (contender, workload) {
  case (.engine, _):
    EngineCoder(workload)
  case (.propertyListEncoder, .linear(let state)):
    CodableCoder(CodableArchive(state), .propertyList, UIState.schema, PropertyListArchive.make)
  case (.propertyListEncoder, .app(let state)):
    CodableCoder(
      AppCodableArchive(state), .propertyList, AppState.schema, AppPropertyListArchive.make)
  case (.jsonEncoder, .linear(let state)):
    CodableCoder(CodableArchive(state), .json, UIState.schema, PropertyListArchive.make)
  case (.jsonEncoder, .app(let state)):
    CodableCoder(AppCodableArchive(state), .json, AppState.schema, AppPropertyListArchive.make)
  case (.propertyListSerialization, .linear(let state)):
    PropertyListSerializationCoder(
      PropertyListArchive.make(CodableArchive(state)), count: state.count, schema: UIState.schema)
  case (.propertyListSerialization, .app(let state)):
    PropertyListSerializationCoder(
      AppPropertyListArchive.make(AppCodableArchive(state)), count: state.count,
      schema: AppState.schema)
  case (.keyedArchiver, .linear(let state)):
    KeyedArchiverCoder(KeyedNode.makeTree(state), count: state.count)
  case (.keyedArchiver, .app(let state)):
    KeyedArchiverCoder(KeyedAppNode.makeGraph(state), count: state.count)
  }
}

struct EngineCoder: ContenderCoder {
  let contender: EngineContender
  let engine: RestorationEngine
  let count: Int

  init(_ workload: Workload) {
    contender = EngineContender(workload)
    engine = contender.makeEngine(store: InMemoryArchiveStore())
    count = workload.count
  }

  func encode() throws -> [UInt8] { try contender.encode(with: engine) }

  func decode(_ bytes: [UInt8]) throws {
    let archive = try contender.decode(bytes)
    guard archive.records.count == count else { throw ComparisonFailure("engine lost records") }
  }

  func records(decoding bytes: [UInt8]) throws -> [ComparableRecord] {
    ComparableRecord.records(of: try contender.decode(bytes))
  }
}

/// A shape's archive as Codable values.
protocol CodableRecords: Codable {
  /// The number of records.
  var count: Int { get }
}

extension CodableArchive: CodableRecords {}
extension AppCodableArchive: CodableRecords {}

/// `PropertyListEncoder` (binary) or `JSONEncoder`, and their decoders.
struct CodableCoder<Archive: CodableRecords>: ContenderCoder {
  enum Format { case propertyList, json }

  let archive: Archive
  let format: Format
  let schema: [String: ValueType]
  /// The archive as property list objects, to read its records.
  let propertyList: (Archive) -> [String: Any]

  init(
    _ archive: Archive, _ format: Format, _ schema: [String: ValueType],
    _ propertyList: @escaping (Archive) -> [String: Any]
  ) {
    self.archive = archive
    self.format = format
    self.schema = schema
    self.propertyList = propertyList
  }

  func encode() throws -> [UInt8] {
    switch format {
    case .propertyList:
      let encoder = PropertyListEncoder()
      encoder.outputFormat = .binary
      return [UInt8](try encoder.encode(archive))
    case .json:
      return [UInt8](try JSONEncoder().encode(archive))
    }
  }

  func decoded(_ bytes: [UInt8]) throws -> Archive {
    switch format {
    case .propertyList: try PropertyListDecoder().decode(Archive.self, from: Data(bytes))
    case .json: try JSONDecoder().decode(Archive.self, from: Data(bytes))
    }
  }

  func decode(_ bytes: [UInt8]) throws {
    guard try decoded(bytes).count == archive.count else {
      throw ComparisonFailure("lost records")
    }
  }

  func records(decoding bytes: [UInt8]) throws -> [ComparableRecord] {
    try ComparableRecord.records(propertyList: propertyList(try decoded(bytes)), schema: schema)
  }
}

struct PropertyListSerializationCoder: ContenderCoder {
  let plist: [String: Any]
  let count: Int
  let schema: [String: ValueType]

  init(_ plist: [String: Any], count: Int, schema: [String: ValueType]) {
    self.plist = plist
    self.count = count
    self.schema = schema
  }

  func encode() throws -> [UInt8] {
    [UInt8](
      try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0))
  }

  func decoded(_ bytes: [UInt8]) throws -> Any {
    try PropertyListSerialization.propertyList(from: Data(bytes), format: nil)
  }

  func decode(_ bytes: [UInt8]) throws {
    guard let root = try decoded(bytes) as? [String: Any],
      let objects = root["objects"] as? [Any], objects.count == count
    else { throw ComparisonFailure("lost records") }
  }

  func records(decoding bytes: [UInt8]) throws -> [ComparableRecord] {
    try ComparableRecord.records(propertyList: try decoded(bytes), schema: schema)
  }
}

/// The root of a graph NSKeyedArchiver archives.
protocol KeyedArchiveRoot: NSObject, NSCoding {
  /// The number of objects in the graph.
  var objectCount: Int { get }
  /// The graph's records.
  func comparableRecords() -> [ComparableRecord]
}

extension KeyedNode: KeyedArchiveRoot {
  var objectCount: Int { treeCount }
}

extension KeyedAppNode: KeyedArchiveRoot {}

struct KeyedArchiverCoder<Root: KeyedArchiveRoot>: ContenderCoder {
  let root: Root
  let count: Int

  init(_ root: Root, count: Int) {
    self.root = root
    self.count = count
  }

  func encode() throws -> [UInt8] {
    [UInt8](try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false))
  }

  func decoded(_ bytes: [UInt8]) throws -> Root {
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: Data(bytes))
    unarchiver.requiresSecureCoding = false
    guard let decoded = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? Root
    else { throw ComparisonFailure("NSKeyedUnarchiver lost the root") }
    return decoded
  }

  func decode(_ bytes: [UInt8]) throws {
    guard try decoded(bytes).objectCount == count else {
      throw ComparisonFailure("NSKeyedUnarchiver lost objects")
    }
  }

  func records(decoding bytes: [UInt8]) throws -> [ComparableRecord] {
    try decoded(bytes).comparableRecords()
  }
}

// MARK: - Helpers

func median(_ values: [Double]) -> Double? {
  guard !values.isEmpty else { return nil }
  let sorted = values.sorted()
  return sorted.count % 2 == 1
    ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// The CPU time the process has used, in milliseconds: every thread's, so that work the engine
/// hands to another thread would still count.
func processCPUTime() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
}

extension Duration {
  var seconds: Double {
    let (whole, fraction) = components
    return Double(whole) + Double(fraction) / 1e18
  }

  var milliseconds: Double { seconds * 1000 }
}

/// Peak resident memory, from Linux's `/proc/self/status`, reset through `clear_refs`.
enum Memory {
  /// Returns freed memory to the system and resets the peak; returns the resident size now.
  static func startPeakTracking() -> Int? {
    _ = mallocTrim(0)
    guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return nil }
    handle.write(Data("5".utf8))
    try? handle.close()
    return status("VmRSS")
  }

  /// How far the peak resident size rose above `before`.
  static func peakGrowth(since before: Int?) -> Int? {
    guard let before, let peak = status("VmHWM") else { return nil }
    return max(0, peak - before)
  }

  private static func status(_ field: String) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return nil
    }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
      let digits = line.split(separator: " ").dropFirst().first { Int($0) != nil }
      return digits.flatMap { Int($0) }.map { $0 * 1024 }
    }
    return nil
  }
}
