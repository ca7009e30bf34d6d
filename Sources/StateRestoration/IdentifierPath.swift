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
    // `:`, `[`, `]` and digits have no canonical equivalents, so comparing bytes gives the same
    // answer as comparing characters, without the grapheme breaking that dominated restore time.
    let utf8 = component.utf8
    if let answer = utf8.withContiguousStorageIfAvailable({ isIndexComponent(bytes: $0) }) {
      return answer
    }
    return isIndexComponent(bytes: Array(utf8)[...])
  }

  static func isIndexComponent<C: Collection<UInt8>>(bytes: C) -> Bool
  where C.Index == Int {
    let count = bytes.count
    guard count > 4 else { return false }
    let start = bytes.startIndex
    let end = start + count
    guard bytes[start] == colon, bytes[start + 1] == openBracket, bytes[end - 2] == closeBracket,
      bytes[end - 1] == colon
    else { return false }
    for index in (start + 2)..<(end - 2) where !(zero...nine).contains(bytes[index]) {
      return false
    }
    return true
  }

  /// Splits a path into its components, index components included, as restoration classes
  /// receive them.
  ///
  /// Every `/` separates two components, as in UIKit, whatever character follows it.
  ///
  /// - Parameter path: The path.
  /// - Returns: The components.
  public static func components(of path: String) -> [String] {
    withUTF8Bytes(of: path) { bytes in
      var result: [String] = []
      var start = 0
      for index in 0..<bytes.count where bytes[index] == slash {
        result.append(
          String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
        start = index + 1
      }
      result.append(
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self))
      return result
    }
  }

  /// The path of the nearest ancestor: the path without its last identifier and the index
  /// component before it.
  ///
  /// - Parameter path: The path.
  /// - Returns: The parent path, or nil for a path with a single identifier.
  public static func parent(of path: String) -> String? {
    withUTF8Bytes(of: path) { bytes in
      parentEnd(in: bytes).map {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[..<$0]), as: UTF8.self)
      }
    }
  }

  /// The length in bytes of the parent path's prefix of `bytes`, or nil for no parent.
  static func parentEnd(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let last = lastSlash(in: bytes, before: bytes.count) else { return nil }
    // The component before the last identifier, if it is an index component, goes too.
    let previous = lastSlash(in: bytes, before: last)
    let componentStart = previous.map { $0 + 1 } ?? 0
    guard isIndexComponent(bytes: bytes[componentStart..<last]) else { return last }
    return previous
  }

  private static func lastSlash(in bytes: UnsafeBufferPointer<UInt8>, before end: Int) -> Int? {
    var index = end - 1
    while index >= 0 {
      if bytes[index] == slash { return index }
      index -= 1
    }
    return nil
  }

  /// The number of identifier components in a path, index components not counted.
  ///
  /// - Parameter path: The path.
  /// - Returns: The depth; 1 for a root.
  public static func depth(of path: String) -> Int {
    withUTF8Bytes(
      of: path,
      { bytes in
        // Depth is the number of components less the index components. Slashes are found eight
        // bytes at a time, and only a component that starts with ":[" is checked in full: a byte
        // loop here was a fortieth of preserving an object.
        let count = bytes.count
        var indexComponents = 0
        func checkComponent(at start: Int) {
          guard start + 4 < count, bytes[start] == colon, bytes[start + 1] == openBracket else {
            return
          }
          var end = start + 2
          while end < count, bytes[end] != slash { end += 1 }
          if isIndexComponent(bytes: UnsafeBufferPointer(rebasing: bytes[start..<end])) {
            indexComponents += 1
          }
        }
        checkComponent(at: 0)
        var slashes = 0
        var index = 0
        let raw = UnsafeRawBufferPointer(bytes)
        while index + 8 <= count {
          // The high bit of each byte of `found` is set exactly where the byte is a slash.
          let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ slashes8
          var found = ~(((word & low7) &+ low7) | word | low7)
          while found != 0 {
            slashes += 1
            checkComponent(at: index + found.trailingZeroBitCount / 8 + 1)
            found &= found &- 1
          }
          index += 8
        }
        while index < count {
          if bytes[index] == slash {
            slashes += 1
            checkComponent(at: index + 1)
          }
          index += 1
        }
        return slashes + 1 - indexComponents
      })
  }

  fileprivate static let slash = UInt8(ascii: "/")
  /// A slash in every byte of a word, and the low seven bits of every byte.
  private static let slashes8: UInt64 = 0x2F2F_2F2F_2F2F_2F2F
  private static let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
  fileprivate static let colon = UInt8(ascii: ":")
  fileprivate static let openBracket = UInt8(ascii: "[")
  fileprivate static let closeBracket = UInt8(ascii: "]")
  fileprivate static let zero = UInt8(ascii: "0")
  private static let nine = UInt8(ascii: "9")
}

