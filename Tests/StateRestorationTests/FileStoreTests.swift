import Foundation
import StateRestoration
import StateRestorationStorage
import Synchronization
import TestSupport
import Testing

@Suite struct FileStoreTests {
  @Test func archiveLivesWhereUIKitKeepsItWithPrivatePermissions() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let store = try FileArchiveStore(stateRoot: root.path, bundleIdentifier: "com.example.Restorer")
    let report = makeEngine(store: store, delegate: TestDelegate())
      .preserveApplicationState(roots: TalkDemo().roots)
    let expected = root.path + "/Saved Application State/com.example.Restorer.savedState/data.data"
    #expect(store.path(of: .archive) == expected)
    #expect(FileManager.default.fileExists(atPath: expected))
    let size = try #require(FileManager.default.attributesOfItem(atPath: expected)[.size] as? Int)
    #expect(report.outcome == .saved(bytes: size))
    let fileMode = try #require(
      FileManager.default.attributesOfItem(atPath: expected)[.posixPermissions] as? Int
    )
    #expect(fileMode == 0o600)
    let folderMode = try #require(
      FileManager.default.attributesOfItem(atPath: store.folder)[.posixPermissions] as? Int
    )
    #expect(folderMode == 0o700)
    // No temporary files are left behind.
    let names = try FileManager.default.contentsOfDirectory(atPath: store.folder)
    #expect(names == ["data.data"])
  }

  @Test func theDefaultStateRootFollowsTheXDGSpecification() {
    func root(_ variables: [String: String]) -> String? {
      FileArchiveStore.defaultStateRoot { variables[$0] }
    }
    #expect(
      root(["XDG_STATE_HOME": "/state/", "HOME": "/home/u"]) == "/state/swift-state-restoration")
    // A relative XDG_STATE_HOME is ignored, as the specification asks.
    #expect(
      root(["XDG_STATE_HOME": "state", "HOME": "/home/u/"])
        == "/home/u/.local/state/swift-state-restoration")
    #expect(root(["HOME": "/"]) == "/.local/state/swift-state-restoration")
    // Without a usable HOME, the user database's home folder.
    #expect(root(["HOME": "relative"])?.hasSuffix("/.local/state/swift-state-restoration") != false)
  }

  @Test func restoreFromDiskThenTheArchiveIsGone() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let saved = TalkDemo()
    saved.first.state = ["sliderValue": 12]
    let store = try FileArchiveStore(stateRoot: root.path, bundleIdentifier: "com.example.Restorer")
    makeEngine(store: store, delegate: TestDelegate()).preserveApplicationState(roots: saved.roots)

    // A new store object, as a new process would make.
    let relaunchStore = try FileArchiveStore(
      stateRoot: root.path, bundleIdentifier: "com.example.Restorer")
    let launched = TalkDemo(pushCity: false)
    let report = makeEngine(store: relaunchStore, delegate: TestDelegate())
      .restoreApplicationState(roots: launched.roots)
    #expect(report.outcome == .restored)
    #expect(launched.first.decodedState == ["sliderValue": 12])
    #expect(!FileManager.default.fileExists(atPath: relaunchStore.path(of: .archive)))
    #expect(!FileManager.default.fileExists(atPath: relaunchStore.path(of: .inProgressMarker)))
  }

  @Test func overwritingReplacesTheWholeFile() throws {
    try withStore { store in
      try store.write(Array(repeating: 1, count: 10_000), to: .archive)
      try store.write([2, 2, 2], to: .archive)
      #expect(try store.read(.archive, maxSize: 1 << 20) == [2, 2, 2])
      try store.remove(.archive)
      try store.remove(.archive)  // removing twice is fine
      #expect(try store.read(.archive, maxSize: 1 << 20) == nil)
    }
  }

  @Test func aPreserveFlushesTheFolderOnceAndRemovingNothingFlushesNothing() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let store = try FileArchiveStore(stateRoot: root.path, bundleIdentifier: "app")
    let flushed = PathLog()
    try PlatformObservers.$folderFlushed.withValue(flushed.observer) {
      // No crash guard marker exists: the preserve's removal of it has nothing to flush.
      let report = makeEngine(store: store, delegate: TestDelegate())
        .preserveApplicationState(roots: TalkDemo().roots)
      guard case .saved = report.outcome else {
        Issue.record("not saved: \(report.outcome)")
        return
      }
      #expect(flushed.paths == [store.folder])
      try store.remove(.snapshot)
      #expect(flushed.paths == [store.folder])
      try store.remove(.archive)
    }
    #expect(flushed.paths == [store.folder, store.folder])
    #expect(try store.read(.archive, maxSize: 1 << 20) == nil)
  }

  /// A restore from disk flushes the folder twice: once as it arms the crash guard's marker,
  /// once as it removes the marker and the archive together at the end.
  @Test func aRestoreFlushesTheFolderOnceToArmTheMarkerAndOnceToRemoveItWithTheArchive() throws {
    try withStore { store in
      makeEngine(store: store, delegate: TestDelegate()).preserveApplicationState(
        roots: TalkDemo().roots)
      let flushed = PathLog()
      let engine = makeEngine(store: store, delegate: TestDelegate())
      let report = PlatformObservers.$folderFlushed.withValue(flushed.observer) {
        engine.restoreApplicationState(roots: TalkDemo(pushCity: false).roots)
      }
      #expect(report.outcome == .restored)
      #expect(flushed.paths == [store.folder, store.folder])
      try expectEmpty(store)
    }
  }

  /// Removing several items at once removes each, the missing ones quietly, with one flush.
  @Test func removingSeveralItemsFlushesTheFolderOnce() throws {
    try withStore { store in
      for item in [ArchiveStoreItem.archive, .inProgressMarker, .discardNote] {
        try store.write([1, 2, 3], to: item)
      }
      let flushed = PathLog()
      try PlatformObservers.$folderFlushed.withValue(flushed.observer) {
        try store.remove([.archive, .inProgressMarker, .snapshot, .discardNote])
      }
      #expect(flushed.paths == [store.folder])
      try expectEmpty(store)
    }
  }

  /// A store without its own removal of several items removes each in turn, and reports the
  /// first failure once it has tried them all.
  @Test func theDefaultRemovalOfSeveralItemsTriesEachAndThrowsTheFirstFailure() {
    let store = RefusingStore()
    for item in ArchiveStoreItem.allCases { store.contents[item] = [1] }
    let error = #expect(throws: RestorationError.self) {
      try store.remove([.archive, .snapshot, .inProgressMarker, .discardNote])
    }
    #expect(error?.message == "refused snapshot.data")
    // The refused items stay, and so do those not asked for.
    #expect(
      Set(store.contents.keys)
        == Set(ArchiveStoreItem.allCases).subtracting([.archive, .inProgressMarker]))
  }

  @Test func oversizedFileIsRejectedBeforeReading() throws {
    try withStore { store in
      try store.write(Array(repeating: 0, count: 2_000), to: .archive)
      let error = #expect(throws: RestorationError.self) {
        try store.read(.archive, maxSize: 1_000)
      }
      #expect(error?.code == .limitExceeded)
      #expect(error?.file == store.path(of: .archive))
    }
  }

  @Test(arguments: [
    "", ".", "..", "com/example", "../escape", "a\u{0}b", "line\nbreak", "back\\slash",
  ])
  func bundleIdentifiersThatCannotNameAFolderAreRejected(_ identifier: String) {
    let error = #expect(throws: RestorationError.self) {
      try FileArchiveStore(stateRoot: "/tmp", bundleIdentifier: identifier)
    }
    #expect(error?.code == .invalidIdentifier)
  }

  @Test(arguments: [
    "", ".", "..", "a/b", "../escape", "a\u{0}b", "tab\there", "back\\slash",
  ])
  func sceneIdentifiersThatCannotNameAFolderAreRejected(_ identifier: String) {
    let error = #expect(throws: RestorationError.self) {
      try FileArchiveStore(
        stateRoot: "/tmp", bundleIdentifier: "com.example", sceneIdentifier: identifier)
    }
    #expect(error?.code == .invalidIdentifier)
    #expect(error?.description.contains("scene identifier") == true)
  }

  @Test func eachSceneHasItsOwnPrivateFolder() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let first = try FileArchiveStore(
      stateRoot: root.path, bundleIdentifier: "com.example.Restorer", sceneIdentifier: "main")
    let second = try FileArchiveStore(
      stateRoot: root.path, bundleIdentifier: "com.example.Restorer", sceneIdentifier: "inspector")
    try first.write([1], to: .archive)
    try second.write([2], to: .archive)
    #expect(
      first.folder
        == root.path + "/Saved Application State/com.example.Restorer.savedState/Scenes/main")
    #expect(try first.read(.archive, maxSize: 10) == [1])
    #expect(try second.read(.archive, maxSize: 10) == [2])
    for folder in [first.folder, second.folder] {
      let mode = try #require(
        FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int)
      #expect(mode == 0o700)
    }
  }

  @Test func aRewriteReplacesTheFileInsteadOfWritingIntoIt() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let store = try FileArchiveStore(stateRoot: root.path, bundleIdentifier: "com.example.Restorer")
    try store.write(Array(repeating: 1, count: 4096), to: .archive)
    // A reader that opened the old file keeps reading the old bytes, whole: the new archive is
    // another file renamed over the old name, never the file under that name overwritten in
    // place.
    let reader = try FileHandle(forReadingFrom: URL(fileURLWithPath: store.path(of: .archive)))
    defer { try? reader.close() }
    let before = try FileManager.default.attributesOfItem(atPath: store.path(of: .archive))
    try store.write(Array(repeating: 2, count: 100), to: .archive)
    let after = try FileManager.default.attributesOfItem(atPath: store.path(of: .archive))
    #expect(before[.systemFileNumber] as? Int != after[.systemFileNumber] as? Int)
    #expect(try reader.readToEnd() == Data(repeating: 1, count: 4096))
    #expect(try store.read(.archive, maxSize: 10_000) == Array(repeating: 2, count: 100))
  }

  @Test func temporaryFilesOfDeadWritersAndRemovedItemsGoAndLiveOnesStay() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    let store = try FileArchiveStore(stateRoot: root.path, bundleIdentifier: "com.example.Restorer")
    try store.write([0], to: .archive)
    // A process id that is not running (the kernel caps ids far below it) and one that always
    // is (init).
    let dead = "data.data.2147483000.12345.tmp"
    let live = "data.data.1.777.tmp"
    for name in [dead, live] {
      #expect(
        FileManager.default.createFile(atPath: store.folder + "/" + name, contents: Data([9])))
    }
    try store.write([1], to: .archive)
    var names = Set(try FileManager.default.contentsOfDirectory(atPath: store.folder))
    #expect(names == ["data.data", live])
    // A removal removes the dead ones too, and every one of the removed item: a live-looking
    // writer's identifier may have been reused. Another item's live writer keeps its file.
    let otherLive = "snapshot.data.1.778.tmp"
    for name in [dead, otherLive] {
      #expect(
        FileManager.default.createFile(atPath: store.folder + "/" + name, contents: Data([9])))
    }
    try store.remove(.archive)
    names = Set(try FileManager.default.contentsOfDirectory(atPath: store.folder))
    #expect(names == [otherLive])
  }

  /// A link in place of an item is never followed: reading it is refused, naming it, and a
  /// write replaces the link itself, leaving its target as it was.
  @Test func aLinkInPlaceOfAnItemIsNeverFollowed() throws {
    try withStore { store in
      try store.write([1], to: .archive)
      let outside = store.folder + "/../outside"
      try Data([9, 9, 9]).write(to: URL(fileURLWithPath: outside))
      try FileManager.default.removeItem(atPath: store.path(of: .archive))
      try FileManager.default.createSymbolicLink(
        atPath: store.path(of: .archive), withDestinationPath: outside)
      let error = #expect(throws: RestorationError.self) {
        try store.read(.archive, maxSize: 1 << 20)
      }
      #expect(error?.code == .unsafeStorage)
      #expect(error?.file == store.path(of: .archive))
      try store.write([2], to: .archive)
      #expect(try store.read(.archive, maxSize: 16) == [2])
      #expect(try Data(contentsOf: URL(fileURLWithPath: outside)) == Data([9, 9, 9]))
      try store.remove(.archive)
      #expect(FileManager.default.fileExists(atPath: outside))
    }
  }

  /// A state folder open to other users is made private before anything is read from it.
  @Test func aFolderOpenToOthersIsMadePrivate() throws {
    try withStore { store in
      try store.write([1], to: .archive)
      let parent = URL(fileURLWithPath: store.folder).deletingLastPathComponent().path
      for path in [parent, store.folder] {
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: path)
      }
      #expect(try store.read(.archive, maxSize: 16) == [1])
      for path in [parent, store.folder] {
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]
        #expect(mode as? Int == 0o700, "\(path)")
      }
    }
  }

  /// A state folder that belongs to another user is refused, and left as it is.
  @Test(.enabled(if: geteuid() == 0, "giving a folder to another user needs root"))
  func aFolderOfAnotherUserIsRefused() throws {
    try withStore { store in
      try store.write([1], to: .archive)
      #expect(chown(store.folder, 4_242, 4_242) == 0)
      for attempt in ["read", "write", "remove"] {
        let error = #expect(throws: RestorationError.self, "\(attempt)") {
          switch attempt {
          case "read": _ = try store.read(.archive, maxSize: 16)
          case "write": try store.write([2], to: .archive)
          default: try store.remove(.archive)
          }
        }
        #expect(error?.code == .unsafeStorage)
        #expect(error?.message.contains("belongs to user 4242") == true)
      }
      #expect(try Data(contentsOf: URL(fileURLWithPath: store.path(of: .archive))) == Data([1]))
    }
  }

  @Test func unwritableFolderGivesAClearError() throws {
    let root = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: root) }
    // A file where the folder should be: nothing can be created under it.
    let blocker = root.appendingPathComponent("Saved Application State")
    try Data("x".utf8).write(to: blocker)
    let store = try FileArchiveStore(stateRoot: root.path, bundleIdentifier: "app")
    let report = makeEngine(store: store, delegate: TestDelegate())
      .preserveApplicationState(roots: TalkDemo().roots)
    guard case .failed(let error) = report.outcome else {
      Issue.record("expected a failure, got \(report.outcome)")
      return
    }
    #expect(error.code == .storageFailed)
    #expect(error.description.contains("Saved Application State"))
  }
}

