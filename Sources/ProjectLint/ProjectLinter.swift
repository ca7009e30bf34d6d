internal import Dispatch
internal import Foundation
internal import StoryboardImport
internal import StoryboardLint
internal import SwiftSourceLint

/// Lints files and whole project folders: storyboards, XIBs, Swift sources and `Info.plist`
/// files together, as `restoration-archive-tool lint` does.
///
/// A folder is searched for `.storyboard`, `.xib`, `.swift` and `Info.plist` files; build
/// products and dependencies (`.build`, `DerivedData`, `Pods`, `Carthage`, `.git`, `.swiftpm`)
/// and every symbolic link are skipped, so the walk never leaves the folder. Objective-C files
/// are listed as not checked. A `.restoration-lint.yml` at the folder's root configures the run
/// (``LintConfiguration``). Files are read and parsed in parallel; the rules that cross files
/// run afterwards.
///
/// ```swift
/// let result = try ProjectLinter().lint(["MyApp"])
/// print(result.text, terminator: "")
/// ```
public struct ProjectLinter: Sendable {
  /// A configuration file that replaces the folders' own.
  public var configurationFile: String?

  /// Swift files larger than this are listed as not checked.
  public static let maximumSwiftFileSize = SwiftFileFacts.maximumFileSize
  /// `Info.plist` files larger than this are listed as not checked.
  public static let maximumPropertyListSize = 4 * 1024 * 1024

  /// Creates a linter.
  ///
  /// - Parameter configurationFile: A configuration file for every path, instead of each
  ///   folder's `.restoration-lint.yml`.
  public init(configurationFile: String? = nil) {
    self.configurationFile = configurationFile
  }

