import Foundation
import StateRestoration
import Synchronization
import TestSupport
import Testing

/// The engine calls the app and releases its objects on the calling thread only, arms the crash
/// guard before any app code, and reports every case of a restore.
@Suite struct ThreadAndOrderTests {
  /// Objects that only a pass holds (children a node makes on demand, objects a restoration
  /// class makes and nobody adopts) are released on the thread that called the engine, after a
  /// preserve and after a restore.
  @Test func appObjectsOwnedOnlyByAPassAreReleasedOnTheCallingThread() throws {
    let token = UUID().uuidString
    let count = 600
    let store = InMemoryArchiveStore()
    let registry = makeRegistry()
    registry.register(TransientRestoration.self)

    let preserver = makeEngine(store: store, delegate: TestDelegate(), registry: registry)
    let report = preserver.preserveApplicationState(roots: [TransientList(token, count: count)])
    guard case .saved = report.outcome else {
      Issue.record("expected a saved archive, got \(report.outcome)")
      return
    }
    var released = Transient.released(token)
    #expect(released.onCaller + released.elsewhere == count)
    #expect(released.elsewhere == 0)

    let restorer = makeEngine(store: store, delegate: TestDelegate(), registry: registry)
    let restored = restorer.restoreApplicationState(roots: [TransientList(token, count: 0)])
    #expect(restored.outcome == .restored)
    #expect(restored.restoredPaths.count == count + 1)
    released = Transient.released(token)
    #expect(released.onCaller + released.elsewhere == 2 * count)
    #expect(released.elsewhere == 0)
  }

  /// The crash guard's marker is written on the restoring thread and is in the store before
  /// the first app code runs, however slow the write.
  @Test func theMarkerIsArmedBeforeAppCodeRuns() throws {
    let store = SlowMarkerStore()
    makeEngine(store: store, delegate: TestDelegate())
      .preserveApplicationState(roots: TalkDemo().roots)
    let delegate = TestDelegate()
    let markerAtFirstAppCode = Mutex<[UInt8]?>(nil)
    delegate.onShouldRestore = {
      markerAtFirstAppCode.withLock { $0 = store.contents[.inProgressMarker] }
    }
    let engine = makeEngine(store: store, delegate: delegate)
    let caller = pthread_self()
    let report = engine.restoreApplicationState(roots: TalkDemo(pushCity: false).roots)
    #expect(report.outcome == .restored)
    #expect(store.markerWriters.withLock { $0.count } == 1)
    let onCaller = store.markerWriters.withLock { $0.first.map { pthread_equal($0, caller) } }
    #expect(onCaller == 1)
    let marker = try #require(markerAtFirstAppCode.withLock { $0 })
    #expect(!marker.isEmpty)
    // Armed during the restore, removed once it finished.
    #expect(store.contents[.inProgressMarker] == nil)
  }

  /// An archive that cannot be read is discarded with the marker armed to read it.
  @Test func theMarkerIsRemovedWithAnUnreadableArchive() {
    let store = SlowMarkerStore()
    store.contents[.archive] = Array("bplist00 not an archive".utf8)
    let report = makeEngine(store: store, delegate: TestDelegate())
      .restoreApplicationState(roots: TalkDemo(pushCity: false).roots)
    guard case .discarded = report.outcome else {
      Issue.record("expected a discarded archive, got \(report.outcome)")
      return
    }
    #expect(store.markerWriters.withLock { $0.count } == 1)
    #expect(store.contents[.inProgressMarker] == nil)
    #expect(store.contents[.archive] == nil)
  }

