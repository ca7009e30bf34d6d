import ArgumentParser
import Foundation
package import RestorationComparison
import StateRestoration

@main
struct RestorationComparisonCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "restoration-comparison",
    abstract: "Compares the restoration engine with Foundation's archivers and encoders.",
    discussion: """
      Builds the same UI state in each contender's terms, in two shapes with code of their own: \
      'linear' (a tab bar of navigation stacks of screens, 6 to 8 keys of mixed types per \
      object) and 'app' (screens holding child controllers and lists of cells, registered model \
      objects, 4 to 10 keys per object of mostly non-ASCII strings, dates, data, string arrays \
      and dictionaries, and references). It measures, side by side in one run: encode to bytes, \
      decode from bytes, bytes produced, and how far the resident memory grows during one \
      encode and decode. For the engine it also measures the full preserve (walk, encode, \
      atomic write to a real file) and the full restore (read, decode, re-create and decode \
      every object) in wall-clock time, and both again with the archive in memory, in the \
      process's CPU time. Times are medians of --runs runs; a contender whose round trip takes \
      over a second runs once. At each size the runs go in rounds, each contender once per \
      round, so that the runs a ratio compares were taken seconds apart. Ratios are to the \
      engine at the same size and shape; a time's ratio is the median of its ratios round by \
      round. The tables are grouped by shape. --json also lists every timed run, and the table \
      subcommand prints a saved run's tables again.

      Build with -c release for meaningful numbers:
        swift run --package-path Benchmarks -c release restoration-comparison
      """,
    subcommands: [Compare.self, Table.self, Profile.self, Synthetic.self],
    defaultSubcommand: Compare.self
  )
}

struct Compare: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Runs the comparison and prints a table (the default).")

  @Option(
    name: [.customShort("n"), .long], parsing: .upToNextOption,
    help: "The numbers of objects to measure.")
  var objects: [Int] = [300, 1_000, 4_000, 10_000, 100_000]

  @Option(
    help: ArgumentHelp(
      "The state shapes to measure, side by side at each size.",
      valueName: ShapeSelection.allCases.map(\.rawValue).joined(separator: "|")))
  var shape: ShapeSelection = .both

  @Option(
    name: .long, parsing: .upToNextOption,
    help: ArgumentHelp(
      "The contenders to run.",
      valueName: Contender.allCases.map(\.rawValue).joined(separator: "|")))
  var contenders: [Contender] = Contender.allCases

  @Option(help: "Timed runs per measurement; the median is reported.")
  var runs: Int = 5

  @Option(
    name: .customLong("time-cap"),
    help:
      "Skip a contender at a size when one encode and decode is predicted to take longer (seconds)."
  )
  var timeCap: Double = 60

  @Option(
    help: "Where the engine's full preserve writes its archive (default: a temporary folder).")
  var folder: String?

  @Option(
    help: ArgumentHelp(
      "How the linear shape's selections vary: 'repeated' (130 pairs of rows shared among screens) or 'distinct' (each screen's own items, which makes NSKeyedArchiver's encode quadratic).",
      valueName: UIState.Selections.allCases.map(\.rawValue).joined(separator: "|")))
  var selections: UIState.Selections = .repeated

  @Flag(name: .customLong("json"), help: "Print JSON instead of a table.")
  var printsJSON = false

  @Option(
    name: .customLong("save-json"),
    help: ArgumentHelp(
      "Also write the JSON to this file, beside the table.", valueName: "file"))
  var saveJSON: String?

  func validate() throws {
    guard objects.allSatisfy({ $0 >= 2 }) else {
      throw ValidationError("--objects values must be at least 2")
    }
    guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
    guard timeCap > 0 else { throw ValidationError("--time-cap must be positive") }
    if let saveJSON {
      // Checked before a run of minutes, not after it.
      let folder = URL(fileURLWithPath: saveJSON).deletingLastPathComponent().path
      guard FileManager.default.isWritableFile(atPath: folder) else {
        throw ValidationError("--save-json: the folder \(folder) does not exist or is not writable")
      }
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: saveJSON, isDirectory: &isFolder),
        isFolder.boolValue
      {
        throw ValidationError("--save-json: \(saveJSON) is a folder; name a file")
      }
    }
  }

  func run() throws {
    #if DEBUG
      FileHandle.standardError.write(
        Data("note: a debug build; build with -c release for meaningful numbers\n".utf8))
    #endif
    let temporary = folder == nil
    let folder = self.folder ?? temporaryFolder(named: "restoration-comparison")
    defer { if temporary { try? FileManager.default.removeItem(atPath: folder) } }
    let comparison = Comparison(
      sizes: objects, runs: runs, timeCap: timeCap, contenders: contenders, folder: folder,
      selections: selections, shapes: shape.shapes)
    let results = try comparison.run { line in
      FileHandle.standardError.write(Data("… \(line)\n".utf8))
    }
    let document = ComparisonDocument(
      machine: machineDescription(swiftVersion: swiftVersion()), selections: selections.rawValue,
      runs: runs, results: results)
    let json = try document.json()
    // Printed first, so that a file that cannot be written loses nothing of a run of minutes.
    print(printsJSON ? json : document.report)
    if let saveJSON {
      do {
        try Data(json.utf8).write(to: URL(fileURLWithPath: saveJSON))
      } catch {
        FileHandle.standardError.write(
          Data("error: cannot write the JSON to \(saveJSON): \(error.localizedDescription)\n".utf8))
        throw ExitCode.failure
      }
    }
  }

  private func swiftVersion() -> String? {
    #if compiler(>=6.3)
      return "Swift 6.3 compiler"
    #else
      return nil
    #endif
  }
}

