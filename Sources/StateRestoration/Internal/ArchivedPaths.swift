package import BinaryPropertyList

/// What a restore knows of an archive's identifier paths before it locates any object: the
/// first record of each path, and each record's nearest archived ancestor.
///
/// Made from the paths alone, in archive order, as locating the objects would find them: a
/// record's ancestor is the closest ancestor path (as ``IdentifierPath/parent(of:)`` climbs)
/// among the records before it, and a path's first record is the first record with that path.
///
/// The paths come from a file: each path is hashed once, prefix by prefix, so the work is
/// linear in the paths' length however long one path is, and the hashes are the standard
/// library's seeded ones, so a file cannot choose paths that collide.
package struct ArchivedPaths {
  /// The first record of each path.
  private var firstRecords: [PrefixKey: Int] = [:]
  /// The first record with each record's path, by record.
  package private(set) var firstRecordOfPath: [Int] = []
  /// Each record's nearest archived ancestor, or -1.
  private var ancestors: [Int] = []

  /// Analyses the paths of an archive's records, in archive order.
  package init(_ paths: [String]) {
    firstRecords.reserveCapacity(paths.count)
    firstRecordOfPath.reserveCapacity(paths.count)
    ancestors.reserveCapacity(paths.count)
    var prefixes = PathPrefixes()
    for (index, path) in paths.enumerated() {
      prefixes.analyse(path)
      var ancestor = -1
      var component = prefixes.count - 1
      // Climb as `IdentifierPath.parent(of:)` does: drop the last identifier and the index
      // component before it.
      while component > 0 {
        component -= 1
        if prefixes.isIndexComponent(component) { component -= 1 }
        guard component >= 0 else { break }
        if let record = firstRecords[prefixes.key(component, of: path)] {
          ancestor = record
          break
        }
      }
      let whole = prefixes.key(prefixes.count - 1, of: path)
      if let first = firstRecords[whole] {
        firstRecordOfPath.append(first)
      } else {
        firstRecords[whole] = index
        firstRecordOfPath.append(index)
      }
      ancestors.append(ancestor)
    }
  }

  /// The first record with a path, among the first `count` records.
  package func firstRecord(of path: String, among count: Int) -> Int? {
    guard let record = firstRecords[PathPrefixes.key(of: path)], record < count
    else { return nil }
    return record
  }

  /// The nearest archived ancestor of a record, if it has one.
  package func ancestor(ofRecord record: Int) -> Int? {
    let ancestor = ancestors[record]
    return ancestor < 0 ? nil : ancestor
  }
}

/// The prefixes of one path that end at a component: where each ends and its hash, computed in
/// one pass over the path's bytes.
private struct PathPrefixes {
  /// The end of each component, in UTF-8 bytes.
  private var ends: [Int] = []
  /// The hash of the path up to each component's end.
  private var hashes: [Int] = []
  /// Whether each component is an index component such as `:[1]:`.
  private var isIndex: [Bool] = []

  var count: Int { ends.count }

  mutating func analyse(_ path: String) {
    ends.removeAll(keepingCapacity: true)
    hashes.removeAll(keepingCapacity: true)
    isIndex.removeAll(keepingCapacity: true)
    Self.forEachPrefix(of: path) { end, hasher, component in
      ends.append(end)
      hashes.append(hasher.finalize())
      isIndex.append(IdentifierPath.isIndexComponent(utf8: component))
    }
  }

  /// The key of a whole path, hashed as its prefixes are but finished only once.
  static func key(of path: String) -> PrefixKey {
    var whole = Hasher()
    forEachPrefix(of: path) { _, hasher, _ in whole = hasher }
    return PrefixKey(hash: whole.finalize(), path: path, length: path.utf8.count)
  }

  /// Calls `body` with each prefix that ends at a component: its end, a hasher holding it, to
  /// finish where its hash is needed, and its last component.
  private static func forEachPrefix(
    of path: String,
    _ body: (_ end: Int, _ hasher: Hasher, _ component: UnsafeBufferPointer<UInt8>) -> Void
  ) {
    var hasher = Hasher()
    var end = -1
    IdentifierPath.forEachComponent(of: path) { component in
      if end >= 0 { hasher.combine(UInt8(0x2F)) }
      hasher.combine(bytes: UnsafeRawBufferPointer(component))
      end += 1 + component.count
      body(end, hasher, component)
    }
  }

  /// The key of the path up to the end of `component`.
  func key(_ component: Int, of path: String) -> PrefixKey {
    PrefixKey(hash: hashes[component], path: path, length: ends[component])
  }

  /// Whether a component is an index component such as `:[1]:`.
  func isIndexComponent(_ component: Int) -> Bool { isIndex[component] }
}

/// The first `length` bytes of a path, with their hash computed beforehand.
private struct PrefixKey: Hashable {
  let hash: Int
  let path: String
  let length: Int

  static func == (lhs: PrefixKey, rhs: PrefixKey) -> Bool {
    lhs.hash == rhs.hash && lhs.length == rhs.length
      && ExactString.bytesEqual(lhs.path, rhs.path, count: lhs.length)
  }

  func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

/// An identifier path as a dictionary key: compared by its UTF-8 bytes, as UIKit compares
/// paths (`é` and `e` with a combining accent are different paths).
package typealias PathKey = ExactString