/// Computes identifier paths by climbing from an object to its root, as UIKit's
/// `_restorationIdentifierPathArrayForResponder` does.
///
/// Each object's contribution is memoized for the lifetime of the resolver, so computing the
/// paths of a whole tree is linear in its size. Objects restored from an archive are pinned to
/// their archived path, which wins over the tree (UIKit's pointer-to-path table).
struct IdentifierPathResolver {
  /// A memoized path, with its depth (``IdentifierPath/depth(of:)``); negative for a pinned
  /// or non-ASCII path, whose depth is counted when asked for.
  struct Prefix {
    /// The path's bytes in the resolver's ``PathStorage``, with their hash; empty for a pinned
    /// path until a path is built on it (see ``IdentifierPathResolver/withBytes(_:of:)``).
    var path: PathBytes
    /// Half a word, so that the prefix takes three words with the path and the pin.
    var depth: Int32
    /// The pinned path's index in ``IdentifierPathResolver/pinnedPaths``; -1 for a computed
    /// path.
    var pin: Int32 = -1

    /// - Parameters:
    ///   - path: The path.
    ///   - depth: Its depth, negative where unknown or pinned; one too large to keep is left
    ///     unknown (-1).
    init(path: PathBytes, depth: Int) {
      self.path = path
      self.depth = Int32(exactly: depth) ?? -1
    }

    /// Whether the path was pinned rather than computed.
    var isPinned: Bool { pin >= 0 }
  }

  /// The prefix each visited object contributes to the paths below it, and the paths of pinned
  /// objects.
  ///
  /// One map serves both: pins were a second map, and a restoration wrote each located object
  /// to both (and to a third of the pass's own) for the price of three inserts.
  private var prefixes = IdentityMap<Prefix>()
  /// The memoized objects without an identifier (gaps).
  ///
  /// A gap's prefix serves the objects below it, but it has no path. Gaps are few or none, so a
  /// memoized object is found to have an identifier without asking it again. A set apart,
  /// rather than a flag in ``Prefix``, whose two words copy as plain bits.
  private var gaps: Set<ObjectIdentifier> = []
  /// The depths of the identifiers met last (nil for one that is not all ASCII): objects of one
  /// kind share an identifier, whose components were counted again for every object.
  private var identifierDepths = RecentStrings<Int?>()
  /// Called with a description of each cycle found in a parent chain.
  var onCycle: ((String) -> Void)?
  /// Where the paths' bytes are: the paths this resolver returns are valid while it lives.
  let storage: PathStorage
  /// The pinned paths, as the archive gave them.
  ///
  /// Kept as strings, and copied to ``storage`` only when a path is built on one: a restoration
  /// pins every object it locates and builds on few of them, and copying every archived path
  /// there took more blocks of storage, whose allocations made the allocator sort every small
  /// block the app had freed.
  private var pinnedPaths: [String] = []

  init(storage: PathStorage = PathStorage(), onCycle: ((String) -> Void)? = nil) {
    self.storage = storage
    self.onCycle = onCycle
  }

  /// Makes room for `count` more objects, so that a pass of known size does not rehash its
  /// table as it grows.
  mutating func reserveCapacity(_ count: Int) {
    prefixes.reserveCapacity(count)
  }

  /// Fixes the path of an object; paths of objects below it start from this path.
  mutating func pin(_ object: any StateRestoring, to path: String) {
    // The depth is worked out only if a preservation asks for it: a restoration pins every
    // object it locates and never does.
    var prefix = Prefix(path: .empty, depth: -1)
    prefix.pin = Int32(truncatingIfNeeded: pinnedPaths.count)
    pinnedPaths.append(path)
    prefixes[ObjectIdentifier(object)] = prefix
  }

  /// A memoized prefix with its bytes, copied to ``storage`` first for a pinned path that has
  /// none yet.
  @inline(__always)
  private mutating func withBytes(_ prefix: Prefix, of id: ObjectIdentifier) -> Prefix {
    // Inlined, so that a computed path, every path of a preservation, costs one test here: a
    // call per path was a sixtieth of the walk.
    guard prefix.isPinned, prefix.path.count == 0 else { return prefix }
    return copyingPinnedBytes(prefix, of: id)
  }

  private mutating func copyingPinnedBytes(_ prefix: Prefix, of id: ObjectIdentifier) -> Prefix {
    let path = pinnedPaths[Int(prefix.pin)]
    guard !path.isEmpty else { return prefix }
    var copied = prefix
    copied.path = storage.append(path)
    prefixes[id] = copied
    return copied
  }

  /// Whether an object's path is pinned.
  func isPinned(_ object: any StateRestoring) -> Bool {
    prefixes[ObjectIdentifier(object)]?.isPinned ?? false
  }

