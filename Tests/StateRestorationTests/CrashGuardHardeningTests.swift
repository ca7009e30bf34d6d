import Foundation
import StateRestoration
import TestSupport
import Testing

/// The crash guard against markers it did not write and stores it cannot write to: it never
/// traps, and a crash loop always ends.
@Suite struct CrashGuardHardeningTests {
  private static let triesLeftKey = "kRestorationTriesLeft"
  private static let extendedKey = "kRestorationExtended"

  /// A binary property list, written by Foundation rather than the engine.
  private static func plist(_ value: Any) -> [UInt8] {
    // The values below are all property-list values.
    let data = try? PropertyListSerialization.data(
      fromPropertyList: value, format: .binary, options: 0)
    return data.map { [UInt8]($0) } ?? []
  }

  /// Markers that are not exactly what the engine writes.
  static let foreignMarkers: [(String, [UInt8])] = [
    ("Int64.min tries", plist([triesLeftKey: Int64.min, extendedKey: false])),
    ("Int64.max tries", plist([triesLeftKey: Int64.max, extendedKey: false])),
    ("-1 tries", plist([triesLeftKey: -1, extendedKey: false])),
    ("3 tries", plist([triesLeftKey: 3, extendedKey: false])),
    ("tries as a string", plist([triesLeftKey: "2", extendedKey: false])),
    ("no extended key", plist([triesLeftKey: 2])),
    ("an extra key", plist([triesLeftKey: 2, extendedKey: false, "more": 1])),
    ("an array", plist([2, false])),
    ("not a property list", Array("inprogress".utf8)),
    ("empty", []),
    ("above 4 KiB", [UInt8](repeating: 0x41, count: 5_000)),
  ]

  @Test func theEngineWritesOnlyMarkersItAccepts() throws {
    // The foreign markers above are foreign because they differ from these in one way each.
    let written = Self.plist([Self.triesLeftKey: 2, Self.extendedKey: false])
    let store = savedStore()
    store.contents[.inProgressMarker] = written
    #expect(launch(store).report.outcome == .restored)
  }

  /// A marker the engine did not write counts as one launch that crashed during restoration.
  ///
  /// This launch restores, and if it crashes too, the next one starts fresh. Never a trap.
  @Test(arguments: foreignMarkers)
  func aForeignMarkerCountsAsOneCrash(name: String, marker: [UInt8]) {
    let store = savedStore()
    store.contents[.inProgressMarker] = marker
    let afterCrash = launchAndCrash(store)
    #expect(afterCrash.contents[.archive] != nil, "\(name)")
    #expect(launch(afterCrash).report.outcome == .discarded(.crashesDuringRestoration(launches: 2)))
    #expect(afterCrash.contents[.archive] == nil)

    // Without the crash, the launch restores as usual.
    let again = savedStore()
    again.contents[.inProgressMarker] = marker
    #expect(launch(again).report.outcome == .restored, "\(name)")
  }

  /// When the marker cannot be written, the launch does not restore (a crash would go
  /// unrecorded, and the loop would never end): it starts fresh, runs no app code of the
  /// restore, and keeps the archive for a launch that can.
  @Test func aMarkerThatCannotBeWrittenPostponesRestoration() throws {
    let saved = savedStore()
    let store = MarkerRefusingStore(contents: saved.contents)
    let delegate = TestDelegate()
    var asked = false
    delegate.onShouldRestore = { asked = true }
    let demo = TalkDemo(pushCity: false)
    let report = makeEngine(store: store, delegate: delegate).restoreApplicationState(
      roots: demo.roots)
    guard case .postponed(let error) = report.outcome else {
      Issue.record("expected a postponed restoration, got \(report.outcome)")
      return
    }
    #expect(error.message == "disk full")
    #expect(!asked)
    #expect(demo.first.decodedState == nil)
    #expect(store.contents[.archive] == saved.contents[.archive])

    // A later launch that can write the marker restores the kept archive.
    store.refusesMarker = false
    let later = TalkDemo(pushCity: false)
    let next = makeEngine(store: store, delegate: TestDelegate()).restoreApplicationState(
      roots: later.roots)
    #expect(next.outcome == .restored)
    #expect(later.first.decodedState != nil)
  }

  /// Developer mode keeps the archive through any number of crashes, and the count it keeps
  /// stays a number the engine accepts.
  @Test func developerModeKeepsCountingWithinRange() {
    let settings = RestorationSettings(developerMode: true)
    var store = savedStore(settings: settings)
    for _ in 0..<5 {
      store = launchAndCrash(store, settings: settings)
      #expect(store.contents[.archive] != nil)
    }
    // After five crashes the marker still holds 0 tries, not a count going below it.
    let marker = store.contents[.inProgressMarker].flatMap {
      try? PropertyListSerialization.propertyList(from: Data($0), format: nil) as? [String: Any]
    }
    #expect(marker?[Self.triesLeftKey] as? Int == 0)
    #expect(launch(store, settings: settings).report.outcome == .restored)
  }
}

/// An in-memory store that fails to write the crash guard's marker, as a full disk would.
private final class MarkerRefusingStore: ArchiveStore {
  var contents: [ArchiveStoreItem: [UInt8]]
  var refusesMarker = true
  var location: String { "refusing memory" }

  init(contents: [ArchiveStoreItem: [UInt8]]) { self.contents = contents }

  func read(_ item: ArchiveStoreItem, maxSize: Int) throws(RestorationError) -> [UInt8]? {
    contents[item]
  }

  func write(_ bytes: [UInt8], to item: ArchiveStoreItem) throws(RestorationError) {
    if refusesMarker, item == .inProgressMarker {
      throw RestorationError(.storageFailed, "disk full")
    }
    contents[item] = bytes
  }

  func remove(_ item: ArchiveStoreItem) throws(RestorationError) {
    contents[item] = nil
  }
}
