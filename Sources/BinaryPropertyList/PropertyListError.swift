/// A binary property list that cannot be read: what is wrong, and where.
public struct PropertyListError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A stable classification of the problem.
  public enum Code: Sendable, Hashable {
    /// The bytes do not start with a `bplist00` header.
    case notPropertyList
    /// The file is shorter than its own structure says.
    case truncated
    /// The structure is wrong: a bad marker, offset or reference, or a wrong object type.
    case malformed
    /// The file exceeds one of the reader's ``PropertyListLimits``.
    case limitExceeded
  }

  /// The classification.
  public var code: Code
  /// What is wrong, in words.
  public var message: String
  /// The byte offset where it was found, if any.
  public var offset: Int?

  /// Creates an error.
  public init(_ code: Code, _ message: String, offset: Int? = nil) {
    self.code = code
    self.message = message
    self.offset = offset
  }

  /// The message, with the offset when there is one.
  public var description: String { offset.map { "\(message) (at byte \($0))" } ?? message }
}

/// Bounds on what a reader accepts, so that a hostile file cannot exhaust memory or time.
public struct PropertyListLimits: Sendable, Hashable {
  /// The largest file, in bytes.
  public var maxFileSize: Int
  /// The most objects the offset table may declare.
  public var maxObjectCount: Int
  /// The longest string, in bytes (ASCII) or UTF-16 code units.
  public var maxStringLength: Int
  /// The longest data object, in bytes.
  public var maxDataLength: Int
  /// The most elements in one array or dictionary.
  public var maxCollectionCount: Int

  /// Creates limits.
  public init(
    maxFileSize: Int = 256 << 20,
    maxObjectCount: Int = 16 << 20,
    maxStringLength: Int = 16 << 20,
    maxDataLength: Int = 64 << 20,
    maxCollectionCount: Int = 8 << 20
  ) {
    self.maxFileSize = maxFileSize
    self.maxObjectCount = maxObjectCount
    self.maxStringLength = maxStringLength
    self.maxDataLength = maxDataLength
    self.maxCollectionCount = maxCollectionCount
  }
}
