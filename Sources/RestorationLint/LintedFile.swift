/// The kinds of file a lint run reads, and the kinds it lists without reading.
public enum LintedFileKind: String, Sendable, Hashable, Codable, CaseIterable {
  /// An Interface Builder storyboard.
  case storyboard
  /// An Interface Builder XIB (a nib).
  case xib
  /// A Swift source file.
  case swift
  /// An app's `Info.plist` (or `*-Info.plist`).
  case infoPlist
  /// An Objective-C source or header file (`.m`, `.mm`, `.h`): listed, not checked.
  case objectiveC

  /// The kind a file's name says, or nil for a file the lint does not look at.
  ///
  /// - Parameter name: The file's name.
  /// - Returns: The kind.
  public static func of(fileNamed name: String) -> LintedFileKind? {
    if name.hasSuffix(".storyboard") { return .storyboard }
    if name.hasSuffix(".xib") { return .xib }
    if name.hasSuffix(".swift") { return .swift }
    if name == "Info.plist" || name.hasSuffix("-Info.plist") { return .infoPlist }
    if name.hasSuffix(".m") || name.hasSuffix(".mm") || name.hasSuffix(".h") {
      return .objectiveC
    }
    return nil
  }

  /// The noun for a count: `storyboard`, `XIB`, `Swift file`, `Info.plist`.
  func noun(_ count: Int) -> String {
    let one = count == 1
    switch self {
    case .storyboard: return one ? "storyboard" : "storyboards"
    case .xib: return one ? "XIB" : "XIBs"
    case .swift: return one ? "Swift file" : "Swift files"
    case .infoPlist: return one ? "Info.plist" : "Info.plist files"
    case .objectiveC: return one ? "Objective-C file" : "Objective-C files"
    }
  }
}

/// One checked file's report: its findings and, for a storyboard or XIB, its restoration paths.
public struct LintedFile: Sendable, Hashable, Codable {
  /// The file, as the run names it (the folder given, then the path below it).
  public var file: String
  /// Its kind.
  public var kind: LintedFileKind
  /// For a storyboard or XIB, the XML format, such as `document format 3.0`.
  public var format: String?
  /// For a storyboard or XIB, the identifier paths its objects get.
  public var paths: [PathEntry]?
  /// The problems, in line order.
  public var findings: [LintFinding]
  /// Whether the text output lists its restoration paths (a file named on the command line).
  public var listsPaths: Bool

  /// An object that restoration would preserve, at its identifier path.
  public struct PathEntry: Sendable, Hashable, Codable {
    /// How the object gets into the hierarchy.
    public enum Origin: String, Sendable, Hashable, Codable {
      /// At launch, from the initial view controller (or a root scene when there is none).
      case launch
      /// Pushed onto a navigation stack by a segue.
      case segue
    }

    /// The identifier path, as UIKit forms it: `TabBarControllerID/:[0]:/CountryNCID`.
    public var path: String
    /// The element, such as `navigationController 'CountryNCID'`.
    public var object: String
    /// Its class: the custom class, or UIKit's.
    public var className: String
    /// The line of the element.
    public var line: Int
    /// How it gets into the hierarchy.
    public var origin: Origin
    /// For an object reached by a segue, the segue's line.
    public var segueLine: Int?

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - path: The identifier path.
    ///   - object: The element.
    ///   - className: Its class.
    ///   - line: Its line.
    ///   - origin: How it gets into the hierarchy.
    ///   - segueLine: The line of the segue that shows it.
    public init(
      path: String,
      object: String,
      className: String,
      line: Int,
      origin: Origin,
      segueLine: Int? = nil
    ) {
      self.path = path
      self.object = object
      self.className = className
      self.line = line
      self.origin = origin
      self.segueLine = segueLine
    }
  }

  private enum CodingKeys: String, CodingKey {
    case file, kind, format, paths, findings
  }

  /// Creates a file's report.
  ///
  /// - Parameters:
  ///   - file: The file.
  ///   - kind: Its kind.
  ///   - format: The XML format of a storyboard or XIB.
  ///   - paths: The identifier paths of a storyboard or XIB.
  ///   - findings: The problems.
  ///   - listsPaths: Whether the text output lists the paths.
  public init(
    file: String, kind: LintedFileKind, format: String? = nil,
    paths: [PathEntry]? = nil, findings: [LintFinding], listsPaths: Bool = false
  ) {
    self.file = file
    self.kind = kind
    self.format = format
    self.paths = paths
    self.findings = findings
    self.listsPaths = listsPaths
  }

  /// Decodes a report; ``listsPaths`` is not part of the JSON and comes back false.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: When the data is not a report.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    file = try container.decode(String.self, forKey: .file)
    kind = try container.decode(LintedFileKind.self, forKey: .kind)
    format = try container.decodeIfPresent(String.self, forKey: .format)
    paths = try container.decodeIfPresent([PathEntry].self, forKey: .paths)
    findings = try container.decode([LintFinding].self, forKey: .findings)
    listsPaths = false
  }

  /// Encodes the report without ``listsPaths``.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: When the encoder fails.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(file, forKey: .file)
    try container.encode(kind, forKey: .kind)
    try container.encodeIfPresent(format, forKey: .format)
    try container.encodeIfPresent(paths, forKey: .paths)
    try container.encode(findings, forKey: .findings)
  }
}

/// A file the run found but did not check, and why.
public struct UncheckedFile: Sendable, Hashable, Codable {
  /// Why a file was not checked.
  public enum Reason: String, Sendable, Hashable, Codable, CaseIterable {
    /// Objective-C: the lint reads Swift only.
    case objectiveC
    /// Larger than the lint reads for its kind.
    case tooLarge
    /// A storyboard or XIB for macOS (AppKit), watchOS or tvOS: the lint reads iOS's.
    case otherPlatform
  }

  /// The file.
  public var file: String
  /// Why.
  public var reason: Reason
  /// In words.
  public var message: String

  /// Creates an entry.
  ///
  /// - Parameters:
  ///   - file: The file.
  ///   - reason: Why it was not checked.
  ///   - message: In words.
  public init(file: String, reason: Reason, message: String) {
    self.file = file
    self.reason = reason
    self.message = message
  }
}

/// A file that could not be read: missing, unreadable, or not what its name says.
public struct UnreadableFile: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The file.
  public var file: String
  /// The line where reading stopped, when known.
  public var line: Int?
  /// A stable code, such as `fileNotFound` or `malformedXML`.
  public var code: String
  /// What went wrong.
  public var message: String

  /// Creates an entry.
  ///
  /// - Parameters:
  ///   - file: The file.
  ///   - line: The line where reading stopped.
  ///   - code: A stable code.
  ///   - message: What went wrong.
  public init(file: String, line: Int? = nil, code: String, message: String) {
    self.file = file
    self.line = line
    self.code = code
    self.message = message
  }

  /// One line: `file:line: message`.
  public var description: String {
    "\(file)\(line.map { ":\($0)" } ?? ""): \(message)"
  }
}
