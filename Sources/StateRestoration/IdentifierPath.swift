internal import BinaryPropertyList

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
  public static func indexComponent(_ index: Int) -> String { ":[\(index)]:" }

  /// Whether a component is an index component: `:[` digits `]:`, such as `:[1]:`.
  public static func isIndexComponent(_ component: some StringProtocol) -> Bool {
    isIndexComponent(utf8: Array(component.utf8))
  }

  /// Whether the UTF-8 bytes of a component are `:[` digits `]:`.
  static func isIndexComponent(utf8: some BidirectionalCollection<UInt8>) -> Bool {
    utf8.count > 4 && utf8.starts(with: [0x3A, 0x5B]) && utf8.reversed().starts(with: [0x3A, 0x5D])
      && utf8.dropFirst(2).dropLast(2).allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
  }

  /// Splits a path into its components, index components included, as restoration classes
  /// receive them.
  ///
  /// Every `/` separates two components, as in UIKit, whatever character follows it.
  public static func components(of path: String) -> [String] { components(of: path, after: []) }

  /// The components of a path that starts with the path of `parent`'s components and a `/`:
  /// siblings share their parent's.
  static func components(of path: String, after parent: [String]) -> [String] {
    let start = parent.isEmpty ? 0 : parent.reduce(parent.count) { $0 + $1.utf8.count }
    var components = parent
    // Most paths add an identifier, or an index component and an identifier, to their parent's.
    components.reserveCapacity(parent.isEmpty ? 8 : parent.count + 2)
    forEachComponent(of: path, from: start) {
      components.append(String(decoding: $0, as: UTF8.self))
    }
    return components
  }

  /// Calls `body` with the UTF-8 bytes of each component from byte `start` on, splitting at
  /// every `/`.
  static func forEachComponent(
    of path: String, from start: Int = 0, _ body: (UnsafeBufferPointer<UInt8>) -> Void
  ) {
    var path = path
    path.withUTF8 { bytes in
      var start = min(start, bytes.count)
      for index in start...bytes.count where index == bytes.count || bytes[index] == 0x2F {
        body(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        start = index + 1
      }
    }
  }

  /// The path of the nearest ancestor: the path without its last identifier and the index
  /// component before it; nil for a path with a single identifier.
  public static func parent(of path: String) -> String? {
    var path = path
    return path.withUTF8 { bytes in
      lastLink(of: bytes).parentEnd.map { String(decoding: bytes[..<$0], as: UTF8.self) }
    }
  }

  /// A path's last identifier, the index of the index component before it, if any, and the
  /// length in bytes of its parent's path (nil for a root).
  static func lastLink(of path: String) -> (identifier: String, index: Int?, parentLength: Int?) {
    var path = path
    return path.withUTF8 { bytes in
      let link = lastLink(of: bytes)
      return (
        String(decoding: bytes[link.identifierStart...], as: UTF8.self),
        link.index.flatMap { Int(String(decoding: bytes[$0], as: UTF8.self)) }, link.parentEnd
      )
    }
  }

  /// Where the parts of a path's last link lie in its bytes, found from the end.
  ///
  /// The end of the path above it (nil for a root), its identifier's start, and the digits of
  /// the index component before it, if any. On a buffer, several times faster than on a
  /// `String`'s view.
  private static func lastLink(
    of bytes: UnsafeBufferPointer<UInt8>
  ) -> (parentEnd: Int?, identifierStart: Int, index: Range<Int>?) {
    guard let slash = bytes.lastIndex(of: 0x2F) else { return (nil, 0, nil) }
    let previous = bytes[..<slash].lastIndex(of: 0x2F)
    let last = bytes[(previous.map { $0 + 1 } ?? 0)..<slash]
    guard isIndexComponent(utf8: last) else { return (slash, slash + 1, nil) }
    return (previous, slash + 1, (last.startIndex + 2)..<(last.endIndex - 2))
  }

  /// `prefix` extended by an index component and an identifier, each after a `/` unless the
  /// path so far is empty and not `separatingEmpty`.
  ///
  /// Made as bytes then one string, its size known before the first byte is copied: appending to
  /// a `String` piece by piece cost several times more, and every record's path is made so.
  static func joining(
    _ prefix: String, index: Int? = nil, identifier: String?, separatingEmpty: Bool = false
  ) -> String {
    guard index != nil || identifier != nil else { return prefix }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(prefix.utf8.count + (identifier?.utf8.count ?? 0) + 26)
    bytes += prefix.utf8
    var separated = separatingEmpty
    if let index {
      if separated || !bytes.isEmpty { bytes.append(UInt8(ascii: "/")) }
      separated = true
      // Byte by byte: appending a literal's view goes through a generic copy.
      bytes.append(UInt8(ascii: ":"))
      bytes.append(UInt8(ascii: "["))
      // Digits written here: `String(index)` goes through a generic description.
      if index < 0 { bytes += String(index).utf8 } else { appendDigits(of: index, to: &bytes) }
      bytes.append(UInt8(ascii: "]"))
      bytes.append(UInt8(ascii: ":"))
    }
    if let identifier {
      if separated || !bytes.isEmpty { bytes.append(UInt8(ascii: "/")) }
      bytes += identifier.utf8
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func appendDigits(of value: Int, to bytes: inout [UInt8]) {
    if value >= 10 { appendDigits(of: value / 10, to: &bytes) }
    bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
  }

  /// The number of identifier components in a path, index components not counted: 1 for a root.
  public static func depth(of path: String) -> Int {
    var depth = 0
    forEachComponent(of: path) { if !isIndexComponent(utf8: $0) { depth += 1 } }
    return depth
  }
}

/// Computes identifier paths as UIKit does, climbing containers and parents once per object; a
/// restoration pins each object it locates to its archived path, which those below it follow.
struct IdentifierPathResolver {
  /// A path computed or pinned, and the object, held while the pass lasts so that its identity
  /// is not reused.
  private struct Known {
    var object: any StateRestoring
    /// Nil for an object without an identifier, whose descendants' paths still go through it.
    var path: String?
    var prefix: String
    var isPinned = false
    /// The object above it that scopes its path, if known.
    var parent: ObjectIdentifier?
  }

  private var known: [ObjectIdentifier: Known] = [:]
  /// Told of a `restorationParent` chain that loops.
  var onCycle: ((String) -> Void)?

  /// Records that `object` was restored as the object archived under `path`.
  mutating func pin(_ object: any StateRestoring, to path: String) {
    known[ObjectIdentifier(object)] = Known(
      object: object, path: path, prefix: path, isPinned: true)
  }

  /// The archived path an object was restored as, if it was.
  func pinnedPath(of object: any StateRestoring) -> String? {
    guard let entry = known[ObjectIdentifier(object)], entry.isPinned else { return nil }
    return entry.path
  }

  /// The object above one whose path was computed, which scopes its path.
  func parent(of object: ObjectIdentifier) -> ObjectIdentifier? { known[object]?.parent }

  /// An object's identifier path, or nil when it has no identifier.
  mutating func path(of object: any StateRestoring) -> String? { resolve(object).path }

  /// The link to what scopes an object's path: its container for a node, else its
  /// `restorationParent`.
  static func parentLink(of object: any StateRestoring) -> RestorationParentLink? {
    parentLink(of: object, node: object as? any RestorationNode)
  }

  /// The same, for an object already cast to a node: `node` is nil when it is not one.
  static func parentLink(
    of object: any StateRestoring, node: (any RestorationNode)?
  ) -> RestorationParentLink? {
    if let node { return node.restorationContainer }
    return object.restorationParent.map { RestorationParentLink(parent: $0) }
  }

  private mutating func resolve(_ object: any StateRestoring) -> Known {
    if let entry = known[ObjectIdentifier(object)] { return entry }
    // Climb to a known object or a root, iteratively: a long chain cannot overflow the stack.
    var chain: [(object: any StateRestoring, index: Int?)] = []
    // Chains are short: a set to find a cycle only once one is long.
    var onChain: Set<ObjectIdentifier> = []
    var current = object
    var base: Known?
    while true {
      if let entry = known[ObjectIdentifier(current)] {
        base = entry
        break
      }
      let id = ObjectIdentifier(current)
      let isOnChain: Bool
      if chain.count < 16 {
        isOnChain = chain.contains { ObjectIdentifier($0.object) == id }
      } else {
        if onChain.isEmpty { onChain = Set(chain.map { ObjectIdentifier($0.object) }) }
        isOnChain = !onChain.insert(id).inserted
      }
      guard !isOnChain else {
        // A cycle: the chain up to here is the partial path UIKit uses, topped by the object
        // that closed it.
        onCycle?(
          "Cycle in the restoration parent chain of '\(object.restorationIdentifier ?? "?")'"
            + " at '\(current.restorationIdentifier ?? "?")'; using the partial path")
        chain[chain.count - 1].index = nil
        break
      }
      let link = Self.parentLink(of: current)
      chain.append((current, link?.index))
      guard let link else { break }
      current = link.parent
    }
    // Back down, recording each object on the way.
    var prefix = base?.prefix ?? ""
    var entry = base
    for (node, index) in chain.reversed() {
      let identifier = node.restorationIdentifier
      prefix = IdentifierPath.joining(prefix, index: index, identifier: identifier)
      let made = Known(
        object: node, path: identifier == nil ? nil : prefix, prefix: prefix,
        parent: entry.map { ObjectIdentifier($0.object) })
      known[ObjectIdentifier(node)] = made
      entry = made
    }
    return entry ?? Known(object: object, path: nil, prefix: "")
  }
}

/// An identifier path as a dictionary key: compared by its UTF-8 bytes, as UIKit compares
/// paths (`é` and `e` with a combining accent are different paths).
typealias PathKey = ExactString
