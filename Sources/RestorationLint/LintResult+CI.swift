internal import Foundation

extension LintResult {
  // MARK: SARIF

  private struct SARIFLog: Encodable {
    var schema = "https://json.schemastore.org/sarif-2.1.0.json"
    var version = "2.1.0"
    var runs: [Run]

    enum CodingKeys: String, CodingKey {
      case schema = "$schema"
      case version, runs
    }
  }

  private struct Run: Encodable {
    var tool: Tool
    var results: [Result]
    var invocations: [Invocation]
  }

  private struct Tool: Encodable {
    var driver: Driver
  }

  private struct Driver: Encodable {
    var name = "restoration-lint"
    var fullName = "restoration-archive-tool lint"
    var version = PackageVersion.current
    var semanticVersion = PackageVersion.current
    var rules: [Rule]
  }

  private struct Text: Encodable {
    var text: String
  }

  private struct Rule: Encodable {
    struct Configuration: Encodable {
      var level: String
    }

    struct Properties: Encodable {
      var tags: [String]
    }

    var id: String
    var shortDescription: Text
    var fullDescription: Text
    var help: Text
    var defaultConfiguration: Configuration
    var properties: Properties
  }

  private struct Result: Encodable {
    var ruleId: String
    var ruleIndex: Int
    var level: String
    var message: Text
    var locations: [Location]
  }

  private struct Location: Encodable {
    struct Physical: Encodable {
      var artifactLocation: ArtifactLocation
      var region: Region?
    }

    struct ArtifactLocation: Encodable {
      var uri: String
    }

    struct Region: Encodable {
      var startLine: Int
    }

    var physicalLocation: Physical
  }

  private struct Invocation: Encodable {
    var executionSuccessful: Bool
    var toolExecutionNotifications: [Notification]
  }

  private struct Notification: Encodable {
    var level: String
    var message: Text
    var locations: [Location]
  }

  private static func level(_ severity: LintFinding.Severity) -> String {
    switch severity {
    case .error: "error"
    case .warning: "warning"
    case .note: "note"
    }
  }

  /// A file's name as a SARIF URI: a relative reference for a relative path (code scanning
  /// resolves it against the repository), a `file://` URI for an absolute one.
  package static func uri(_ path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.hasPrefix("./") { trimmed = trimmed.dropFirst(2) }
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: ":")
    let encoded = String(trimmed).addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    return path.hasPrefix("/") ? "file://" + encoded : encoded
  }

  private static func location(_ file: String, _ line: Int?) -> Location {
    Location(
      physicalLocation: .init(
        artifactLocation: .init(uri: uri(file)),
        region: line.flatMap { $0 >= 1 ? .init(startLine: $0) : nil }))
  }

  /// The report as a SARIF 2.1.0 log, for GitHub code scanning and other CI systems: every
  /// rule with its description and default level, one result per finding (at the severity the
  /// configuration gives it), and the files not read or not checked as tool notifications.
  ///
  /// - Returns: The JSON text, ending with a newline.
  public func sarif() -> String {
    let codes = LintFinding.Code.allCases
    let indexes = Dictionary(uniqueKeysWithValues: codes.enumerated().map { ($1, $0) })
    let rules = codes.map { code in
      Rule(
        id: code.rawValue, shortDescription: Text(text: code.summary),
        fullDescription: Text(text: "\(code.summary) \(code.consequence)"),
        help: Text(text: code.consequence),
        defaultConfiguration: .init(level: Self.level(code.defaultSeverity)),
        properties: .init(tags: ["state-restoration", code.source.rawValue]))
    }
    let results = findings.map { finding in
      Result(
        ruleId: finding.code.rawValue, ruleIndex: indexes[finding.code] ?? 0,
        level: Self.level(finding.severity), message: Text(text: finding.message),
        locations: [Self.location(finding.file, finding.line)])
    }
    let notifications =
      unreadable.map {
        Notification(
          level: "error", message: Text(text: "\($0.message) [\($0.code)]"),
          locations: [Self.location($0.file, $0.line)])
      }
      + unchecked.map {
        Notification(
          level: "note", message: Text(text: $0.message), locations: [Self.location($0.file, nil)])
      }
    let log = SARIFLog(runs: [
      Run(
        tool: Tool(driver: Driver(rules: rules)), results: results,
        invocations: [
          Invocation(
            executionSuccessful: unreadable.isEmpty, toolExecutionNotifications: notifications)
        ])
    ])
    return Self.encode(log)
  }

  // MARK: GitHub workflow annotations

  /// The report as GitHub Actions workflow commands: one `::error`, `::warning` or `::notice`
  /// line per finding (shown on the pull request's lines), one per file not read or not
  /// checked, then the summary as a plain line.
  public var githubAnnotations: String {
    var out = ""
    for finding in findings {
      let command: String
      switch finding.severity {
      case .error: command = "error"
      case .warning: command = "warning"
      case .note: command = "notice"
      }
      var properties = "file=\(Self.escapeProperty(finding.file))"
      if let line = finding.line { properties += ",line=\(line)" }
      properties += ",title=\(Self.escapeProperty("restoration-lint \(finding.code.rawValue)"))"
      out += "::\(command) \(properties)::\(Self.escapeData(finding.message))\n"
    }
    for file in unreadable {
      var properties = "file=\(Self.escapeProperty(file.file))"
      if let line = file.line { properties += ",line=\(line)" }
      out += "::error \(properties)::\(Self.escapeData(file.message))\n"
    }
    for file in unchecked {
      out += "::notice file=\(Self.escapeProperty(file.file))::\(Self.escapeData(file.message))\n"
    }
    out += summary + "\n"
    return out
  }

  /// A workflow command's message: `%`, carriage returns and newlines escaped.
  package static func escapeData(_ text: String) -> String {
    text.replacingOccurrences(of: "%", with: "%25")
      .replacingOccurrences(of: "\r", with: "%0D")
      .replacingOccurrences(of: "\n", with: "%0A")
  }

  /// A workflow command's property: the message's escapes, and `:` and `,` too.
  package static func escapeProperty(_ text: String) -> String {
    escapeData(text).replacingOccurrences(of: ":", with: "%3A")
      .replacingOccurrences(of: ",", with: "%2C")
  }
}
