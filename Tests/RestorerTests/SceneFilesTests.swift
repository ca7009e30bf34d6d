import Foundation
import RestorerCore
import StateRestoration
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The Restorer app's windows against files that another version of the app, another program
/// or a hostile user left in its `.savedState` folder: no window the user saved is lost, and
/// nothing that is not the app's makes it fail.
@Suite(.serialized) struct SceneFilesTests {
  /// The demo's state folder, its index and its windows.
  private struct State {
    let app: RestorerProcess
    var savedState: URL {
      app.stateDirectory.appendingPathComponent(
        "Saved Application State/com.example.Restorer.savedState")
    }
    var scenes: URL { savedState.appendingPathComponent("Scenes") }
    var index: URL { savedState.appendingPathComponent("sessions.data") }

    init() throws { app = RestorerProcess(stateDirectory: try makeTemporaryFolder()) }

    func remove() { try? FileManager.default.removeItem(at: app.stateDirectory) }

    func archive(_ session: String) -> URL {
      scenes.appendingPathComponent(session).appendingPathComponent("data.data")
    }

    /// `restorer --windows`, which launches the app as any run does.
    func listWindows(_ extra: [String] = []) throws -> ProcessResult {
      try TestSupport.run(
        RestorerProcess.path(), ["--state-dir", app.stateDirectory.path, "--windows"] + extra)
    }

    /// The identifiers `--windows` lists, the one used last first.
    func windows() throws -> [String] {
      let result = try listWindows()
      #expect(result.status == 0, "\(result.standardError)")
      return result.standardOutput.split(separator: "\n").dropFirst().dropLast().compactMap {
        $0.split(separator: " ").first.map(String.init)
      }
    }

    /// Opens a new window with these keys; returns its session, read from where it was saved.
    func newWindow(_ keys: String) throws -> String {
      let result = try app.run(keys: keys, ["--new-window"])
      #expect(result.status == 0, "\(result.standardError)")
      let path = try #require(
        result.standardOutput.split(separator: "\n").first { $0.hasSuffix("/data.data") })
      return String(path.split(separator: "/").dropLast().last ?? "")
    }

    /// The entries of the index, as written.
    func indexEntries() throws -> [StateValue] {
      let bytes = [UInt8](try Data(contentsOf: index))
      guard case .dictionary(let top) = try PropertyList.read(Array(bytes.dropFirst(16))),
        case .array(let entries) = top["sessions"]
      else { throw CocoaError(.fileReadCorruptFile) }
      return entries
    }

    /// Replaces the index with one listing `entries`, with a valid checksum.
    func writeIndex(_ entries: [StateValue]) throws {
      let body = try PropertyList.write(.dictionary(["sessions": .array(entries)]))
      try Data(checkedFile(body, magic: "SRSESS01")).write(to: index)
    }

