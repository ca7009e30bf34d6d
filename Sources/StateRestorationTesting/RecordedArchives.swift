public import Foundation
public import StateRestoration
public import StateRestorationUI

/// Archives a test suite keeps as fixtures: each recorded once from a scenario, by the app
/// version of the day, and restored by every later run with the current code.
///
/// An update that renames an identifier, a restoration class or a key fails the replay of the
/// archives its users have on disk, unless it declares the migration
/// (`RestorationRegistry.migrations`). As with snapshot tests' reference files, recording is
/// asked for with an environment variable; an archive recorded by an earlier version of the
/// app stays in the folder, and keeps being replayed: that is the point.
///
/// ```swift
/// let archives = RecordedArchives()  // Tests/AppTests/__RestorationArchives__
///
/// @Test func theEditorsArchiveIsRecorded() throws {
///   // ... drive the app to the screen, then Home:
///   harness.application.enterBackground()
///   let outcome = try archives.record(harness.store.contents[.archive] ?? [], named: "editor",
///                                     appVersion: "1.0")
///   #expect(outcome != .recordedNew, "recorded \(outcome): commit it")
/// }
///
/// @Test func everyRecordedArchiveRestores() throws {
///   let replays = try archives.replay { makeHarness() }
///   #expect(replays.allSatisfy { $0.passed }, "\(replays)")
/// }
/// ```
public struct RecordedArchives: Sendable {
  /// The environment variable that asks for recording: `1` (or `yes`, `true`) records every
  /// scenario's archive, anything else only those whose names it lists, separated by commas.
  public static let recordingVariable = "RECORD_RESTORATION_ARCHIVES"
  /// The file extension of a recorded archive.
  public static let fileExtension = "data"

  /// The folder of the archives.
  public let folder: URL
  /// Which names are recorded again although an archive of this app version exists: nil for
  /// none, an empty set for all.
  public var recording: Set<String>?

  /// What ``record(_:named:appVersion:)`` did.
  public enum RecordOutcome: Sendable, Hashable, CustomStringConvertible {
    /// An archive of this scenario and app version was recorded before, and kept.
    case kept(URL)
    /// The archive was recorded again, as the environment asked.
    case recorded(URL)
    /// There was no archive of this scenario and app version: it was recorded, and should be
    /// committed (a test reports it, as snapshot tests report a new reference).
    case recordedNew(URL)

    /// A phrase for test messages.
    public var description: String {
      switch self {
      case .kept(let url): "kept \(url.path)"
      case .recorded(let url): "recorded again \(url.path)"
      case .recordedNew(let url): "recorded \(url.path), which was missing"
      }
    }
  }

  /// An archive of the folder.
  public struct Archive: Sendable, Hashable {
    /// Its file name, such as `editor-1.0.data`: the scenario's name and the app version.
    public var fileName: String
    /// Its bytes.
    public var bytes: [UInt8]
  }

  /// What a replay of one archive found.
  public struct Replay: Sendable, CustomStringConvertible {
    /// The archive.
    public var archive: Archive
    /// The launch's restoration report.
    public var report: RestorationReport
    /// What was wrong, one sentence each; empty when the replay passed.
    ///
    /// The outcome, each object not restored (its path and why), each failed check.
    public var problems: [String]

    /// Whether the archive restored as expected.
    public var passed: Bool { problems.isEmpty }

    /// The archive's name and its problems, or that it passed.
    public var description: String {
      guard !passed else { return "\(archive.fileName): restored" }
      return "\(archive.fileName):\n" + problems.map { "  \($0)" }.joined(separator: "\n")
    }
  }

  /// Archives in a folder.
  ///
  /// - Parameters:
  ///   - folder: The folder; it is created when an archive is recorded.
  ///   - environment: Where ``recordingVariable`` is read; by default the process's.
  public init(folder: URL, environment: [String: String] = ProcessInfo.processInfo.environment) {
    self.folder = folder
    recording = environment[Self.recordingVariable].flatMap { value in
      if ["1", "yes", "true"].contains(value.lowercased()) { return [] }
      let names = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      let asked = Set(
        names.filter { !$0.isEmpty && !["0", "no", "false"].contains($0.lowercased()) })
      return asked.isEmpty ? nil : asked
    }
  }