struct Table: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Prints the table of a run saved with --json or --save-json.")

  @Argument(help: ArgumentHelp("The saved run.", valueName: "file"))
  var file: String

  func run() throws {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: file))
    } catch {
      throw ValidationError("cannot read \(file): \(error.localizedDescription)")
    }
    let document: ComparisonDocument
    do {
      document = try JSONDecoder().decode(ComparisonDocument.self, from: data)
    } catch {
      throw ValidationError("\(file) is not a run of restoration-comparison: \(error)")
    }
    print(document.report)
  }
}

struct Profile: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Repeats one engine operation, for a profiler such as callgrind.",
    discussion: """
      Under callgrind, collect the operation alone:

        valgrind --tool=callgrind --toggle-collect='*EngineProfiler*restore*' \\
          restoration-comparison profile restore --iterations 1

      Encode and decode run in '*EngineProfiler*step*', preserve in \
      '*EngineProfiler*preserve*'; a restore's launch objects are built outside the collected \
      call. Valgrind 3.19 cannot read the debug information of Swift 6.3's binaries: run it on \
      a copy stripped with 'strip --strip-debug', whose symbols still name the functions.
      """)

  enum Operation: String, ExpressibleByArgument, CaseIterable {
    case encode, decode, preserve, restore
  }

  @Argument(
    help: ArgumentHelp(
      "The operation.", valueName: Operation.allCases.map(\.rawValue).joined(separator: "|")))
  var operation: Operation

  @Option(name: [.customShort("n"), .long], help: "The number of objects.")
  var objects: Int = 10_000

  @Option(help: "How many times to repeat the operation.")
  var iterations: Int = 3

  @Flag(
    help: "Print the time of each phase of every preserve or restore, and of the whole call.")
  var phases = false

  @Flag(
    help: """
      Preserve to, or restore from, files in a new temporary folder (removed at the end) \
      instead of memory, so that the times include the disk's.
      """)
  var fileStore = false

  @Option(help: "Also write the engine's archive of the state to this file, to inspect it.")
  var saveArchive: String?

  @Option(
    help: ArgumentHelp(
      "The state's shape (see the compare command).",
      valueName: StateShape.allCases.map(\.rawValue).joined(separator: "|")))
  var shape: StateShape = .linear

  @Option(help: "How the linear shape's selections vary (see the compare command).")
  var selections: UIState.Selections = .repeated

  @Option(
    help: """
      Profile another contender's encode or decode instead of the engine's; it runs in \
      '*ContenderProfiler*step*'.
      """)
  var contender: Contender = .engine

  func validate() throws {
    guard contender == .engine || operation == .encode || operation == .decode else {
      throw ValidationError("--contender applies to encode and decode")
    }
    guard objects >= 2 else { throw ValidationError("-n must be at least 2") }
    guard iterations >= 0 else { throw ValidationError("--iterations must not be negative") }
    guard !fileStore || operation == .preserve || operation == .restore else {
      throw ValidationError("--file-store applies to preserve and restore")
    }
  }

  func run() throws {
    guard contender == .engine else {
      let profiler = try ContenderProfiler(
        contender, Workload(shape: shape, count: objects, selections: selections))
      for _ in 0..<iterations { try profiler.step(encoding: operation == .encode) }
      return
    }
    let folder = fileStore ? temporaryFolder(named: "restoration-profile") : nil
    defer { if let folder { try? FileManager.default.removeItem(atPath: folder) } }
    let profiler = try EngineProfiler(
      objects: objects, shape: shape, selections: selections, folder: folder)
    if let saveArchive {
      try Data(profiler.bytes).write(to: URL(fileURLWithPath: saveArchive))
      let workload = Workload(shape: shape, count: objects, selections: selections)
      try Data(makeCoder(.propertyListEncoder, workload).encode())
        .write(to: URL(fileURLWithPath: saveArchive + ".plist-encoder"))
    }
    for _ in 0..<iterations {
      switch operation {
      case .encode: try profiler.encode()
      case .decode: try profiler.decode()
      case .preserve: show(try profiler.preserve())
      case .restore: show(try profiler.restore(try profiler.makeLaunch()))
      }
    }
  }
}