  /// A restore of many records reports each case: objects of the launch tree, objects of a
  /// restoration class, duplicate paths, children archived before their parents, and children
  /// of parents not restored.
  @Test func aRestoreOfManyRecordsReportsEveryCase() throws {
    // Crafted: the engine's writer refuses duplicate paths. Release 0.1.0's layout, each record
    // under the earlier record of its direct parent path, as that release wrote them.
    var records: [CraftedValue] = []
    var firstRecords: [String: Int] = [:]
    func record(_ path: String, _ value: Int64, restorationClass: String? = nil) {
      var fields: [(String, CraftedValue)] = [
        ("kind", .string("viewController")), ("class", .string("TestController")),
      ]
      if let parent = IdentifierPath.parent(of: path), let number = firstRecords[parent] {
        fields += [
          ("parent", .integer(Int64(number))),
          ("name", .string(String(path.dropFirst(parent.count + 1)))),
        ]
      } else {
        fields.append(("name", .string(path)))
      }
      if let restorationClass { fields.append(("restorationClass", .string(restorationClass))) }
      var state: [(String, CraftedValue)] = [("value", .integer(value))]
      // CityRestoration returns nil for this one.
      if path.hasSuffix("Refused") { state.append(("returnNil", .integer(1))) }
      fields.append(("state", .dictionary(state)))
      firstRecords[path] = firstRecords[path] ?? records.count
      records.append(.dictionary(fields))
    }
    // A grandchild before its parent: not restored, as its parent had no record yet.
    record("Root/:[0]:/Child0/:[0]:/Early", -1)
    record("Root", 0)
    for index in 0..<700 {
      let path = "Root/:[\(index)]:/Child\(index)"
      // Children 0 to 299 are in the launch tree; the others come from a restoration class.
      record(path, Int64(index), restorationClass: index < 300 ? nil : "CityRestoration")
      if index % 7 == 0 { record(path, Int64(-index)) }
      if index % 5 == 0 { record(path + "/:[0]:/Grandchild", Int64(index * 10)) }
    }
    // A child of an object that is not restored.
    record("Root/:[900]:/Refused", 900, restorationClass: "CityRestoration")
    record("Root/:[900]:/Refused/:[0]:/Orphan", 901)
    let bytes = CraftedArchive.bytes(records: records)

    let store = InMemoryArchiveStore()
    store.contents[.archive] = bytes
    let root = TestController("Root")
    for index in 0..<300 { root.addChild(TestController("Child\(index)")) }
    let report = makeEngine(store: store, delegate: TestDelegate())
      .restoreApplicationState(roots: [root])
    #expect(report.outcome == .restored)
    #expect(root.decodedState?["value"] == 0)
    #expect(
      root.children.allSatisfy {
        $0.decodedState?["value"] == Int($0.restorationIdentifier?.dropFirst(5) ?? "")
      })
    #expect(report.entries.count == records.count)
    // The cases are all there.
    let statuses = report.entries.map(\.status)
    #expect(statuses.contains(.skipped(.duplicatePath)))
    #expect(statuses.contains(.skipped(.missingParent("Root/:[900]:/Refused"))))
    #expect(statuses.contains(.skipped(.restorationClassReturnedNil("CityRestoration"))))
    #expect(report.entries.first?.status == .skipped(.notFound))
    // Children 300 to 699 come from their restoration class; the root and children 0 to 299
    // from the launch tree.
    #expect(report.entries.filter { $0.source == .restorationClass }.count == 400)
    #expect(report.entries.filter { $0.source == .existing }.count == 301)
  }
}

/// A node whose children are made anew each time they are asked for, as a view that wraps its
/// model's items might: nothing but the engine holds them while it walks.
private final class TransientList: RestorationNode {
  let restorationIdentifier: String? = "List"
  let token: String
  let count: Int

  init(_ token: String, count: Int) {
    self.token = token
    self.count = count
  }

  var restorationChildren: [any StateRestoring] {
    (0..<count).map { Transient(token: token, index: $0, list: self) }
  }

  func encodeRestorableState(with coder: StateCoder) throws {}
  func decodeRestorableState(with coder: StateDecoder) throws {}
}

/// A child of ``TransientList``, or an object ``TransientRestoration`` made; it records on which
/// thread it was released.
private final class Transient: RestorationNode {
  let restorationIdentifier: String?
  let objectRestorationClass: (any ObjectRestoration.Type)? = TransientRestoration.self
  let token: String
  let index: Int
  let list: TransientList?
  /// The thread that made it, which is the one that called the engine.
  let maker = pthread_self()

  init(token: String, index: Int, list: TransientList?) {
    restorationIdentifier = "Transient\(index)"
    self.token = token
    self.index = index
    self.list = list
  }

  deinit {
    let onMaker = pthread_equal(maker, pthread_self()) != 0
    Self.releases.withLock { releases in
      releases[token, default: (0, 0)].onCaller += onMaker ? 1 : 0
      releases[token, default: (0, 0)].elsewhere += onMaker ? 0 : 1
    }
  }

  var restorationContainer: RestorationParentLink? {
    list.map { RestorationParentLink(parent: $0, index: index) }
  }

  func encodeRestorableState(with coder: StateCoder) throws {
    coder.encode(token, forKey: "token")
    coder.encode(index, forKey: "index")
  }

  func decodeRestorableState(with coder: StateDecoder) throws {}

  private static let releases = Mutex<[String: (onCaller: Int, elsewhere: Int)]>([:])

  /// How many objects of a test were released on the thread that made them, and elsewhere.
  static func released(_ token: String) -> (onCaller: Int, elsewhere: Int) {
    releases.withLock { $0[token] ?? (0, 0) }
  }
}

/// Makes a ``Transient`` that nothing adopts: only the restore holds it.
private enum TransientRestoration: ObjectRestoration {
  static func object(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> (any StateRestoring)? {
    guard let token = coder.decode(String.self, forKey: "token"),
      let index = coder.decode(Int.self, forKey: "index")
    else { return nil }
    return Transient(token: token, index: index, list: nil)
  }
}

/// An in-memory store whose marker writes take 50 ms, as a disk's may.
private final class SlowMarkerStore: ArchiveStore, @unchecked Sendable {
  // Unchecked: the engine calls it from one thread at a time, which is what the tests check.
  var contents: [ArchiveStoreItem: [UInt8]] = [:]
  /// The thread of each marker write.
  let markerWriters = Mutex<[pthread_t]>([])

  var location: String { "slow memory" }

  func read(_ item: ArchiveStoreItem, maxSize: Int) throws(RestorationError) -> [UInt8]? {
    contents[item]
  }

  func write(_ bytes: [UInt8], to item: ArchiveStoreItem) throws(RestorationError) {
    if item == .inProgressMarker {
      markerWriters.withLock { $0.append(pthread_self()) }
      usleep(50_000)
    }
    contents[item] = bytes
  }

  func remove(_ item: ArchiveStoreItem) throws(RestorationError) {
    contents[item] = nil
  }
}
