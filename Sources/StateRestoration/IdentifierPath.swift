/// Helpers for restoration identifier paths: `TabController/:[1]:/NavigationController`.
///
/// A path is the chain of restoration identifiers from a root down to an object, joined with
/// `/`. A container that numbers its children adds an index component, `:[i]:`, before the
/// child's identifier, so siblings may share an identifier. These are UIKit's rules, and the
/// strings are byte for byte those UIKit writes.
public enum IdentifierPath {
  /// The separator between components.
  public static let separator: Character = "/"

  /// The index component for a child at `index`, such as `:[1]:`.
  ///
  /// - Parameter index: The child's index in its container.
  /// - Returns: The component.
  public static func indexComponent(_ index: Int) -> String { ":[\(index)]:" }

  /// Whether a component is an index component such as `:[1]:`.
  ///
  /// - Parameter component: The component.
  /// - Returns: True for `:[` digits `]:`.
  public static func isIndexComponent(_ component: some StringProtocol) -> Bool {
    component.hasPrefix(":[") && component.hasSuffix("]:") && component.count > 4
      && component.dropFirst(2).dropLast(2).allSatisfy(\.isASCII)
      && component.dropFirst(2).dropLast(2).allSatisfy(\.isNumber)
  }

  /// Splits a path into its components, index components included, as restoration classes
  /// receive them.
  ///
  /// - Parameter path: The path.
  /// - Returns: The components.
  public static func components(of path: String) -> [String] {
    path.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
  }

  /// The path of the nearest ancestor: the path without its last identifier and the index
  /// component before it.
  ///
  /// - Parameter path: The path.
  /// - Returns: The parent path, or nil for a path with a single identifier.
  public static func parent(of path: String) -> String? {
    var components = path.split(separator: separator, omittingEmptySubsequences: false)
    guard components.count > 1 else { return nil }
    components.removeLast()
    if let last = components.last, isIndexComponent(last) { components.removeLast() }
    guard !components.isEmpty else { return nil }
    return components.joined(separator: String(separator))
  }

  /// The number of identifier components in a path, index components not counted.
  ///
  /// - Parameter path: The path.
  /// - Returns: The depth; 1 for a root.
  public static func depth(of path: String) -> Int {
    var depth = 0
    for component in path.split(separator: separator, omittingEmptySubsequences: false)
    where !isIndexComponent(component) {
      depth += 1
    }
    return depth
  }
}

/// Computes identifier paths by climbing from an object to its root, as UIKit's
/// `_restorationIdentifierPathArrayForResponder` does.
///
/// Each object's contribution is memoized for the lifetime of the resolver, so computing the
/// paths of a whole tree is linear in its size. Objects restored from an archive are pinned to
/// their archived path, which wins over the tree (UIKit's pointer-to-path table).
struct IdentifierPathResolver {
  /// The prefix each visited object contributes to the paths below it.
  private var prefixes: [ObjectIdentifier: String] = [:]
  /// Objects whose path is fixed, such as restored objects.
  private var pinned: [ObjectIdentifier: String] = [:]
  /// Called with a description of each cycle found in a parent chain.
  var onCycle: ((String) -> Void)?

  init(onCycle: ((String) -> Void)? = nil) {
    self.onCycle = onCycle
  }

  /// Fixes the path of an object; paths of objects below it start from this path.
  mutating func pin(_ object: any StateRestoring, to path: String) {
    pinned[ObjectIdentifier(object)] = path
    prefixes[ObjectIdentifier(object)] = path
  }

  /// The pinned path of an object, if any.
  func pinnedPath(of object: any StateRestoring) -> String? {
    pinned[ObjectIdentifier(object)]
  }

  /// Forgets memoized prefixes (not pins), after the tree changed.
  mutating func invalidate() {
    prefixes = pinned
  }

  /// The identifier path of an object, or nil when its identifier is nil.
  mutating func path(of object: any StateRestoring) -> String? {
    if let pinned = pinned[ObjectIdentifier(object)] { return pinned }
    guard object.restorationIdentifier != nil else { return nil }
    return prefix(of: object)
  }

  /// The link from an object to the one above it: the tree container for nodes, the
  /// `restorationParent` for other objects.
  static func parentLink(of object: any StateRestoring) -> RestorationParentLink? {
    if let node = object as? any RestorationNode {
      return node.restorationContainer
    }
    return object.restorationParent.map { RestorationParentLink(parent: $0, index: nil) }
  }

  /// The components an object contributes, its ancestors' included.
  ///
  /// A gap (an ancestor without
  /// identifier) contributes its index component but no identifier, and the climb goes on.
  private mutating func prefix(of object: any StateRestoring) -> String {
    if let known = prefixes[ObjectIdentifier(object)] { return known }

    // Climb until an object with a known prefix, a root, or a cycle; iterative so that a long
    // parent chain cannot overflow the stack.
    var chain: [(object: any StateRestoring, index: Int?)] = []
    var onChain: Set<ObjectIdentifier> = []
    var current: any StateRestoring = object
    var base = ""
    while true {
      let id = ObjectIdentifier(current)
      if let known = prefixes[id] {
        base = known
        break
      }
      guard onChain.insert(id).inserted else {
        // A cycle: the chain up to here is the partial path UIKit uses.
        onCycle?(
          "Cycle in the restoration parent chain of '\(object.restorationIdentifier ?? "?")'"
            + " at '\(current.restorationIdentifier ?? "?")'; using the partial path"
        )
        // The object that closed the cycle becomes the top of the partial path.
        chain[chain.count - 1].index = nil
        break
      }
      let link = Self.parentLink(of: current)
      chain.append((current, link?.index))
      guard let link else { break }
      current = link.parent
    }

    // Walk back down, memoizing each object's prefix.
    var result = base
    for (node, index) in chain.reversed() {
      if let index { Self.append(IdentifierPath.indexComponent(index), to: &result) }
      if let identifier = node.restorationIdentifier { Self.append(identifier, to: &result) }
      prefixes[ObjectIdentifier(node)] = result
    }
    return result
  }

  private static func append(_ component: String, to path: inout String) {
    if path.isEmpty {
      path = component
    } else {
      path.append(IdentifierPath.separator)
      path.append(component)
    }
  }
}
