/// Class names of restorable objects, computed once per type.
///
/// Demangling a type name costs about a microsecond; a tree of ten thousand objects has a
/// handful of types, so the cache turns that into a dictionary lookup.
struct ClassNames {
  private var names: [ObjectIdentifier: String] = [:]
  private var lineages: [ObjectIdentifier: Set<String>] = [:]

  /// The name recorded in archives for an object's class.
  mutating func name(of object: any StateRestoring) -> String {
    let type = ObjectIdentifier(Swift.type(of: object))
    if let name = names[type] { return name }
    let name = String(describing: Swift.type(of: object))
    names[type] = name
    return name
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