    /// How many session folders hold an archive.
    func archiveCount() -> Int {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: scenes.path)) ?? []
      return names.filter { FileManager.default.fileExists(atPath: archive($0).path) }.count
    }
  }

  /// An index entry as the app writes it.
  private static func entry(
    _ identifier: String, title: String? = nil, role: StateValue? = nil
  ) -> StateValue {
    var fields: [String: StateValue] = [
      "identifier": .string(identifier),
      "role": role ?? .string("UIWindowSceneSessionRoleApplication"),
      "lastUsed": .date(Date()),
    ]
    if let title { fields["title"] = .string(title) }
    return .dictionary(fields)
  }

  private static func identifier(of entry: StateValue) -> String? {
    guard case .dictionary(let fields) = entry, case .string(let id) = fields["identifier"] else {
      return nil
    }
    return id
  }

  // MARK: - What the index reader skips is not deleted

  /// An entry another version of the app wrote, with a field of a type this version does not
  /// read, keeps its folder and its place in the index; once readable, the window comes back.
  @Test func anEntryOfAnotherVersionKeepsItsFolder() throws {
    let state = try State()
    defer { state.remove() }
    let names = try bundledCountryNames()
    let countries = try state.newWindow("down enter h")
    let settings = try state.newWindow("2 h")
    let archive = try Data(contentsOf: state.archive(countries))
    let foreign = Self.entry(countries, role: .integer(7))
    try state.writeIndex(
      try state.indexEntries().map { Self.identifier(of: $0) == countries ? foreign : $0 })

    #expect(try state.windows() == [settings])
    #expect(try Data(contentsOf: state.archive(countries)) == archive)
    // A save of the other window writes the index again: the entry stays as it was written.
    #expect(try state.app.run(keys: "h", ["--window", settings]).status == 0)
    #expect(try state.indexEntries().contains(foreign))
    #expect(try state.windows() == [settings])
    #expect(try Data(contentsOf: state.archive(countries)) == archive)

    // Readable again (the other version's fix, say): the window restores its screen.
    try state.writeIndex(
      try state.indexEntries().map { Self.identifier(of: $0).map { Self.entry($0) } ?? $0 })
    let restored = try state.app.run(keys: "h", ["--window", countries])
    #expect(restored.standardOutput.contains("Country:  \(names[1])"), "\(restored.standardOutput)")
  }

  /// Without an index, 301 session folders are as many windows: the app opens 256, as it would
  /// with an index, keeps the others listed and on disk, and opens them as room is made.
  @Test func foldersBeyondTheWindowsOpenAreKeptUntilThereIsRoom() throws {
    let state = try State()
    defer { state.remove() }
    let first = try state.newWindow("down*3 enter h")
    let archive = try Data(contentsOf: state.archive(first))
    try FileManager.default.removeItem(at: state.index)
    for _ in 1..<301 {
      let folder = state.scenes.appendingPathComponent(UUID().uuidString)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
      try archive.write(to: folder.appendingPathComponent("data.data"))
    }
    for _ in 0..<2 { #expect(try state.windows().count == 256) }
    #expect(state.archiveCount() == 301)
    // A save writes the index: the windows beyond those open are listed, to keep their folders.
    let listed = try state.windows()
    #expect(try state.app.run(keys: "h", ["--window", listed[0]]).status == 0)
    #expect(try state.indexEntries().count == 301)
    for _ in 0..<2 { #expect(try state.windows().count == 256) }
    #expect(state.archiveCount() == 301)
    // Closing windows makes room for those that waited.
    for closed in listed.suffix(3) {
      #expect(try state.app.run(keys: "w", ["--window", closed]).status == 0)
    }
    let after = try state.windows()
    #expect(after.count == 256)
    #expect(Set(after).isDisjoint(with: listed.suffix(3)))
    #expect(state.archiveCount() == 298)
  }

  /// Entries listed first that have no state (256 of them, as a hostile file could hold) neither
  /// hide the windows that have state nor stop a new window from opening.
  @Test func entriesWithoutStateNeitherHideWindowsNorBlockANewOne() throws {
    let state = try State()
    defer { state.remove() }
    let names = try bundledCountryNames()
    let countries = try state.newWindow("down*2 enter h")
    let settings = try state.newWindow("2 h")
    let junk = (0..<256).map { _ in Self.entry(UUID().uuidString, title: "junk") }
    try state.writeIndex(junk + (try state.indexEntries()))

    let listed = try state.windows()
    #expect(listed.count == 256)
    #expect(listed.contains(countries) && listed.contains(settings))
    let opened = try state.app.run(keys: "h", ["--new-window"])
    #expect(opened.status == 0, "\(opened.standardError)")
    #expect(opened.standardOutput.contains("Home: state preserved"))
    #expect(try state.app.run(keys: "h", ["--new-window"]).status == 0)
    let restored = try state.app.run(keys: "h", ["--window", countries])
    #expect(restored.standardOutput.contains("Country:  \(names[2])"))
    #expect(state.archiveCount() == 4)
  }

  // MARK: - Scene storage values

  /// A reference stored under the scene storage key is dropped at restore: it is not carried
  /// into the next archive, where it would fail every save once its screen is closed.
  @Test func aReferenceInSceneStorageIsDroppedAndTheNextSaveSucceeds() throws {
    let state = try State()
    defer { state.remove() }
    let window = try state.newWindow("down enter h")
    let url = state.archive(window)
    var archive = try RestorationArchive(decoding: [UInt8](try Data(contentsOf: url)))
    let detail = try #require(
      archive.records.first { $0.identifierPath.hasSuffix("CountryDetail") }?.identifierPath)
    archive.topLevel["StateRestorationUI.SceneStorage"] = .dictionary([
      "bad": .reference(detail), "kept": .string("a draft"),
    ])
    try Data(try archive.encoded()).write(to: url)

    let closed = try state.app.run(keys: "esc h", ["--window", window, "--debug-logging"])
    #expect(closed.status == 0, "\(closed.standardError)")
    #expect(closed.standardOutput.contains("Home: state preserved"))
    let log = try String(
      contentsOf: state.app.stateDirectory.appendingPathComponent("restorer-debug.log"),
      encoding: .utf8)
    #expect(log.contains("Scene storage value \"bad\" dropped"), "\(log)")
    let saved = try RestorationArchive(decoding: [UInt8](try Data(contentsOf: url)))
    #expect(
      saved.topLevel["StateRestorationUI.SceneStorage"] == .dictionary(["kept": .string("a draft")])
    )
    #expect(try state.app.run(keys: "h", ["--window", window]).status == 0)
  }

  // MARK: - A force quit and what is not the app's

  /// A file, a FIFO, a folder whose name is not UTF-8, or an unknown file in a session's
  /// folder: a force quit deletes the app's state, says so and exits 0, at every run.
  @Test(arguments: ["file", "fifo", "not UTF-8", "unknown file"])
  func aForceQuitIgnoresWhatIsNotTheApps(stray: String) throws {
    let state = try State()
    defer { state.remove() }
    let window = try state.newWindow("down enter h")
    let scenes = state.scenes.path
    let unknown = state.scenes.appendingPathComponent(window).appendingPathComponent("notes.txt")
    let foreign = Array(scenes.utf8) + Array("/bad".utf8) + [0xFF]
    switch stray {
    case "file":
      try Data("x".utf8).write(to: state.scenes.appendingPathComponent(UUID().uuidString))
    case "fifo":
      #expect(mkfifo("\(scenes)/\(UUID().uuidString)", 0o600) == 0)
    case "not UTF-8":
      #expect(makeFolder(foreign) == 0)
      #expect(writeFile(foreign + Array("/data.data".utf8), [1, 2, 3]) == 0)
    default:
      try Data("mine".utf8).write(to: unknown)
    }
    for run in 0..<2 {
      let quit = try state.app.run(keys: "Q", run == 0 ? ["--window", window] : [])
      #expect(quit.status == 0, "\(stray), run \(run): \(quit.standardError)")
      #expect(quit.standardOutput.contains("the saved state was deleted"), "\(quit.standardOutput)")
    }
    #expect(state.archiveCount() == 0)
    #expect(try state.windows().isEmpty)
    switch stray {
    case "not UTF-8":
      // The app's item is gone from it too; the folder, then empty, with it.
      #expect(fileExists(foreign + Array("/data.data".utf8)) == false)
    case "unknown file":
      #expect(try Data(contentsOf: unknown) == Data("mine".utf8))
    default:
      break
    }
  }

  // MARK: - Terminal output

  /// A bidirectional control in a title or an identifier never reaches `--windows`.
  @Test func bidirectionalControlsNeverReachTheWindowList() throws {
    let state = try State()
    defer { state.remove() }
    let window = try state.newWindow("h")
    try state.writeIndex([
      Self.entry(window, title: "Count\u{202E}ries"), Self.entry("EVIL\u{202E}txt.exe"),
    ])
    let result = try state.listWindows()
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("Countries"))
    #expect(!result.standardOutput.unicodeScalars.contains { $0.properties.isBidiControl })
    #expect(!result.standardOutput.contains("EVIL"))
  }

  // MARK: - Logging

  /// An index of 30,000 repeated entries makes a few lines of debug log, not one per entry.
  @Test func repeatedWarningsAreSummarized() throws {
    let state = try State()
    defer { state.remove() }
    let window = try state.newWindow("h")
    try state.writeIndex(Array(repeating: Self.entry(window), count: 30_000))
    let result = try state.listWindows(["--debug-logging"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(try state.windows() == [window])
    let log = state.app.stateDirectory.appendingPathComponent("restorer-debug.log")
    let size = try FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int ?? .max
    #expect(size < 16 << 10, "a debug log of \(size) bytes")
    let text = try String(contentsOf: log, encoding: .utf8)
    #expect(
      text.contains("29999 entries left out: an identifier listed before (entries 1, 2, 3, …)"))
  }
}

/// Creates a folder named by raw bytes, which need not be UTF-8.
private func makeFolder(_ path: [UInt8]) -> Int32 {
  mkdir(path.map { CChar(bitPattern: $0) } + [0], 0o700)
}

/// Writes a file named by raw bytes.
private func writeFile(_ path: [UInt8], _ bytes: [UInt8]) -> Int32 {
  let file = open(path.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT | O_EXCL, 0o600)
  guard file >= 0 else { return -1 }
  defer { close(file) }
  return write(file, bytes, bytes.count) == bytes.count ? 0 : -1
}

/// Whether a file named by raw bytes exists.
private func fileExists(_ path: [UInt8]) -> Bool {
  access(path.map { CChar(bitPattern: $0) } + [0], F_OK) == 0
}
