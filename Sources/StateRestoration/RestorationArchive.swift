#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// A restoration archive: the top-level values and one record per preserved object, parents
/// before children.
///
/// This is the archive as a value, independent of the file, as tools and tests read it:
/// ``init(decoding:limits:)`` reads one from a file, and ``encoded()`` writes one, through the
/// writer a preservation uses. The layout on disk is documented in `docs/ArchiveFormat.md`.
public struct RestorationArchive: Sendable, Hashable {
  /// The archive format's version.
  public struct Version: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Incremented for changes older readers cannot read.
    public var major: Int
    /// Incremented for additions older readers can ignore.
    public var minor: Int

    /// Creates a version.
    public init(major: Int, minor: Int) { (self.major, self.minor) = (major, minor) }

    /// The version this library writes.
    public static let current = Version(major: 3, minor: 1)

    /// Orders versions by major, then minor.
    public static func < (lhs: Version, rhs: Version) -> Bool {
      (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }

    /// `major.minor`.
    public var description: String { "\(major).\(minor)" }
  }

  /// The names of the top-level keys the engine writes, UIKit's own.
  public enum Key {
    /// The archive format's major version, which the writer stamps.
    public static let majorVersion = "kUIStateRestorationArchiveMajorVersionKey"
    /// The archive format's minor version, which the writer stamps.
    public static let minorVersion = "kUIStateRestorationArchiveMinorVersionKey"
    /// The app's bundle version at save time.
    public static let bundleVersion = "UIApplicationStateRestorationBundleVersion"
    /// The system version at save time.
    public static let systemVersion = "UIApplicationStateRestorationSystemVersion"
    /// The date of the save.
    public static let timestamp = "UIApplicationStateRestorationTimestamp"
    /// The interface idiom at save time.
    public static let userInterfaceIdiom = "UIApplicationStateRestorationUserInterfaceIdiom"

    /// Every key the engine reserves in the top-level coder; apps must not write them.
    public static let reserved: Set<String> = [
      majorVersion, minorVersion, bundleVersion, systemVersion, timestamp, userInterfaceIdiom,
    ]
  }

  /// One preserved object.
  public struct Record: Sendable, Hashable {
    /// The object's restoration identifier path.
    public var identifierPath: String
    /// Whether it is a view controller, a view or another object.
    public var kind: RestorationKind
    /// The name of the object's class at save time; a restored object of another class is not
    /// decoded.
    public var className: String
    /// The name of the object's restoration class, if it had one.
    public var restorationClassName: String?
    /// The storyboard scene the object came from, if any.
    public var storyboard: StoryboardReference?
    /// The object's state, as its coder received it.
    public var state: KeyedValues
    /// Keys the object marked sensitive: named here, their values never written.
    public var sensitiveKeys: [String]
    /// The version of what its class encodes (``StateRestoring/restorationStateVersion``).
    public var stateVersion: Int

    /// Creates a record.
    public init(
      identifierPath: String, kind: RestorationKind, className: String,
      restorationClassName: String? = nil, storyboard: StoryboardReference? = nil,
      state: KeyedValues = KeyedValues(), sensitiveKeys: [String] = [], stateVersion: Int = 0
    ) {
      (self.identifierPath, self.kind, self.className) = (identifierPath, kind, className)
      (self.restorationClassName, self.storyboard) = (restorationClassName, storyboard)
      (self.state, self.sensitiveKeys, self.stateVersion) = (state, sensitiveKeys, stateVersion)
    }
  }

  /// The format of the file the archive was read from; ``Version/current`` for one in memory.
  ///
  /// It describes the file, not the archive: ``encoded()`` always writes the current format, and
  /// two archives that differ only in it are equal.
  public internal(set) var version = Version.current
  /// The top-level values: the engine's keys (see ``Key``) followed by the app's own.
  ///
  /// The format version's keys are not among them (see ``version``).
  public var topLevel: KeyedValues
  /// The preserved objects, parents before children (UIKit's root identifier paths, in order).
  public var records: [Record]

  /// Creates an archive.
  public init(topLevel: KeyedValues = KeyedValues(), records: [Record] = []) {
    (self.topLevel, self.records) = (topLevel, records)
  }

  /// The app's bundle version at save time.
  public var bundleVersion: String? {
    topLevel[Key.bundleVersion].flatMap(String.init(stateValue:))
  }

  /// The system version at save time.
  public var systemVersion: String? {
    topLevel[Key.systemVersion].flatMap(String.init(stateValue:))
  }

  /// When the archive was saved.
  public var timestamp: Date? { topLevel[Key.timestamp].flatMap(Date.init(stateValue:)) }

  /// The interface idiom at save time.
  public var userInterfaceIdiom: String? {
    topLevel[Key.userInterfaceIdiom].flatMap(String.init(stateValue:))
  }

  /// The identifier paths of all records, parents first (UIKit's "root restoration identifier
  /// paths").
  public var rootIdentifierPaths: [String] { records.map(\.identifierPath) }

  /// The restoration class of every record that has one, by identifier path (UIKit's
  /// "restoration class map").
  public var restorationClassMap: [String: String] {
    Dictionary(
      records.compactMap { record in record.restorationClassName.map { (record.identifierPath, $0) }
      },
      uniquingKeysWith: { _, last in last })
  }

  /// The first record with an identifier path, or nil.
  ///
  /// - Complexity: O(n); build a dictionary for repeated lookups.
  public func record(at identifierPath: String) -> Record? {
    records.first { $0.identifierPath == identifierPath }
  }

  /// Whether two archives hold the same top level and records, whatever files they came from.
  public static func == (lhs: RestorationArchive, rhs: RestorationArchive) -> Bool {
    lhs.topLevel == rhs.topLevel && lhs.records == rhs.records
  }

  /// Hashes the top level and the records.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(topLevel)
    hasher.combine(records)
  }
}
