/// The files a restoration store keeps for one app.
public enum ArchiveStoreItem: String, Sendable, Hashable, CaseIterable {
  /// The archive itself (UIKit's `data.data`).
  case archive = "data.data"
  /// The crash guard's marker (UIKit's `inprogress.data`).
  case inProgressMarker = "inprogress.data"
  /// Why the last archive was discarded, so the next launch can say so.
  case discardNote = "discarded.data"
  /// A text snapshot of the UI taken at background time, shown at a restoring launch.
  case snapshot = "snapshot.data"
  /// A scene session's restoration activity (UIKit's `stateRestorationActivity`).
  case sceneActivity = "activity.data"
  /// The index of an app's scene sessions, kept beside the app's own items.
  case sceneSessions = "sessions.data"
}

/// Where the engine keeps its archive, its crash-guard marker and its notes.
///
/// `FileArchiveStore` (in `StateRestorationStorage`) keeps them on disk, in UIKit's layout;
/// ``InMemoryArchiveStore`` keeps them in memory, for tests that simulate a process dying and
/// the app launching again.
public protocol ArchiveStore: AnyObject {
  /// A description of where the items live, for log lines and reports.
  var location: String { get }

  /// Where one item lives, for messages; by default `<location>:<item's file name>`.
  func path(of item: ArchiveStoreItem) -> String

  /// Reads an item of at most `maxSize` bytes.
  ///
  /// - Returns: The item's bytes, or nil if it does not exist.
  /// - Throws: ``RestorationError`` when the item exists but cannot be read.
  func read(_ item: ArchiveStoreItem, maxSize: Int) throws(RestorationError) -> [UInt8]?

  /// Replaces an item, atomically: a reader sees the old bytes or the new ones, never a mix.
  ///
  /// - Throws: ``RestorationError`` when the item cannot be written; the old one is kept.
  func write(_ bytes: [UInt8], to item: ArchiveStoreItem) throws(RestorationError)

  /// Removes an item; removing a missing item does nothing.
  ///
  /// - Throws: ``RestorationError`` when the item exists but cannot be removed.
  func remove(_ item: ArchiveStoreItem) throws(RestorationError)

  /// Removes several items; removing a missing item does nothing.
  ///
  /// The engine removes the crash guard's marker and the archive together once a restoration
  /// is complete: a store that flushes its folder after a removal can flush it once for both.
  /// The default removes each item in turn.
  ///
  /// - Throws: ``RestorationError`` for the first item that exists but cannot be removed; the
  ///   others are removed all the same.
  func remove(_ items: [ArchiveStoreItem]) throws(RestorationError)
}

extension ArchiveStore {
  /// The location and the item's file name.
  public func path(of item: ArchiveStoreItem) -> String { "\(location):\(item.rawValue)" }

  /// Removes each item in turn.
  public func remove(_ items: [ArchiveStoreItem]) throws(RestorationError) {
    var failure: RestorationError?
    for item in items {
      do throws(RestorationError) {
        try remove(item)
      } catch {
        failure = failure ?? error
      }
    }
    if let failure { throw failure }
  }
}

/// A store that keeps its items in memory.
///
/// Hand the same store to a new engine to simulate the app launching again after its process
/// died; ``contents`` and ``init(contents:)`` capture and replay the exact bytes "on disk" at any
/// instant, for example the instant a simulated crash happens.
public final class InMemoryArchiveStore: ArchiveStore {
  /// The items and their bytes.
  public var contents: [ArchiveStoreItem: [UInt8]]

  /// How many times each item was written, for assertions.
  public private(set) var writeCounts: [ArchiveStoreItem: Int] = [:]

  /// Creates a store holding `contents`.
  public init(contents: [ArchiveStoreItem: [UInt8]] = [:]) { self.contents = contents }

  /// `memory`.
  public var location: String { "memory" }

  /// Reads an item.
  public func read(_ item: ArchiveStoreItem, maxSize: Int) throws(RestorationError) -> [UInt8]? {
    guard let bytes = contents[item] else { return nil }
    guard bytes.count <= maxSize else {
      throw RestorationError(
        .limitExceeded,
        "item is \(bytes.count) bytes, above the limit of \(maxSize)",
        file: "memory:\(item.rawValue)"
      )
    }
    return bytes
  }

  /// Replaces an item.
  public func write(_ bytes: [UInt8], to item: ArchiveStoreItem) throws(RestorationError) {
    contents[item] = bytes
    writeCounts[item, default: 0] += 1
  }

  /// Removes an item.
  public func remove(_ item: ArchiveStoreItem) throws(RestorationError) { contents[item] = nil }
}
