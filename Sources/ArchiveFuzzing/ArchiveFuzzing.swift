import ArchiveInspection
import Logging
public import StateRestoration
import TestSupport

/// What the archive fuzzer does with each input, shared by the libFuzzer target in `Fuzz/` and
/// the test that replays the seed corpus, so that CI checks exactly what the fuzzer checked.
///
/// Every reader of untrusted bytes runs on the input: the engine's archive reader, a full
/// restoration through the engine into a small tree (once as it is, once as a later version of
/// the app with migrations and state versions), each of the archive tool's views of a
/// decoded archive, and the readers of an app with scenes (its index of sessions, a scene's
/// activity, scene storage values; see ``exerciseSceneFiles(_:)``). Nothing here checks results: the fuzzer's finding is a crash, a hang or an
/// unbounded allocation, which the sanitizers and libFuzzer's own limits catch.
public enum ArchiveFuzzing {
  /// Runs every reader on the bytes, as they are and with their checksum repaired.
  ///
  /// A mutated file almost never carries a valid CRC-32, so without the repaired copy the
  /// fuzzer would only ever exercise the checksum check.
  ///
  /// - Parameter bytes: The input.
  public static func exercise(_ bytes: [UInt8]) {
    exerciseOnce(bytes)
    let repaired = repairingChecksum(bytes)
    if repaired != bytes { exerciseOnce(repaired) }
    exerciseSceneFiles(bytes)
  }

  /// The bytes with the archive checksum (the 4-byte data object at byte 8) set to the CRC-32
  /// of what follows it; bytes without such an object are returned unchanged.
  ///
  /// - Parameter bytes: An archive, or anything else.
  /// - Returns: The bytes with a valid checksum where there is room for one.
  public static func repairingChecksum(_ bytes: [UInt8]) -> [UInt8] {
    guard bytes.count >= 13, bytes[8] == 0x44 else { return bytes }
    var repaired = bytes
    refreshArchiveChecksum(&repaired)
    return repaired
  }

  private static func exerciseOnce(_ bytes: [UInt8]) {
    let validation = ArchiveValidation(bytes: bytes)
    _ = validation.text(file: "input")
    guard let archive = try? RestorationArchive(decoding: bytes) else { return }
    _ = ArchiveDump.text(archive)
    _ = ArchiveDump.json(archive)
    _ = ArchivePaths.list(archive)
    _ = ArchivePaths.tree(archive)
    _ = ArchivePaths.graphviz(archive)
    let sizes = ArchiveSizes(archive)
    _ = sizes.text(budget: ByteCount(1024))
    _ = ArchiveValidation(archive: archive).text(file: "input")
    _ = try? archive.encoded()
    restore(bytes)
    restore(bytes, appVersion: "2.0", migrations: migrations)
  }

  /// Migrations of the names the seeds hold (the Restorer app's and the fuzzed nodes'): renames
  /// that follow one another, a class renamed to the fuzzed node's, keys renamed and dropped,
  /// and an identifier renamed to a long one, which the path limits meet once applied.
  public static let migrations: [RestorationMigration] = [
    .renameIdentifier("CountryVCID", to: "CountryDetail", appVersion: "2.0"),
    .renameIdentifier("CountryDetail", to: "Child", appVersion: "2.0"),
    .renameIdentifier("Other", to: String(repeating: "o", count: 4000), appVersion: "1.5"),
    .renameRestorationClass("CountryViewController", to: "FuzzedNode", appVersion: "2"),
    .renameKey("countryName", to: "name", className: "FuzzedNode", stateVersion: 1),
    .renameKey("name", to: "capital", className: "FuzzedNode", stateVersion: 2),
    .renameKey("capital", to: nil, className: "FuzzedNode", stateVersion: 3),
  ]

  /// Restores the bytes through the engine into a small tree whose nodes decode every key they
  /// are given as every type, and whose restoration class re-creates any path; with
  /// `migrations`, as version `appVersion` of the app, whose nodes declare state version 1.
  private static func restore(
    _ bytes: [UInt8], appVersion: String = "1", migrations: [RestorationMigration] = []
  ) {
    let store = InMemoryArchiveStore(contents: [.archive: bytes])
    let registry = RestorationRegistry()
    registry.register(FuzzedNode.self, named: "FuzzedNode")
    registry.migrations = migrations
    let engine = RestorationEngine(
      applicationInfo: ApplicationInfo(bundleIdentifier: "fuzz", bundleVersion: appVersion),
      store: store,
      registry: registry,
      settings: RestorationSettings(developerMode: false, debugLogging: false),
      // Every key read as every type: the warnings of what reads as nil are expected.
      logger: Logger(label: "fuzz") { _ in SwiftLogNoOpLogHandler() }
    )
    let delegate = OptingInDelegate()
    engine.delegate = delegate
    let version = migrations.isEmpty ? 0 : 1
    let root = FuzzedNode(identifier: "Root", version: version)
    root.children = [
      FuzzedNode(identifier: "Child", version: version),
      FuzzedNode(identifier: "Other", version: version),
    ]
    _ = engine.restoreApplicationState(roots: [root])
  }
}

private final class OptingInDelegate: RestorationDelegate {
  func shouldSaveApplicationState(with coder: StateCoder) -> Bool { true }
  func shouldRestoreApplicationState(with coder: StateDecoder) -> Bool { true }
}

/// A node that reads whatever its coder holds, in every way an app might.
private final class FuzzedNode: RestorationNode, ObjectRestoration {
  let restorationIdentifier: String?
  let restorationStateVersion: Int
  var children: [FuzzedNode] = []
  weak var parent: FuzzedNode?

  init(identifier: String?, version: Int = 0) {
    (restorationIdentifier, restorationStateVersion) = (identifier, version)
  }

  var objectRestorationClass: (any ObjectRestoration.Type)? { FuzzedNode.self }
  var restorationChildren: [any StateRestoring] { children }

  static func object(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> (any StateRestoring)? {
    FuzzedNode(identifier: identifierComponents.last, version: min(coder.stateVersion, 1))
  }

  func decodeRestorableState(with coder: StateDecoder) throws {
    _ = coder.stateVersion
    for key in coder.allKeys {
      _ = coder.contains(key)
      _ = coder.decodeValue(forKey: key)
      _ = coder.decode(Bool.self, forKey: key)
      _ = coder.decode(Int.self, forKey: key)
      _ = coder.decode(UInt8.self, forKey: key)
      _ = coder.decode(Double.self, forKey: key)
      _ = coder.decode(Float.self, forKey: key)
      _ = coder.decode(String.self, forKey: key)
      _ = coder.decode([Int].self, forKey: key)
      _ = coder.decode([String: String].self, forKey: key)
      _ = coder.decodeObject(forKey: key)
      _ = coder.decodeReferences(forKey: key)
      _ = coder.decode(Sample.self, forKey: key)
      _ = try? coder.decodeRequired(Sample.self, forKey: key)
    }
  }
}

/// A `Codable` value, so that the fuzzer reaches the coder's `Decodable` path too.
private struct Sample: Codable {
  var name: String
  var values: [Double]
  var nested: [String: Int]?
}
