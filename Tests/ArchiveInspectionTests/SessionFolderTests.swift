import ArchiveInspection
import Foundation
import StateRestoration
import StateRestorationUI
import TestSupport
import Testing

/// The tool given an app's `.savedState` folder, or `--bundle-id`, of an app that has scenes.
@Suite struct SessionFolderTests {
  /// A state folder with the app's own archive and two scene sessions, each with its archive.
  private struct ScenesState {
    let root: URL
    let savedState: String

    init() throws {
      root = try makeTemporaryFolder()
      let stores = try FileSceneSessionStores(
        stateRoot: root.path, bundleIdentifier: "com.example.Scenes")
      savedState = String(stores.scenesFolder.dropLast("/Scenes".count))
      try stores.applicationStore.write(try DemoArchives.countries().encoded(), to: .archive)
      try stores.store(forSession: "AAA").write(
        try DemoArchives.talkDemo(city: "Bern").encoded(), to: .archive)
      try stores.store(forSession: "BBB").write(
        try DemoArchives.talkDemo(city: "Genève").encoded(), to: .archive)
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
  }

  @Test("dump covers every session, each under a header naming it")
  func dumpCoversEverySession() throws {
    let state = try ScenesState()
    defer { state.remove() }
    for arguments in [
      ["dump", state.savedState],
      ["dump", "--bundle-id", "com.example.Scenes", "--state-dir", state.root.path],
    ] {
      let result = try ArchiveTool.run(arguments)
      #expect(result.status == 0, "\(result.standardError)")
      let output = result.standardOutput
      let headers = output.split(separator: "\n").filter { $0.hasPrefix("==> ") }
      #expect(
        headers == [
          "==> app archive: \(state.savedState)/data.data <==",
          "==> scene session AAA: \(state.savedState)/Scenes/AAA/data.data <==",
          "==> scene session BBB: \(state.savedState)/Scenes/BBB/data.data <==",
        ])
      #expect(output.contains("Bern") && output.contains("Genève"))
    }
  }

  @Test("--session narrows to one session; an unknown one names those there are")
  func sessionNarrows() throws {
    let state = try ScenesState()
    defer { state.remove() }
    let one = try ArchiveTool.run(["paths", state.savedState, "--session", "BBB"])
    #expect(one.status == 0, "\(one.standardError)")
    #expect(!one.standardOutput.contains("==>"))
    #expect(one.standardOutput.contains("TabController"))
    let dump = try ArchiveTool.run(["dump", state.savedState, "--session", "BBB"])
    #expect(dump.standardOutput.contains("Genève") && !dump.standardOutput.contains("Bern"))

    let unknown = try ArchiveTool.run(["validate", state.savedState, "--session", "CCC"])
    #expect(unknown.status == ToolExitStatus(for: .storageFailed).rawValue)
    #expect(unknown.standardError.contains("AAA, BBB"))
    #expect(unknown.standardOutput.isEmpty)

    let file = try ArchiveTool.run(["dump", "\(state.savedState)/data.data", "--session", "AAA"])
    #expect(file.status != 0)
    #expect(file.standardError.contains("--session"))
  }

  @Test("validate checks every session; a damaged one fails the run and the others still print")
  func validateEverySession() throws {
    let state = try ScenesState()
    defer { state.remove() }
    let damaged = "\(state.savedState)/Scenes/AAA/data.data"
    var bytes = try Data(contentsOf: URL(fileURLWithPath: damaged))
    bytes[bytes.count / 2] ^= 0xFF
    try bytes.write(to: URL(fileURLWithPath: damaged))

    let result = try ArchiveTool.run(["validate", state.savedState])
    #expect(result.status == ToolExitStatus(for: .checksumMismatch).rawValue)
    #expect(result.standardError.contains(damaged))
    #expect(result.standardOutput.contains("\(state.savedState)/Scenes/BBB/data.data: valid"))
    #expect(result.standardOutput.contains("\(state.savedState)/data.data: valid"))

    let sizes = try ArchiveTool.run(["sizes", state.savedState, "--session", "BBB"])
    #expect(sizes.status == 0, "\(sizes.standardError)")
  }

  @Test("a session folder that is a symbolic link is not read")
  func symlinkedSessionIsSkipped() throws {
    let state = try ScenesState()
    defer { state.remove() }
    let outside = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: outside) }
    try Data(try DemoArchives.signIn().encoded()).write(
      to: outside.appendingPathComponent("data.data"))
    try FileManager.default.createSymbolicLink(
      atPath: "\(state.savedState)/Scenes/LINKED", withDestinationPath: outside.path)
    let result = try ArchiveTool.run(["paths", state.savedState])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(!result.standardOutput.contains("LINKED"))
    #expect(!result.standardOutput.contains("SignIn"))
  }

  @Test("an app without scenes reads as before: one archive, no header")
  func appWithoutScenes() throws {
    let (folder, _) = try DemoArchives.write(try DemoArchives.countries().encoded())
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try ArchiveTool.run(["paths", folder.path])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(!result.standardOutput.contains("==>"))
    #expect(result.standardOutput.contains("CountryNCID"))
  }
}
