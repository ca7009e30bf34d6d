import Foundation
import RestorerCore
import TestSupport
import Testing

/// Runs the built `restorer` against a private state folder.
struct RestorerProcess {
  let stateDirectory: URL

  static func path() throws -> String {
    try BuiltExecutable.path(named: "restorer", variable: "RESTORER")
  }

  /// Runs with `--keys`; the process exits when the keys run out or at `h`/`Q`.
  func run(keys: String, _ extra: [String] = []) throws -> ProcessResult {
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"  // the crash demonstration stays short
    return try TestSupport.run(
      Self.path(),
      ["--state-dir", stateDirectory.path, "--keys", keys] + extra,
      environment: environment
    )
  }

  var archivePath: String {
    windowFolder(stateDirectory).appendingPathComponent("data.data").path
  }
}

/// The folder of the Restorer window's saved state under a state directory: its one scene
/// session's folder once it has one, else the app's `.savedState` folder, whose state the first
/// window adopts.
func windowFolder(_ stateDirectory: URL) -> URL {
  let savedState = stateDirectory.appendingPathComponent(
    "Saved Application State/com.example.Restorer.savedState")
  let scenes = savedState.appendingPathComponent("Scenes")
  let sessions = (try? FileManager.default.contentsOfDirectory(atPath: scenes.path)) ?? []
  return sessions.count == 1 ? scenes.appendingPathComponent(sessions[0]) : savedState
}

/// The country names in the bundled order, to read the screen against.
func bundledCountryNames() throws -> [String] {
  try CountryList.bundled().countries.map(\.name)
}

/// The keys that put row 50 at the top of an 18-line list with the cursor on row 52, then open
/// that country.
let openRow52WithRow50AtTheTop = "down*67 up*15 enter"

