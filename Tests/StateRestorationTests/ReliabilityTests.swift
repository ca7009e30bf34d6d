import Foundation
import StateRestoration
import StateRestorationStorage
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The engine's promises about storage and crashes, checked with real processes: a helper app
/// (`restoration-test-helper`) is killed with SIGKILL at random instants, crashes for real in
/// the middle of restoration, and runs side by side with a second copy of itself.
@Suite(.serialized) struct ReliabilityTests {
  private static let bundleIdentifier = "com.example.ReliabilityHelper"

  private struct Helper {
    let path: String
    let stateRoot: URL

    init() throws {
      path = try BuiltExecutable.path(named: "restoration-test-helper")
      stateRoot = try makeTemporaryFolder()
    }

    var folder: URL {
      stateRoot.appendingPathComponent("Saved Application State")
        .appendingPathComponent("\(ReliabilityTests.bundleIdentifier).savedState")
    }

    var archiveURL: URL { folder.appendingPathComponent("data.data") }

    var archiveExists: Bool { FileManager.default.fileExists(atPath: archiveURL.path) }

    func temporaryFiles() -> [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".tmp") }
    }

    /// The environment of a helper run: no crash backtraces (they take seconds to print).
    var environment: [String: String] {
      var environment = ProcessInfo.processInfo.environment
      environment["SWIFT_BACKTRACE"] = "enable=no"
      environment["STATE_RESTORATION_DEVELOPER_MODE"] = nil
      environment["STATE_RESTORATION_DEBUG_LOGGING"] = nil
      return environment
    }

    /// Starts the helper without waiting for it.
    func start(_ arguments: [String]) throws -> Process {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: path)
      process.arguments = arguments + ["--state-root", stateRoot.path]
      process.environment = environment
      process.standardInput = FileHandle.nullDevice
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      return process
    }

    /// Runs the helper to completion.
    func run(_ arguments: [String]) throws -> ProcessResult {
      try TestSupport.run(
        path, arguments + ["--state-root", stateRoot.path], environment: environment)
    }

    func remove() { try? FileManager.default.removeItem(at: stateRoot) }
  }

  /// One generation of the preserve loop, read back and checked whole.
  private struct Generation: Equatable {
    var number: Int
    var writer: String
  }

  /// Reads the archive and checks that it holds exactly one whole generation: every object of
  /// the same generation and writer, as many objects as the root says, every text as long as
  /// the root says.
  private func readWholeGeneration(_ url: URL) throws -> Generation {
    let bytes = try #require(try readFileContents(at: url.path, maxSize: 1 << 30))
    let archive = try RestorationArchive(decoding: bytes)
    let root = try #require(archive.records.first { $0.identifierPath == "Root" })
    guard case .integer(let number) = root.state["generation"],
      case .string(let writer) = root.state["writer"],
      case .integer(let objectCount) = root.state["objectCount"],
      case .integer(let textLength) = root.state["textLength"]
    else {
      Issue.record("the root record lacks its generation: \(root.state)")
      return Generation(number: -1, writer: "")
    }
    let screens = archive.records.filter { $0.identifierPath != "Root" }
    #expect(screens.count == Int(objectCount))
    for screen in screens {
      #expect(screen.state["generation"] == .integer(number), "\(screen.identifierPath)")
      #expect(screen.state["writer"] == .string(writer), "\(screen.identifierPath)")
      let text: String
      if case .string(let value) = screen.state["text"] { text = value } else { text = "" }
      #expect(text.count == Int(textLength), "\(screen.identifierPath)")
      #expect(text.allSatisfy { String($0) == writer }, "\(screen.identifierPath)")
    }
    return Generation(number: Int(number), writer: writer)
  }

  @Test func killedAtAnyInstantTheArchiveIsAWholeEarlierOrLaterState() throws {
    let helper = try Helper()
    defer { helper.remove() }
    // At least 200 kills; past that, up to 1,000 until one lands during a write, which a busy
    // machine can make rare (one run of 200 on a loaded machine had none).
    let kills = 200
    let maximumKills = 1_000
    let deadline = ContinuousClock.now + .seconds(180)
    var last = 0
    var readings = 0
    var killsDuringAWrite = 0
    var generator = SystemRandomNumberGenerator()
    // Kills come 2 to 60 ms after the start. On a machine so busy that the helper rarely writes
    // within that, the window grows by half after each 20 kills that added fewer than 2
    // generations (one such run left 18 generations in 200 kills): the test needs the helper
    // to write between kills, as on an idle machine, where the window never grows.
    var window: UInt32 = 60_000
    var checkpoint = 0
    var kill = 0
    while kill < kills || (killsDuringAWrite == 0 && kill < maximumKills) {
      guard ContinuousClock.now < deadline else {
        if kill < kills { Issue.record("only \(kill) of \(kills) kills fit in the time limit") }
        break
      }
      defer { kill += 1 }
      if kill > 0, kill % 20 == 0 {
        if last - checkpoint < 2 { window = min(window * 3 / 2, 1_000_000) }
        checkpoint = last
      }
      let process = try helper.start(["preserve-loop", "--from", "\(last + 1)"])
      // A random instant: before the first write, during one, or between two.
      usleep(UInt32.random(in: 2_000...window, using: &generator))
      Glibc.kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      #expect(process.terminationReason == .uncaughtSignal, "kill \(kill): the helper had exited")
      if !helper.temporaryFiles().isEmpty { killsDuringAWrite += 1 }
      guard helper.archiveExists else {
        #expect(last == 0, "kill \(kill): the archive disappeared after generation \(last)")
        continue
      }
      let generation = try readWholeGeneration(helper.archiveURL)
      readings += 1
      // Never older than what an earlier kill left: a write is all or nothing.
      #expect(generation.number >= last, "kill \(kill)")
      last = generation.number
    }
    #expect(readings > kill / 2, "most kills came after at least one write")
    #expect(last >= 20, "the helper kept making progress between kills")
    print(
      "\(kill) kills: \(readings) left an archive, \(killsDuringAWrite) landed during a write"
        + "; generations preserved: \(last); kill window \(window / 1000) ms")
    // Kills that landed between creating the temporary file and renaming it: the case that
    // matters. Without them, this test would only have killed idle processes.
    #expect(killsDuringAWrite > 0)

    // The next write removes the temporary files of the writers killed mid-write.
    let finish = try helper.run(["preserve-loop", "--from", "\(last + 1)", "--count", "1"])
    #expect(finish.status == 0, "\(finish.standardError)")
    #expect(helper.temporaryFiles().isEmpty)
    #expect(try readWholeGeneration(helper.archiveURL).number == last + 1)
  }

  @Test func twoProcessesPreservingAtOnceLeaveOneWholeArchive() throws {
    let helper = try Helper()
    defer { helper.remove() }
    let writers = try ["A", "B"].map {
      try helper.start(["preserve-loop", "--writer", $0, "--count", "150"])
    }
    // Read while both write: every reading is one writer's whole generation.
    var seen: Set<String> = []
    while writers.contains(where: \.isRunning) {
      if helper.archiveExists {
        seen.insert(try readWholeGeneration(helper.archiveURL).writer)
      }
      usleep(2_000)
    }
    for writer in writers {
      writer.waitUntilExit()
      #expect(writer.terminationStatus == 0)
    }
    let final = try readWholeGeneration(helper.archiveURL)
    #expect(["A", "B"].contains(final.writer))
    #expect(seen.count >= 1)
    #expect(helper.temporaryFiles().isEmpty)
  }

  @Test func twoRealCrashesDuringRestorationThenAFreshStartThatSaysWhy() throws {
    let helper = try Helper()
    defer { helper.remove() }
    let save = try helper.run(["launch", "--save"])
    #expect(save.standardOutput.contains("saved: saved"))

    for launch in 1...2 {
      let crash = try helper.run(["launch", "--crash-in-decode"])
      #expect(crash.wasSignaled, "launch \(launch) after the save crashes in decode")
      #expect(helper.archiveExists, "one crash is not enough to discard (launch \(launch))")
    }
    let third = try helper.run(["launch", "--crash-in-decode"])
    #expect(!third.wasSignaled && third.status == 0)
    #expect(
      third.standardOutput.contains(
        "outcome: discarded after crashes during restoration on 2 launches"))
    #expect(third.standardError.contains("State restoration archive discarded"))
    #expect(!helper.archiveExists)
  }

  @Test func developerModeKeepsTheArchiveThroughRealCrashes() throws {
    let helper = try Helper()
    defer { helper.remove() }
    _ = try helper.run(["launch", "--save", "--developer-mode"])
    for launch in 1...3 {
      let crash = try helper.run(["launch", "--crash-in-decode", "--developer-mode"])
      #expect(crash.wasSignaled, "launch \(launch)")
      #expect(helper.archiveExists, "launch \(launch)")
    }
    let calm = try helper.run(["launch", "--developer-mode"])
    #expect(calm.standardOutput.contains("outcome: restored"))
    #expect(calm.standardOutput.contains("restored value: 100,101"))
  }

  @Test func aCrashWhileRestorationIsExtendedDiscardsTheArchive() throws {
    let helper = try Helper()
    defer { helper.remove() }
    _ = try helper.run(["launch", "--save"])
    let extended = try helper.run(["launch", "--extend-then-crash"])
    #expect(extended.standardOutput.contains("outcome: restored"))
    #expect(extended.wasSignaled, "the helper crashes before completing the restoration")
    let next = try helper.run(["launch"])
    #expect(next.standardOutput.contains("outcome: discarded"))
    #expect(next.standardOutput.contains("extended"), "\(next.standardOutput)")
    #expect(next.standardError.contains("State restoration archive discarded"))
    #expect(!helper.archiveExists)
  }

  @Test(arguments: [
    ([:], "developerMode=false debugLogging=false"),
    (["STATE_RESTORATION_DEVELOPER_MODE": "1"], "developerMode=true debugLogging=false"),
    (["STATE_RESTORATION_DEBUG_LOGGING": "yes"], "developerMode=false debugLogging=true"),
    (["STATE_RESTORATION_DEBUG_LOGGING": "0"], "developerMode=false debugLogging=false"),
  ])
  func settingsComeFromTheProcessEnvironment(variables: [String: String], expected: String)
    throws
  {
    let helper = try Helper()
    defer { helper.remove() }
    var environment = helper.environment
    for (name, value) in variables { environment[name] = value }
    let result = try TestSupport.run(helper.path, ["settings"], environment: environment)
    #expect(result.standardOutput == expected + "\n")
  }
}
