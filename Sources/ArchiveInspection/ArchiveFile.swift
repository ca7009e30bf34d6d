public import StateRestoration
internal import StateRestorationStorage

/// An archive file as the tool reads it: its path and its bytes.
public struct ArchiveFile: Sendable, Hashable {
  /// The path the file was read from, as given.
  public var path: String
  /// The file's contents.
  public var bytes: [UInt8]

  /// Creates a file from bytes already read.
  ///
  /// - Parameters:
  ///   - path: The path to name the file by in messages.
  ///   - bytes: The contents.
  public init(path: String, bytes: [UInt8]) {
    self.path = path
    self.bytes = bytes
  }

  /// Reads a file.
  ///
  /// - Parameters:
  ///   - path: The file's path.
  ///   - limits: The reader's limits; a file above ``ArchiveLimits/maxFileSize`` is refused
  ///     before it is read.
  /// - Throws: ``RestorationError`` naming the file: ``RestorationError/Code/storageFailed``
  ///   when it cannot be read, ``RestorationError/Code/limitExceeded`` when it is too large.
  public init(readingFrom path: String, limits: ArchiveLimits = .default) throws(RestorationError) {
    self.path = path
    guard let contents = try readFileContents(at: path, maxSize: limits.maxFileSize) else {
      throw RestorationError(.storageFailed, "No such file or directory", file: path)
    }
    bytes = contents
  }

  /// Decodes the archive, checking the file whole (see ``RestorationArchive/init(decoding:limits:)``).
  ///
  /// - Parameter limits: The reader's limits.
  /// - Returns: The archive.
  /// - Throws: ``RestorationError`` with ``RestorationError/file`` set to this file's path.
  public func decoded(limits: ArchiveLimits = .default) throws(RestorationError)
    -> RestorationArchive
  {
    do {
      return try RestorationArchive(decoding: bytes, limits: limits)
    } catch {
      throw Self.diagnose(error, bytes: bytes).inFile(path)
    }
  }

  /// Restates a reader's error about an empty file or a file cut short in those words.
  ///
  /// An empty file has no header at all; "no bplist header" would send the reader looking for
  /// the wrong kind of file, when the usual cause is a copy or a write that never happened.
  ///
  /// The reader starts from the trailer, the last 32 bytes of a binary property list; when a
  /// file is cut short those bytes are whatever came before the cut, and the reader can only
  /// say that the trailer makes no sense. A trailer whose reserved bytes are not zero or whose
  /// widths are impossible means the real one is missing.
  static func diagnose(_ error: RestorationError, bytes: [UInt8]) -> RestorationError {
    if bytes.isEmpty, error.code == .notPropertyList {
      return RestorationError(.notPropertyList, "the file is empty (0 bytes)", file: error.file)
    }
    guard error.code == .malformed || error.code == .truncated,
      bytes.starts(with: Array("bplist00".utf8))
    else { return error }
    let trailer = bytes.suffix(32)
    let widths: Set<UInt8> = [1, 2, 4, 8]
    let plausible =
      trailer.count == 32
      && trailer.prefix(6).allSatisfy { $0 == 0 }
      && widths.contains(trailer[trailer.startIndex + 6])
      && widths.contains(trailer[trailer.startIndex + 7])
    guard !plausible else { return error }
    return RestorationError(
      .truncated,
      "the file was cut short after \(bytes.count) bytes",
      file: error.file
    )
  }

  /// Reads and decodes an archive file.
  ///
  /// - Parameters:
  ///   - path: The file's path.
  ///   - limits: The reader's limits.
  /// - Returns: The archive.
  /// - Throws: ``RestorationError`` naming the file.
  public static func archive(
    at path: String,
    limits: ArchiveLimits = .default
  ) throws(RestorationError) -> RestorationArchive {
    try ArchiveFile(readingFrom: path, limits: limits).decoded(limits: limits)
  }
}
