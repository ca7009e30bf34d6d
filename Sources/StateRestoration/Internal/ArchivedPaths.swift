/// What a restore knows of an archive's identifier paths before it locates any object: the
/// first record of each path, each record's nearest archived ancestor, and the components of
/// each path.
///
/// Made from the paths alone, in archive order, as locating the objects would find them: a
/// record's ancestor is the closest ancestor path (as ``IdentifierPath/parent(of:)`` climbs)
/// among the records before it, and a path's first record is the first record with that path.
///
/// The paths come from a file: every step is linear in their total length, however long one
/// path is, and every table hashes with the standard library's seeded hasher, so a file cannot
/// choose paths that collide.
package struct ArchivedPaths {
  /// The first record of each path.
  private var firstRecords: [PathKey: Int] = [:]
  /// The first record with each record's path, by record.
  package private(set) var firstRecordOfPath: [Int] = []
  /// Each record's nearest archived ancestor, or -1.
  private var ancestors: [Int] = []
  /// The components of each record's path, as ``IdentifierPath/components(of:)`` splits them.
  package private(set) var components: [[String]] = []

  /// Analyses the paths of an archive's records, in archive order.
  package init(_ paths: [String]) {
    firstRecords.reserveCapacity(paths.count)
    firstRecordOfPath.reserveCapacity(paths.count)
    ancestors.reserveCapacity(paths.count)
    components.reserveCapacity(paths.count)
    // Every prefix of every path is a node of a tree, found from its parent node and its last
    // component: walking a path down the tree costs its length, where looking each prefix up
    // whole cost its length times its depth.
    var nodes: [NodeKey: Int32] = [:]
    // The first record whose path is each node, or -1.
    var nodeRecords: [Int] = [-1]
    for (index, path) in paths.enumerated() {
      let parts = IdentifierPath.components(of: path)
      let ancestorEnds = Self.ancestorEnds(of: parts)
      var node: Int32 = 0
      var ancestor = -1
      for (position, part) in parts.enumerated() {
        let key = NodeKey(parent: node, name: PathKey(part))
        if let known = nodes[key] {
          node = known
        } else {
          node = Int32(truncatingIfNeeded: nodeRecords.count)
          nodes[key] = node
          nodeRecords.append(-1)
        }
        if ancestorEnds[position], nodeRecords[Int(node)] >= 0 {
          ancestor = nodeRecords[Int(node)]
        }
      }
      if nodeRecords[Int(node)] < 0 {
        nodeRecords[Int(node)] = index
        firstRecords[PathKey(path)] = index
      }
      firstRecordOfPath.append(nodeRecords[Int(node)])
      ancestors.append(ancestor)
      components.append(parts)
    }
  }

  /// Which prefixes of a path are its ancestors: `result[i]` is true when the path's first
  /// `i + 1` components are one, as ``IdentifierPath/parent(of:)`` climbs from the path.
  private static func ancestorEnds(of parts: [String]) -> [Bool] {
    var ends = [Bool](repeating: false, count: parts.count)
    var last = parts.count - 1
    while last > 0 {
      // The parent drops the last identifier, and the index component before it.
      var end = last - 1
      if IdentifierPath.isIndexComponent(parts[end]) { end -= 1 }
      guard end >= 0 else { break }
      ends[end] = true
      last = end
    }
    return ends
  }

  /// The first record with a path, among the first `count` records.
  package func firstRecord(of path: String, among count: Int) -> Int? {
    guard let record = firstRecords[PathKey(path)], record < count else { return nil }
    return record
  }

  /// The number of records analysed.
  package var recordCount: Int { ancestors.count }

  /// The nearest archived ancestor of a record, if it has one.
  package func ancestor(ofRecord record: Int) -> Int? {
    let ancestor = ancestors[record]
    return ancestor < 0 ? nil : ancestor
  }

  /// A node of the tree of prefixes: its parent node and its last component.
  private struct NodeKey: Hashable {
    var parent: Int32
    var name: PathKey
  }
}

/// An identifier path, or one of its components, as a dictionary key.
///
/// Compared and hashed by its UTF-8 bytes, as UIKit compares paths (`é` and `e` with a
/// combining accent are different paths), with the standard library's seeded `Hasher`.
package struct PathKey: Hashable {
  /// The path.
  package let string: String

  /// Makes a key of a path.
  package init(_ string: String) { self.string = string }

  package static func == (lhs: PathKey, rhs: PathKey) -> Bool {
    var left = lhs.string
    var right = rhs.string
    return left.withUTF8 { left in right.withUTF8 { left.elementsEqual($0) } }
  }

  package func hash(into hasher: inout Hasher) {
    var string = string
    string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}
