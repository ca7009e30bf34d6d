/// Class names of restorable objects, computed once per type: a tree of thousands of objects
/// has a handful of types.
struct ClassNames {
  /// The name recorded in archives for a type: its unqualified name, as `String(describing:)`
  /// prints a type.
  ///
  /// `_typeName(_:qualified:)` is what `String(describing:)` ends in for a type, without its
  /// slow scans of every loaded conformance for three printing protocols.
  static func typeName(_ type: Any.Type) -> String { _typeName(type, qualified: false) }

  private var names: [ObjectIdentifier: String] = [:]
  private var lineages: [ObjectIdentifier: Set<String>] = [:]

  /// The name recorded in archives for an object's class.
  mutating func name(of object: any StateRestoring) -> String {
    let type = Swift.type(of: object)
    if let known = names[ObjectIdentifier(type)] { return known }
    let name = Self.typeName(type)
    names[ObjectIdentifier(type)] = name
    return name
  }

  /// Whether an object is of the class archived under `className`, or of a subclass.
  mutating func object(_ object: any StateRestoring, isKindOf className: String) -> Bool {
    let type = ObjectIdentifier(Swift.type(of: object))
    if let lineage = lineages[type] { return lineage.contains(className) }
    var lineage: Set<String> = [name(of: object)]
    var superclass: AnyClass? = _getSuperclass(Swift.type(of: object as AnyObject))
    while let current = superclass {
      lineage.insert(Self.typeName(current))
      superclass = _getSuperclass(current)
    }
    lineages[type] = lineage
    return lineage.contains(className)
  }
}
