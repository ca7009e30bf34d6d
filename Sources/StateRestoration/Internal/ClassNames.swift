/// Class names of restorable objects, computed once per type.
///
/// Demangling a type name costs about a microsecond; a tree of ten thousand objects has a
/// handful of types, so the cache turns that into a dictionary lookup.
struct ClassNames {
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
      name = String(describing: Swift.type(of: object))
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
    var mirror = Mirror(reflecting: object).superclassMirror
    while let current = mirror {
      lineage.insert(String(describing: current.subjectType))
      mirror = current.superclassMirror
    }
    lineages[type] = lineage
    return lineage
  }
}
