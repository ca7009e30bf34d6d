import Foundation
import StateRestoration

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

/// What one contender measured at one size; times are medians, in milliseconds.
package struct Measurement: Codable, Sendable {
  package var contender: Contender
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

/// Runs every contender at every size, side by side in one process.
package struct Comparison {
  package var sizes: [Int]
  package var runs: Int
  /// A contender is skipped at a size when its encode and decode would take longer than this.
  package var timeCap: Double
  package var contenders: [Contender]
  /// Where the engine's full preserve writes its archive.
  package var folder: String
  /// How the screens' selections vary.
  package var selections: UIState.Selections

  package init(
    sizes: [Int], runs: Int, timeCap: Double, contenders: [Contender], folder: String,
    selections: UIState.Selections = .repeated
  ) {
    self.sizes = sizes
    self.runs = runs
    self.timeCap = timeCap
    self.contenders = contenders
    self.folder = folder
    self.selections = selections
  }

  /// Measures everything.
  ///
  /// At each size, every contender first encodes and decodes once, alone, for its peak memory.
  /// The timed runs then go in rounds: each round times every contender once, one after
  /// another, each timed run after an untimed round trip of its own, so that the runs a ratio
  /// compares were taken seconds apart, not minutes, on a machine whose speed drifts.
  ///
  /// - Parameter progress: Called with a line before each step.
  /// - Returns: One measurement per contender and size.
  /// - Throws: ``ComparisonFailure`` when a contender loses data, or its encoder's error.
  package func run(progress: (String) -> Void) throws -> [Measurement] {
    var results: [Measurement] = []
    var history: [Contender: [(objects: Int, seconds: Double)]] = [:]
    let clock = ContinuousClock()
    let began = clock.now
    for size in sizes {
      let state = UIState(count: size, selections: selections)
      var measured: [(measurement: Measurement, repeats: Bool)] = []
      for contender in contenders {
        if let prediction = predict(history[contender] ?? [], size), prediction > timeCap {
          progress("\(contender.rawValue) at \(size): skipped (predicted \(Int(prediction)) s)")
          measured.append(
            (
              Measurement(
                contender: contender, objects: size, runs: 0,
                skipped:
                  "predicted \(Int(prediction)) s for one encode and decode, above the cap of \(Int(timeCap)) s"
              ), false
            ))
          continue
        }
        progress("\(contender.rawValue) at \(size)")
        measured.append(try measureFirstRoundTrip(contender, state, since: began))
      }
      let timed = measured.indices.filter { measured[$0].repeats }
      if !timed.isEmpty {
        progress(
          "\(runs) round\(runs == 1 ? "" : "s") of \(timed.map { measured[$0].measurement.contender.rawValue }.joined(separator: ", ")) at \(size)"
        )
      }
      do {
        // Made again, after every contender's peak was measured alone: a coder kept from its
        // first round trip held pages that later contenders then filled without growing the
        // resident set, and their peaks read low. Freed before the engine's full cycle.
        let coders = try timed.map { try makeCoder(measured[$0].measurement.contender, state) }
        for _ in 0..<runs {
          for (index, coder) in zip(timed, coders) {
            measured[index].measurement.timedRuns.append(try timeRun(coder, since: began))
          }
        }
      }
      for (var measurement, repeats) in measured {
        if repeats {
          measurement.encode = median(measurement.timedRuns.map(\.encode))
          measurement.decode = median(measurement.timedRuns.map(\.decode))
          measurement.runs = measurement.timedRuns.count
        }
        if measurement.skipped == nil {
          if measurement.contender == .engine {
            progress("engine's full preserve and restore at \(size)")
            try measureFullCycle(state, repetitions: runs, into: &measurement)
          }
          history[measurement.contender, default: []].append(
            (size, ((measurement.encode ?? 0) + (measurement.decode ?? 0)) / 1000))
        }
        results.append(measurement)
      }
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
    _ contender: Contender, _ state: UIState, since began: ContinuousClock.Instant
  ) throws -> (measurement: Measurement, repeats: Bool) {
    let coder = try makeCoder(contender, state)
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
      contender: contender, objects: state.count, bytes: bytes.count, peakMemory: peak, runs: 0)
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

  /// The engine's full preserve (to a real file) and full restore (from it).
  private func measureFullCycle(
    _ state: UIState,
    repetitions: Int,
    into measurement: inout Measurement
  ) throws {
    let contender = EngineContender(state: state)
    let store = try FileArchiveStore(stateRoot: folder, bundleIdentifier: "com.example.benchmark")
    let engine = contender.makeEngine(store: store)
    var preserveTimes: [Double] = []
    var writeTimes: [Double] = []
    var restoreTimes: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<max(1, repetitions) + 1 {
      let start = clock.now
      let report = engine.preserveApplicationState(roots: [contender.root])
      let elapsed = (clock.now - start).milliseconds
      guard case .saved = report.outcome, report.identifierPaths.count == state.count else {
        throw ComparisonFailure("preservation failed: \(report.outcome)")
      }
      preserveTimes.append(elapsed)
      writeTimes.append(report.timings[.write]?.milliseconds ?? 0)

      let launch = contender.makeLaunchTree()
      let restoreStart = clock.now
      let restored = engine.restoreApplicationState(roots: [launch])
      let restoreElapsed = (clock.now - restoreStart).milliseconds
      guard restored.outcome == .restored, restored.restoredPaths.count == state.count else {
        throw ComparisonFailure(
          "restoration failed: \(restored.outcome), \(restored.restoredPaths.count) restored")
      }
      restoreTimes.append(restoreElapsed)
    }
    // The first cycle warms up the file system and the allocator.
    measurement.preserve = median(Array(preserveTimes.dropFirst()))
    measurement.preserveWrite = median(Array(writeTimes.dropFirst()))
    measurement.restore = median(Array(restoreTimes.dropFirst()))
  }

  private func makeCoder(_ contender: Contender, _ state: UIState) throws -> any ContenderCoder {
    switch contender {
    case .engine: EngineCoder(state)
    case .propertyListEncoder: PropertyListEncoderCoder(state)
    case .propertyListSerialization: PropertyListSerializationCoder(state)
    case .jsonEncoder: JSONCoder(state)
    case .keyedArchiver: KeyedArchiverCoder(state)
    }
  }
}

// MARK: - The contenders' encode and decode

/// Encodes the state held in a contender's terms, and decodes bytes back into those terms.
protocol ContenderCoder {
  func encode() throws -> [UInt8]
  func decode(_ bytes: [UInt8]) throws
}

struct EngineCoder: ContenderCoder {
  let contender: EngineContender
  let engine: RestorationEngine
  let count: Int

  init(_ state: UIState) {
    contender = EngineContender(state: state)
    engine = contender.makeEngine(store: InMemoryArchiveStore())
    count = state.count
  }

  func encode() throws -> [UInt8] { try contender.encode(with: engine) }

  func decode(_ bytes: [UInt8]) throws {
    let archive = try contender.decode(bytes)
    guard archive.records.count == count else { throw ComparisonFailure("engine lost records") }
  }
}

struct PropertyListEncoderCoder: ContenderCoder {
  let archive: CodableArchive

  init(_ state: UIState) { archive = CodableArchive(state) }

  func encode() throws -> [UInt8] {
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .binary
    return [UInt8](try encoder.encode(archive))
  }

  func decode(_ bytes: [UInt8]) throws {
    let decoded = try PropertyListDecoder().decode(CodableArchive.self, from: Data(bytes))
    guard decoded.count == archive.count else { throw ComparisonFailure("lost records") }
  }
}

struct JSONCoder: ContenderCoder {
  let archive: CodableArchive

  init(_ state: UIState) { archive = CodableArchive(state) }

  func encode() throws -> [UInt8] { [UInt8](try JSONEncoder().encode(archive)) }

  func decode(_ bytes: [UInt8]) throws {
    let decoded = try JSONDecoder().decode(CodableArchive.self, from: Data(bytes))
    guard decoded.count == archive.count else { throw ComparisonFailure("lost records") }
  }
}

struct PropertyListSerializationCoder: ContenderCoder {
  let plist: [String: Any]
  let count: Int

  init(_ state: UIState) {
    plist = PropertyListArchive.make(CodableArchive(state))
    count = state.count
  }

  func encode() throws -> [UInt8] {
    [UInt8](
      try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0))
  }

  func decode(_ bytes: [UInt8]) throws {
    let decoded = try PropertyListSerialization.propertyList(from: Data(bytes), format: nil)
    guard let root = decoded as? [String: Any], let objects = root["objects"] as? [Any],
      objects.count == count
    else { throw ComparisonFailure("lost records") }
  }
}

struct KeyedArchiverCoder: ContenderCoder {
  let root: KeyedNode
  let count: Int

  init(_ state: UIState) {
    root = KeyedNode.makeTree(state)
    count = state.count
  }

  func encode() throws -> [UInt8] {
    [UInt8](try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false))
  }

  func decode(_ bytes: [UInt8]) throws {
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: Data(bytes))
    unarchiver.requiresSecureCoding = false
    guard let decoded = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? KeyedNode,
      decoded.treeCount == count
    else { throw ComparisonFailure("NSKeyedUnarchiver lost objects") }
  }
}

// MARK: - Helpers

func median(_ values: [Double]) -> Double? {
  guard !values.isEmpty else { return nil }
  let sorted = values.sorted()
  return sorted.count % 2 == 1
    ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
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
