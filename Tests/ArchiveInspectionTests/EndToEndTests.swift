import ArchiveInspection
import Foundation
import StateRestoration
import StateRestorationStorage
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs the built `restoration-archive-tool` as a process, as a user would.
@Suite struct EndToEndTests {
  /// Files for one test, removed when it ends.
  private final class Files {
    let folder: URL

    init() throws {
      folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("archive-tool-e2e-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func write(_ bytes: [UInt8], _ name: String) throws -> String {
      let url = folder.appendingPathComponent(name)
      try Data(bytes).write(to: url)
      return url.path
    }
  }

  private func expectSuccess(
    _ result: ProcessResult,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(result.status == 0, "\(result.standardError)", sourceLocation: sourceLocation)
    #expect(result.standardError.isEmpty, sourceLocation: sourceLocation)
  }

  /// One line on standard error, `restoration-archive-tool: PATH: ...`, nothing on standard
  /// output, and the expected status.
  private func expectOneLineError(
    _ result: ProcessResult,
    path: String,
    status: ToolExitStatus,
    containing words: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(
      result.status == status.rawValue, "\(result.standardError)", sourceLocation: sourceLocation)
    #expect(result.standardOutput.isEmpty, sourceLocation: sourceLocation)
    let lines = result.standardError.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(
      lines.count == 2 && lines[1].isEmpty, "\(result.standardError)",
      sourceLocation: sourceLocation)
    #expect(
      result.standardError.hasPrefix("restoration-archive-tool: \(path): "),
      "\(result.standardError)", sourceLocation: sourceLocation)
    #expect(
      result.standardError.contains(words), "\(result.standardError)",
      sourceLocation: sourceLocation)
  }

  // MARK: Good files

  @Test func everySubcommandPrintsWhatTheLibraryRenders() throws {
    let files = try Files()
    let archive = try DemoArchives.talkDemo()
    let bytes = try archive.encoded()
    let path = try files.write(bytes, "data.data")

    let dump = try ArchiveTool.run(["dump", path])
    expectSuccess(dump)
    #expect(dump.standardOutput == ArchiveDump.text(archive))

    let json = try ArchiveTool.run(["dump", "--json", path])
    expectSuccess(json)
    #expect(json.standardOutput == ArchiveDump.json(archive))

    let paths = try ArchiveTool.run(["paths", path])
    expectSuccess(paths)
    #expect(paths.standardOutput == ArchivePaths.list(archive))

    let tree = try ArchiveTool.run(["paths", "--tree", path])
    expectSuccess(tree)
    #expect(tree.standardOutput == ArchivePaths.tree(archive))

    let dot = try ArchiveTool.run(["paths", "--dot", path])
    expectSuccess(dot)
    #expect(dot.standardOutput == ArchivePaths.graphviz(archive))

    let sizes = try ArchiveTool.run(["sizes", path])
    expectSuccess(sizes)
    #expect(
      sizes.standardOutput
        == ArchiveSizes(archive).text(budget: ByteCount(64 << 10), fileSize: bytes.count))

    let validate = try ArchiveTool.run(["validate", path])
    expectSuccess(validate)
    #expect(validate.standardOutput == "\(path): valid (format 3.1, 5 objects, 0 warnings)\n")
  }

  @Test func sizesTakesABudgetAndALimit() throws {
    let files = try Files()
    let path = try files.write(try DemoArchives.talkDemo().encoded(), "data.data")
    for budget in ["100", "0.1k", "150B"] {
      let result = try ArchiveTool.run(["sizes", "--budget", budget, path])
      expectSuccess(result)
      #expect(result.standardOutput.contains("warning: "), "budget \(budget)")
    }
    let relaxed = try ArchiveTool.run(["sizes", "--budget", "512k", "--top", "2", path])
    expectSuccess(relaxed)
    #expect(relaxed.standardOutput.contains("No object is above the budget of 512 KiB."))
    #expect(relaxed.standardOutput.contains("(4 smaller not shown)"))

    let bad = try ArchiveTool.run(["sizes", "--budget", "lots", path])
    #expect(bad.status == ToolExitStatus.usage.rawValue)
    #expect(bad.standardError.contains("'lots' is not a size"))
    #expect(bad.standardOutput.isEmpty)
  }

  @Test func diffExitsZeroWhenEqualAndOneWhenDifferent() throws {
    let files = try Files()
    let old = try files.write(try DemoArchives.talkDemo().encoded(), "old.data")
    let same = try files.write(try DemoArchives.talkDemo().encoded(), "same.data")
    let new = try files.write(try DemoArchives.talkDemo(sliderValue: 0.5).encoded(), "new.data")

    let equal = try ArchiveTool.run(["diff", old, same])
    expectSuccess(equal)
    #expect(equal.standardOutput == "No differences.\n")

    let different = try ArchiveTool.run(["diff", old, new])
    #expect(different.status == 1)
    #expect(different.standardError.isEmpty)
    #expect(different.standardOutput.contains("~ encodingKeySliderValue: 0.8926057 -> 0.5\n"))

    let ignoring = try ArchiveTool.run(["diff", "--ignore-key", "encodingKeySliderValue", old, new])
    expectSuccess(ignoring)

    let missing = folderPath(files, "missing.data")
    expectOneLineError(
      try ArchiveTool.run(["diff", old, missing]), path: missing, status: .unreadable,
      containing: "No such file")
  }

  @Test func validateReportsProblemsWithExitCodes() throws {
    let files = try Files()
    let duplicates = try files.write(
      try Crafting.archive([Crafting.record("A"), Crafting.record("A")])
        .encoded(allowingDuplicatePaths: true),
      "duplicates.data")
    let result = try ArchiveTool.run(["validate", duplicates])
    #expect(result.status == 1)
    #expect(
      result.standardOutput == """
        \(duplicates): error: record 1 (A): the identifier path is also record 0; restoration would decode only one of them [duplicatePath]
        \(duplicates): invalid (1 error, 0 warnings)

        """
    )

    // A file that does not decode is reported as every subcommand reports it: one line on
    // standard error, nothing on standard output.
    var corrupted = try DemoArchives.talkDemo().encoded()
    corrupted[try Crafting.offset(of: "CityViewController", in: corrupted)] = UInt8(ascii: "X")
    let damaged = try files.write(corrupted, "damaged.data")
    expectOneLineError(
      try ArchiveTool.run(["validate", damaged]), path: damaged, status: .damaged,
      containing: "damaged archive: checksum is 0x")

    // Warnings about an archive that decodes are findings, on standard output.
    let newerMinor = try files.write(
      try Crafting.encoded(Crafting.archive([Crafting.record("A")]), minor: 3), "newer-minor.data")
    let warned = try ArchiveTool.run(["validate", newerMinor])
    expectSuccess(warned)
    #expect(
      warned.standardOutput == """
        \(newerMinor): warning: format 3.3 is a newer minor version than 3.1; fields added since are ignored [version]
        \(newerMinor): valid (format 3.3, 1 object, 1 warning)

        """
    )

    let missing = folderPath(files, "missing.data")
    expectOneLineError(
      try ArchiveTool.run(["validate", missing]), path: missing, status: .unreadable,
      containing: "No such file")
  }

  // MARK: An app's archive, by bundle identifier

  /// Writes an archive where an app with that bundle identifier saves it under `stateRoot`.
  private func saveAppArchive(
    _ bytes: [UInt8], bundleIdentifier: String, stateRoot: URL
  ) throws -> String {
    let store = try FileArchiveStore(stateRoot: stateRoot.path, bundleIdentifier: bundleIdentifier)
    try store.write(bytes, to: .archive)
    return store.path(of: .archive)
  }

  @Test func bundleIdFindsTheAppsArchiveForEverySubcommand() throws {
    let files = try Files()
    let archive = try DemoArchives.talkDemo()
    let bytes = try archive.encoded()
    let stateRoot = files.folder.appendingPathComponent("state")
    let path = try saveAppArchive(
      bytes, bundleIdentifier: "com.example.Restorer", stateRoot: stateRoot)
    let app = ["--bundle-id", "com.example.Restorer", "--state-dir", stateRoot.path]
    for subcommand in [["dump"], ["dump", "--json"], ["paths", "--tree"], ["sizes"]] {
      let byFile = try ArchiveTool.run(subcommand + [path])
      let byBundle = try ArchiveTool.run(subcommand + app)
      expectSuccess(byBundle)
      #expect(byBundle.standardOutput == byFile.standardOutput, "\(subcommand)")
    }
    let validate = try ArchiveTool.run(["validate"] + app)
    expectSuccess(validate)
    #expect(validate.standardOutput == "\(path): valid (format 3.1, 5 objects, 0 warnings)\n")

    // `diff` compares one file, such as a copy kept earlier, with the app's archive now.
    let old = try files.write(try DemoArchives.talkDemo(sliderValue: 0.5).encoded(), "old.data")
    let diff = try ArchiveTool.run(["diff", old] + app)
    #expect(diff.status == 1, "\(diff.standardError)")
    #expect(diff.standardOutput.contains("~ encodingKeySliderValue: 0.5 -> 0.8926057\n"))
  }

  @Test func bundleIdDefaultsToTheStateFolderTheLibraryAndTheDemoUse() throws {
    let files = try Files()
    let bytes = try DemoArchives.talkDemo().encoded()
    let expected = ArchiveDump.text(try DemoArchives.talkDemo())
    let arguments = ["dump", "--bundle-id", "com.example.Restorer"]

    // $XDG_STATE_HOME/swift-state-restoration first...
    let xdg = files.folder.appendingPathComponent("xdg")
    _ = try saveAppArchive(
      bytes, bundleIdentifier: "com.example.Restorer",
      stateRoot: xdg.appendingPathComponent("swift-state-restoration"))
    let fromXDG = try ArchiveTool.run(
      arguments, environment: ["XDG_STATE_HOME": xdg.path, "HOME": "/nonexistent"])
    expectSuccess(fromXDG)
    #expect(fromXDG.standardOutput == expected)
    #expect(
      FileArchiveStore.defaultStateRoot { ["XDG_STATE_HOME": xdg.path][$0] }
        == xdg.appendingPathComponent("swift-state-restoration").path)

    // ...else ~/.local/state/swift-state-restoration, as the Restorer demo saves it.
    let home = files.folder.appendingPathComponent("home")
    _ = try saveAppArchive(
      bytes, bundleIdentifier: "com.example.Restorer",
      stateRoot: home.appendingPathComponent(".local/state/swift-state-restoration"))
    let fromHome = try ArchiveTool.run(
      arguments, environment: ["XDG_STATE_HOME": nil, "HOME": home.path])
    expectSuccess(fromHome)
    #expect(fromHome.standardOutput == expected)
  }

  @Test func anAppWithoutSavedStateIsOneLineThatSaysSo() throws {
    let files = try Files()
    let stateRoot = files.folder.path
    let result = try ArchiveTool.run([
      "dump", "--bundle-id", "com.example.Nothing", "--state-dir", stateRoot,
    ])
    let path =
      "\(stateRoot)/Saved Application State/com.example.Nothing.savedState/data.data"
    expectOneLineError(
      result, path: path, status: .unreadable,
      containing: "no saved state for com.example.Nothing (no such file)")
  }

  @Test(arguments: [
    (["dump"], "Give the archive file, or --bundle-id for the archive an app saved."),
    (
      ["dump", "data.data", "--bundle-id", "com.example.Restorer"],
      "Give the archive file or --bundle-id, not both."
    ),
    (["paths", "data.data", "--state-dir", "/tmp"], "--state-dir is used only with --bundle-id."),
    (["sizes", "--bundle-id", "../etc"], "--bundle-id: bundle identifier \"../etc\" contains"),
    (["validate"], "Give the archive file, or --bundle-id for the archive an app saved."),
    (["diff", "old.data"], "Give the two archives to compare, or one and --bundle-id"),
    (["diff", "--bundle-id", "com.example.Restorer"], "With --bundle-id, give one archive"),
    (
      ["diff", "a.data", "b.data", "--bundle-id", "com.example.Restorer"],
      "With --bundle-id, give one archive"
    ),
  ])
  func aFileAndABundleIdTogetherOrNeitherAreUsageErrors(
    arguments: [String], message: String
  ) throws {
    let result = try ArchiveTool.run(arguments)
    #expect(result.status == ToolExitStatus.usage.rawValue, "\(result.standardError)")
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError.hasPrefix("Error: \(message)"), "\(result.standardError)")
  }

  // MARK: Bad files

  private func folderPath(_ files: Files, _ name: String) -> String {
    files.folder.appendingPathComponent(name).path
  }

  @Test func badFilesGetOneClearLineAndTheirExitStatus() throws {
    let files = try Files()
    let good = try DemoArchives.talkDemo().encoded()
    let missing = folderPath(files, "missing.data")
    let text = try files.write(Array("just some text\n".utf8), "notes.txt")
    let truncated = try files.write(Array(good.prefix(good.count / 2)), "truncated.data")
    var flipped = good
    flipped[try Crafting.offset(of: "FirstViewController", in: good)] ^= 0x20
    let corrupted = try files.write(flipped, "corrupted.data")
    let newer = try files.write(
      try Crafting.encoded(Crafting.archive([Crafting.record("A")]), major: 4), "newer.data")
    let plist = try files.write(
      try PropertyList.write(.dictionary(["a": .integer(1)])), "other.plist")
    let older = try files.write(
      try Crafting.encoded(Crafting.archive([Crafting.record("A")]), major: 1), "older.data")
    let empty = try files.write([], "empty.data")
    let other = try files.write(good, "good.data")

    let cases: [(String, ToolExitStatus, String)] = [
      (missing, .unreadable, "No such file or directory"),
      (files.folder.path, .unreadable, "is a folder, not a file"),
      (text, .notArchive, "not a restoration archive: not a binary property list"),
      (plist, .notArchive, "not a restoration archive"),
      // Said once, in plain words: the whole line after the path.
      (
        truncated, .damaged,
        ": damaged archive: the file was cut short after \(good.count / 2) bytes\n"
      ),
      (corrupted, .damaged, "damaged archive: checksum is"),
      (newer, .unsupportedVersion, "unsupported archive: archive format 4.0 is newer"),
      (older, .unsupportedVersion, "unsupported archive: archive format 1.0 is older than"),
      (empty, .notArchive, "not a restoration archive: the file is empty (0 bytes)"),
    ]
    for (path, status, words) in cases {
      let commands = [
        ["dump", path], ["dump", "--json", path], ["paths", path], ["paths", "--tree", path],
        ["paths", "--dot", path], ["sizes", path], ["validate", path],
        ["diff", path, other], ["diff", other, path],
      ]
      for arguments in commands {
        let result = try ArchiveTool.run(arguments)
        expectOneLineError(result, path: path, status: status, containing: words)
        #expect(!result.standardError.contains("Fatal error"), "\(arguments)")
      }
    }
  }

  @Test func errorLinesSayEachPlaceOnceInPlainWords() throws {
    let files = try Files()
    let good = try DemoArchives.talkDemo().encoded()
    let trailer = good.count - 32
    let table = good[(trailer + 24)..<(trailer + 32)].reduce(0) { $0 << 8 | Int($1) }
    // The first object's entry in the offset table points past the objects.
    var outside = good
    for index in 0..<Int(good[trailer + 6]) { outside[table + index] = 0xFF }
    // The trailer declares more objects than the reader accepts.
    var many = good
    for index in (trailer + 8)..<(trailer + 16) { many[index] = index == trailer + 8 ? 0x0F : 0xFF }
    let cases: [(String, String)] = [
      (
        try files.write(try PropertyList.write(.dictionary(["a": .integer(1)])), "other.plist"),
        ": not a restoration archive: it does not start with this package's checksum\n"
      ),
      (try files.write(outside, "outside.data"), "outside the objects, which are bytes 8 to "),
      (try files.write(many, "many.data"), "objects, above the limit of 16777216 (byte "),
    ]
    for (path, words) in cases {
      let result = try ArchiveTool.run(["dump", path])
      #expect(result.standardError.hasPrefix("restoration-archive-tool: \(path): "))
      #expect(result.standardError.contains(words), "\(result.standardError)")
      let line = result.standardError
      // A byte named once, no Swift range syntax, no parentheses one after the other.
      let bytes = line.split(separator: " ").enumerated().filter { $0.element.hasPrefix("byte") }
        .map {
          line.split(separator: " ")[$0.offset + 1].trimmingCharacters(in: .punctuationCharacters)
        }
      #expect(Set(bytes).count == bytes.count, "\(line)")
      #expect(!line.contains("..<") && !line.contains(") ("), "\(line)")
    }
  }

  @Test(.enabled(if: ArchiveTool.timeoutCommand != nil, "coreutils' timeout is not installed"))
  func aFIFOWithoutAWriterIsRefusedAtOnce() throws {
    // Opening a FIFO for reading waits for a writer; the tool must not wait forever on one
    // given by mistake.
    let files = try Files()
    let fifo = folderPath(files, "data.data")
    try #require(mkfifo(fifo, 0o600) == 0, "mkfifo failed with errno \(errno)")
    for arguments in [["dump", fifo], ["validate", fifo], ["diff", fifo, fifo]] {
      let result = try #require(
        try ArchiveTool.run(arguments, timeout: 20),
        "\(arguments) did not exit within 20 seconds")
      expectOneLineError(
        result, path: fifo, status: .unreadable, containing: "is not a regular file")
    }
  }

  @Test func badArgumentsAreUsageErrors() throws {
    let files = try Files()
    let path = try files.write(try DemoArchives.talkDemo().encoded(), "data.data")
    let both = try ArchiveTool.run(["paths", "--tree", "--dot", path])
    #expect(both.status == ToolExitStatus.usage.rawValue)
    #expect(both.standardError.contains("Choose one of --tree and --dot."))
    let none = try ArchiveTool.run(["dump"])
    #expect(none.status == ToolExitStatus.usage.rawValue)
    #expect(none.standardError.contains("Give the archive file, or --bundle-id"))
    let unknown = try ArchiveTool.run(["frobnicate"])
    #expect(unknown.status == ToolExitStatus.usage.rawValue)
  }

  // MARK: Help

  @Test(arguments: [
    ("", "help"),
    ("dump", "dumpHelp"),
    ("paths", "pathsHelp"),
    ("diff", "diffHelp"),
    ("sizes", "sizesHelp"),
    ("validate", "validateHelp"),
  ])
  func helpDescribesEachSubcommand(subcommand: String, snapshot: String) throws {
    let result = try ArchiveTool.run((subcommand.isEmpty ? [] : [subcommand]) + ["--help"])
    expectSuccess(result)
    #expect(result.standardOutput.contains("USAGE: restoration-archive-tool \(subcommand)"))
    assertSnapshot(result.standardOutput, named: snapshot)
  }

  @Test func helpDocumentsTheExitStatusesTheJSONAndTheSizeMethod() throws {
    let root = try ArchiveTool.run(["--help"]).standardOutput
    for status in ToolExitStatus.all {
      #expect(root.contains("\(status.rawValue)  "), "exit status \(status.rawValue)")
    }
    let validate = try ArchiveTool.run(["validate", "--help"]).standardOutput
    #expect(validate.contains("Exit status:"))
    #expect(validate.contains("an archive is damaged"))
    #expect(validate.contains("one line on standard"))
    let dump = try ArchiveTool.run(["dump", "--help"]).standardOutput
    #expect(dump.contains("{\"$ref\": \"PATH\"}"))
    let sizes = try ArchiveTool.run(["sizes", "--help"]).standardOutput
    #expect(sizes.contains("encoded alone as a binary"))
    let diff = try ArchiveTool.run(["diff", "--help"]).standardOutput
    #expect(diff.contains("0 when the archives are equal, 1 when they differ"))
  }

  @Test(arguments: ["dump", "paths", "sizes"])
  func printingSubcommandsDocumentTheirExitStatus(subcommand: String) throws {
    let help = try ArchiveTool.run([subcommand, "--help"]).standardOutput
    #expect(help.contains("Exit status"))
    #expect(help.contains("  0  the "))
    for status in ToolExitStatus.failures {
      #expect(help.contains("\(status.rawValue)  \(status.meaning)\n"), "exit status \(status)")
    }
  }

  @Test(arguments: ["", "dump", "paths", "sizes", "validate"])
  func exitStatusTablesFitInEightyColumns(subcommand: String) throws {
    // The table's lines are laid out by hand; if one were wider than the terminal, it would
    // wrap and the numbers would no longer line up. ArgumentParser wraps at one column less
    // than the terminal's width.
    #expect(ToolExitStatus.helpText.split(separator: "\n").allSatisfy { $0.count < 80 })
    let help = try ArchiveTool.run(
      (subcommand.isEmpty ? [] : [subcommand]) + ["--help"], columns: 80)
    let lines = help.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
    // The text before the usage line is ours; ArgumentParser lays out the rest.
    let ours = lines.prefix { !$0.hasPrefix("USAGE:") }
    #expect(ours.allSatisfy { $0.count <= 80 }, "\(help.standardOutput)")
    for status in ToolExitStatus.failures {
      let number = String(status.rawValue)
      let row = String(repeating: " ", count: 3 - number.count) + "\(number)  \(status.meaning)"
      #expect(lines.contains { $0 == row }, "\(subcommand): \(row)")
    }
  }
}
