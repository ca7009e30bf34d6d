import Foundation
import RestorerCore
import StateRestoration
import StateRestorationUI
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The Restorer app, run as a real process, against state folders that a hostile user, a full
/// disk or a bad sector can leave behind: it never crashes, loops or shows what it should not,
/// and what it deletes is gone.
@Suite(.serialized) struct HostileStateTests {
  /// The folder of the window's state under a state directory (see `windowFolder`).
  private static func savedState(_ folder: URL) -> URL { windowFolder(folder) }

  /// Every file below a folder, with its contents.
  private static func files(below folder: URL) -> [(path: String, bytes: [UInt8])] {
    guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
    var result: [(String, [UInt8])] = []
    for case let name as String in walker {
      let path = folder.appendingPathComponent(name).path
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder),
        !isFolder.boolValue, let data = FileManager.default.contents(atPath: path)
      else { continue }
      result.append((path, [UInt8](data)))
    }
    return result
  }

  /// Expects that no file below the state folder holds a run of 32 bytes of the old archive,
  /// or the old snapshot's text.
  private static func expectNothingLeftOf(
    archive: [UInt8], snapshotText: String, below folder: URL,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let chunks = stride(from: 0, to: archive.count - 32, by: 32).map { archive[$0..<($0 + 32)] }
    for (path, bytes) in files(below: savedState(folder)) {
      for chunk in chunks where bytes.count >= 32 {
        let found = bytes.indices.dropLast(31).contains {
          bytes[$0..<($0 + 32)].elementsEqual(chunk)
        }
        #expect(!found, "\(path) holds bytes of the old archive", sourceLocation: sourceLocation)
        if found { break }
      }
      #expect(
        !String(decoding: bytes, as: UTF8.self).contains(snapshotText),
        "\(path) holds the old snapshot", sourceLocation: sourceLocation)
    }
  }

  /// A crash guard marker the engine never writes: a tries count of `Int64.min`.
  private static let foreignMarker: [UInt8] = {
    let data = try? PropertyListSerialization.data(
      fromPropertyList: ["kRestorationTriesLeft": Int64.min, "kRestorationExtended": false],
      format: .binary, options: 0)
    return data.map { [UInt8]($0) } ?? []
  }()

  @Test func aForeignMarkerCountsAsOneCrashAndNeverTraps() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = RestorerProcess(stateDirectory: folder)
    _ = try app.run(keys: "down*3 enter h")
    // The window's folder exists once the first run saved it.
    let marker = Self.savedState(folder).appendingPathComponent("inprogress.data")
    try Data(Self.foreignMarker).write(to: marker)
    let restored = try app.run(keys: "")
    #expect(!restored.wasSignaled, "\(restored.standardError)")
    #expect(restored.status == 0)
    #expect(restored.standardOutput.contains("Country:  Algeria"))

    // With the marker counted as one crash, one more crash ends the loop.
    _ = try app.run(keys: "down*3 enter h")
    try Data(Self.foreignMarker).write(to: marker)
    let crash = try app.run(keys: "", ["--crash-during-restore"])
    #expect(crash.wasSignaled && crash.status == SIGABRT, "\(crash.standardError)")
    let fresh = try app.run(keys: "")
    #expect(!fresh.wasSignaled)
    #expect(
      fresh.standardOutput.contains(
        "Fresh start: state discarded after crashes during restoration on 2 launches."))
  }

  /// A crash guard that cannot write its marker (here a folder in its place) does not restore:
  /// the app does not crash however often it is launched, says why, and keeps the archive; once
  /// the marker can be written, two crashes end in a fresh start as usual.
  @Test func aMarkerThatCannotBeWrittenStopsTheCrashLoop() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = RestorerProcess(stateDirectory: folder)
    _ = try app.run(keys: "down*3 enter h")
    let marker = Self.savedState(folder).appendingPathComponent("inprogress.data")
    let archive = try Data(contentsOf: URL(fileURLWithPath: app.archivePath))
    try FileManager.default.createDirectory(at: marker, withIntermediateDirectories: false)
    for launch in 0..<4 {
      let result = try app.run(keys: "", ["--crash-during-restore"])
      #expect(!result.wasSignaled, "launch \(launch) crashed: \(result.standardError)")
      #expect(result.status == 0)
      #expect(
        result.standardOutput.contains("Started fresh, the saved state kept for a later launch"))
      #expect(try Data(contentsOf: URL(fileURLWithPath: app.archivePath)) == archive)
    }
    try FileManager.default.removeItem(at: marker)
    for _ in 0..<2 {
      let crash = try app.run(keys: "", ["--crash-during-restore"])
      #expect(crash.wasSignaled && crash.status == SIGABRT)
    }
    let fresh = try app.run(keys: "", ["--crash-during-restore"])
    #expect(!fresh.wasSignaled)
    #expect(fresh.standardOutput.contains("discarded after crashes during restoration"))
  }

  /// On a full disk, the crash guard cannot record a launch, so it starts fresh.
  ///
  /// The disk is a real one, a small tmpfs, filled. The archive is kept; a Home that cannot
  /// save says so and exits 1. Once space is freed, the crash guard works as usual.
  @Test(.enabled(if: geteuid() == 0, "mounting a small file system needs root"))
  func aFullDiskStopsTheCrashLoopAndAFailedSaveExitsNonZero() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let mount = try run("/bin/mount", ["-t", "tmpfs", "-o", "size=512k", "tmpfs", folder.path])
    try #require(mount.status == 0, "\(mount.standardError)")
    defer { _ = try? run("/bin/umount", [folder.path]) }
    let app = RestorerProcess(stateDirectory: folder)
    let saved = try app.run(keys: "down*3 enter h")
    #expect(saved.status == 0, "\(saved.standardError)")
    let archive = try Data(contentsOf: URL(fileURLWithPath: app.archivePath))

    // Fill the disk to the last block. The snapshot goes first: a launch removes it before it
    // restores, and its block would then take the marker.
    try FileManager.default.removeItem(
      at: Self.savedState(folder).appendingPathComponent("snapshot.data"))
    let filler = folder.appendingPathComponent("filler").path
    let fill = try run("/bin/sh", ["-c", "dd if=/dev/zero of='\(filler)' bs=4k 2>/dev/null; true"])
    #expect(fill.status == 0)
    for launch in 0..<3 {
      let result = try app.run(keys: "", ["--crash-during-restore"])
      #expect(!result.wasSignaled, "launch \(launch) crashed: \(result.standardError)")
      #expect(
        result.standardOutput.contains("Started fresh, the saved state kept for a later launch"))
      #expect(try Data(contentsOf: URL(fileURLWithPath: app.archivePath)) == archive)
    }
    let home = try app.run(keys: "down h")
    #expect(home.status == 1)
    #expect(home.standardError.contains("restorer: the state was not saved:"))
    #expect(!home.standardOutput.contains("Home: state preserved"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: app.archivePath)) == archive)

    try FileManager.default.removeItem(atPath: filler)
    for _ in 0..<2 {
      let crash = try app.run(keys: "", ["--crash-during-restore"])
      #expect(crash.wasSignaled && crash.status == SIGABRT)
    }
    let fresh = try app.run(keys: "")
    #expect(fresh.standardOutput.contains("discarded after crashes during restoration"))
  }

  /// After a force quit, after two crashes during restoration, and after an unreadable archive
  /// is discarded, no file under the state folder holds any of the old archive or snapshot.
  @Test(arguments: ["force quit", "crashes", "unreadable"])
  func discardedStateIsGoneFromTheDisk(how: String) throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = RestorerProcess(stateDirectory: folder)
    // Two saves, so that one archive and one snapshot replaced another.
    _ = try app.run(keys: "down*3 enter h")
    _ = try app.run(keys: "esc down*5 enter h")
    let archive = [UInt8](try Data(contentsOf: URL(fileURLWithPath: app.archivePath)))
    let snapshotFile = Self.savedState(folder).appendingPathComponent("snapshot.data")
    let snapshot = try LaunchSnapshot.decoded([UInt8](try Data(contentsOf: snapshotFile)))
    let snapshotText = try #require(
      snapshot.split(separator: "\n").map(String.init).first { $0.contains("Country:") })
    // A killed writer's copy, under the process identifier of a process that runs (init's): a
    // reused identifier must not keep it.
    let temporary = URL(fileURLWithPath: app.archivePath + ".1.12345.tmp")
    try Data(archive).write(to: temporary)
    switch how {
    case "force quit":
      _ = try app.run(keys: "Q")
    case "crashes":
      for _ in 0..<2 { _ = try app.run(keys: "", ["--crash-during-restore"]) }
      let fresh = try app.run(keys: "")
      #expect(fresh.standardOutput.contains("discarded after crashes"))
    default:
      var damaged = archive
      damaged[damaged.count / 2] ^= 0xFF
      try Data(damaged).write(to: URL(fileURLWithPath: app.archivePath))
      let fresh = try app.run(keys: "")
      #expect(fresh.standardOutput.contains("Fresh start: state discarded as unreadable"))
    }
    let savedState = Self.savedState(folder)
    let names = try FileManager.default.contentsOfDirectory(atPath: savedState.path)
    // The folder of the windows' folders may stay, empty.
    let scenes = savedState.appendingPathComponent("Scenes").path
    let sessionsLeft = (try? FileManager.default.contentsOfDirectory(atPath: scenes)) ?? []
    #expect(
      Set(names).isSubset(of: ["discarded.data", "Scenes", "sessions.lock"]), "left: \(names)")
    // The lock file orders the processes' updates of the index, and holds nothing.
    let lock = savedState.appendingPathComponent("sessions.lock").path
    #expect((try? FileManager.default.attributesOfItem(atPath: lock))?[.size] as? Int ?? 0 == 0)
    #expect(sessionsLeft.isEmpty, "left: \(sessionsLeft)")
    Self.expectNothingLeftOf(archive: archive, snapshotText: snapshotText, below: folder)
  }

  /// A `.savedState` folder, or the `Saved Application State` folder, that is a symbolic link
  /// is never followed: the app starts fresh with a clear line, a save fails with exit status
  /// 1, and the link's target is untouched.
  @Test(arguments: ["Saved Application State", "com.example.Restorer.savedState"])
  func aLinkedStateFolderIsRefused(linked: String) throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = RestorerProcess(stateDirectory: folder)
    let outside = folder.appendingPathComponent("outside")
    try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
    let link =
      linked == "Saved Application State"
      ? folder.appendingPathComponent(linked) : Self.savedState(folder)
    try FileManager.default.createDirectory(
      at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
    // Give the target a valid archive: a followed link would restore it.
    let source = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: source) }
    _ = try RestorerProcess(stateDirectory: source).run(keys: "down*3 enter h")
    let target =
      linked == "Saved Application State"
      ? outside.appendingPathComponent("com.example.Restorer.savedState") : outside
    try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
    let planted = try Data(
      contentsOf: URL(fileURLWithPath: RestorerProcess(stateDirectory: source).archivePath))
    try planted.write(to: target.appendingPathComponent("data.data"))
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: outside)

    let launch = try app.run(keys: "down h")
    #expect(launch.status == 1)
    #expect(!launch.standardOutput.contains("Country:  Algeria"))
    #expect(
      launch.standardOutput.contains("Started fresh, the saved state kept for a later launch"))
    #expect(launch.standardError.contains("the saved state was not restored, and is kept"))
    #expect(launch.standardError.contains("restorer: the state was not saved:"))
    #expect(launch.standardError.contains("is a symbolic link"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: target.path) == ["data.data"])
    #expect(try Data(contentsOf: target.appendingPathComponent("data.data")) == planted)
  }

  /// A snapshot that is a symbolic link is not followed: its target is never shown.
  @Test func aLinkedSnapshotIsNotShown() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = RestorerProcess(stateDirectory: folder)
    _ = try app.run(keys: "down*3 enter h")
    let secret = folder.appendingPathComponent("secret.txt")
    try Data("top secret contents".utf8).write(to: secret)
    let snapshot = Self.savedState(folder).appendingPathComponent("snapshot.data")
    try FileManager.default.removeItem(at: snapshot)
    try FileManager.default.createSymbolicLink(at: snapshot, withDestinationURL: secret)
    let launch = try app.run(keys: "")
    #expect(!launch.standardOutput.contains("top secret"))
    #expect(!launch.standardOutput.contains("Snapshot from the last session"))
    #expect(launch.standardOutput.contains("Country:  Algeria"))
    // Removed, as any snapshot that cannot be shown is; the link's target is untouched.
    #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: snapshot.path)) == nil)
    #expect(try Data(contentsOf: secret) == Data("top secret contents".utf8))
  }

  /// Escape sequences in a snapshot file never reach the terminal.
  @Test func aSnapshotsEscapeSequencesNeverReachTheTerminal() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = RestorerProcess(stateDirectory: folder)
    _ = try app.run(keys: "down*3 enter h")
    let snapshot = Self.savedState(folder).appendingPathComponent("snapshot.data")
    let hostile = "before\u{1B}]52;c;ZWNobyBwd25lZA==\u{07}\u{1B}]0;pwned\u{07}after"
    try Data(LaunchSnapshot.encoded(hostile)).write(to: snapshot)
    let launch = try app.run(keys: "")
    #expect(launch.standardOutput.contains("before]52;c;ZWNobyBwd25lZA==]0;pwnedafter"))
    #expect(!launch.standardOutput.unicodeScalars.contains("\u{1B}"))
    #expect(!launch.standardOutput.unicodeScalars.contains("\u{07}"))
  }

  /// Under `umask 000`, every folder and file the app makes is still private, the state
  /// folder's missing parents included, and state folders left open to others are made
  /// private.
  @Test func everythingTheAppWritesIsPrivateUnderAnOpenUmask() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fresh = folder.appendingPathComponent("deep/state")
    let existing = folder.appendingPathComponent("existing")
    try FileManager.default.createDirectory(
      at: Self.savedState(existing), withIntermediateDirectories: true)
    for (path, mode) in [
      (existing.appendingPathComponent("Saved Application State"), 0o755),
      (Self.savedState(existing), 0o777),
    ] {
      try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path.path)
    }
    let restorer = try RestorerProcess.path()
    func mode(_ path: String) -> Int? {
      (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int
    }
    for state in [fresh, existing] {
      let result = try run(
        "/bin/sh",
        [
          "-c",
          "umask 000; exec \"$0\" --state-dir \"$1\" --debug-logging --keys '2 down enter esc up enter h'",
          restorer, state.path,
        ])
      #expect(result.status == 0, "\(result.standardError)")
      var folders = [
        state.path + "/Preferences", state.path + "/Saved Application State",
        Self.savedState(state).path,
      ]
      if state == fresh { folders += [folder.path + "/deep", state.path] }
      for path in folders { #expect(mode(path) == 0o700, "\(path)") }
      let files = [
        state.path + "/Preferences/com.example.Restorer.plist",
        state.path + "/restorer-debug.log",
        Self.savedState(state).path + "/data.data", Self.savedState(state).path + "/snapshot.data",
      ]
      for path in files { #expect(mode(path) == 0o600, "\(path)") }
    }
  }

  /// A settings file far above its limit (sparse, so it costs no disk) is not read: the app
  /// starts at once with the default settings.
  @Test func aHugeSettingsFileIsNotRead() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let preferences = folder.appendingPathComponent("Preferences")
    try FileManager.default.createDirectory(at: preferences, withIntermediateDirectories: true)
    let settings = preferences.appendingPathComponent("com.example.Restorer.plist")
    #expect(FileManager.default.createFile(atPath: settings.path, contents: nil))
    let handle = try FileHandle(forWritingTo: settings)
    try handle.truncate(atOffset: 3 << 30)
    try handle.close()
    let clock = ContinuousClock()
    let start = clock.now
    let app = RestorerProcess(stateDirectory: folder)
    let result = try app.run(keys: "2")
    #expect(clock.now - start < .seconds(3))
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("Amazing"))
  }
}
