import ArchiveInspection
import Foundation
import StateRestoration
import StateRestorationUI
import TestSupport
import Testing

/// The tool given an app's `.savedState` folder, or `--bundle-id`, of an app that has scenes.
@Suite struct SessionFolderTests {
  /// A state folder with the app's own archive and two scene sessions, each with its archive;
  /// or, with `loneSession`, session AAA's archive alone.
  private struct ScenesState {
    let root: URL
    let savedState: String

    init(loneSession: Bool = false) throws {
      root = try makeTemporaryFolder()
      let stores = try FileSceneSessionStores(
        stateRoot: root.path, bundleIdentifier: "com.example.Scenes")
      savedState = String(stores.scenesFolder.dropLast("/Scenes".count))
      try stores.store(forSession: "AAA").write(
        try DemoArchives.talkDemo(city: "Bern").encoded(), to: .archive)
      guard !loneSession else { return }
      try stores.applicationStore.write(try DemoArchives.countries().encoded(), to: .archive)
      try stores.store(forSession: "BBB").write(
        try DemoArchives.talkDemo(city: "Genève").encoded(), to: .archive)
    }

    /// The path of a session's archive.
    func archive(_ session: String) -> String { "\(savedState)/Scenes/\(session)/data.data" }

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
    #expect(
      one.standardOutput.hasPrefix("==> scene session BBB: \(state.archive("BBB")) <==\n"),
      "\(one.standardOutput)")
    #expect(one.standardOutput.components(separatedBy: "==>").count == 2)
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

