import BinaryPropertyList
import Logging
import StateRestoration
import TestSupport
import Testing

/// A screen whose keys changed between versions of its app: it records what it was given.
private class Profile: RestorationNode {
  var restorationIdentifier: String?
  var restorationStateVersion: Int
  var objectRestorationClass: (any ObjectRestoration.Type)?
  var children: [Profile] = []
  weak var parent: Profile?
  var state: [String: Int] = [:]
  var decoded: [String: Int]?
  var decodedVersion: Int?

  init(_ identifier: String, version: Int = 0) {
    (restorationIdentifier, restorationStateVersion) = (identifier, version)
  }

  var restorationContainer: RestorationParentLink? { parent.map { .init(parent: $0) } }
  var restorationChildren: [any StateRestoring] { children }

  func encodeRestorableState(with coder: StateCoder) throws {
    for (key, value) in state { coder.encode(value, forKey: key) }
  }

  func decodeRestorableState(with coder: StateDecoder) throws {
    decodedVersion = coder.stateVersion
    decoded = Dictionary(
      uniqueKeysWithValues: coder.allKeys.compactMap { key in
        coder.decode(Int.self, forKey: key).map { (key, $0) }
      })
  }
}

/// A screen of a class that declares a state version of its own.
private final class Detail: Profile {}

/// Re-creates a profile at launch, under the name the app registers it with.
private enum ProfileRestoration: ObjectRestoration {
  static func object(
    withRestorationIdentifierPath identifierComponents: [String], coder: StateDecoder
  ) -> (any StateRestoring)? {
    let profile = Profile(identifierComponents.last ?? "", version: 1)
    (coder.applicationContext as? Created)?.profiles.append(profile)
    return profile
  }
}

/// The profiles the restoration class created.
private final class Created {
  var profiles: [Profile] = []
}

/// Per-class state versions, and migrations of the archives of earlier app versions.
@Suite struct MigrationTests {
  /// An archive as version `appVersion` of an app saved it: a root `Home` and, below it, a
  /// screen `OldName` re-created by the restoration class `OldProfile`, keys `old` and `gone`.
  private func earlierArchive(appVersion: String = "1.0", stateVersion: Int = 0) throws
    -> [UInt8]
  {
    try RestorationArchive(
      topLevel: KeyedValues([(RestorationArchive.Key.bundleVersion, .string(appVersion))]),
      records: [
        .init(identifierPath: "Home", kind: .viewController, className: "Profile"),
        .init(
          identifierPath: "Home/OldName", kind: .viewController, className: "OldProfile",
          restorationClassName: "OldProfile",
          state: KeyedValues([("old", .integer(7)), ("gone", .integer(8))]),
          stateVersion: stateVersion),
      ]
    ).encoded()
  }

  private let renames: [RestorationMigration] = [
    .renameIdentifier("OldName", to: "NewName", appVersion: "2.0"),
    .renameRestorationClass("OldProfile", to: "Profile", appVersion: "2.0"),
    .renameKey("old", to: "new", className: "Profile", stateVersion: 1),
    .renameKey("gone", to: nil, className: "Profile", stateVersion: 1),
  ]

  /// Restores `bytes` into a fresh `Home` as version `appVersion` of the app.
  private func restore(
    _ bytes: [UInt8], appVersion: String = "2.0", migrations: [RestorationMigration]
  ) -> (report: RestorationReport, home: Profile, created: [Profile]) {
    let registry = RestorationRegistry()
    registry.register(ProfileRestoration.self, named: "Profile")
    registry.migrations = migrations
    let engine = RestorationEngine(
      applicationInfo: ApplicationInfo(
        bundleIdentifier: "com.example.Profiles", bundleVersion: appVersion,
        systemVersion: "test", userInterfaceIdiom: "phone"),
      store: InMemoryArchiveStore(contents: [.archive: bytes]), registry: registry,
      settings: RestorationSettings(), logger: LogCapture().makeLogger())
    let delegate = TestDelegate()
    engine.delegate = delegate
    let created = Created()
    engine.applicationContext = created
    let home = Profile("Home")
    let report = withExtendedLifetime((delegate, created)) {
      engine.restoreApplicationState(roots: [home])
    }
    return (report, home, created.profiles)
  }

  @Test func aClassesStateVersionIsRecordedWithEachObjectAndReadBackByItsDecoder() throws {
    let home = Profile("Home")
    let detail = Detail("Detail", version: 3)
    detail.state = ["count": 1]
    (home.children, detail.parent) = ([detail], home)
    let engine = makeEngine(store: InMemoryArchiveStore(), delegate: TestDelegate())
    let archive = try #require(engine.makeArchive(roots: [home]).archive)
    #expect(archive.version == RestorationArchive.Version(major: 3, minor: 1))
    #expect(archive.records.map(\.stateVersion) == [0, 3])

    let again = Profile("Home")
    let restoredDetail = Detail("Detail", version: 3)
    (again.children, restoredDetail.parent) = ([restoredDetail], again)
    let store = InMemoryArchiveStore(contents: [.archive: try archive.encoded()])
    let report = makeEngine(store: store, delegate: TestDelegate())
      .restoreApplicationState(roots: [again])
    #expect(report.restoredEverything, "\(report)")
    #expect(restoredDetail.decodedVersion == 3)
    #expect(again.decodedVersion == 0)
  }