  /// Lints files and folders.
  ///
  /// - Parameter paths: Files and folders; a file is read whatever its name says (as a
  ///   storyboard or XIB unless it ends in `.swift` or `Info.plist`).
  /// - Returns: The reports, in the order given (a folder's files sorted by path).
  /// - Throws: ``ProjectLintError`` when a configuration file is wrong or cannot be read.
  public func lint(_ paths: [String]) throws(ProjectLintError) -> ProjectLintResult {
    var configurations: [LintConfiguration] = []
    var explicitConfiguration: Int?
    if let configurationFile {
      configurations.append(try LintConfiguration(contentsOfFile: configurationFile))
      explicitConfiguration = 0
    }
    var jobs: [LintJob] = []
    var unreadable: [UnreadableFile] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        unreadable.append(UnreadableFile(file: path, code: "fileNotFound", message: "no such file"))
        continue
      }
      guard isDirectory.boolValue else {
        jobs.append(
          LintJob(
            display: path, path: path, kind: LintedFileKind.of(fileNamed: Self.name(of: path)),
            isExplicit: true, configuration: explicitConfiguration))
        continue
      }
      var index = explicitConfiguration
      if index == nil {
        let own = ProjectFiles.display(root: path, relative: LintConfiguration.fileName)
        if (try? FileManager.default.attributesOfItem(atPath: own)) != nil {
          configurations.append(try LintConfiguration(contentsOfFile: own))
          index = configurations.count - 1
        }
      }
      let found = ProjectFiles.walk(
        root: path, configuration: index.map { configurations[$0] } ?? LintConfiguration(),
        configurationIndex: index)
      jobs += found.jobs
      unreadable += found.unreadable
    }
    let outcomes = Self.read(jobs)
    return Self.assemble(
      jobs: jobs, outcomes: outcomes, unreadable: unreadable, configurations: configurations)
  }

  private static func name(of path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
  }

  // MARK: Reading, in parallel

  /// What reading one file gave.
  private enum Outcome: Sendable {
    case interfaceBuilder(
      InterfaceDocument, LintReport, suppressions: [Int: Set<LintFinding.Code>],
      commentFindings: [LintFinding])
    case swift(SwiftFileFacts)
    case propertyList
    case unchecked(UncheckedFile)
    case unreadable(UnreadableFile)
  }

  /// The outcomes, filled in by the worker threads; each slot is written once.
  private final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Outcome?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ outcome: Outcome, at index: Int) {
      lock.lock()
      slots[index] = outcome
      lock.unlock()
    }

    var all: [Outcome?] {
      lock.lock()
      defer { lock.unlock() }
      return slots
    }
  }

  private static func read(_ jobs: [LintJob]) -> [Outcome?] {
    let outcomes = Outcomes(count: jobs.count)
    DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
      outcomes.set(read(jobs[index]), at: index)
    }
    return outcomes.all
  }

  private static func read(_ job: LintJob) -> Outcome {
    switch job.kind {
    case .objectiveC:
      return .unchecked(
        UncheckedFile(
          file: job.display, reason: .objectiveC,
          message: "Objective-C (the lint reads Swift, storyboards, XIBs and Info.plist files)"
        ))
    case .swift:
      switch ProjectFiles.read(job.path, limit: maximumSwiftFileSize) {
      case .bytes(let bytes): return .swift(SwiftFileFacts(source: bytes, file: job.display))
      case .tooLarge:
        return .unchecked(
          UncheckedFile(
            file: job.display, reason: .tooLarge,
            message:
              "larger than \(maximumSwiftFileSize / 1024 / 1024) MiB, not checked (generated code)")
        )
      case .unreadable:
        return .unreadable(
          UnreadableFile(
            file: job.display, code: "unreadable",
            message: "cannot be read (check its permissions)"))
      }
    case .infoPlist:
      return readPropertyList(job)
    case .storyboard, .xib, nil:
      let document: InterfaceDocument
      do {
        document = try InterfaceDocument(contentsOfFile: job.path)
      } catch {
        return .unreadable(
          UnreadableFile(
            file: job.display, line: error.line, code: error.code.rawValue,
            message: error.message))
      }
      var named = document
      named.file = job.display
      let report = StoryboardLinter().lint(named)
      let data = FileManager.default.contents(atPath: job.path) ?? Data()
      let comments = XMLComments.suppressions(in: data, file: job.display)
      return .interfaceBuilder(
        named, report, suppressions: comments.suppressions, commentFindings: comments.findings)
    }
  }

  private static func readPropertyList(_ job: LintJob) -> Outcome {
    switch ProjectFiles.read(job.path, limit: maximumPropertyListSize) {
    case .tooLarge:
      return .unchecked(
        UncheckedFile(
          file: job.display, reason: .tooLarge,
          message: "larger than \(maximumPropertyListSize / 1024 / 1024) MiB, not checked"))
    case .unreadable:
      return .unreadable(
        UnreadableFile(
          file: job.display, code: "unreadable", message: "cannot be read (check its permissions)"))
    case .bytes(let bytes):
      let value = try? PropertyListSerialization.propertyList(
        from: Data(bytes), options: [], format: nil)
      guard value is [String: Any] else {
        return .unreadable(
          UnreadableFile(
            file: job.display, code: "malformedPropertyList",
            message: "is not a property list with a dictionary at its root, as an Info.plist is"))
      }
      return .propertyList
    }
  }

  // MARK: Assembling

  private static func assemble(
    jobs: [LintJob], outcomes: [Outcome?], unreadable: [UnreadableFile],
    configurations: [LintConfiguration]
  ) -> ProjectLintResult {
    var swiftFiles: [SwiftFileFacts] = []
    var documents: [InterfaceDocument] = []
    for outcome in outcomes {
      switch outcome {
      case .swift(let facts)?: swiftFiles.append(facts)
      case .interfaceBuilder(let document, _, _, _)?: documents.append(document)
      default: continue
      }
    }
    let swift = SwiftProjectLinter(files: swiftFiles, interfaceDocuments: documents)
    let swiftFindings = Dictionary(grouping: swiftFiles.isEmpty ? [] : swift.findings(), by: \.file)

    var result = ProjectLintResult(files: [], unchecked: [], unreadable: unreadable)
    for (job, outcome) in zip(jobs, outcomes) {
      let configuration = job.configuration.map { configurations[$0] } ?? LintConfiguration()
      switch outcome {
      case .interfaceBuilder(let document, let report, let suppressions, let commentFindings)?:
        let refined = swiftFiles.isEmpty ? report : swift.refine(report, document: document)
        let findings = sorted(
          configuration.apply(
            to: unsuppressed(refined.findings, suppressions) + commentFindings))
        result.files.append(
          LintedFile(
            file: job.display, kind: document.kind == .storyboard ? .storyboard : .xib,
            format: report.format, paths: report.paths, findings: findings,
            listsPaths: job.isExplicit))
      case .swift(let facts)?:
        let findings = configuration.apply(
          to: unsuppressed(swiftFindings[facts.file] ?? [], facts.suppressions))
        result.files.append(LintedFile(file: job.display, kind: .swift, findings: findings))
      case .propertyList?:
        result.files.append(LintedFile(file: job.display, kind: .infoPlist, findings: []))
      case .unchecked(let file)?: result.unchecked.append(file)
      case .unreadable(let file)?: result.unreadable.append(file)
      case nil: continue
      }
    }
    return result
  }

  private static func unsuppressed(
    _ findings: [LintFinding], _ suppressions: [Int: Set<LintFinding.Code>]
  ) -> [LintFinding] {
    guard !suppressions.isEmpty else { return findings }
    return findings.filter { finding in
      guard let line = finding.line, let codes = suppressions[line] else { return true }
      return !codes.contains(finding.code)
    }
  }

  private static func sorted(_ findings: [LintFinding]) -> [LintFinding] {
    findings.enumerated().sorted {
      ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset)
    }.map(\.element)
  }
}