  @Test(
    "an archive reached through a link the app would not follow is named as one, not read",
    arguments: ["savedState", "app archive", "session archive", "session archive of a folder"])
  func linksTheAppRefusesAreNotRead(linked: String) throws {
    let state = try ScenesState()
    defer { state.remove() }
    let outside = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: outside) }
    let target = outside.appendingPathComponent("data.data")
    try Data(try DemoArchives.signIn().encoded()).write(to: target)
    let link: String
    switch linked {
    case "savedState":
      try FileManager.default.createDirectory(
        at: outside.appendingPathComponent("Scenes/AAA"), withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        atPath: state.archive("AAA"),
        toPath: outside.appendingPathComponent("Scenes/AAA/data.data").path)
      try FileManager.default.removeItem(atPath: state.savedState)
      link = state.savedState
    case "app archive":
      link = "\(state.savedState)/data.data"
    default:
      link = state.archive("BBB")
    }
    if linked != "savedState" { try FileManager.default.removeItem(atPath: link) }
    try FileManager.default.createSymbolicLink(
      atPath: link, withDestinationPath: linked == "savedState" ? outside.path : target.path)
    let arguments =
      linked == "session archive of a folder"
      ? ["dump", state.savedState]
      : ["dump", "--bundle-id", "com.example.Scenes", "--state-dir", state.root.path]
    let result = try ArchiveTool.run(arguments)
    #expect(result.status == ToolExitStatus.unreadable.rawValue, "\(result.standardError)")
    #expect(
      result.standardError.contains(
        "restoration-archive-tool: \(link): is a symbolic link, which the app never follows"),
      "\(result.standardError)")
    #expect(!result.standardOutput.contains("SignIn"), "\(result.standardOutput)")
    // Named directly, the file is read wherever it leads.
    let direct = try ArchiveTool.run(
      ["dump", linked == "savedState" ? "\(link)/data.data" : link])
    #expect(direct.status == 0, "\(direct.standardError)")
    #expect(direct.standardOutput.contains("SignIn"))
  }

  @Test("a session folder named with a bidirectional control is not listed, nor echoed raw")
  func bidirectionalControlsNeverReachTheHeaders() throws {
    let state = try ScenesState()
    defer { state.remove() }
    let name = "CCC\u{202E}txt"
    try FileManager.default.createDirectory(
      atPath: "\(state.savedState)/Scenes/\(name)", withIntermediateDirectories: false)
    try FileManager.default.copyItem(
      atPath: state.archive("AAA"), toPath: "\(state.savedState)/Scenes/\(name)/data.data")
    let result = try ArchiveTool.run(["paths", state.savedState])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.components(separatedBy: "==>").count == 4)
    #expect(!result.standardOutput.unicodeScalars.contains { $0.properties.isBidiControl })
    let asked = try ArchiveTool.run(["paths", state.savedState, "--session", name])
    #expect(asked.status == ToolExitStatus.usage.rawValue)
    #expect(asked.standardError.contains("\\u{202e}"), "\(asked.standardError)")
    #expect(!asked.standardError.unicodeScalars.contains { $0.properties.isBidiControl })
  }

  @Test("--session in the other normalization form finds the folder and reads it by its name")
  func sessionInAnotherNormalizationForm() throws {
    let state = try ScenesState()
    defer { state.remove() }
    let composed = "Caf\u{E9}"
    try FileManager.default.createDirectory(
      atPath: "\(state.savedState)/Scenes/\(composed)", withIntermediateDirectories: false)
    try Data(try DemoArchives.signIn().encoded()).write(
      to: URL(fileURLWithPath: "\(state.savedState)/Scenes/\(composed)/data.data"))
    for asked in [composed, "Cafe\u{301}"] {
      let result = try ArchiveTool.run(["dump", state.savedState, "--session", asked])
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardOutput.contains("SignIn"))
      #expect(
        result.standardOutput.hasPrefix(
          "==> scene session \(composed): \(state.savedState)/Scenes/\(composed)/data.data <=="))
    }
  }

  @Test("an app without scenes reads as before: one archive, no header")
  func appWithoutScenes() throws {
    let (folder, _) = try DemoArchives.write(try DemoArchives.countries().encoded())
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try ArchiveTool.run(["paths", folder.path])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(!result.standardOutput.contains("==>"))
    #expect(result.standardOutput.contains("CountryNCID"))
    // Output for programs is the archive's own document, as for its file.
    for mode in [["dump", "--json"], ["paths", "--dot"]] {
      let fromFolder = try ArchiveTool.run(mode + [folder.path])
      let fromFile = try ArchiveTool.run(mode + [folder.appendingPathComponent("data.data").path])
      #expect(fromFolder.status == 0, "\(fromFolder.standardError)")
      #expect(fromFolder.standardOutput == fromFile.standardOutput, "\(mode)")
      #expect(
        fromFolder.standardOutput.hasPrefix(mode[0] == "dump" ? "{" : "digraph restoration {"))
    }
  }

  @Test("a lone scene session's archive is still headed with its session")
  func loneSessionIsNamed() throws {
    let state = try ScenesState(loneSession: true)
    defer { state.remove() }
    let header = "==> scene session AAA: \(state.archive("AAA")) <==\n"
    for command in ["dump", "paths", "validate", "sizes"] {
      for arguments in [
        [command, state.savedState],
        [command, "--bundle-id", "com.example.Scenes", "--state-dir", state.root.path],
      ] {
        let result = try ArchiveTool.run(arguments)
        #expect(result.status == 0, "\(arguments): \(result.standardError)")
        #expect(result.standardOutput.hasPrefix(header), "\(arguments): \(result.standardOutput)")
        #expect(result.standardOutput.components(separatedBy: "==>").count == 2)
      }
    }
    // Output for programs names it too, inside the one document.
    let json = try ArchiveTool.run(["dump", "--json", state.savedState])
    #expect(json.status == 0, "\(json.standardError)")
    let sections = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
    #expect(sections.map { $0["session"] as? String } == ["AAA"])
    let dot = try ArchiveTool.run(["paths", "--dot", state.savedState])
    #expect(dot.standardOutput.contains("label=\"scene session AAA\""), "\(dot.standardOutput)")
  }

  @Test("dump --json of several sessions is one JSON document naming each session")
  func dumpJSONIsOneDocument() throws {
    let state = try ScenesState()
    defer { state.remove() }
    for arguments in [
      ["dump", "--json", state.savedState],
      ["dump", "--json", "--bundle-id", "com.example.Scenes", "--state-dir", state.root.path],
    ] {
      let result = try ArchiveTool.run(arguments)
      #expect(result.status == 0, "\(result.standardError)")
      let parsed = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
      let sections = try #require(parsed as? [[String: Any]], "\(result.standardOutput)")
      #expect(sections.map { $0["session"] as? String } == [nil, "AAA", "BBB"])
      #expect(sections.first?["session"] is NSNull)
      #expect(
        sections.map { $0["path"] as? String } == [
          "\(state.savedState)/data.data", state.archive("AAA"), state.archive("BBB"),
        ])
      #expect(sections.allSatisfy { $0["error"] is NSNull })
      // Each session's part is what `dump --json` prints for its file alone.
      for section in sections {
        let path = try #require(section["path"] as? String)
        let alone = try ArchiveTool.run(["dump", "--json", path])
        #expect(alone.status == 0, "\(alone.standardError)")
        let expected = try JSONSerialization.jsonObject(with: Data(alone.standardOutput.utf8))
        let archive = try #require(section["archive"])
        #expect(try canonical(archive) == canonical(expected), "\(path)")
      }
    }
  }

  @Test("a damaged session keeps its place, with its error, in --json and --dot, and fails")
  func damagedSessionKeepsItsPlace() throws {
    let state = try ScenesState()
    defer { state.remove() }
    let damaged = state.archive("AAA")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: damaged))
    try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: damaged))

    let result = try ArchiveTool.run(["dump", "--json", state.savedState])
    #expect(result.status == ToolExitStatus.damaged.rawValue)
    #expect(result.standardError.contains(damaged))
    let parsed = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
    let sections = try #require(parsed as? [[String: Any]], "\(result.standardOutput)")
    #expect(sections.map { $0["session"] as? String } == [nil, "AAA", "BBB"])
    #expect(sections[1]["archive"] is NSNull)
    #expect((sections[1]["error"] as? String)?.contains("damaged archive") == true)
    #expect(sections[2]["archive"] is [String: Any])

    // The graph keeps the session's cluster, with a note saying why it is empty.
    let dot = try ArchiveTool.run(["paths", "--dot", state.savedState])
    #expect(dot.status == ToolExitStatus.damaged.rawValue)
    let cluster = dot.standardOutput.components(separatedBy: "subgraph cluster_1 {").last ?? ""
    #expect(cluster.contains("label=\"scene session AAA\";"), "\(dot.standardOutput)")
    #expect(cluster.contains("s1_error [label=\"cannot be read: damaged archive: "))
    #expect(dot.standardOutput.contains("label=\"scene session BBB\";"))
  }

  @Test("paths --dot of several sessions is one graph with a cluster per session")
  func dotIsOneGraph() throws {
    let state = try ScenesState()
    defer { state.remove() }
    let result = try ArchiveTool.run(["paths", "--dot", state.savedState])
    #expect(result.status == 0, "\(result.standardError)")
    let output = result.standardOutput
    #expect(output.components(separatedBy: "digraph").count == 2, "\(output)")
    #expect(output.hasPrefix("digraph ") && output.hasSuffix("}\n"))
    #expect(!output.contains("==>"))
    for (number, label) in ["app archive", "scene session AAA", "scene session BBB"].enumerated() {
      #expect(output.contains("subgraph cluster_\(number) {"), "\(output)")
      #expect(output.contains("label=\"\(label)\";"), "\(output)")
    }
    // Sessions AAA and BBB hold the same objects: their nodes must still be apart.
    let nodes = output.split(separator: "\n").compactMap { line in
      line.contains(" [label=") ? line.drop { $0 == " " }.prefix { $0 != " " } : nil
    }
    let single = try ArchiveTool.run(["paths", "--dot", state.archive("AAA")]).standardOutput
    let perSession = single.split(separator: "\n").filter { $0.contains(" [label=") }.count
    #expect(perSession > 0)
    #expect(nodes.count > 2 * perSession)
    #expect(Set(nodes).count == nodes.count, "\(output)")
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/dot") {
      let file = state.root.appendingPathComponent("sessions.dot")
      try Data(output.utf8).write(to: file)
      let dot = try TestSupport.run("/usr/bin/dot", ["-Tcanon", file.path])
      #expect(dot.status == 0, "\(dot.standardError)")
    }
  }

  /// A JSON value written with sorted keys, to compare two parsed documents.
  private func canonical(_ value: Any) throws -> Data {
    try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
  }
}
