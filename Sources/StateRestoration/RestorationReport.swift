/// What a launch did with the saved state: for every archived object, whether it came back and
/// if not why, plus why the launch restored or started fresh and how long each phase took.
///
/// UIKit tells the app none of this; a missing screen after a restore is found by guesswork.
public struct RestorationReport: Sendable, Hashable, CustomStringConvertible {
  /// Why the launch restored, or started fresh.
  public enum Outcome: Sendable, Hashable, CustomStringConvertible {
    /// There was no archive.
    case nothingSaved
    /// The archive was read and its objects restored (see ``RestorationReport/entries``).
    case restored
    /// The archive was thrown away; the app starts fresh.
    case discarded(DiscardReason)
    /// The delegate's `shouldRestoreApplicationState` returned false (the archive is then
    /// deleted), or there is no delegate (the archive is left alone).
    case vetoedByDelegate
    /// Restoration could not run safely on this launch, and the app starts fresh with the
    /// archive left in place for a later launch: the crash guard could not record the attempt
    /// (a full disk, a read-only folder), or the store refused its folder
    /// (``RestorationError/Code/unsafeStorage``).
    case postponed(RestorationError)

    /// A sentence for logs.
    public var description: String {
      switch self {
      case .nothingSaved: "nothing was saved"
      case .restored: "restored"
      case .discarded(let reason): "discarded \(reason)"
      case .vetoedByDelegate: "vetoed by the delegate"
      case .postponed(let error): "not restored on this launch, the archive kept: \(error)"
      }
    }
  }

  /// Why an archive was thrown away.
  public enum DiscardReason: Sendable, Hashable, CustomStringConvertible {
    /// The user force-quit the app, which deletes the archive (UIKit's rule).
    case forceQuit
    /// The app crashed during restoration on the last two launches (UIKit's crash guard).
    case crashesDuringRestoration(launches: Int)
    /// The app crashed while restoration was extended and not yet completed.
    case crashDuringExtendedRestoration
    /// The archive could not be read: truncated, corrupted, or from a newer format.
    case unreadable(RestorationError)

    /// A phrase for logs.
    public var description: String {
      switch self {
      case .forceQuit: "after a force quit"
      case .crashesDuringRestoration(let launches):
        "after crashes during restoration on \(launches) launches"
      case .crashDuringExtendedRestoration: "after a crash while restoration was extended"
      case .unreadable(let error): "as unreadable: \(error)"
      }
    }
  }

  /// How an object was found at launch.
  public enum Source: String, Sendable, Hashable {
    /// Its restoration class created it.
    case restorationClass
    /// The delegate's `object(withRestorationIdentifierPath:coder:)` returned it.
    case delegate
    /// It already existed at the same identifier path (the launch hierarchy, a registered
    /// object, a view inside its controller).
    case existing
    /// Its storyboard instantiated it.
    case storyboard
  }

  /// Why an archived object was not restored.
  public enum SkipReason: Sendable, Hashable, CustomStringConvertible {
    /// The archive names a restoration class that is not registered.
    case restorationClassNotRegistered(String)
    /// The restoration class returned nil, which stops the lookup (UIKit's rule).
    case restorationClassReturnedNil(String)
    /// No restoration class, the delegate returned nil, no object exists at the path and no
    /// storyboard could create one.
    case notFound
    /// The object found is not of the archived class or a subclass; it was not decoded.
    case classMismatch(archived: String, found: String)
    /// The object's decode threw.
    case decodeFailed(RestorationError)
    /// An ancestor in the archive was not restored, so this object has nowhere to go.
    case missingParent(String)
    /// Nothing created the object, and its restored container (the path) has no child with this
    /// identifier; `reason` is the container's own account of what it lacks (see
    /// ``RestorationNode/restorationMissingChildReason(identifier:index:)``), nil when it gives
    /// none.
    case containerHasNoSuchChild(String, reason: String? = nil)
    /// Another record earlier in the archive has the same identifier path.
    case duplicatePath
    /// The object found was already restored for another identifier path.
    case objectAlreadyRestored(String)

