internal import BinaryPropertyList

/// Limits the archive reader enforces on untrusted input.
public struct ArchiveLimits: Sendable, Hashable {
  /// The largest file accepted, in bytes.
  public var maxFileSize: Int
  /// The largest number of objects in the property list's object table.
  public var maxObjectCount: Int
  /// The deepest nesting of arrays and dictionaries.
  public var maxDepth: Int
  /// The longest string, in bytes (ASCII) or UTF-16 code units.
  public var maxStringLength: Int
  /// The longest data value, in bytes.
  public var maxDataLength: Int
  /// The most elements in one array or dictionary.
  public var maxCollectionCount: Int
  /// The longest identifier path of one record, in UTF-8 bytes.
  public var maxIdentifierPathLength: Int
  /// The most components (identifiers and index components) in one identifier path.
  public var maxIdentifierPathComponents: Int
  /// The most UTF-8 bytes in all the records' identifier paths together: records may share one
  /// path object or parent in the file, and each path is still analysed whole.
  ///
  /// A file read is held to at most 64 times its own size (and at least 1 MiB) below this, so
  /// that the work a small file can cause stays in proportion to it.
  public var maxTotalIdentifierPathLength: Int

  /// Creates limits; each defaults to its value in ``default``.
  public init(
    maxFileSize: Int = 256 << 20,
    maxObjectCount: Int = 16 << 20,
    maxDepth: Int = 128,
    maxStringLength: Int = 16 << 20,
    maxDataLength: Int = 64 << 20,
    maxCollectionCount: Int = 8 << 20,
    maxIdentifierPathLength: Int = 8 << 10,
    maxIdentifierPathComponents: Int = 512,
    maxTotalIdentifierPathLength: Int = 32 << 20
  ) {
    self.maxFileSize = maxFileSize
    self.maxObjectCount = maxObjectCount
    self.maxDepth = maxDepth
    self.maxStringLength = maxStringLength
    self.maxDataLength = maxDataLength
    self.maxCollectionCount = maxCollectionCount
    self.maxIdentifierPathLength = maxIdentifierPathLength
    self.maxIdentifierPathComponents = maxIdentifierPathComponents
    self.maxTotalIdentifierPathLength = maxTotalIdentifierPathLength
  }

  /// The defaults: generous for any real UI state, small enough that a hostile file cannot
  /// exhaust memory.
  public static let `default` = ArchiveLimits()

  /// No limit on paths, for tests that write archives beyond the defaults.
  package static let unbounded = ArchiveLimits(
    maxIdentifierPathLength: .max, maxIdentifierPathComponents: .max,
    maxTotalIdentifierPathLength: .max)

  /// What in a path exceeds the limits, in words, or nil; adds its length to `total`, which a
  /// file of `fileSize` bytes holds to its share.
  package func identifierPathProblem(_ path: String, total: inout Int, fileSize: Int? = nil)
    -> String?
  {
    let length = path.utf8.count
    total += length
    if length > maxIdentifierPathLength {
      return "an identifier path of \(length) bytes, above the limit of \(maxIdentifierPathLength)"
    }
    var limit = maxTotalIdentifierPathLength
    if let fileSize, fileSize < limit / 64 { limit = min(limit, max(1 << 20, fileSize * 64)) }
    if total > limit {
      let file = limit < maxTotalIdentifierPathLength ? " for a file of \(fileSize ?? 0) bytes" : ""
      return "identifier paths of \(total) bytes in all, above the limit of \(limit)\(file)"
    }
    // A path has at most one component more than it has bytes: most need no counting.
    guard length >= maxIdentifierPathComponents else { return nil }
    // Scanned as a buffer: a hostile file may hold megabytes of paths.
    var path = path
    let components = path.withUTF8 { buffer in
      var count = 1
      for byte in buffer where byte == UInt8(ascii: "/") { count += 1 }
      return count
    }
    if components > maxIdentifierPathComponents {
      return
        "an identifier path of \(components) components, above the limit of \(maxIdentifierPathComponents)"
    }
    return nil
  }

  /// The limits of the property list reader underneath.
  var propertyList: PropertyListLimits {
    PropertyListLimits(
      maxFileSize: maxFileSize, maxObjectCount: maxObjectCount, maxStringLength: maxStringLength,
      maxDataLength: maxDataLength, maxCollectionCount: maxCollectionCount)
  }
}