@Suite(.serialized) struct ScriptedEndToEndTests {
  @Test func countryDetailAndListPositionSurviveRealProcessKills() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = RestorerProcess(stateDirectory: folder)
    let names = try bundledCountryNames()
    let capital = try #require(
      try CountryList.bundled().countries.first { $0.name == names[52] }?.capital)

    let first = try app.run(keys: "\(openRow52WithRow50AtTheTop) h")
    #expect(first.status == 0, "\(first.standardError)")
    #expect(first.standardOutput.contains("Home: state preserved"))
    #expect(FileManager.default.fileExists(atPath: app.archivePath))

    // A new process: same tab, same detail, same capital; Home again to keep the state.
    let second = try app.run(keys: "h")
    #expect(second.standardOutput.contains("Snapshot from the last session"))
    #expect(second.standardOutput.contains("[1 Countries]"))
    #expect(second.standardOutput.contains("Country:  \(names[52])"))
    #expect(second.standardOutput.contains("Capital:  \(capital)"))
    #expect(second.standardOutput.contains("Restored "))

    // Back: row 50 at the top, row 52 selected.
    let third = try app.run(keys: "esc")
    let lines = third.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    // The last frame printed (the snapshot of the last session comes first).
    let frameStart = try #require(lines.lastIndex { $0.hasPrefix(" Restorer") })
    let listTop = lines[frameStart + 3]
    #expect(listTop.hasSuffix(names[50]))
    #expect(lines[frameStart + 5] == " >* \(names[52])")
    #expect(lines[frameStart + 1].contains("rows 51-68 of \(names.count)"))
  }

  @Test func webViewPageScrollAndHistorySurvive() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = RestorerProcess(stateDirectory: folder)
    // Settings, Push Me!, follow the second link, scroll 7 rows (to paragraph 3), zoom in, Home.
    let first = try app.run(keys: "2 down enter tab enter down*7 + h")
    #expect(first.status == 0, "\(first.standardError)")

    let second = try app.run(keys: "h")
    #expect(second.standardOutput.contains(" Restoration Classes   (b: back)"))
    #expect(second.standardOutput.contains("zoom 125%"))
    #expect(second.standardOutput.contains("   Paragraph 3: the restored page"))
    #expect(!second.standardOutput.contains("   Paragraph 2: the restored page"))

    let third = try app.run(keys: "b")
    #expect(third.standardOutput.contains(" Restorer   (f: forward)"))
  }

  @Test func webViewZoomChangesTheTextBothWaysAndTheHelpSaysWhatEscDoes() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = RestorerProcess(stateDirectory: folder)
    /// The first row of the page's text, and the help line, of the last screen printed.
    func screen(_ keys: String) throws -> (first: String, help: String) {
      let result = try app.run(keys: "2 down enter down*2 \(keys)")
      #expect(result.status == 0, "\(result.standardError)")
      let lines = result.standardOutput.split(separator: "\n").map(String.init)
      let top = try #require(lines.lastIndex { $0.hasPrefix(" Restorer ") })
      return (lines[top + 5], lines[top + 23])
    }
    let actual = try screen("")
    #expect(actual.first == "   Paragraph 1: the restored page keeps its scroll")
    #expect(actual.help.hasSuffix("+/- zoom Esc back"))
    // Zooming out shows more of each paragraph on a row...
    #expect(
      try screen("- -").first
        == "   Paragraph 1: the restored page keeps its scroll position and zoom.")
    // ...zooming in less, the rest on the next rows rather than cut off.
    let zoomedIn = try app.run(keys: "2 down enter down*2 + + +")
    #expect(
      zoomedIn.standardOutput.contains("   Paragraph 1: the restored\n   page keeps its scroll\n"))
    #expect(zoomedIn.standardOutput.contains("zoom 195%"))
  }

  @Test func forceQuitStartsFreshAndDeveloperModeKeepsTheState() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = RestorerProcess(stateDirectory: folder)
    _ = try app.run(keys: "down*3 enter Q")
    #expect(!FileManager.default.fileExists(atPath: app.archivePath))
    let next = try app.run(keys: "")
    #expect(next.standardOutput.contains("Fresh start: state discarded after a force quit."))

    _ = try app.run(keys: "down*3 enter Q", ["--developer-mode"])
    #expect(FileManager.default.fileExists(atPath: app.archivePath))
    let kept = try app.run(keys: "", ["--developer-mode"])
    #expect(kept.standardOutput.contains("Country:  Algeria"))
  }

  @Test func twoCrashesDuringRestorationThenAFreshStartThatSaysWhy() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = RestorerProcess(stateDirectory: folder)
    _ = try app.run(keys: "down*3 enter h")
    for _ in 0..<2 {
      let crash = try app.run(keys: "", ["--crash-during-restore"])
      #expect(crash.wasSignaled)
      #expect(crash.status == SIGABRT)
      #expect(crash.standardError.contains("crashing during restoration"))
      #expect(FileManager.default.fileExists(atPath: app.archivePath))
    }
    let third = try app.run(keys: "")
    #expect(third.status == 0)
    #expect(
      third.standardOutput.contains(
        "Fresh start: state discarded after crashes during restoration on 2 launches."
      )
    )
    #expect(!third.standardOutput.contains("Country:"))
    #expect(!FileManager.default.fileExists(atPath: app.archivePath))
  }

  @Test func debugLogGoesToAFileNamedOnExit() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = RestorerProcess(stateDirectory: folder)
    _ = try app.run(keys: "down enter h")
    let result = try app.run(keys: "h", ["--debug-logging"])
    let logPath = folder.appendingPathComponent("restorer-debug.log").path
    #expect(result.standardOutput.contains("Debug log: \(logPath)"))
    let log = try String(contentsOfFile: logPath, encoding: .utf8)
    #expect(
      log.contains("State restoration archive was saved with major version 3, minor version 1."))
    #expect(log.contains("Root restoration identifier paths are ("))
    #expect(log.contains("Restoration phase 'decodeState' took"))
  }

  @Test func aDebugLogPastOneMegabyteStartsAgain() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = RestorerProcess(stateDirectory: folder)
    let logPath = folder.appendingPathComponent("restorer-debug.log").path
    try Data(repeating: UInt8(ascii: "x"), count: 3 << 20).write(to: URL(fileURLWithPath: logPath))
    _ = try app.run(keys: "h", ["--debug-logging"])
    let log = try String(contentsOfFile: logPath, encoding: .utf8)
    #expect(log.utf8.count < 1 << 20)
    #expect(!log.contains("xxx"))
    #expect(log.contains("Restoration phase"))
  }

  @Test func resetDeletesTheSavedStateButNotTheSettings() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = RestorerProcess(stateDirectory: folder)
    _ = try app.run(keys: "2 enter 1 down enter h")  // Amazing off, then a country open
    let reset = try app.run(keys: "", ["--reset"])
    #expect(reset.standardOutput.contains("Started fresh: nothing was saved."))
    #expect(!reset.standardOutput.contains("Country:"))
    let settings = try app.run(keys: "2")
    #expect(settings.standardOutput.contains("Amazing            [OFF]"))
  }

  @Test func withoutATerminalItSaysHowToDriveIt() throws {
    let result = try TestSupport.run(
      RestorerProcess.path(), ["--state-dir", "/tmp/unused-\(UUID())"])
    #expect(result.status == 2)
    #expect(result.standardError.contains("not a terminal"))
    #expect(result.standardError.contains("--keys"))
    #expect(result.standardOutput.isEmpty)
  }

  @Test func badOptionsAreOneClearLine() throws {
    let result = try TestSupport.run(RestorerProcess.path(), ["--keys", "down fly"])
    #expect(result.status != 0)
    #expect(result.standardError.contains("'fly' is not a key"))
    let help = try TestSupport.run(RestorerProcess.path(), ["--help"])
    #expect(help.status == 0)
    #expect(help.standardOutput.contains("Home button"))
    #expect(help.standardOutput.contains("--crash-during-restore"))
  }

  @Test func helpSaysWhatTheSnapshotIsAndHowToSeeItLonger() throws {
    var environment = ProcessInfo.processInfo.environment
    environment["COLUMNS"] = "80"
    let help = try TestSupport.run(RestorerProcess.path(), ["--help"], environment: environment)
    let text = help.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(
      text.contains("as iOS shows a screenshot of an app's last screen while the app relaunches"))
    #expect(text.contains("The snapshot stays only as long as restoration takes"))
    #expect(text.contains("--show-snapshot <seconds>"))
    for arguments in [["--show-snapshot", "-1"], ["--show-snapshot", "1", "--keys", "h"]] {
      let wrong = try TestSupport.run(RestorerProcess.path(), arguments)
      #expect(wrong.status == 64, "\(arguments): \(wrong.standardError)")
      #expect(wrong.standardError.contains("--show-snapshot"))
    }
  }

  @Test func aCrashDuringRestorationSaysWhatHappensNextAndWhereTheLogIs() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = RestorerProcess(stateDirectory: folder)
    _ = try app.run(keys: "down enter h")
    let crash = try app.run(keys: "", ["--crash-during-restore", "--debug-logging"])
    #expect(crash.wasSignaled)
    #expect(crash.standardError.contains("after 2 crashes during restoration the saved state"))
    let logPath = folder.appendingPathComponent("restorer-debug.log").path
    #expect(crash.standardError.contains("Debug log: \(logPath)"))
  }

  @Test func helpFitsEightyColumnsWithoutDanglingWords() throws {
    var environment = ProcessInfo.processInfo.environment
    environment["COLUMNS"] = "80"
    let help = try TestSupport.run(RestorerProcess.path(), ["--help"], environment: environment)
    #expect(help.status == 0)
    let lines = help.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init)
    for line in lines { #expect(line.count <= 80, "too wide: \(line)") }
    // A re-wrapped line leaves its end dangling: a short line in the middle of a sentence,
    // which the next line, at the same indentation, goes on in lowercase. Hand-wrapped text
    // fills at least half the width before such a break; the rows of the keys' table, short
    // too, are followed by the next key's row.
    func indentation(_ line: String) -> Int { line.prefix { $0 == " " }.count }
    for (line, next) in zip(lines, lines.dropFirst())
    where !line.isEmpty && indentation(line) == indentation(next)
      && next.drop(while: { $0 == " " }).first?.isLowercase == true
    {
      #expect(line.count >= 40, "a dangling line before: \(next)")
    }
    #expect(help.standardOutput.contains("SIGINT"))
  }

  @Test func aStateFolderPathTakenByAFileIsOneClearLine() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("not-a-folder")
    try Data("x".utf8).write(to: file)
    for path in [file.path, file.appendingPathComponent("below").path] {
      let result = try TestSupport.run(
        RestorerProcess.path(), ["--state-dir", path, "--keys", "h"])
      #expect(result.status == 1)
      #expect(result.standardOutput.isEmpty)
      let error = result.standardError.trimmingCharacters(in: .whitespacesAndNewlines)
      #expect(error.hasPrefix("restorer: cannot create the state folder \(path): "), "\(error)")
      #expect(!error.contains("\n"))
      #expect(!error.contains("NSCocoaErrorDomain"))
      #expect(error.contains("\(file.path) is a file") || error.contains("file of that name"))
    }
  }

  @Test func theArchiveToolFindsTheDemosStateByItsBundleIdentifier() throws {
    // No path to type: the tool looks where the demo saves by default.
    let home = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: home) }
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = home.path
    environment["XDG_STATE_HOME"] = nil
    let session = try TestSupport.run(
      RestorerProcess.path(), ["--keys", "down*2 enter h"], environment: environment)
    #expect(session.status == 0, "\(session.standardError)")
    let tool = try BuiltExecutable.path(
      named: "restoration-archive-tool", variable: "RESTORATION_ARCHIVE_TOOL")
    let paths = try TestSupport.run(
      tool, ["paths", "--bundle-id", "com.example.Restorer"], environment: environment)
    #expect(paths.status == 0, "\(paths.standardError)")
    #expect(
      paths.standardOutput.contains("TabBarControllerID/:[0]:/CountryNCID/:[1]:/CountryDetail\n"))
  }

  @Test func defaultStateFolderIsUnderHOME() throws {
    let home = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: home) }
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = home.path
    environment["XDG_STATE_HOME"] = nil
    let result = try TestSupport.run(
      RestorerProcess.path(), ["--keys", "down enter h"], environment: environment)
    #expect(result.status == 0, "\(result.standardError)")
    let archive = windowFolder(home.appendingPathComponent(".local/state/swift-state-restoration"))
      .appendingPathComponent("data.data")
    #expect(FileManager.default.fileExists(atPath: archive.path))
    #expect(result.standardOutput.contains(archive.path))
    // Every folder the demo made is private to the user.
    for folder in [".local", ".local/state", ".local/state/swift-state-restoration"] {
      let attributes = try FileManager.default.attributesOfItem(
        atPath: home.appendingPathComponent(folder).path)
      let permissions = (attributes[.posixPermissions] as? NSNumber)?.intValue
      #expect(permissions == 0o700, "\(folder): \(String(permissions ?? 0, radix: 8))")
    }
  }
}