    /// A phrase for logs.
    public var description: String {
      switch self {
      case .restorationClassNotRegistered(let name): "restoration class '\(name)' is not registered"
      case .restorationClassReturnedNil(let name): "restoration class '\(name)' returned nil"
      case .notFound:
        "no restoration class, the delegate returned nil, no existing object at this path and no storyboard"
      case .classMismatch(let archived, let found):
        "found \(found), but the archive holds \(archived); not decoded"
      case .decodeFailed(let error): "decode failed: \(error)"
      case .missingParent(let path): "its ancestor '\(path)' was not restored"
      case .containerHasNoSuchChild(let container, let reason?):
        "no restoration class, the delegate returned nil, and its restored container '\(container)' \(reason)"
      case .containerHasNoSuchChild(let container, nil):
        "no restoration class, the delegate returned nil, and its restored container '\(container)' has no child with this identifier (a container that does not archive its children must be given them before restoration)"
      case .duplicatePath: "an earlier record has the same identifier path"
      case .objectAlreadyRestored(let path): "the object found was already restored as '\(path)'"
      }
    }
  }

  /// What happened to one archived object.
  public enum Status: Sendable, Hashable, CustomStringConvertible {
    /// Found or created, and decoded.
    case restored
    /// Not restored, for a reason.
    case skipped(SkipReason)
    /// Restored, then dropped by its container (a navigation stack cut short).
    case truncated(String)

    /// A phrase for logs.
    public var description: String {
      switch self {
      case .restored: "restored"
      case .skipped(let reason): "skipped: \(reason)"
      case .truncated(let reason): "truncated: \(reason)"
      }
    }
  }

  /// One archived object.
  public struct Entry: Sendable, Hashable {
    /// The object's identifier path.
    public var identifierPath: String
    /// The object's kind.
    public var kind: RestorationKind
    /// The archived class name.
    public var className: String
    /// What happened to it.
    public var status: Status
    /// How it was found, if it was.
    public var source: Source?
    /// What came back only in part, in the object's own words (see
    /// ``StateDecoder/reportNote(_:)``).
    public var notes: [String]
    /// What migrations renamed or dropped in it (see ``RestorationRegistry/migrations``).
    public var migrations: [RestorationMigration] = []

    /// Creates an entry, for a report made by hand (such as in a test).
    public init(
      identifierPath: String, kind: RestorationKind, className: String, status: Status,
      source: Source? = nil, notes: [String] = []
    ) {
      (self.identifierPath, self.kind, self.className) = (identifierPath, kind, className)
      (self.status, self.source, self.notes) = (status, source, notes)
    }
  }

  /// A phase of restoration, for timings.
  public enum Phase: String, Sendable, Hashable, CaseIterable {
    /// Reading the archive from the store.
    case read
    /// Decoding the binary archive.
    case decodeArchive
    /// Creating or finding every object.
    case locateObjects
    /// Running every object's decode.
    case decodeState
    /// The delegate's did-decode and every object's finished-restoring.
    case finish
  }

  /// Why the launch restored or started fresh.
  public var outcome: Outcome
  /// One entry per archived object, in archive order.
  public let entries: [Entry]
  /// The index of each identifier path's first entry, so that looking up every entry is linear.
  private let entryIndex: [String: Int]
  /// How long each phase took.
  public var timings: [Phase: Duration]
  /// Problems that did not stop restoration, such as a cycle in a parent chain.
  public var warnings: [String]

  /// Creates a report.
  public init(
    outcome: Outcome, entries: [Entry] = [], timings: [Phase: Duration] = [:],
    warnings: [String] = []
  ) {
    (self.outcome, self.entries, self.timings, self.warnings) = (
      outcome, entries, timings, warnings
    )
    entryIndex = Dictionary(
      entries.indices.lazy.map { (entries[$0].identifierPath, $0) }, uniquingKeysWith: min)
  }

  /// The first entry with an identifier path, or nil.
  public func entry(for identifierPath: String) -> Entry? {
    entryIndex[identifierPath].map { entries[$0] }
  }

  /// The status of the object at an identifier path, or nil if the archive had no such object.
  public func status(of identifierPath: String) -> Status? { entry(for: identifierPath)?.status }

  /// The identifier paths of the objects that were restored.
  public var restoredPaths: [String] {
    Array(entries.lazy.filter { $0.status == .restored }.map(\.identifierPath))
  }

  /// Whether the archive was restored and every object in it came back: the one question a test
  /// of restoration asks (`#expect(report.restoredEverything, "\(report)")`).
  ///
  /// False when nothing was saved, the archive was not restored, or any entry is in
  /// ``unrestored``.
  public var restoredEverything: Bool {
    outcome == .restored && !entries.contains { $0.status != .restored }
  }