  @Test func aRecordOfALaterStateVersionThanItsClassIsNotDecoded() throws {
    let bytes = try earlierArchive(stateVersion: 2)
    let (report, _, _) = restore(bytes, migrations: renames)
    let entry = try #require(report.entry(for: "Home/NewName"))
    guard case .skipped(.decodeFailed(let error)) = entry.status else {
      Issue.record("\(report)")
      return
    }
    #expect(error.code == .unsupportedVersion)
    #expect("\(error)".contains("state version 2 is later than its class's"))
  }

  @Test func anArchiveOfAnEarlierAppIsMigratedBeforeItsObjectsAreLookedUp() throws {
    let (report, _, _) = restore(try earlierArchive(), migrations: renames)
    #expect(report.restoredEverything, "\(report)")
    #expect(report.entries.map(\.identifierPath) == ["Home", "Home/NewName"])
    let entry = try #require(report.entry(for: "Home/NewName"))
    #expect(entry.className == "Profile")
    #expect(entry.source == .restorationClass)
    #expect(entry.migrations == renames)
    #expect(report.entry(for: "Home")?.migrations == [])
    let text = "\(report)"
    #expect(
      text.contains(
        #"migrated: renameKey("gone", to: nil, className: "Profile", stateVersion: 1)"#),
      "\(text)")
    #expect(
      text.contains(#"migrated: renameIdentifier("OldName", to: "NewName", appVersion: "2.0")"#))
  }

  @Test func theMigratedObjectDecodesTheRenamedKeysAndSeesItsArchivedStateVersion() throws {
    let bytes = try earlierArchive()
    let (report, _, created) = restore(bytes, migrations: renames)
    #expect(report.restoredEverything, "\(report)")
    let profile = try #require(created.first)
    #expect(profile.restorationIdentifier == "NewName")
    #expect(profile.decoded == ["new": 7])
    #expect(profile.decodedVersion == 0)
    // The file is read as it was written: migrations change only what the app is given.
    let archive = try RestorationArchive(decoding: bytes)
    #expect(archive.records[1].state.keys == ["old", "gone"])
  }

  @Test func withoutTheMigrationsTheRenamedScreenIsNotRestoredAndTheReportNamesIt() throws {
    let (report, _, _) = restore(try earlierArchive(), migrations: [])
    #expect(!report.restoredEverything)
    #expect(report.unrestored.map(\.identifierPath) == ["Home/OldName"])
    #expect(
      report.unrestored.first?.status == .skipped(.restorationClassNotRegistered("OldProfile")))
  }

  @Test func migrationsMadeByTheArchivesAppVersionOrEarlierAreNotApplied() throws {
    let bytes = try earlierArchive(appVersion: "2.0")
    let (report, _, _) = restore(bytes, appVersion: "2.1", migrations: renames)
    #expect(report.entries.map(\.identifierPath) == ["Home", "Home/OldName"], "\(report)")
  }

  @Test func renamesFollowOneAnotherInOrderAndVersionsCompareByTheirNumbers() throws {
    let bytes = try earlierArchive(appVersion: "1.9")
    let chain: [RestorationMigration] = [
      .renameIdentifier("OldName", to: "Middle", appVersion: "1.10"),
      .renameIdentifier("Middle", to: "NewName", appVersion: "2"),
      .renameRestorationClass("OldProfile", to: "Profile", appVersion: "1.10"),
    ]
    let (report, _, _) = restore(bytes, appVersion: "2.0.1", migrations: chain)
    #expect(report.entries.map(\.identifierPath) == ["Home", "Home/NewName"], "\(report)")
    #expect(report.entry(for: "Home/NewName")?.migrations == [chain[0], chain[1], chain[2]])
    // Keys are renamed by state version: a record written with version 1 keeps its keys.
    let current = try earlierArchive(appVersion: "2.0", stateVersion: 1)
    let (kept, _, _) = restore(current, appVersion: "2.0", migrations: renames)
    #expect(kept.entry(for: "Home/OldName")?.migrations == [], "\(kept)")
  }

  @Test func anArchiveOfALaterAppVersionIsRefusedAsADowngrade() throws {
    let (report, home, _) = restore(try earlierArchive(appVersion: "3.0"), migrations: renames)
    guard case .discarded(.unreadable(let error)) = report.outcome else {
      Issue.record("\(report)")
      return
    }
    #expect(error.code == .unsupportedVersion)
    #expect(
      "\(error)".contains(
        "saved by app 3.0, after this app's 2.0: a downgrade"
      ), "\(error)")
    #expect(home.decoded == nil)
    // Without migrations, an app keeps UIKit's rule: the bundle version is not compared.
    let (plain, _, _) = restore(try earlierArchive(appVersion: "3.0"), migrations: [])
    #expect(plain.outcome == .restored)
  }

  @Test func aStateVersionThatIsNotANaturalNumberMakesTheArchiveMalformed() throws {
    let archive = RestorationArchive(records: [
      .init(identifierPath: "A", kind: .object, className: "X", stateVersion: 77)
    ])
    var bytes = try archive.encoded()
    // The version, the integer 77, becomes the one-character string "M".
    let at = try #require(
      bytes.indices.dropLast().first { bytes[$0] == 0x10 && bytes[$0 + 1] == 77 })
    bytes[at] = 0x51
    let crc = CRC32.checksum(bytes[13...])
    for index in 0..<4 { bytes[9 + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index)) }
    #expect(throws: RestorationError.self) { try RestorationArchive(decoding: bytes) }
    do {
      _ = try RestorationArchive(decoding: bytes)
    } catch {
      #expect(error.code == .malformed)
      #expect("\(error)".contains("'version' is not a state version"), "\(error)")
    }
  }
}