/// An in-memory store that refuses to remove the snapshot and the crash guard's note.
private final class RefusingStore: ArchiveStore {
  var contents: [ArchiveStoreItem: [UInt8]] = [:]
  var location: String { "refusing" }

  func read(_ item: ArchiveStoreItem, maxSize: Int) throws(RestorationError) -> [UInt8]? {
    contents[item]
  }

  func write(_ bytes: [UInt8], to item: ArchiveStoreItem) throws(RestorationError) {
    contents[item] = bytes
  }

  func remove(_ item: ArchiveStoreItem) throws(RestorationError) {
    guard item != .snapshot, item != .discardNote else {
      throw RestorationError(.storageFailed, "refused \(item.rawValue)")
    }
    contents[item] = nil
  }
}

/// The paths an observer of the file primitives was called with (``PlatformObservers``).
private final class PathLog: Sendable {
  private let log = Mutex<[String]>([])

  var observer: PathObserver {
    PathObserver { path in self.log.withLock { $0.append(path) } }
  }

  var paths: [String] { log.withLock { $0 } }
}

/// Runs `body` with a store of the app `app` in a new temporary folder, removed afterwards.
private func withStore(_ body: (FileArchiveStore) throws -> Void) throws {
  let root = try makeTemporaryFolder()
  defer { try? FileManager.default.removeItem(at: root) }
  try body(try FileArchiveStore(stateRoot: root.path, bundleIdentifier: "app"))
}

/// Expects the store's folder to be empty.
private func expectEmpty(
  _ store: FileArchiveStore, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let names = try FileManager.default.contentsOfDirectory(atPath: store.folder)
  #expect(names.isEmpty, "left: \(names)", sourceLocation: sourceLocation)
}
