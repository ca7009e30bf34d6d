import Foundation
import RestorerCore
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The demo's windows: each run is a scene with a session of its own, listed by `--windows`,
/// reconnected by `--window ID`, closed by `w`.
@Suite(.serialized) struct WindowsTests {
  /// The identifiers `--windows` lists, the one used last first, with each line.
  private func windows(_ app: RestorerProcess) throws -> [(id: String, line: String)] {
    let result = try TestSupport.run(
      RestorerProcess.path(), ["--state-dir", app.stateDirectory.path, "--windows"])
    #expect(result.status == 0, "\(result.standardError)")
    return result.standardOutput.split(separator: "\n").dropFirst().dropLast().map { line in
      let id = line.split(separator: " ").first.map(String.init) ?? ""
      return (id, String(line))
    }
  }

  private func sessionFolders(_ app: RestorerProcess) -> [String] {
    let scenes = app.stateDirectory.appendingPathComponent(
      "Saved Application State/com.example.Restorer.savedState/Scenes")
    return ((try? FileManager.default.contentsOfDirectory(atPath: scenes.path)) ?? []).sorted()
  }

  @Test func windowsAreListedReconnectedAndClosedOneByOne() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = RestorerProcess(stateDirectory: folder)
    let names = try bundledCountryNames()

    let empty = try TestSupport.run(
      RestorerProcess.path(), ["--state-dir", folder.path, "--windows"])
    #expect(empty.standardOutput.contains("No windows saved"))

    #expect(try app.run(keys: "down enter h").status == 0)
    let first = try windows(app)
    #expect(first.count == 1)
    let countries = try #require(first.first?.id)
    #expect(try app.run(keys: "2 h", ["--new-window"]).status == 0)
    let both = try windows(app)
    #expect(both.count == 2)
    // The one used last first, with the titles the app switcher shows.
    let settings = try #require(both.first?.id)
    #expect(settings != countries)
    #expect(both[0].line.contains("Settings"))
    #expect(both[1].id == countries && both[1].line.contains("Countries > "))
    #expect(sessionFolders(app) == [countries, settings].sorted())

    // Each window comes back with its own screen.
    let a = try app.run(keys: "h", ["--window", countries])
    #expect(a.standardOutput.contains("Country:  \(names[1])"))
    let b = try app.run(keys: "h", ["--window", settings])
    #expect(b.standardOutput.contains("[2 Settings]") && b.standardOutput.contains("Amazing"))
    // Without a flag: the window used last.
    let last = try app.run(keys: "h")
    #expect(last.standardOutput.contains("[2 Settings]"))

    let unknown = try app.run(keys: "h", ["--window", "NOPE"])
    #expect(unknown.status == 1)
    #expect(unknown.standardError.contains("no window NOPE"))
    #expect(unknown.standardError.contains("--windows"))

    // w closes the window: its state is gone, the other's is not.
    let closed = try app.run(keys: "w", ["--window", countries])
    #expect(closed.status == 0, "\(closed.standardError)")
    #expect(closed.standardOutput.contains("Closed window \(countries)"))
    #expect(try windows(app).map(\.id) == [settings])
    #expect(sessionFolders(app) == [settings])
    let kept = try app.run(keys: "h", ["--window", settings])
    #expect(kept.standardOutput.contains("[2 Settings]"))

    // Q, a force quit, deletes every window's state.
    #expect(try app.run(keys: "Q", ["--new-window"]).status == 0)
    #expect(sessionFolders(app).isEmpty)
    #expect(try windows(app).isEmpty)
  }

  @Test func flagsThatConflictAreRefused() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try TestSupport.run(
      RestorerProcess.path(), ["--state-dir", folder.path, "--windows", "--new-window"])
    #expect(result.status == 64)
    #expect(result.standardError.contains("Choose one of --new-window, --window and --windows."))
  }
}
