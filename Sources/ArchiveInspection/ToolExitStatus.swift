public import StateRestoration

/// The archive tool's exit statuses, and the one place where errors are mapped to them.
///
/// Statuses 0 and 1 are answers (equal or different, valid or not); 2 and above are failures to
/// answer. Scripts can rely on these numbers; they are listed in the tool's `--help`.
public struct ToolExitStatus: Sendable, Hashable, CustomStringConvertible {
  /// The process exit status.
  public var rawValue: Int32
  /// What the status means, for the help text.
  public var meaning: String

  private init(_ rawValue: Int32, _ meaning: String) {
    self.rawValue = rawValue
    self.meaning = meaning
  }

  /// Success: the command did what was asked; `diff` found no differences, `validate` no
  /// errors.
  public static let success = ToolExitStatus(
    0, "success; `diff`: no differences; `validate`: no errors (warnings allowed)")
  /// `diff` found differences, or `validate` found errors in an archive it could read.
  public static let differencesFound = ToolExitStatus(
    1, "`diff`: the archives differ; `validate`: the archive has errors")
  /// The file could not be read: it does not exist, is a folder, or permission was denied.
  public static let unreadable = ToolExitStatus(
    2, "a file cannot be read (no such file, a folder, permission denied)")
  /// The file is not a restoration archive.
  public static let notArchive = ToolExitStatus(
    3, "a file is not a restoration archive (not a binary plist, another layout)")
  /// The archive is damaged: truncated, malformed or failing its checksum.
  public static let damaged = ToolExitStatus(
    4, "an archive is damaged (truncated, malformed, checksum mismatch)")
  /// The archive's format version is not one this tool knows: a newer major version, or a
  /// major version below 1, which was never written.
  public static let unsupportedVersion = ToolExitStatus(
    5, "an archive has an unknown format version (a newer major, or below 2.0)")
  /// The file is above the reader's limits.
  public static let limitExceeded = ToolExitStatus(
    6, "a file exceeds the reader's limits (size, depth, counts)")
  /// Bad arguments; the status ArgumentParser uses (`EX_USAGE`).
  public static let usage = ToolExitStatus(64, "bad arguments")
  /// A failure of the tool itself (`EX_SOFTWARE`).
  public static let internalError = ToolExitStatus(70, "an internal error")

  /// Every status, in order, for the help text.
  public static let all: [ToolExitStatus] = [
    .success, .differencesFound, .unreadable, .notArchive, .damaged, .unsupportedVersion,
    .limitExceeded, .usage, .internalError,
  ]

  /// The status for an error code.
  ///
  /// - Parameter code: The error's code.
  public init(for code: RestorationError.Code) {
    switch code {
    case .storageFailed, .unsafeStorage: self = .unreadable
    case .notPropertyList, .notArchive: self = .notArchive
    case .truncated, .malformed, .checksumMismatch: self = .damaged
    case .unsupportedVersion: self = .unsupportedVersion
    case .limitExceeded: self = .limitExceeded
    // Reading never raises these; they would mean a bug in the tool.
    case .typeMismatch, .keyNotFound, .encodingFailed, .invalidIdentifier, .decodingFailed:
      self = .internalError
    }
  }

  /// The words put before an error's own message, saying what kind of failure it is.
  ///
  /// - Parameter code: The error's code.
  /// - Returns: A short phrase, or nil when the message says it all.
  public static func summary(for code: RestorationError.Code) -> String? {
    switch code {
    case .storageFailed, .unsafeStorage: nil
    case .notPropertyList, .notArchive: "not a restoration archive"
    // The message says how it is damaged; "truncated" here would say it twice.
    case .truncated, .malformed, .checksumMismatch: "damaged archive"
    case .unsupportedVersion: "unsupported archive"
    case .limitExceeded: "too large to read"
    case .typeMismatch, .keyNotFound, .encodingFailed, .invalidIdentifier, .decodingFailed:
      "internal error"
    }
  }

  /// The one line the tool prints for an error: `FILE: KIND: MESSAGE (WHERE)`.
  ///
  /// `WHERE` lists the object, key and byte the error carries, leaving out what the message
  /// already says (`the offset table at byte 8 is empty`, never followed by `(byte 8)`).
  ///
  /// - Parameters:
  ///   - error: The error.
  ///   - file: The file it concerns, when the error does not name one.
  /// - Returns: The line, without the tool's name or a newline.
  public static func message(for error: RestorationError, file: String? = nil) -> String {
    var line = ""
    if let file = error.file ?? file { line += "\(file): " }
    if let summary = summary(for: error.code) { line += "\(summary): " }
    line += error.message
    let message = error.message
    var place: [String] = []
    if let path = error.identifierPath, !message.contains("'\(path)'") {
      place.append("object '\(path)'")
    }
    if let key = error.key, !message.contains("'\(key)'") { place.append("key '\(key)'") }
    if let offset = error.offset, !mentions(byte: offset, in: message) {
      place.append("byte \(offset)")
    }
    if !place.isEmpty { line += " (\(place.joined(separator: ", ")))" }
    // One line, whatever the message holds.
    return line.split(whereSeparator: \.isNewline).joined(separator: " ")
  }

  /// Whether `text` names a byte offset, as `byte 8` (and not `byte 80`).
  private static func mentions(byte offset: Int, in text: String) -> Bool {
    let words = text.split { !$0.isLetter && !$0.isNumber }
    return zip(words, words.dropFirst()).contains { $0 == "byte" && $1 == "\(offset)" }
  }

  /// Every status that means the command could not do what was asked (2 and above), in order.
  public static var failures: [ToolExitStatus] { all.filter { $0.rawValue >= 2 } }

  /// `STATUS  MEANING` lines for every status, for `--help`.
  public static var helpText: String { helpText(for: all) }

  /// `STATUS  MEANING` lines for a subcommand that only prints (`dump`, `paths`, `sizes`): 0
  /// described by `success`, then every failure.
  ///
  /// - Parameter success: What status 0 means for the subcommand.
  /// - Returns: The lines, without a final newline.
  public static func helpText(success: String) -> String {
    helpText(for: [ToolExitStatus(0, success)] + failures)
  }

  /// `STATUS  MEANING` lines, one per status, the numbers right-aligned.
  ///
  /// Each line is shorter than 80 columns (ArgumentParser wraps help at one column less than
  /// the terminal's width), so that the table does not wrap on an 80-column terminal.
  ///
  /// - Parameter statuses: The statuses, in the order to list them.
  /// - Returns: The lines, without a final newline.
  public static func helpText(for statuses: [ToolExitStatus]) -> String {
    statuses.map { status in
      let number = String(status.rawValue)
      return String(repeating: " ", count: 3 - number.count) + number + "  " + status.meaning
    }
    .joined(separator: "\n")
  }

  /// The status and its meaning.
  public var description: String { "\(rawValue) (\(meaning))" }
}
