/// A change an update made to what an app's archives hold, applied to the archives of earlier
/// versions as they are read, before any object is looked up (see
/// ``RestorationRegistry/migrations``).
///
/// App versions are compared by the numbers between their dots (`1.10` is after `1.9`); an
/// archive whose bundle version is not such numbers gets every migration.
public enum RestorationMigration: Sendable, Hashable, CustomStringConvertible {
  /// A restoration identifier renamed, wherever it is a whole component of a path, in archives
  /// saved before `appVersion`.
  case renameIdentifier(String, to: String, appVersion: String)
  /// A restoration class renamed (and the archived class name, where it is the same), in
  /// archives saved before `appVersion`.
  case renameRestorationClass(String, to: String, appVersion: String)
  /// A key of a class's state renamed, or dropped when `to` is nil, in records written with a
  /// ``StateRestoring/restorationStateVersion`` below `stateVersion`.
  case renameKey(String, to: String?, className: String, stateVersion: Int)

  /// A phrase for reports.
  public var description: String {
    switch self {
    case .renameIdentifier(let old, let new, let version):
      "identifier '\(old)' renamed '\(new)' (app version \(version))"
    case .renameRestorationClass(let old, let new, let version):
      "class '\(old)' renamed '\(new)' (app version \(version))"
    case .renameKey(let key, let new, let className, let version):
      "key '\(key)' of \(className) \(new.map { "renamed '\($0)'" } ?? "dropped") (state version \(version))"
    }
  }
}

/// The migrations an archive gets, in order, and the renames they make.
struct MigrationPlan {
  private var migrations: [RestorationMigration] = []

  /// The migrations made after the archive's app version; an archive of a later app version
  /// than the running one is refused.
  init(_ all: [RestorationMigration], archived: String?, running: String?) throws(RestorationError)
  {
    if !all.isEmpty, let archived, let running, Self.isVersion(running, before: archived) == true {
      throw RestorationError(
        .unsupportedVersion,
        "saved by app version \(archived), later than this app's \(running): an archive of a newer release is not read after a downgrade"
      )
    }
    migrations = all.filter {
      $0.rename.appVersion.map { Self.isVersion(archived ?? "", before: $0) ?? true } ?? true
    }
  }

  /// Whether app version `a` is before `b`; nil unless both are numbers between dots.
  static func isVersion(_ a: String, before b: String) -> Bool? {
    let (x, y) = (a.split(separator: ".").map { Int($0) }, b.split(separator: ".").map { Int($0) })
    guard !x.isEmpty, !y.isEmpty, !x.contains(nil), !y.contains(nil) else { return nil }
    let count = max(x.count, y.count)
    let pad = { (v: [Int?]) in v.compactMap { $0 } + repeatElement(0, count: count - v.count) }
    return pad(x).lexicographicallyPrecedes(pad(y))
  }

  /// A name after the renames of `kind` (a key's: of a class, below a state version), in order,
  /// and the migrations that renamed it; nil when one dropped it.
  func rename(_ name: String, _ kind: Int, of type: RecordType? = nil) -> (
    String?, [RestorationMigration]
  ) {
    var (new, applied): (String?, [RestorationMigration]) = (name, [])
    for migration in migrations where migration.rename.kind == kind && migration.rename.old == new {
      if let type, case .renameKey(_, _, let className, let version) = migration,
        className != type.className || type.stateVersion >= version
      {
        continue
      }
      (new, applied) = (migration.rename.new, applied + [migration])
    }
    return (new, applied)
  }

  /// A record's name with its identifiers renamed, and the migrations that renamed them.
  func renaming(_ name: String) -> (String, [RestorationMigration]) {
    let renamed = IdentifierPath.components(of: name).map { rename($0, 0) }
    let applied = renamed.flatMap(\.1)
    return (applied.isEmpty ? name : renamed.map { $0.0 ?? "" }.joined(separator: "/"), applied)
  }

  /// A type with its restoration class renamed, and its class where it had the same name.
  func renaming(_ type: RecordType) -> (RecordType, [RestorationMigration]) {
    guard let name = type.restorationClassName else { return (type, []) }
    var (renamed, (new, applied)) = (type, rename(name, 1))
    renamed.restorationClassName = new
    if type.className == name { renamed.className = new ?? name }
    return (renamed, applied)
  }

  /// By the old name of each key renamed in a type's records, its new name (nil when dropped)
  /// and the migrations that renamed it.
  func renamedKeys(of type: RecordType) -> [String: (String?, [RestorationMigration])] {
    migrations.reduce(into: [:]) { keys, migration in
      let (new, applied) = rename(migration.rename.old, 2, of: type)
      if migration.rename.kind == 2, !applied.isEmpty {
        keys[migration.rename.old] = (new, applied)
      }
    }
  }
}

extension RestorationMigration {
  /// What it renames (0 path components, 1 classes, 2 keys), from and to, and after which app version.
  fileprivate var rename: (kind: Int, old: String, new: String?, appVersion: String?) {
    switch self {
    case .renameIdentifier(let old, let new, let version): (0, old, new, version)
    case .renameRestorationClass(let old, let new, let version): (1, old, new, version)
    case .renameKey(let old, let new, _, _): (2, old, new, nil)
    }
  }
}
