import Foundation
import NotesCore
import StateRestoration
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The built `notes` app over a private state folder.
struct NotesProcess {
  let stateDirectory: URL

  static func path() throws -> String {
    try BuiltExecutable.path(named: "notes", variable: "NOTES")
  }

  /// The environment of a run: the settings from the test's environment would change the runs.
  static var environment: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["STATE_RESTORATION_DEVELOPER_MODE"] = nil
    environment["STATE_RESTORATION_DEBUG_LOGGING"] = nil
    return environment
  }

  /// Runs `notes --state-dir <folder> <commands>` to its end.
  func run(_ commands: [String]) throws -> ProcessResult {
    try TestSupport.run(
      Self.path(), ["--state-dir", stateDirectory.path] + commands, environment: Self.environment)
  }

  /// Starts `notes` without waiting for it, its output discarded.
  func start(_ commands: [String]) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try Self.path())
    process.arguments = ["--state-dir", stateDirectory.path] + commands
    process.environment = Self.environment
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  var archivePath: String {
    stateDirectory.appendingPathComponent(
      "Saved Application State/com.example.Notes.savedState/data.data"
    ).path
  }

  var notesPath: String { stateDirectory.appendingPathComponent("Notes/notes.json").path }

  /// The notes in the file, as another device syncing them would see them.
  func notes() throws -> [Note] {
    try JSONDecoder().decode([Note].self, from: Data(contentsOf: URL(fileURLWithPath: notesPath)))
  }

  /// Replaces the notes in the file, as another device syncing them would between launches.
  func replaceNotes(_ notes: [Note]) throws {
    try JSONEncoder().encode(notes).write(to: URL(fileURLWithPath: notesPath), options: .atomic)
  }

  /// Waits until the archive exists, which, as it is renamed into place, means it is whole.
  func waitForArchive(timeout: Duration = .seconds(20)) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if FileManager.default.fileExists(atPath: archivePath) { return true }
      usleep(1_000)
    }
    return false
  }
}

/// The lines of a run's output.
private func lines(_ result: ProcessResult) -> [String] {
  result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
}

/// The Notes example run as a real process, across real process ends and SIGKILLs.
@Suite(.serialized) struct NotesProcessTests {
  @Test func theEditorComesBackHalfTypedOverTheListsSelection() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = NotesProcess(stateDirectory: folder)

    let first = try app.run(["open", "2", "edit", "type", "Buy milk", "home"])
    #expect(first.status == 0, "\(first.standardError)")
    #expect(first.standardError.isEmpty)
    #expect(lines(first).first == "Launch: nothing was saved; a fresh start.")
    #expect(first.standardOutput.contains("Notes > Shopping list > Edit"))
    #expect(first.standardOutput.contains("\neggs\nBuy milk|\n"))
    #expect(first.standardOutput.contains("Home: the state was preserved ("))
    #expect(first.standardOutput.contains(app.archivePath))
    #expect(FileManager.default.fileExists(atPath: app.archivePath))
    // Half-typed text is UI state: the notes file does not have it.
    #expect(try app.notes().allSatisfy { !$0.text.contains("Buy milk") })

    // A new process: the same editor, the same text, the caret where it was.
    let second = try app.run(["home"])
    #expect(second.status == 0, "\(second.standardError)")
    let launch = try #require(lines(second).first)
    #expect(launch.hasPrefix("Launch: restored ") && launch.hasSuffix(" objects."), "\(launch)")
    #expect(!second.standardOutput.contains("not restored"))
    #expect(second.standardOutput.contains("Notes > Shopping list > Edit"))
    #expect(second.standardOutput.contains("\neggs\nBuy milk|\n"))
    #expect(second.standardOutput.contains("Not saved. Commands: type TEXT"))