extension Profile {
  func show(_ timings: [String: Duration]) {
    guard phases else { return }
    print(
      timings.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
  }
}

/// A folder for this process's files in the system's temporary folder, not created yet.
func temporaryFolder(named name: String) -> String {
  FileManager.default.temporaryDirectory
    .appendingPathComponent("\(name)-\(ProcessInfo.processInfo.processIdentifier)").path
}

/// The shapes a comparison measures.
enum ShapeSelection: String, ExpressibleByArgument, CaseIterable {
  case linear, app, both

  var shapes: [StateShape] {
    switch self {
    case .linear: [.linear]
    case .app: [.app]
    case .both: StateShape.allCases
    }
  }
}

struct Synthetic: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Compares the engine with JSON and binary property lists in synthetic shapes.",
    discussion: """
      Each shape is a container of objects of one class that write the same keys: the cost of \
      keys and values, not of the tree. Encode is the engine's preserve (walk, encode, archive, \
      in memory) and the encoders' encode of an array of Codable structs; decode is the \
      engine's restore into objects that exist already and the decoders' decode. Every \
      contender's values are checked against the originals. Times are medians of --runs runs, \
      in wall-clock time; a ratio is a contender's median over the engine's.
      """)

  @Option(name: [.customShort("n"), .long], help: "The number of objects in each shape.")
  var objects: Int = 10_000

  @Option(
    name: .long, parsing: .upToNextOption,
    help: ArgumentHelp(
      "The shapes to measure.",
      valueName: SyntheticShape.allCases.map(\.rawValue).joined(separator: "|")))
  var shapes: [SyntheticShape] = SyntheticShape.allCases

  @Option(help: "Timed runs per measurement; the median is reported.")
  var runs: Int = 5

  func validate() throws {
    guard objects >= 1 else { throw ValidationError("-n must be at least 1") }
    guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
  }

  func run() throws {
    print("| shape (\(objects.formatted()) objects) | contender | encode | decode | bytes |")
    print("|---|---|---:|---:|---:|")
    for shape in shapes {
      FileHandle.standardError.write(Data("… \(shape.rawValue)\n".utf8))
      let result = try SyntheticComparison(shape: shape, objects: objects, runs: runs)
      print(row(shape, "**StateRestoration engine**", result.engine, base: nil))
      print(row(shape, "JSONEncoder", result.json, base: result.engine))
      print(row(shape, "PropertyListEncoder (binary)", result.propertyList, base: result.engine))
    }
  }

  /// A table row; the ratios are to `base`, and the engine's row (no base) names the shape.
  private func row(
    _ shape: SyntheticShape, _ name: String, _ result: SyntheticComparison.Result,
    base: SyntheticComparison.Result?
  ) -> String {
    func cell(_ text: String, _ value: Double, _ baseValue: Double?) -> String {
      guard let baseValue, baseValue > 0 else { return text }
      return text + String(format: " (×%.2f)", value / baseValue)
    }
    let label = base == nil ? "\(shape.rawValue): \(shape.summary)" : ""
    let encode = cell(String(format: "%.1f ms", result.encode * 1e3), result.encode, base?.encode)
    let decode = cell(String(format: "%.1f ms", result.decode * 1e3), result.decode, base?.decode)
    let bytes = cell(
      result.bytes.formatted(), Double(result.bytes), base.map { Double($0.bytes) })
    return "| \(label) | \(name) | \(encode) | \(decode) | \(bytes) |"
  }
}

extension SyntheticShape: ExpressibleByArgument {}
extension Contender: ExpressibleByArgument {}
extension StateShape: ExpressibleByArgument {}
extension UIState.Selections: ExpressibleByArgument {}
