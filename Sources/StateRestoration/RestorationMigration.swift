/// A change an update made to what an app's archives hold, applied to the archives of earlier
/// versions as they are read, before any object is looked up (``RestorationRegistry/migrations``).
public enum RestorationMigration: Sendable, Hashable {
  /// A restoration identifier renamed, wherever it is a whole component of a path, in archives
  /// saved before `appVersion` (compared by the numbers between dots: `1.10` is after `1.9`).
  case renameIdentifier(String, to: String, appVersion: String)
  /// A restoration class renamed (and the archived class name, where it is the same), in
  /// archives saved before `appVersion`.
  case renameRestorationClass(String, to: String, appVersion: String)
  /// A key of a class's state renamed, or dropped when `to` is nil, in records written with a
  /// ``StateRestoring/restorationStateVersion`` below `stateVersion`.
  case renameKey(String, to: String?, className: String, stateVersion: Int)
}

/// The migrations an archive gets, in order: its renames of identifiers, classes and keys.
struct MigrationPlan {
  typealias Rename = (old: String, new: String?, migration: RestorationMigration)
  typealias Renamed = (String?, [RestorationMigration])
  private var (identifiers, classes): ([Rename], [Rename]) = ([], [])
  private var keys: [(className: String, below: Int, rename: Rename)] = []

  /// The migrations made after the archive's app version (all, when it is not numbers between
  /// dots); an archive of a later app version than the running one is refused.
  init(_ all: [RestorationMigration], archived: String?, running: String?) throws(RestorationError)
  {
    if !all.isEmpty, let archived, let running, Self.isVersion(running, before: archived) == true {
      throw RestorationError(
        .unsupportedVersion, "saved by app \(archived), after this app's \(running): a downgrade")
    }
    let isLater = { (made: String) in Self.isVersion(archived ?? "", before: made) != false }
    for migration in all {
      switch migration {
      case .renameIdentifier(let old, let new, let made):
        if isLater(made) { identifiers.append((old, new, migration)) }
      case .renameRestorationClass(let old, let new, let made):
        if isLater(made) { classes.append((old, new, migration)) }
      case .renameKey(let old, let new, let className, let below):
        keys.append((className, below, (old, new, migration)))
      }
    }
  }

  /// Whether app version `a` is before `b`; nil unless both are numbers between dots.
  static func isVersion(_ a: String, before b: String) -> Bool? {
    let (x, y) = (a.split(separator: ".").map { Int($0) }, b.split(separator: ".").map { Int($0) })
    guard !x.isEmpty, !y.isEmpty, !(x + y).contains(nil) else { return nil }
    let count = max(x.count, y.count)
    let pad = { (v: [Int?]) in v.map { $0 ?? 0 } + repeatElement(0, count: count - v.count) }
    return pad(x).lexicographicallyPrecedes(pad(y))
  }

  /// A name after `renames`, in order, and the migrations that renamed it; nil when dropped.
  private static func rename(_ name: String, _ renames: [Rename]) -> Renamed {
    var (new, applied): Renamed = (name, [])
    for rename in renames where rename.old == new {
      (new, applied) = (rename.new, applied + [rename.migration])
    }
    return (new, applied)
  }

  /// A record's name with its identifiers renamed, and the migrations that renamed them.
  func renaming(_ name: String) -> (String, [RestorationMigration]) {
    guard !identifiers.isEmpty else { return (name, []) }
    let renamed = IdentifierPath.components(of: name).map { ($0, Self.rename($0, identifiers)) }
    let applied = renamed.flatMap(\.1.1)
    return (applied.isEmpty ? name : renamed.map { $0.1.0 ?? $0.0 }.joined(separator: "/"), applied)
  }

  /// A type with its restoration class renamed, and its class where it had the same name.
  func renaming(_ type: RecordType) -> (RecordType, [RestorationMigration]) {
    guard let name = type.restorationClassName else { return (type, []) }
    var (renamed, (new, applied)) = (type, Self.rename(name, classes))
    renamed.restorationClassName = new
    if type.className == name { renamed.className = new ?? name }
    return (renamed, applied)
  }

  /// The renames of the keys of a type's records, by old name: the new name (nil when dropped)
  /// and the migrations that renamed it.
  func renamedKeys(of type: RecordType) -> [String: Renamed] {
    let renames = keys.filter { $0.className == type.className && type.stateVersion < $0.below }
    return renames.reduce(into: [:]) {
      $0[$1.rename.old] = Self.rename($1.rename.old, renames.map(\.rename))
    }
  }
}