  /// The archives in `__RestorationArchives__` next to a test file.
  ///
  /// - Parameters:
  ///   - filePath: The test file; by default the caller's.
  ///   - environment: Where ``recordingVariable`` is read; by default the process's.
  public init(
    nextTo filePath: StaticString = #filePath,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    self.init(
      folder: URL(fileURLWithPath: "\(filePath)").deletingLastPathComponent()
        .appendingPathComponent("__RestorationArchives__"),
      environment: environment)
  }

  /// The file of a scenario's archive recorded by an app version: `<name>-<appVersion>.data`.
  public func file(named name: String, appVersion: String) -> URL {
    folder.appendingPathComponent("\(name)-\(appVersion).\(Self.fileExtension)")
  }

  /// Records a scenario's archive, unless this app version's is recorded already and the
  /// environment does not ask for it again.
  ///
  /// Archives of other app versions are never touched.
  ///
  /// - Parameters:
  ///   - bytes: The archive the scenario preserved.
  ///   - name: The scenario's name: letters, digits, `-` and `_`.
  ///   - appVersion: The app's version, part of the file's name.
  /// - Returns: What was done.
  /// - Throws: ``RecordedArchivesError`` for an empty archive, a name or version that cannot be
  ///   part of a file name, or a file that cannot be written.
  @discardableResult
  public func record(_ bytes: [UInt8], named name: String, appVersion: String)
    throws(RecordedArchivesError) -> RecordOutcome
  {
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
    for part in [name, appVersion]
    where part.isEmpty || part.hasPrefix(".") || !part.allSatisfy(allowed.contains) {
      throw RecordedArchivesError(
        path: folder.path, reason: "'\(part)' cannot be part of a file name")
    }
    let url = file(named: name, appVersion: appVersion)
    guard !bytes.isEmpty else {
      throw RecordedArchivesError(path: url.path, reason: "the scenario preserved no archive")
    }
    let exists = FileManager.default.fileExists(atPath: url.path)
    if exists, !(recording.map { $0.isEmpty || $0.contains(name) } ?? false) { return .kept(url) }
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data(bytes).write(to: url, options: .atomic)
    } catch {
      throw RecordedArchivesError(path: url.path, reason: "cannot be written: \(error)")
    }
    return exists ? .recorded(url) : .recordedNew(url)
  }

  /// Every archive of the folder, by file name; none when there is no folder.
  ///
  /// - Throws: ``RecordedArchivesError`` for a folder or file that cannot be read.
  public func archives() throws(RecordedArchivesError) -> [Archive] {
    guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
    do {
      return try FileManager.default.contentsOfDirectory(atPath: folder.path)
        .filter { $0.hasSuffix(".\(Self.fileExtension)") }.sorted()
        .map { name in
          Archive(
            fileName: name,
            bytes: [UInt8](try Data(contentsOf: folder.appendingPathComponent(name))))
        }
    } catch {
      throw RecordedArchivesError(path: folder.path, reason: "cannot be read: \(error)")
    }
  }

  /// Restores every archive of the folder with the current code, each in a new app, and checks
  /// what came back.
  ///
  /// A replay passes when the archive is restored (`RestorationReport.Outcome.restored`),
  /// every object in it came back or `expectsUnrestored` expects it not to, and `check` does
  /// not throw. An app that crashes on an archive stops the test run, which fails it too.
  ///
  /// - Parameters:
  ///   - makeHarness: Makes the harness of a new app, configured as the app launches; its store
  ///     gets the archive before the launch.
  ///   - expectsUnrestored: Whether an object that did not come back was meant not to (a
  ///     screen of data that is gone, say); by default none is.
  ///   - check: Checks the restored app (the screen shown, say); it may use `#expect` or throw.
  /// - Returns: One replay per archive, in file name order.
  /// - Throws: ``RecordedArchivesError`` when the folder cannot be read, or holds no archive.
  public func replay(
    _ makeHarness: () throws -> ApplicationHarness,
    expectsUnrestored: (RestorationReport.Entry) -> Bool = { _ in false },
    check: (Archive, Application, RestorationReport) throws -> Void = { _, _, _ in }
  ) throws -> [Replay] {
    let archives = try archives()
    guard !archives.isEmpty else {
      throw RecordedArchivesError(path: folder.path, reason: "holds no recorded archive")
    }
    return try archives.map { archive in
      let harness = try makeHarness()
      harness.store.contents[.archive] = archive.bytes
      let report = harness.launch()
      var problems: [String] = []
      if report.outcome != .restored { problems.append("the archive was \(report.outcome)") }
      for entry in report.unrestored where !expectsUnrestored(entry) {
        problems.append(
          "\(entry.identifierPath) [\(entry.className)] not restored: \(entry.status)")
      }
      do {
        try check(archive, harness.application, report)
      } catch {
        problems.append("the check failed: \(error)")
      }
      return Replay(archive: archive, report: report, problems: problems)
    }
  }
}

/// A folder of recorded archives that cannot be used, or an archive that cannot be recorded.
public struct RecordedArchivesError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The folder or file.
  public var path: String
  /// What is wrong with it.
  public var reason: String

  /// `path: reason`.
  public var description: String { "\(path): \(reason)" }
}
