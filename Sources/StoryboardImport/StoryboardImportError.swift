/// Why an Interface Builder file could not be read: what failed, in which file, at which line.
///
/// Reading never crashes on a bad file: a missing file, bytes that are not XML, XML that is not
/// an Interface Builder document, and files too large or too deep all end in this error.
/// `description` gives one line, `file:line: message`, in the form compilers use.
public struct StoryboardImportError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A stable classification of the failure.
  public enum Code: String, Sendable, Hashable, CaseIterable, Codable {
    /// No file at the path.
    case fileNotFound
    /// The file exists but could not be read (a folder, no permission).
    case unreadable
    /// The bytes are not well-formed XML.
    case malformedXML
    /// Well-formed XML, but not an Interface Builder storyboard or XIB.
    case notInterfaceBuilderFile
    /// An Interface Builder file of a kind this reader does not handle: one for macOS, watchOS
    /// or tvOS.
    case unsupportedDocument
    /// The file exceeds a size, depth or element-count limit.
    case limitExceeded
  }

  /// The classification of the failure.
  public var code: Code
  /// What went wrong, in words.
  public var message: String
  /// The file, as the caller named it.
  public var file: String
  /// The line where the problem was found, when known.
  public var line: Int?
  /// For an Interface Builder file of another platform (``Code/unsupportedDocument``), its
  /// document type, such as `com.apple.InterfaceBuilder3.Cocoa.Storyboard.XIB`.
  public var documentType: String?

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - code: The classification of the failure.
  ///   - message: What went wrong, in words.
  ///   - file: The file, as the caller named it.
  ///   - line: The line where the problem was found.
  ///   - documentType: For a file of another platform, its document type.
  public init(
    _ code: Code, _ message: String, file: String, line: Int? = nil, documentType: String? = nil
  ) {
    self.code = code
    self.message = message
    self.file = file
    self.line = line
    self.documentType = documentType
  }

  /// One line: `file:line: message`.
  public var description: String {
    if let line { return "\(file):\(line): \(message)" }
    return "\(file): \(message)"
  }
}
