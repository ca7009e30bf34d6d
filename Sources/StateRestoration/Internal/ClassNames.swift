/// Class names of restorable objects, computed once per type.
///
/// Demangling a type name costs about a microsecond; a tree of ten thousand objects has a
/// handful of types, so the cache turns that into a dictionary lookup.
struct ClassNames {
  /// The name recorded in archives for a type: its unqualified name, as `String(describing:)`
  /// prints a type.
  ///
  /// Read with `_typeName(_:qualified:)`, which `String(describing:)` ends in for a type. On its
  /// way there `String(describing:)` asks whether the type conforms to three printing
  /// protocols, and each question not asked before scans every conformance the process has
  /// loaded: with Foundation loaded, 0.76 ms for the first type of a process and 0.09 ms for
  /// each new one, against 0.034 ms and a few microseconds. A process's first preserve or
  /// restore named every class of the app that way, and a restore its superclasses too.
  static func typeName(_ type: Any.Type) -> String { _typeName(type, qualified: false) }

  private var names: [ObjectIdentifier: String] = [:]
  private var lineages: [ObjectIdentifier: Set<String>] = [:]
  /// The last answers, since consecutive objects are usually of one class.
  private var lastName: (type: ObjectIdentifier, name: String)?
  private var lastMatch: (type: ObjectIdentifier, className: String, matches: Bool)?

  /// The name recorded in archives for an object's class.
  mutating func name(of object: any StateRestoring) -> String {
    let type = ObjectIdentifier(Swift.type(of: object))
    if let lastName, lastName.type == type { return lastName.name }
    let name: String
    if let known = names[type] {
      name = known
    } else {
      name = Self.typeName(Swift.type(of: object))
      names[type] = name
    }
    lastName = (type, name)
    return name
  }

  /// Whether an object's class, or one of its superclasses, has the archived name.
  mutating func object(_ object: any StateRestoring, isKindOf className: String) -> Bool {
    let type = ObjectIdentifier(Swift.type(of: object))
    if let lastMatch, lastMatch.type == type, lastMatch.className == className {
      return lastMatch.matches
    }
    let matches = lineage(of: object).contains(className)
    lastMatch = (type, className, matches)
    return matches
  }

  /// The names of an object's class and all its superclasses.
  mutating func lineage(of object: any StateRestoring) -> Set<String> {
    let type = ObjectIdentifier(Swift.type(of: object))
    if let lineage = lineages[type] { return lineage }
    var lineage: Set<String> = [name(of: object)]
    // The superclasses from the runtime: a `Mirror` of the object, asked for them before, cost
    // as much per type as the names (it asks whether the object customizes its reflection).
    var superclass: AnyClass? = _getSuperclass(Swift.type(of: object as AnyObject))
    while let current = superclass {
      lineage.insert(Self.typeName(current))
      superclass = _getSuperclass(current)
    }
    lineages[type] = lineage
    return lineage
  }
}
