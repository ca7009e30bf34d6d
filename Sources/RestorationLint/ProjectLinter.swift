internal import Dispatch
internal import Foundation

/// Lints files and whole project folders with a list of rule sets, as
/// `restoration-archive-tool lint` does.
///
/// A folder is searched for the files whose kind the lint knows (``LintedFileKind``); build
/// products and dependencies (`.build`, `DerivedData`, `Pods`, `Carthage`, `.git`, `.swiftpm`)
/// and every symbolic link are skipped, so the walk never leaves the folder. Objective-C files
/// are listed as not checked. A `.restoration-lint.yml` at the folder's root configures the run
/// (``LintConfiguration``). Files are read and checked in parallel, each by the first rule set
/// that reads its kind; the rules that cross files run afterwards, set by set.
///
/// ```swift
/// let result = try ProjectLinter(ruleSets: [InterfaceBuilderRuleSet(), SwiftRuleSet()])
///   .lint(["MyApp"])
/// print(result.text, terminator: "")
/// ```
public struct ProjectLinter: Sendable {
  /// The rule sets, in the order their project rules run.
  public var ruleSets: [any LintRuleSet]
  /// A configuration file that replaces the folders' own.
  public var configurationFile: String?
  /// The least severity listed; findings below it are only counted
  /// (``LintResult/belowMinimumSeverity``).
  public var minimumSeverity: LintFinding.Severity = .note
  /// Paths and globs, relative to each folder given, left out, besides the configuration's.
  public var excludedPaths: [String] = []
  /// Paths and globs, relative to each folder given: when there are any, only the files they
  /// match are read, besides those the configuration includes.
  public var includedPaths: [String] = []
  /// The findings already accepted: those it holds are counted, not listed
  /// (``LintResult/inBaseline``).
  public var baseline: LintBaseline?
  /// Whether the result records every finding as a baseline (``LintResult/recordedBaseline``),
  /// before the baseline and the minimum severity leave any out.
  public var recordsBaseline = false

  /// Creates a linter.
  ///
  /// - Parameters:
  ///   - ruleSets: The rule sets, in the order their project rules run.
  ///   - configurationFile: A configuration file for every path, instead of each folder's
  ///     `.restoration-lint.yml`.
  public init(ruleSets: [any LintRuleSet], configurationFile: String? = nil) {
    self.ruleSets = ruleSets
    self.configurationFile = configurationFile
  }