  /// The pinned path of an object, if any.
  func pinnedPath(of object: any StateRestoring) -> String? {
    guard let known = prefixes[ObjectIdentifier(object)], known.isPinned else { return nil }
    return pinnedPaths[Int(known.pin)]
  }

  /// The identifier path of an object, or nil when its identifier is nil.
  mutating func path(of object: any StateRestoring) -> String? {
    guard let found = memoizedPath(of: object) else { return nil }
    return found.isPinned ? pinnedPaths[Int(found.pin)] : found.path.string
  }

  /// The identifier path of an object as bytes in ``storage``, or nil when its identifier is
  /// nil.
  mutating func pathBytes(of object: any StateRestoring) -> PathBytes? {
    memoizedPath(of: object).map { withBytes($0, of: ObjectIdentifier(object)).path }
  }

  /// The identifier path of an object with its depth, or nil when its identifier is nil.
  ///
  /// The depth comes from the parent's, extended by the object's own components: counting the
  /// components of each whole path again was a fiftieth of preserving an object.
  mutating func pathAndDepth(of object: any StateRestoring) -> Prefix? {
    guard let memoized = memoizedPath(of: object) else { return nil }
    let found = withBytes(memoized, of: ObjectIdentifier(object))
    guard found.depth < 0 else { return found }
    return Prefix(path: found.path, depth: IdentifierPath.depth(of: found.path.string))
  }

  /// The pinned or computed path of an object, its depth negative where not known yet.
  ///
  /// A pinned object has its path even without an identifier.
  private mutating func memoizedPath(of object: any StateRestoring) -> Prefix? {
    if let known = prefixes[ObjectIdentifier(object)] {
      return known.isPinned || gaps.isEmpty || !gaps.contains(ObjectIdentifier(object))
        ? known : nil
    }
    guard let identifier = object.restorationIdentifier else { return nil }
    return computedPrefix(of: object, identifier: identifier)
  }

  /// The link from an object to the one above it: the tree container for nodes, the
  /// `restorationParent` for other objects.
  static func parentLink(of object: any StateRestoring) -> RestorationParentLink? {
    // A switch borrows the lent node, where `if let` copied it.
    object.withRestorationNode { node in
      switch node {
      case .some(let node): node.restorationContainer
      case .none: object.restorationParent.map { RestorationParentLink(parent: $0, index: nil) }
      }
    }
  }

  /// The components an object without a memoized prefix contributes, its ancestors' included.
  ///
  /// A gap (an ancestor without
  /// identifier) contributes its index component but no identifier, and the climb goes on.
  private mutating func computedPrefix(of object: any StateRestoring, identifier: String) -> Prefix
  {
    // Walking a tree top-down, the parent's prefix is almost always known already.
    let link = Self.parentLink(of: object)
    let parentPrefix =
      link == nil ? Self.empty : prefixes[ObjectIdentifier(link.unsafelyUnwrapped.parent)]
    if let parentPrefix {
      let base =
        parentPrefix.isPinned
        ? withBytes(parentPrefix, of: ObjectIdentifier(link.unsafelyUnwrapped.parent))
        : parentPrefix
      let result = extend(base, index: link?.index, identifier: identifier)
      prefixes[ObjectIdentifier(object)] = result
      return result
    }

    // Climb until an object with a known prefix, a root, or a cycle; iterative so that a long
    // parent chain cannot overflow the stack.
    var chain: [(object: any StateRestoring, index: Int?)] = []
    var onChain: [ObjectIdentifier] = []
    var onLongChain: Set<ObjectIdentifier> = []
    var current: any StateRestoring = object
    var base = Self.empty
    while true {
      let id = ObjectIdentifier(current)
      if let known = prefixes[id] {
        base = withBytes(known, of: id)
        break
      }
      // Chains are usually short (a few levels above the first memoized prefix), where a linear
      // search is cheaper than hashing; a long chain switches to a set to stay linear.
      let seen = onChain.count < 16 ? onChain.contains(id) : !onLongChain.insert(id).inserted
      guard !seen else {
        // A cycle: the chain up to here is the partial path UIKit uses.
        onCycle?(
          "Cycle in the restoration parent chain of '\(object.restorationIdentifier ?? "?")'"
            + " at '\(current.restorationIdentifier ?? "?")'; using the partial path"
        )
        // The object that closed the cycle becomes the top of the partial path.
        chain[chain.count - 1].index = nil
        break
      }
      if onChain.count < 16 {
        onChain.append(id)
        if onChain.count == 16 { onLongChain = Set(onChain) }
      }
      let link = Self.parentLink(of: current)
      chain.append((current, link?.index))
      guard let link else { break }
      current = link.parent
    }

    // Walk back down, memoizing each object's prefix.
    var result = base
    for (position, (node, index)) in chain.enumerated().reversed() {
      // The object itself is first on the chain; its identifier was read already.
      let nodeIdentifier = position == 0 ? identifier : node.restorationIdentifier
      result = extend(result, index: index, identifier: nodeIdentifier)
      prefixes[ObjectIdentifier(node)] = result
      if nodeIdentifier == nil { gaps.insert(ObjectIdentifier(node)) }
    }
    return result
  }