  /// The archived objects that did not come back, each with its path and, in its status, why.
  public var unrestored: [Entry] { entries.filter { $0.status != .restored } }

  /// The total time of all phases.
  public var totalDuration: Duration { timings.values.reduce(.zero, +) }

  /// The report as text: the outcome, then one line per object.
  public var description: String {
    var lines = ["Restoration: \(outcome)"]
    for entry in entries {
      let source = entry.source.map { " (\($0.rawValue))" } ?? ""
      lines.append("  \(entry.identifierPath) [\(entry.className)]: \(entry.status)\(source)")
      for note in entry.notes { lines.append("    note: \(note)") }
      for migration in entry.migrations { lines.append("    migrated: \(migration)") }
    }
    for warning in warnings { lines.append("  warning: \(warning)") }
    return lines.joined(separator: "\n")
  }
}

/// What a preservation did: the archived paths, the problems found on the way, the size and the
/// time.
public struct PreservationReport: Sendable, Hashable, CustomStringConvertible {
  /// Whether the archive was written.
  public enum Outcome: Sendable, Hashable, CustomStringConvertible {
    /// Written to the store.
    case saved(bytes: Int)
    /// Encoded, and not written: the outcome of ``RestorationEngine/makeArchive(roots:)``.
    case encoded(bytes: Int)
    /// The delegate's `shouldSaveApplicationState` returned false, or there is no delegate.
    case notOptedIn
    /// Encoding or writing failed; the previous archive is untouched.
    case failed(RestorationError)

    /// A phrase for logs.
    public var description: String {
      switch self {
      case .saved(let bytes): "saved (\(bytes) bytes)"
      case .encoded(let bytes): "encoded (\(bytes) bytes), not written"
      case .notOptedIn: "not opted in"
      case .failed(let error): "failed: \(error)"
      }
    }
  }

  /// A problem found while preserving; the rest of the archive is still written.
  public struct Issue: Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    public enum Kind: String, Sendable, Hashable {
      /// Two objects have the same identifier path; the second was left out.
      case duplicatePath
      /// An encode method referenced an object that has no identifier path.
      case referenceWithoutPath
      /// An object's encode threw; what it encoded before is kept.
      case encodeFailed
      /// An object's restoration class is not registered, so it cannot be re-created.
      case restorationClassNotRegistered
      /// The app wrote a top-level key the engine reserves; it was ignored.
      case reservedKey
      /// A `restorationParent` chain loops; the partial path was used.
      case parentCycle
      /// An object's identifier path exceeds the reader's limits
      /// (``ArchiveLimits/maxIdentifierPathLength`` and the others); it and its subtree were
      /// left out, since an archive holding it could not be read back.
      case identifierPathTooLong
    }

    /// The kind of problem.
    public var kind: Kind
    /// The identifier path involved, if any.
    public var identifierPath: String?
    /// What went wrong, in words.
    public var message: String

    /// One line.
    public var description: String {
      if let identifierPath { return "\(kind.rawValue) at '\(identifierPath)': \(message)" }
      return "\(kind.rawValue): \(message)"
    }
  }

  /// A phase of preservation, for timings.
  public enum Phase: String, Sendable, Hashable, CaseIterable {
    /// Walking the tree, running every object's encode and writing its values into the archive.
    case encodeObjects
    /// Finishing the archive: the top level, the records' paths and order, the checksum.
    case encodeArchive
    /// Writing it to the store.
    case write
  }

  /// Whether the archive was written.
  public var outcome: Outcome
  /// The archived identifier paths, in archive order.
  public var identifierPaths: [String]
  /// Problems found.
  public var issues: [Issue]
  /// How long each phase took.
  public var timings: [Phase: Duration]

  /// Creates a report.
  public init(
    outcome: Outcome, identifierPaths: [String] = [], issues: [Issue] = [],
    timings: [Phase: Duration] = [:]
  ) {
    (self.outcome, self.identifierPaths, self.issues, self.timings) = (
      outcome, identifierPaths, issues, timings
    )
  }

  /// The issues of one kind, in order.
  public func issues(of kind: Issue.Kind) -> [Issue] { issues.filter { $0.kind == kind } }

  /// The total time of all phases.
  public var totalDuration: Duration { timings.values.reduce(.zero, +) }

  /// The report as text.
  public var description: String {
    var lines = ["Preservation: \(outcome), \(identifierPaths.count) objects"]
    for issue in issues { lines.append("  \(issue)") }
    return lines.joined(separator: "\n")
  }
}