    // Below the editor, the note's screen, and below it the list with note 2 selected.
    let third = try app.run(["back", "home"])
    #expect(third.standardOutput.contains("Notes > Shopping list\n"))
    let fourth = try app.run(["back"])
    #expect(fourth.status == 0, "\(fourth.standardError)")
    #expect(fourth.standardOutput.contains(" >  2  Shopping list\n"))
    #expect(fourth.standardOutput.contains("rows 1-6 of 12"))
    // Without Home nothing was preserved, and the launch used up the saved state, as in UIKit.
    #expect(fourth.standardOutput.contains("this screen is not preserved"))
    let fifth = try app.run([])
    #expect(fifth.standardOutput.hasPrefix("Launch: nothing was saved; a fresh start."))
  }

  @Test func theCaretComesBackAndSaveWritesTheNotesFile() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = NotesProcess(stateDirectory: folder)
    let first = try app.run(["open", "2", "edit", "type", "Buy milk", "left", "4", "home"])
    #expect(first.standardOutput.contains("\nBuy |milk\n"))

    let second = try app.run(["type", "soy ", "save", "home"])
    #expect(second.status == 0, "\(second.standardError)")
    #expect(second.standardOutput.contains("Notes > Shopping list\n"))
    #expect(try app.notes()[1].text == "Shopping list\nbread\neggs\nBuy soy milk")
  }

  @Test func selectionAndScrollComeBackToTheSameNotesAfterTheDataChanged() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = NotesProcess(stateDirectory: folder)
    let first = try app.run(["scroll", "5", "open", "7", "back", "home"])
    #expect(first.status == 0, "\(first.standardError)")
    #expect(first.standardOutput.contains("rows 5-10 of 12"))
    #expect(first.standardOutput.contains(" >  7  Recipes to try\n"))

    // Two notes arrive at the top of the list between launches.
    var notes = try app.notes()
    notes.insert(contentsOf: [Note(id: 20, text: "New A"), Note(id: 21, text: "New B")], at: 0)
    try app.replaceNotes(notes)
    let second = try app.run(["home"])
    #expect(second.status == 0, "\(second.standardError)")
    #expect(second.standardOutput.contains("rows 7-12 of 14"))
    #expect(second.standardOutput.contains("\n    7  Packing list\n"))
    #expect(second.standardOutput.contains(" >  9  Recipes to try\n"))

    // The selected note is deleted elsewhere: no selection, and the launch says why.
    try app.replaceNotes(notes.filter { $0.id != 7 })
    let third = try app.run([])
    #expect(third.standardOutput.contains("note: selected item '7' is no longer in the data"))
    #expect(!third.standardOutput.contains(" > "))
    #expect(third.standardOutput.contains("\n    7  Packing list\n"))
  }

  @Test func aNoteDeletedBetweenLaunchesLeavesItsScreensOut() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = NotesProcess(stateDirectory: folder)
    _ = try app.run(["open", "3", "edit", "type", "Wednesday instead.", "home"])
    try app.replaceNotes(try app.notes().filter { $0.id != 3 })

    let next = try app.run([])
    #expect(next.status == 0, "\(next.standardError)")
    #expect(
      next.standardOutput.contains(
        "not restored: Notes/:[1]:/NoteDetail: skipped: restoration class 'NoteDetailViewController' returned nil"
      ))
    #expect(next.standardOutput.contains("not restored: Notes/:[2]:/NoteEditor"))
    #expect(next.standardOutput.contains("Commands: open N, scroll N, home"))
  }

  @Test func killedWithSIGKILLAfterPreservingTheNextLaunchRestores() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = NotesProcess(stateDirectory: folder)
    // Preserve on the way to the background, then sit there, suspended, until killed.
    let process = try app.start([
      "open", "2", "edit", "type", "Buy milk", "background", "wait", "60",
    ])
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    #expect(app.waitForArchive())
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal)

    let next = try app.run([])
    #expect(next.status == 0, "\(next.standardError)")
    #expect(!next.standardOutput.contains("not restored"))
    #expect(next.standardOutput.contains("Notes > Shopping list > Edit"))
    #expect(next.standardOutput.contains("\neggs\nBuy milk|\n"))
  }

  @Test func killedAtRandomInstantsTheNextLaunchRestoresAWholePreservedState() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = NotesProcess(stateDirectory: folder)
    // Type 1, 2, 3... preserving after each: every archive holds the text up to one number.
    // Then wait to be killed, so that a kill always finds the process running.
    let cycles = 50
    var script = ["open", "2", "edit"]
    for number in 1...cycles {
      script += ["type", "\(number) ", "background", "foreground"]
    }
    script += ["wait", "60"]
    var generator = SystemRandomNumberGenerator()
    var restoredGenerations: [Int] = []
    for round in 0..<6 {
      let process = try app.start(script)
      defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
      // Half the kills come at any instant from the start, before or after the first preserve;
      // the others once a preserve is done, between two writes or during one.
      if round % 2 == 1 { #expect(app.waitForArchive()) }
      usleep(UInt32.random(in: 0...250_000, using: &generator))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      #expect(process.terminationReason == .uncaughtSignal, "round \(round): it had exited")

      // What the kill left is a whole archive, or none.
      let bytes = FileManager.default.contents(atPath: app.archivePath)
      if let bytes {
        #expect(throws: Never.self) { try RestorationArchive(decoding: [UInt8](bytes)) }
      }

      // The next launch restores it all, or starts fresh when nothing was preserved yet.
      let next = try app.run([])
      #expect(next.status == 0, "\(next.standardError)")
      guard bytes != nil else {
        #expect(next.standardOutput.hasPrefix("Launch: nothing was saved; a fresh start."))
        continue
      }
      #expect(!next.standardOutput.contains("not restored"), "round \(round)")
      #expect(!next.standardOutput.contains("discarded"), "round \(round)")
      let caretLine = try #require(lines(next).first { $0.hasSuffix("|") }, "round \(round)")
      let numbers = caretLine.dropLast().split(separator: " ").compactMap { Int($0) }
      #expect(numbers == Array(1...max(1, numbers.count)), "round \(round): \(caretLine)")
      restoredGenerations.append(numbers.count)
      // That launch consumed the archive (UIKit deletes it once restored), and did not preserve.
      #expect(!FileManager.default.fileExists(atPath: app.archivePath))
    }
    print("Numbers typed in the states restored after the kills: \(restoredGenerations)")
    #expect(restoredGenerations.count >= 3)
  }

  @Test func badCommandsAreOneClearLineAndCostNothing() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = NotesProcess(stateDirectory: folder)
    _ = try app.run(["open", "2", "home"])

    // Read before launching: the saved state is still there afterwards.
    let typo = try app.run(["open", "2", "edti"])
    #expect(typo.status != 0)
    #expect(typo.standardError.contains("Error: 'edti' is not a command; the commands are open"))
    #expect(typo.standardOutput.isEmpty)
    #expect(FileManager.default.fileExists(atPath: app.archivePath))

    // A command that does not fit the screen on top stops the run with one line.
    let misplaced = try app.run(["back", "type", "x"])
    #expect(misplaced.status == 1)
    #expect(
      misplaced.standardError
        == "notes: type \"x\": the list is on screen; it works in the editor\n")
    let missing = try app.run(["open", "40"])
    #expect(missing.standardError == "notes: open 40: the list has 12 notes\n")
  }

  @Test func helpListsTheCommandsWithinEightyColumns() throws {
    var environment = NotesProcess.environment
    environment["COLUMNS"] = "80"
    let help = try TestSupport.run(NotesProcess.path(), ["--help"], environment: environment)
    #expect(help.status == 0)
    for command in ["open N", "edit", "type TEXT", "save", "back", "background", "home"] {
      #expect(help.standardOutput.contains("\n  \(command) "), "\(command)")
    }
    #expect(help.standardOutput.contains("notes open 2 edit type \"Buy milk\" home"))
    #expect(help.standardOutput.contains("--state-dir <folder>"))
    for line in help.standardOutput.split(separator: "\n") {
      #expect(line.count <= 80, "too wide: \(line)")
    }
  }

  @Test func unusableFilesAreOneClearLine() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("not-a-folder")
    try Data("x".utf8).write(to: file)
    let blocked = try TestSupport.run(NotesProcess.path(), ["--state-dir", file.path, "open", "1"])
    #expect(blocked.status == 1)
    #expect(blocked.standardOutput.isEmpty)
    #expect(
      blocked.standardError
        == "notes: cannot use the notes file \(file.path)/Notes/notes.json: \(file.path) is a file, not a folder\n"
    )

    let app = NotesProcess(stateDirectory: folder)
    _ = try app.run([])
    try Data("{\"not\": \"notes\"}".utf8).write(to: URL(fileURLWithPath: app.notesPath))
    let corrupt = try app.run([])
    #expect(corrupt.status == 1)
    #expect(
      corrupt.standardError
        == "notes: cannot use the notes file \(app.notesPath): it is not a notes file (a JSON array of {\"id\", \"text\"})\n"
    )
  }

  @Test func theDefaultStateFolderIsUnderHOME() throws {
    let home = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: home) }
    var environment = NotesProcess.environment
    environment["HOME"] = home.path
    environment["XDG_STATE_HOME"] = nil
    let result = try TestSupport.run(
      NotesProcess.path(), ["open", "1", "home"], environment: environment)
    #expect(result.status == 0, "\(result.standardError)")
    let root = home.appendingPathComponent(".local/state/swift-state-restoration")
    let archive = root.appendingPathComponent(
      "Saved Application State/com.example.Notes.savedState/data.data")
    #expect(FileManager.default.fileExists(atPath: archive.path))
    #expect(result.standardOutput.contains(archive.path))
    #expect(
      FileManager.default.fileExists(atPath: root.appendingPathComponent("Notes/notes.json").path))
    // Every folder the app made is private to the user.
    for folder in [
      ".local", ".local/state", ".local/state/swift-state-restoration",
      ".local/state/swift-state-restoration/Notes",
    ] {
      let attributes = try FileManager.default.attributesOfItem(
        atPath: home.appendingPathComponent(folder).path)
      let permissions = (attributes[.posixPermissions] as? NSNumber)?.intValue
      #expect(permissions == 0o700, "\(folder): \(String(permissions ?? 0, radix: 8))")
    }
  }
}

