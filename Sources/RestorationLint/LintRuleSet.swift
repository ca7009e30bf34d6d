/// A family of rules: the kinds of file it reads, what it finds in each file, and the rules
/// that need the whole project.
///
/// A ``ProjectLinter`` reads each file with the first of its rule sets that reads the file's
/// kind, many files at once, on every core; then it lets each rule set in turn look at the
/// whole project, in the order the linter lists them, so that a set can use what the sets
/// before it kept (the Swift rules read the storyboards' scenes, for example).
///
/// ```swift
/// struct TodoRuleSet: LintRuleSet {
///   func reads(_ kind: LintedFileKind) -> Bool { kind == .swift }
///   func read(_ file: LintSourceFile) -> LintFileReading { ... }
///   func checkProject(_ project: inout LintProject) {}
/// }
/// ```
public protocol LintRuleSet: Sendable {
  /// Whether the set reads files of a kind.
  ///
  /// - Parameter kind: The kind the file's name says.
  /// - Returns: Whether ``read(_:)`` should get such files.
  func reads(_ kind: LintedFileKind) -> Bool

  /// Reads one file and runs the rules that need that file only.
  ///
  /// Called on any thread, for many files at once; a file it cannot read is an outcome, never
  /// a crash.
  ///
  /// - Parameter file: The file.
  /// - Returns: What the file gave.
  func read(_ file: LintSourceFile) -> LintFileReading

  /// Runs the rules that need more than one file, once every file is read.
  ///
  /// - Parameter project: Every file read, with its findings and the facts each set kept; the
  ///   set adds findings, or drops those that what it knows answers.
  func checkProject(_ project: inout LintProject)
}

/// A file a lint run reads: where it is, the name findings give it, and its kind.
public struct LintSourceFile: Sendable, Hashable {
  /// The name findings give the file: the folder as given, then the path below it.
  public var display: String
  /// Where to read it.
  public var path: String
  /// The kind its name says; nil for a file named on the command line whose name says nothing
  /// (read as an Interface Builder file).
  public var kind: LintedFileKind?
  /// Whether it was named on the command line.
  public var isExplicit: Bool

  /// Describes a file.
  ///
  /// - Parameters:
  ///   - display: The name findings give it.
  ///   - path: Where to read it.
  ///   - kind: The kind its name says.
  ///   - isExplicit: Whether it was named on the command line.
  public init(display: String, path: String, kind: LintedFileKind?, isExplicit: Bool = false) {
    self.display = display
    self.path = path
    self.kind = kind
    self.isExplicit = isExplicit
  }

  /// What reading a file's bytes gave.
  public enum Contents: Sendable, Hashable {
    /// The bytes.
    case bytes([UInt8])
    /// More than the limit: not read.
    case tooLarge
    /// The file cannot be opened.
    case unreadable
  }

  /// Reads at most `limit` bytes of the file, so that a huge file costs no more than that.
  ///
  /// - Parameter limit: The most bytes a file of this kind may have.
  /// - Returns: The bytes, or why there are none.
  public func contents(limit: Int) -> Contents {
    ProjectFiles.read(path, limit: limit)
  }

  /// The entry for a file too large to check.
  ///
  /// - Parameters:
  ///   - limit: The limit it exceeds, in bytes.
  ///   - why: What a file that large is, such as `generated code`.
  /// - Returns: The outcome.
  public func tooLarge(limit: Int, _ why: String? = nil) -> LintFileReading {
    let size = "larger than \(limit / 1024 / 1024) MiB, not checked"
    return .unchecked(
      UncheckedFile(
        file: display, reason: .tooLarge, message: why.map { "\(size) (\($0))" } ?? size))
  }

  /// The entry for a file that cannot be opened.
  public var cannotBeOpened: LintFileReading {
    .unreadable(
      UnreadableFile(
        file: display, code: "unreadable", message: "cannot be read (check its permissions)"))
  }
}

/// What reading one file gave.
public enum LintFileReading: Sendable {
  /// The file was read and checked: its report, the rules its comments turn off by line, and
  /// what the rule set keeps of it for the rules that cross files.
  case checked(LintedFile, suppressions: [Int: Set<LintFinding.Code>], facts: (any Sendable)?)
  /// The file was found but not checked, and why.
  case unchecked(UncheckedFile)
  /// The file could not be read.
  case unreadable(UnreadableFile)
}

/// Every file a run checked, with its findings and the facts the rule sets kept, as the rules
/// that cross files see them.
public struct LintProject: Sendable {
  /// One checked file.
  public struct File: Sendable {
    /// Its report: name, kind, findings.
    public var report: LintedFile
    /// The rules its comments turn off, by line.
    public var suppressions: [Int: Set<LintFinding.Code>]
    /// What its rule set kept of it.
    public var facts: (any Sendable)?
  }

  /// The files, in the order of the run.
  public internal(set) var files: [File]
  private var indexByName: [String: Int]

  init(files: [File]) {
    self.files = files
    indexByName = Dictionary(
      files.enumerated().map { ($1.report.file, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// The facts of one type that the rule sets kept, file by file, in the order of the run.
  ///
  /// - Parameter type: The facts' type, such as a rule set's parsed document.
  /// - Returns: Each file's facts of that type.
  public func facts<Facts: Sendable>(_ type: Facts.Type) -> [Facts] {
    files.compactMap { $0.facts as? Facts }
  }

  /// Adds findings to the files they name; a finding about a file the run did not check is
  /// dropped.
  ///
  /// - Parameter findings: The findings.
  public mutating func add(_ findings: [LintFinding]) {
    for finding in findings {
      guard let index = indexByName[finding.file] else { continue }
      files[index].report.findings.append(finding)
    }
  }

  /// Drops the findings that a condition, given the finding and its file's facts, picks.
  ///
  /// - Parameter shouldRemove: Whether to drop a finding.
  public mutating func removeFindings(
    where shouldRemove: (LintFinding, (any Sendable)?) -> Bool
  ) {
    for index in files.indices {
      let facts = files[index].facts
      files[index].report.findings.removeAll { shouldRemove($0, facts) }
    }
  }
}