  /// The prefix of a root's parent: no components.
  private static let empty = Prefix(path: .empty, depth: 0)

  /// A prefix followed by an index component and an identifier, each if present, with its
  /// depth when the prefix's is known.
  private mutating func extend(_ base: Prefix, index: Int?, identifier: String?) -> Prefix {
    // Hashed as the bytes are written, while they are in the cache: the pass, and the archive
    // writer on another thread, look the path up by this hash instead of hashing it again.
    let path = Self.extend(base.path, index: index, identifier: identifier, in: storage)
    // Every separator splits, so the result's components are the prefix's, the index
    // component (not counted) and the identifier's, and the depths add up.
    guard base.depth >= 0 else { return Prefix(path: path, depth: -1) }
    guard let identifier else { return Prefix(path: path, depth: Int(base.depth)) }
    guard let depth = identifierDepths.value(for: identifier, { IdentifierPath.depth(of: $0) })
    else {
      return Prefix(path: path, depth: -1)
    }
    return Prefix(path: path, depth: Int(base.depth) + depth)
  }

  /// A prefix followed by an index component and an identifier, each if present, appended to
  /// `storage`.
  static func extend(
    _ base: PathBytes, index: Int?, identifier: String?, in storage: PathStorage
  ) -> PathBytes {
    // The bytes are written once, through one moving pointer, into the storage's block: a
    // string per path was an allocation and a check of its UTF-8 for every object, and
    // appending the components one by one, and the index through string interpolation, cost
    // ten times more than the rest of the walk. Every piece is valid UTF-8 and separators are
    // ASCII, so the result is too.
    withIdentifierBytes(identifier) { identifier in
      let digitCount = index.map(decimalLength(of:)) ?? 0
      let indexLength = index == nil ? 0 : digitCount + 4
      let pieces = (base.count == 0 ? 0 : 1) + (index == nil ? 0 : 1) + (identifier == nil ? 0 : 1)
      let total = base.count + indexLength + (identifier?.count ?? 0) + max(0, pieces - 1)
      return storage.append(count: total) { start in
        var cursor = start
        if base.count > 0, let source = base.utf8.baseAddress {
          cursor.initialize(from: source, count: base.count)
          cursor += base.count
        }
        if let index {
          if cursor != start {
            cursor.initialize(to: IdentifierPath.slash)
            cursor += 1
          }
          cursor[0] = IdentifierPath.colon
          cursor[1] = IdentifierPath.openBracket
          cursor += 2
          // Decimal digits, written from the last one back.
          var value = index.magnitude
          var digit = cursor + digitCount
          repeat {
            digit -= 1
            digit.initialize(to: IdentifierPath.zero + UInt8(truncatingIfNeeded: value % 10))
            value /= 10
          } while value > 0
          if index < 0 { cursor.initialize(to: UInt8(ascii: "-")) }
          cursor += digitCount
          cursor[0] = IdentifierPath.closeBracket
          cursor[1] = IdentifierPath.colon
          cursor += 2
        }
        if let identifier {
          if cursor != start {
            cursor.initialize(to: IdentifierPath.slash)
            cursor += 1
          }
          if let source = identifier.baseAddress {
            cursor.initialize(from: source, count: identifier.count)
          }
        }
      }
    }
  }

  /// The number of characters of an integer in decimal, its minus sign included.
  private static func decimalLength(of value: Int) -> Int {
    var remaining = value.magnitude
    var length = value < 0 ? 2 : 1
    while remaining >= 10 {
      remaining /= 10
      length += 1
    }
    return length
  }

  /// Runs `body` over an optional identifier's UTF-8 bytes.
  private static func withIdentifierBytes<T>(
    _ identifier: String?,
    _ body: (UnsafeBufferPointer<UInt8>?) -> T
  ) -> T {
    switch identifier {
    case .some(let string): withUTF8Bytes(of: string) { body($0) }
    case .none: body(nil)
    }
  }
}

/// Whether every byte is ASCII, so that splitting at `/` byte by byte equals splitting by
/// characters.
///
/// Eight bytes at a time: a byte loop here was a third of splitting a path.
@inline(__always)
func isASCII(_ raw: UnsafeRawBufferPointer) -> Bool {
  var index = 0
  while index + 8 <= raw.count {
    if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
      return false
    }
    index += 8
  }
  while index < raw.count {
    if raw[index] >= 0x80 { return false }
    index += 1
  }
  return true
}
