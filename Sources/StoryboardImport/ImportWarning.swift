/// Something an import could not do exactly, with the file and line it concerns.
public struct ImportWarning: Sendable, Hashable, CustomStringConvertible {
  /// What happened, in words.
  public var message: String
  /// The file.
  public var file: String
  /// The line of the element involved.
  public var line: Int?
  /// The Interface Builder object ID of the element involved.
  public var objectID: String?

  /// Creates a warning.
  ///
  /// - Parameters:
  ///   - message: What happened.
  ///   - file: The file.
  ///   - line: The line of the element involved.
  ///   - objectID: The object ID of the element involved.
  public init(_ message: String, file: String, line: Int? = nil, objectID: String? = nil) {
    self.message = message
    self.file = file
    self.line = line
    self.objectID = objectID
  }

  init(_ issue: InterfaceDocument.Issue, file: String) {
    self.init(issue.message, file: file, line: issue.line, objectID: issue.objectID)
  }

  /// `file:line: warning: message`, as compilers write it.
  public var description: String {
    "\(file)\(line.map { ":\($0)" } ?? ""): warning: \(message)"
  }
}
