import Foundation
import Testing

/// The comparison command, run as a process, as a user or a script runs it.
@Suite struct ComparisonCommandTests {
  /// The built `restoration-comparison`, which SwiftPM puts beside the test binary.
  static func executable() throws -> String {
    let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var folder = testBinary.deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = folder.appendingPathComponent("restoration-comparison").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      folder = folder.deletingLastPathComponent()
    }
    throw CommandFailure(
      description: "restoration-comparison was not built beside \(testBinary.path)")
  }

  struct CommandFailure: Error, CustomStringConvertible {
    var description: String
  }

  /// Runs the command and returns its standard output; throws with its standard error when it
  /// fails.
  static func run(_ arguments: [String]) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try executable())
    process.arguments = arguments
    let output = Pipe()
    let errors = FileManager.default.temporaryDirectory
      .appendingPathComponent("comparison-stderr-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errors) }
    process.standardOutput = output
    process.standardError = try FileHandle(forWritingTo: errors)
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      let message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
      throw CommandFailure(
        description: "exit status \(process.terminationStatus): \(message)")
    }
    return data
  }

  /// The JSON as a script reads it, declared here rather than decoded as the command's own
  /// `ComparisonDocument`, so that a key renamed on the command's side fails these tests.
  struct Document: Decodable {
    struct Result: Decodable {
      struct Run: Decodable {
        var startedAt: Double
        var encode: Double
        var decode: Double
      }
      var contender: String
      var shape: String
      var objects: Int
      var encode: Double?
      var decode: Double?
      var preserve: Double?
      var restore: Double?
      var preserveCPUTime: Double?
      var restoreCPUTime: Double?
      var cpuTimedCalls: Int?
      var runs: Int
      var skipped: String?
      var timedRuns: [Run]
    }
    var results: [Result]
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1
      ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
  }

  @Test func timedRunsOfTheContendersTakeTurnsAndMakeTheMedians() throws {
    let output = try Self.run([
      "-n", "20", "60", "--runs", "3", "--contenders", "engine", "plist-encoder", "json-encoder",
      "--json",
    ])
    let document = try JSONDecoder().decode(Document.self, from: output)
    #expect(document.results.count == 12)
    // At each size, each shape in turn.
    #expect(
      document.results.map { "\($0.objects) \($0.shape)" }
        == ["20 linear", "20 app", "60 linear", "60 app"].flatMap {
          Array(repeating: $0, count: 3)
        })
    for size in [20, 60] {
      for shape in ["linear", "app"] {
        let results = document.results.filter { $0.objects == size && $0.shape == shape }
        #expect(results.map(\.contender) == ["engine", "plist-encoder", "json-encoder"])
        for result in results {
          #expect(result.runs == 3)
          #expect(result.timedRuns.count == 3)
          #expect(result.encode == Self.median(result.timedRuns.map(\.encode)))
          #expect(result.decode == Self.median(result.timedRuns.map(\.decode)))
        }
        // In the order they started, the runs go round the contenders: engine, plist-encoder,
        // json-encoder, then the engine again.
        let order = results.flatMap { result in
          result.timedRuns.map { (start: $0.startedAt, contender: result.contender) }
        }
        .sorted { $0.start < $1.start }
        .map(\.contender)
        #expect(
          order
            == Array(repeating: ["engine", "plist-encoder", "json-encoder"], count: 3).flatMap {
              $0
            })
        let engine = try #require(results.first)
        #expect(engine.preserve != nil)
        #expect(engine.restore != nil)
        #expect(engine.preserveCPUTime != nil)
        #expect(engine.restoreCPUTime != nil)
        #expect((engine.cpuTimedCalls ?? 0) >= 3)
        #expect(results.dropFirst().allSatisfy { $0.preserveCPUTime == nil })
      }
    }
  }

  /// Every synthetic shape gives a row per contender, the engine's first, each checked against
  /// the state it was given.
  @Test func syntheticShapesGiveARowPerContender() throws {
    let output = String(
      decoding: try Self.run(["synthetic", "-n", "20", "--runs", "1"]), as: UTF8.self)
    let rows = output.split(separator: "\n").dropFirst(2)
    #expect(rows.count == 6 * 3)
    for shape in ["numbers", "keys", "long-text", "tiny", "lists", "blobs"] {
      let index = try #require(rows.firstIndex { $0.hasPrefix("| \(shape): ") })
      #expect(rows[index].contains("**StateRestoration engine** |"))
      #expect(rows[index + 1].contains("| JSONEncoder | ") && rows[index + 1].contains("(×"))
      #expect(rows[index + 2].contains("| PropertyListEncoder (binary) | "))
    }
  }

  @Test func aContenderPredictedOverTheCapIsSkippedAndSaysWhy() throws {
    let output = try Self.run([
      "-n", "40", "400", "--runs", "1", "--contenders", "engine", "json-encoder",
      "--time-cap", "0.000001", "--json",
    ])
    let document = try JSONDecoder().decode(Document.self, from: output)
    let skipped = document.results.filter { $0.skipped != nil }
    // At the second size both are predicted from the first of their shape, over a cap of a
    // microsecond.
    #expect(skipped.map(\.contender) == ["engine", "json-encoder", "engine", "json-encoder"])
    #expect(skipped.map(\.shape) == ["linear", "linear", "app", "app"])
    for result in skipped {
      #expect(result.objects == 400)
      #expect(result.runs == 0)
      #expect(result.timedRuns.isEmpty)
      #expect(result.skipped?.contains("above the cap") == true)
    }
  }

  @Test func theTableGivesEachContendersRatioToTheEngineAndSaveJSONKeepsTheSameRun() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("comparison-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let saved = folder.appendingPathComponent("run.json")
    let output = try Self.run([
      "-n", "40", "--runs", "1", "--contenders", "engine", "plist-encoder", "--shape", "linear",
      "--save-json", saved.path,
    ])
    let document = try JSONDecoder().decode(Document.self, from: Data(contentsOf: saved))
    #expect(document.results.map(\.contender) == ["engine", "plist-encoder"])
    // The saved run prints again as the run printed it.
    #expect(try Self.run(["table", saved.path]) == output)
    let table = String(decoding: output, as: UTF8.self)
    let rows = table.split(separator: "\n").filter { $0.hasPrefix("| 40 |") }
    #expect(rows.count == 2)
    #expect(rows.first?.contains("**StateRestoration engine**") == true)
    #expect(rows.last?.contains("PropertyListEncoder (binary)") == true)
    #expect(rows.last?.contains("(×") == true)
  }

  @Test func bothShapesRunSideBySideAndPrintATableEach() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("comparison-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let saved = folder.appendingPathComponent("run.json")
    let output = try Self.run([
      "-n", "20", "60", "--runs", "1", "--shape", "both", "--contenders", "engine",
      "keyed-archiver", "plist-serialization", "--save-json", saved.path,
    ])
    let table = String(decoding: output, as: UTF8.self)
    let lines = table.split(separator: "\n", omittingEmptySubsequences: false)
    let linear = try #require(lines.firstIndex { $0.hasPrefix("Shape linear: ") })
    let app = try #require(lines.firstIndex { $0.hasPrefix("Shape app: ") })
    #expect(linear < app)
    #expect(table.contains("CLOCK_PROCESS_CPUTIME_ID"))
    for (start, end) in [(linear, app), (app, lines.endIndex)] {
      let rows = lines[start..<end].filter { $0.hasPrefix("| 20 |") || $0.hasPrefix("| 60 |") }
      #expect(rows.count == 6)
      // The engine's rows end with its in-memory preserve and restore, in milliseconds.
      let engineRows = rows.filter { $0.contains("**StateRestoration engine**") }
      #expect(engineRows.count == 2)
      for row in engineRows {
        let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(cells.suffix(2).allSatisfy { $0.hasSuffix(" ms") })
      }
      #expect(rows.contains { $0.contains("NSKeyedArchiver") && $0.contains("(×") })
    }
    let document = try JSONDecoder().decode(Document.self, from: Data(contentsOf: saved))
    #expect(Set(document.results.map(\.shape)) == ["linear", "app"])
    #expect(document.results.count == 12)
    // The saved run prints again as the run printed it.
    #expect(try Self.run(["table", saved.path]) == output)
  }

  @Test func oneShapeRunsAlone() throws {
    let output = try Self.run([
      "-n", "20", "--runs", "1", "--shape", "app", "--contenders", "engine", "json-encoder",
      "--json",
    ])
    let document = try JSONDecoder().decode(Document.self, from: output)
    #expect(document.results.map(\.shape) == ["app", "app"])
    #expect(document.results.map(\.contender) == ["engine", "json-encoder"])
  }

  /// Expects a run saving its JSON to `path` to be refused with a usage error (exit status 64)
  /// that says `reason`, before it measures anything.
  static func expectRefusedBeforeTheRun(
    savingJSONTo path: String, saying reason: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(sourceLocation: sourceLocation) {
      try run(["-n", "40", "--runs", "1", "--contenders", "engine", "--save-json", path])
    } throws: { error in
      let text = String(describing: error)
      return text.contains("exit status 64") && text.contains(reason)
        && !text.contains("engine at 40")
    }
  }

  @Test func saveJSONNamingAFolderIsRefusedBeforeTheRun() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("comparison-folder-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    Self.expectRefusedBeforeTheRun(savingJSONTo: folder.path, saying: "is a folder; name a file")
  }

  @Test func saveJSONIntoAMissingFolderIsRefusedBeforeTheRun() {
    Self.expectRefusedBeforeTheRun(
      savingJSONTo: "/nonexistent-\(UUID().uuidString)/run.json",
      saying: "does not exist or is not writable")
  }

  @Test func tableOfAFileThatIsNotASavedRunSaysWhichAndWhy() throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("not-a-run-\(UUID().uuidString).json")
    try Data("| a table, not JSON |".utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    #expect {
      try Self.run(["table", file.path])
    } throws: { error in
      String(describing: error).contains("\(file.path) is not a run of restoration-comparison")
    }
    #expect {
      try Self.run(["table", file.path + ".missing"])
    } throws: { error in
      String(describing: error).contains("cannot read \(file.path).missing")
    }
  }
}