/// The README quotes the example's `main.swift` and its test: apart from comments and line
/// breaks, every line it quotes is there, in order.
@Suite struct ReadmeNotesExcerptTests {
  /// Code without comments or white space.
  private func code(_ line: Substring) -> String {
    let withoutComment = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line
    return withoutComment.filter { !$0.isWhitespace }
  }

  /// Checks that the README's first Swift block after `link` quotes the file at `path`.
  private func expectQuoted(after link: String, from path: String) throws {
    let root = BuiltExecutable.packageRoot
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let file = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    let afterLink = try #require(readme.range(of: link)).upperBound
    let blockStart = try #require(
      readme.range(of: "```swift\n", range: afterLink..<readme.endIndex))
    let blockEnd = try #require(
      readme.range(of: "\n```", range: blockStart.upperBound..<readme.endIndex))
    let quoted = readme[blockStart.upperBound..<blockEnd.lowerBound].split(separator: "\n")
      .map(code).filter { !$0.isEmpty }
    #expect(quoted.count >= 8)
    let source = file.split(separator: "\n").map(code).joined()
    var position = source.startIndex
    for line in quoted {
      guard let found = source.range(of: line, range: position..<source.endIndex) else {
        Issue.record("not in \(path), in this order: \(line)")
        return
      }
      position = found.upperBound
    }
  }

  @Test func theReadmesExcerptIsTheExamplesCode() throws {
    try expectQuoted(after: "[`Examples/Notes/main.swift`]", from: "Examples/Notes/main.swift")
  }

  @Test func theReadmesTestIsTheExamplesTest() throws {
    try expectQuoted(
      after: "[`RegistrationTests.swift`]", from: "Tests/NotesTests/RegistrationTests.swift")
  }
}
