/// What a restore knows of an archive's identifier paths before it locates any object: the
/// first record of each path, each record's nearest archived ancestor, and the components of
/// each path.
///
/// Made from the paths alone, in archive order, as locating the objects would find them: a
/// record's ancestor is the closest proper ancestor path among the records before it, and a
/// path's first record is the first record with that path. Nothing here depends on the app's
/// objects, so a restore makes it on a background queue while the rest of the archive is
/// checked, and the pass reads it as it locates objects.
package struct ArchivedPaths: InPlaceAccess {
  /// Each record's path.
  private let paths: [String]
  /// The first record of each path, by path.
  private var firstRecords: StringTable
  /// The first record with each record's path, by record.
  package private(set) var firstRecordOfPath: [Int] = []
  /// Each record's nearest archived ancestor: the first record of its closest proper ancestor
  /// path that has a record before it, or -1.
  private var ancestors: [Int] = []
  /// The components of each record's path, as ``IdentifierPath/components(of:)`` splits them.
  package private(set) var components: [[String]] = []

  /// The last record whose path ``nearestArchivedAncestor(of:record:)`` looked up the table for,
  /// with the length of its parent path and the answer.
  ///
  /// The record rather than its path: copying the path in and out of this tuple for every
  /// record cost a sixth of the analysis.
  private var lastAncestor: (record: Int, parentLength: Int, ancestor: Int?)?
  /// Distinct components too long to fit in a `String` value, made once each.
  private var componentNames = StringTable()

  /// The longest component, in UTF-8 bytes, that a `String` holds without storage of its own.
  private static let smallStringLimit = MemoryLayout<String>.size == 16 ? 15 : 10
  /// The most distinct components kept by ``components(of:ancestor:)``.
  private static let maxComponentNames = 4096

  /// Analyses the paths of an archive's records, in archive order.
  package init(_ paths: [String]) {
    self.paths = paths
    firstRecords = StringTable(capacity: paths.count)
    firstRecordOfPath.reserveCapacity(paths.count)
    ancestors.reserveCapacity(paths.count)
    components.reserveCapacity(paths.count)
    for (index, path) in paths.enumerated() {
      let ancestor = nearestArchivedAncestor(of: path, record: index)
      ancestors.append(ancestor ?? -1)
      components.append(components(of: path, ancestor: ancestor))
      // Added after the lookups: a record's ancestors are the records before it. The path
      // added is a sibling of the next record's, or a duplicate, never the next record's
      // proper ancestor through `lastAncestor`, whose answer therefore holds.
      firstRecordOfPath.append(firstRecords.insert(path, index).value)
    }
  }

  /// The first record with a path, among the first `count` records.
  @inline(__always)
  package func firstRecord(of path: String, among count: Int) -> Int? {
    guard let record = firstRecords.value(for: path), record < count else { return nil }
    return record
  }

  /// The nearest archived ancestor of a record, if it has one.
  @inline(__always)
  package func ancestor(ofRecord record: Int) -> Int? {
    let ancestor = ancestors[record]
    return ancestor < 0 ? nil : ancestor
  }

  /// The closest proper ancestor path that has a record among those added so far.
  ///
  /// - Parameters:
  ///   - path: The path of `record`.
  ///   - record: The record.
  /// - Returns: The first record of that ancestor path, or nil when none has a record yet.
  private mutating func nearestArchivedAncestor(of path: String, record: Int) -> Int? {
    // Parent paths are prefixes of the path: look them up in the path's own bytes rather than
    // making a string per level.
    let last = lastAncestor
    let found: (answer: Int??, last: (record: Int, parentLength: Int, ancestor: Int?)?) =
      firstRecords.withUTF8(of: path) { bytes, table in
        guard isASCII(UnsafeRawBufferPointer(bytes)) else { return (.none, nil) }
        var end = IdentifierPath.parentEnd(in: bytes)
        // Siblings follow each other in the archive: a record whose parent path is the last
        // record's has the same answer, found by comparing bytes instead of hashing them.
        if let length = end, let known = last, known.parentLength == length {
          let same = withUTF8Bytes(of: paths[known.record]) { knownBytes in
            length <= knownBytes.count
              && bytesEqual(
                UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: knownBytes[..<length])),
                UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[..<length])))
          }
          if same { return (.some(known.ancestor), known) }
        }
        let parentLength = end
        var result: Int?
        while let length = end {
          let prefix = UnsafeBufferPointer(rebasing: bytes[..<length])
          if let index = table.value(forBytes: UnsafeRawBufferPointer(prefix)) {
            result = index
            break
          }
          end = IdentifierPath.parentEnd(in: prefix)
        }
        return (.some(result), parentLength.map { (record, $0, result) })
      }
    lastAncestor = found.last
    if case .some(let index) = found.answer { return index }
    var current = IdentifierPath.parent(of: path)
    while let candidate = current {
      if let index = firstRecords.value(for: candidate) { return index }
      current = IdentifierPath.parent(of: candidate)
    }
    return nil
  }

  /// The components of a path, as ``IdentifierPath/components(of:)`` splits them.
  ///
  /// A record's path extends its nearest archived ancestor's, whose components are already
  /// made: only the rest is split. Paths of one archive also repeat the same few components
  /// (controller identifiers, index components): each distinct component too long to fit in a
  /// `String` value (over 15 bytes) becomes a `String` once, where making one per component of
  /// every record cost a tenth of a restore; shorter ones are made each time, which costs less
  /// than a lookup. The table is capped, so an archive of all-distinct components costs one
  /// lookup more per component and no more memory.
  private mutating func components(of path: String, ancestor: Int?) -> [String] {
    var base: [String] = []
    var start = 0
    if let ancestor {
      // The ancestor's path is a prefix of this one, up to a separator (how it was found), and
      // an earlier record: its components are made.
      let prefix = paths[ancestor].utf8.count
      if prefix < path.utf8.count {
        base = components[ancestor]
        start = prefix + 1
      }
    }
    var added: [String] = []
    let split: [String]? = componentNames.withUTF8(of: path) { bytes, table -> [String]? in
      guard isASCII(UnsafeRawBufferPointer(bytes)) else { return nil }
      var result = base
      result.reserveCapacity(base.count + 4)
      var pieceStart = start
      let count = bytes.count
      // A while loop: iterating a closed range here went through unspecialized generic code.
      var index = start
      while index <= count {
        defer { index += 1 }
        guard index == count || bytes[index] == UInt8(ascii: "/") else { continue }
        let piece = UnsafeBufferPointer(rebasing: bytes[pieceStart..<index])
        if piece.count <= Self.smallStringLimit {
          // Held inside the `String` value itself, with no storage to share: making it costs
          // less than looking it up.
          result.append(String(decoding: piece, as: UTF8.self))
        } else if let known = table.value(forBytes: UnsafeRawBufferPointer(piece)) {
          result.append(table.key(at: known))
        } else {
          let name = String(decoding: piece, as: UTF8.self)
          added.append(name)
          result.append(name)
        }
        pieceStart = index + 1
      }
      return result
    }
    for name in added where componentNames.count < Self.maxComponentNames {
      componentNames.insert(name, componentNames.count)
    }
    return split ?? IdentifierPath.components(of: path)
  }
}