  /// Lints files and folders.
  ///
  /// - Parameter paths: Files and folders; a file is read whatever its name says (as a
  ///   storyboard or XIB when its name says nothing).
  /// - Returns: The reports, in the order given (a folder's files sorted by path).
  /// - Throws: ``LintError`` when a configuration file is wrong or cannot be read.
  public func lint(_ paths: [String]) throws(LintError) -> LintResult {
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
        let kind = LintedFileKind.of(fileNamed: Self.name(of: path))
        jobs.append(
          LintJob(
            source: LintSourceFile(display: path, path: path, kind: kind, isExplicit: true),
            configuration: explicitConfiguration))
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
      var walked = index.map { configurations[$0] } ?? LintConfiguration()
      walked.excludedPaths += excludedPaths
      walked.includedPaths += includedPaths
      let found = ProjectFiles.walk(root: path, configuration: walked, configurationIndex: index)
      jobs += found.jobs
      unreadable += found.unreadable
    }
    let readings = read(jobs)
    return assemble(
      jobs: jobs, readings: readings, unreadable: unreadable, configurations: configurations)
  }

  private static func name(of path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
  }

  // MARK: Reading, in parallel

  /// The readings, filled in by the worker threads; each slot is written once.
  private final class Readings: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [LintFileReading?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ reading: LintFileReading, at index: Int) {
      lock.lock()
      slots[index] = reading
      lock.unlock()
    }

    var all: [LintFileReading?] {
      lock.lock()
      defer { lock.unlock() }
      return slots
    }
  }

  private func read(_ jobs: [LintJob]) -> [LintFileReading?] {
    let readings = Readings(count: jobs.count)
    DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
      if let reading = read(jobs[index].source) { readings.set(reading, at: index) }
    }
    return readings.all
  }

  private func read(_ file: LintSourceFile) -> LintFileReading? {
    if file.kind == .objectiveC {
      return .unchecked(
        UncheckedFile(
          file: file.display, reason: .objectiveC,
          message: "Objective-C (the lint reads Swift, storyboards, XIBs and Info.plist files)"))
    }
    // A file named on the command line whose name says nothing is read as a storyboard or
    // XIB, as the lint always did.
    let kind = file.kind ?? .storyboard
    return ruleSets.first { $0.reads(kind) }?.read(file)
  }

  // MARK: Assembling

  private func assemble(
    jobs: [LintJob], readings: [LintFileReading?], unreadable: [UnreadableFile],
    configurations: [LintConfiguration]
  ) -> LintResult {
    var checked: [LintProject.File] = []
    var configurationOfFile: [String: Int] = [:]
    var pathOfFile: [String: String] = [:]
    var result = LintResult(files: [], unchecked: [], unreadable: unreadable)
    for (job, reading) in zip(jobs, readings) {
      switch reading {
      case .checked(let report, let suppressions, let facts)?:
        checked.append(LintProject.File(report: report, suppressions: suppressions, facts: facts))
        pathOfFile[report.file] = job.source.path
        if let index = job.configuration { configurationOfFile[report.file] = index }
      case .unchecked(let file)?: result.unchecked.append(file)
      case .unreadable(let file)?: result.unreadable.append(file)
      case nil: continue
      }
    }
    var project = LintProject(files: checked)
    for ruleSet in ruleSets { ruleSet.checkProject(&project) }
    result.minimumSeverity = minimumSeverity
    var recorded: [LintBaseline.Entry] = []
    for file in project.files {
      let configuration =
        configurationOfFile[file.report.file].map { configurations[$0] } ?? LintConfiguration()
      var report = file.report
      var findings = Self.sorted(
        configuration.apply(to: Self.unsuppressed(report.findings, file.suppressions)))
      if baseline != nil || recordsBaseline, !findings.isEmpty {
        let texts = Self.lineTexts(
          Set(findings.compactMap(\.line)), ofFile: pathOfFile[report.file] ?? report.file)
        let text = { (finding: LintFinding) in finding.line.flatMap { texts[$0] } ?? "" }
        if recordsBaseline {
          recorded += findings.map { LintBaseline.entry($0, lineText: text($0)) }
        }
        if let baseline {
          let filtered = baseline.newFindings(findings, lineText: text)
          findings = filtered.new
          result.inBaseline += filtered.matched
        }
      }
      report.findings = findings.filter { $0.severity >= minimumSeverity }
      for finding in findings where finding.severity < minimumSeverity {
        result.belowMinimumSeverity[finding.severity, default: 0] += 1
      }
      result.files.append(report)
    }
    if recordsBaseline { result.recordedBaseline = LintBaseline(findings: recorded) }
    return result
  }

  /// The trimmed text of some lines of a file, read again: lines are counted from 1, and a file
  /// that cannot be read has none.
  private static func lineTexts(_ lines: Set<Int>, ofFile path: String) -> [Int: String] {
    guard let last = lines.max(), last >= 1,
      case .bytes(let bytes) = ProjectFiles.read(path, limit: LintBaseline.maximumFileSize)
    else { return [:] }
    var texts: [Int: String] = [:]
    var line = 1
    var start = 0
    for index in 0...bytes.count where index == bytes.count || bytes[index] == 0x0A {
      if lines.contains(line) {
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        texts[line] = text.trimmingCharacters(in: .whitespacesAndNewlines)
      }
      line += 1
      start = index + 1
      if line > last { break }
    }
    return texts
  }

  /// The findings that no `disable:next` comment turns off; a comment's own mistake is never
  /// turned off.
  private static func unsuppressed(
    _ findings: [LintFinding], _ suppressions: [Int: Set<LintFinding.Code>]
  ) -> [LintFinding] {
    guard !suppressions.isEmpty else { return findings }
    return findings.filter { finding in
      guard finding.code != .unknownRuleInComment, let line = finding.line,
        let codes = suppressions[line]
      else { return true }
      return !codes.contains(finding.code)
    }
  }

  private static func sorted(_ findings: [LintFinding]) -> [LintFinding] {
    findings.enumerated().sorted {
      ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset)
    }.map(\.element)
  }
}
