/// An error from the restoration engine: what failed, where, and why.
///
/// Errors carry a stable ``Code`` that programs can switch over, a human-readable message, and
/// the place the error refers to: a file, an identifier path, a coder key, or a byte offset in an
/// archive. `description` puts them together in one line, suitable for a log or a terminal.
public struct RestorationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A stable classification of the failure.
  public enum Code: String, Sendable, Hashable, CaseIterable {
    /// The archive file is shorter than its own structure says it is.
    case truncated
    /// The bytes are not a binary property list (wrong magic number).
    case notPropertyList
    /// The binary property list is malformed: bad offsets, bad markers, cycles.
    case malformed
    /// The file is a property list but not a restoration archive.
    case notArchive
    /// The archive's checksum does not match its contents (torn write or flipped bits).
    case checksumMismatch
    /// The archive was written by a newer, incompatible major version of the format.
    case unsupportedVersion
    /// The input exceeds a configured limit (size, depth, count, length).
    case limitExceeded
    /// A value in a coder has a different type than the one requested.
    case typeMismatch
    /// A required coder key is absent.
    case keyNotFound
    /// A value could not be converted into its archived form.
    case encodingFailed
    /// Reading or writing the archive store failed.
    case storageFailed
    /// The state folder or a file in it cannot be used safely: a symbolic link, another user's,
    /// or open to other users and impossible to make private.
    case unsafeStorage
    /// An identifier (bundle, scene) cannot be used to name files.
    case invalidIdentifier
    /// An object's state could not be decoded.
    case decodingFailed
  }

  /// The classification of the failure.
  public var code: Code
  /// What went wrong, in words.
  public var message: String
  /// The file the error refers to, if any.
  public var file: String?
  /// The restoration identifier path of the object involved, if any.
  public var identifierPath: String?
  /// The coder key involved, if any.
  public var key: String?
  /// The byte offset in the archive where the problem was found, if any.
  public var offset: Int?

  /// Creates an error.
  public init(
    _ code: Code,
    _ message: String,
    file: String? = nil,
    identifierPath: String? = nil,
    key: String? = nil,
    offset: Int? = nil
  ) {
    self.code = code
    self.message = message
    self.file = file
    self.identifierPath = identifierPath
    self.key = key
    self.offset = offset
  }

  /// One line: where, then what.
  public var description: String {
    var place: [String] = []
    if let file { place.append(file) }
    if let identifierPath { place.append("object '\(identifierPath)'") }
    if let key { place.append("key '\(key)'") }
    if let offset { place.append("byte \(offset)") }
    return place.isEmpty ? message : "\(place.joined(separator: ", ")): \(message)"
  }

  /// Returns a copy with ``file`` set.
  public func inFile(_ file: String) -> RestorationError {
    var copy = self
    copy.file = file
    return copy
  }
}
