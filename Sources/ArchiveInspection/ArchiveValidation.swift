public import StateRestoration

/// What is wrong with an archive file, and where.
///
/// The file is read as the engine reads it (binary property list well-formed, checksum, layout,
/// a known major version, every reference a record), which stops at the first problem of that
/// kind; an archive that reads is then checked as a whole, and every problem is reported:
/// duplicate identifier paths (which the reader accepts), ancestors after their descendants,
/// references to paths without a record, sensitive keys with a stored value, malformed
/// identifier paths, and missing engine keys.
public struct ArchiveValidation: Sendable, Hashable {
  /// How serious a finding is.
  public enum Severity: String, Sendable, Hashable {
    /// The archive is wrong; restoring from it fails or goes wrong.
    case error
    /// The archive reads, but something is unusual.
    case warning
  }

  /// The check that produced a finding.
  public enum Check: String, Sendable, Hashable, CaseIterable {
    /// The file is a well-formed binary property list.
    case propertyList
    /// The CRC-32 matches the contents.
    case checksum
    /// The property list has the archive's layout.
    case layout
    /// The format version is known.
    case version
    /// The file is within the reader's limits.
    case limits
    /// Every reference points at an archived object.
    case reference
    /// Parents come before their children.
    case order
    /// No two records share an identifier path.
    case duplicatePath
    /// Sensitive keys have no stored value.
    case sensitiveValue
    /// Identifier paths are well formed.
    case identifierPath
    /// The engine's top-level keys are present and of the right type.
    case topLevel
  }

  /// One problem.
  public struct Finding: Sendable, Hashable {
    /// How serious it is.
    public var severity: Severity
    /// Which check found it.
    public var check: Check
    /// What is wrong.
    public var message: String
    /// The position of the record involved in the archive's objects, if known.
    public var recordIndex: Int?
    /// The identifier path of the record involved, if known.
    public var identifierPath: String?
    /// The key involved, if any.
    public var key: String?
    /// The byte offset in the file, if known.
    public var offset: Int?
    /// The reader's error code, for problems the reader found.
    public var code: RestorationError.Code?

    /// Creates a finding.
    ///
    /// - Parameters:
    ///   - severity: How serious it is.
    ///   - check: Which check found it.
    ///   - message: What is wrong.
    ///   - recordIndex: The record's position.
    ///   - identifierPath: The record's path.
    ///   - key: The key.
    ///   - offset: The byte offset.
    ///   - code: The reader's error code.
    public init(
      _ severity: Severity,
      _ check: Check,
      _ message: String,
      recordIndex: Int? = nil,
      identifierPath: String? = nil,
      key: String? = nil,
      offset: Int? = nil,
      code: RestorationError.Code? = nil
    ) {
      self.severity = severity
      self.check = check
      self.message = message
      self.recordIndex = recordIndex
      self.identifierPath = identifierPath
      self.key = key
      self.offset = offset
      self.code = code
    }

    /// Where: `record 3 (A/B), key 'k', byte 120`, or empty.
    public var location: String {
      var parts: [String] = []
      switch (recordIndex, identifierPath) {
      case (let index?, let path?): parts.append("record \(index) (\(ValueFormatting.name(path)))")
      case (let index?, nil): parts.append("record \(index)")
      case (nil, let path?): parts.append("object '\(ValueFormatting.name(path))'")
      case (nil, nil): break
      }
      if let key { parts.append("key '\(ValueFormatting.name(key))'") }
      if let offset { parts.append("byte \(offset)") }
      return parts.joined(separator: ", ")
    }
  }

  /// Every problem found, errors and warnings, in the order found.
  public var findings: [Finding]
  /// The archive, when the file could be read.
  public var archive: RestorationArchive?
  /// The reader's error, when the file could not be read as an archive.
  public var readError: RestorationError?

  /// The number of errors.
  public var errorCount: Int { findings.count(where: { $0.severity == .error }) }
  /// The number of warnings.
  public var warningCount: Int { findings.count(where: { $0.severity == .warning }) }
  /// Whether there are no errors (warnings allowed).
  public var isValid: Bool { errorCount == 0 }

  /// The exit status: the reader's error mapped, 1 for errors in a readable archive, 0 otherwise.
  public var exitStatus: ToolExitStatus {
    if let readError { return ToolExitStatus(for: readError.code) }
    return isValid ? .success : .differencesFound
  }

  /// Validates the bytes of an archive file.
  ///
  /// - Parameters:
  ///   - bytes: The file's contents.
  ///   - limits: The reader's limits.
  public init(bytes: [UInt8], limits: ArchiveLimits = .default) {
    let archive: RestorationArchive
    do {
      archive = try RestorationArchive(decoding: bytes, limits: limits)
    } catch {
      self.init(readError: ArchiveFile.diagnose(error, bytes: bytes))
      return
    }
    self.init(archive: archive)
  }

  private init(readError: RestorationError) {
    archive = nil
    self.readError = readError
    findings = [Self.finding(for: readError)]
  }

  /// Validates an archive already read (or built in memory).
  ///
  /// - Parameter archive: The archive.
  /// - Complexity: O(n) in the size of the archive.
  public init(archive: RestorationArchive) {
    self.archive = archive
    readError = nil
    findings = []
    checkVersion(archive)
    checkTopLevel(archive)
    checkPaths(archive)
    checkReferences(archive)
    checkSensitiveKeys(archive)
  }

  // MARK: Reader errors

  private static func finding(for error: RestorationError) -> Finding {
    let check: Check
    switch error.code {
    case .notPropertyList, .truncated: check = .propertyList
    case .checksumMismatch: check = .checksum
    case .notArchive: check = .layout
    case .unsupportedVersion: check = .version
    case .limitExceeded: check = .limits
    case .malformed:
      // The reader says "reference to object record N" for a UID past the records and
      // "object record N ..." for a record it cannot read; other malformations are in the
      // property list itself.
      if error.message.hasPrefix("reference to object record") {
        check = .reference
      } else if error.message.hasPrefix("object record") {
        check = .layout
      } else {
        check = .propertyList
      }
    case .typeMismatch, .keyNotFound, .encodingFailed, .storageFailed, .unsafeStorage,
      .invalidIdentifier,
      .decodingFailed:
      check = .layout
    }
    return Finding(
      .error,
      check,
      error.message,
      identifierPath: error.identifierPath,
      key: error.key,
      offset: error.offset,
      code: error.code
    )
  }

  // MARK: Archive checks

  private mutating func checkVersion(_ archive: RestorationArchive) {
    let current = RestorationArchive.Version.current
    let version = archive.version
    if version.major > current.major {
      findings.append(
        Finding(.error, .version, "format \(version) is newer than the supported \(current)"))
    } else if version.major == current.major, version.minor > current.minor {
      findings.append(
        Finding(
          .warning,
          .version,
          "format \(version) is a newer minor version than \(current); fields added since are ignored"
        )
      )
    }
  }

  private mutating func checkTopLevel(_ archive: RestorationArchive) {
    let expected: [(String, String, (StateValue) -> Bool)] = [
      (RestorationArchive.Key.bundleVersion, "a string", { String(stateValue: $0) != nil }),
      (RestorationArchive.Key.systemVersion, "a string", { String(stateValue: $0) != nil }),
      (
        RestorationArchive.Key.timestamp, "a date",
        {
          if case .date = $0 { return true }
          return false
        }
      ),
      (RestorationArchive.Key.userInterfaceIdiom, "a string", { String(stateValue: $0) != nil }),
    ]
    for (key, type, matches) in expected {
      guard let value = archive.topLevel[key] else {
        findings.append(Finding(.warning, .topLevel, "the top-level key is missing", key: key))
        continue
      }
      if !matches(value) {
        findings.append(
          Finding(
            .warning, .topLevel, "the top-level value is \(value.typeName), not \(type)", key: key)
        )
      }
    }
  }

  private mutating func checkPaths(_ archive: RestorationArchive) {
    let forest = Forest(archive)
    for (index, record) in archive.records.enumerated() {
      let path = record.identifierPath
      if path.isEmpty {
        findings.append(
          Finding(.error, .identifierPath, "the identifier path is empty", recordIndex: index))
      } else {
        let components = IdentifierPath.components(of: path)
        if components.contains(where: \.isEmpty) {
          findings.append(
            Finding(
              .warning, .identifierPath, "the identifier path has an empty component",
              recordIndex: index, identifierPath: path)
          )
        }
        if let last = components.last, IdentifierPath.isIndexComponent(last) {
          findings.append(
            Finding(
              .warning, .identifierPath,
              "the identifier path ends with an index component, not an identifier",
              recordIndex: index, identifierPath: path)
          )
        }
      }
      if let first = forest.duplicateOf[index] {
        findings.append(
          Finding(
            .error, .duplicatePath,
            "the identifier path is also record \(first); restoration would decode only one of them",
            recordIndex: index, identifierPath: path)
        )
      }
      if let parent = forest.parents[index], parent > index {
        findings.append(
          Finding(
            .error, .order,
            "comes before its ancestor '\(ValueFormatting.name(archive.records[parent].identifierPath))' (record \(parent)); parents must come first",
            recordIndex: index, identifierPath: path)
        )
      }
    }
  }

  private mutating func checkReferences(_ archive: RestorationArchive) {
    let paths = Set(archive.records.map(\.identifierPath))
    func check(_ values: KeyedValues, recordIndex: Int?, identifierPath: String?) {
      for (key, value) in values {
        for target in Self.references(in: value) where !paths.contains(target) {
          findings.append(
            Finding(
              .error, .reference,
              "references '\(ValueFormatting.name(target))', which has no record",
              recordIndex: recordIndex, identifierPath: identifierPath, key: key)
          )
        }
      }
    }
    check(archive.topLevel, recordIndex: nil, identifierPath: nil)
    for (index, record) in archive.records.enumerated() {
      check(record.state, recordIndex: index, identifierPath: record.identifierPath)
    }
  }

  /// The paths a value references, in order, containers searched without recursion (a hostile
  /// archive may nest as deep as the reader's limit).
  private static func references(in value: StateValue) -> [String] {
    var found: [String] = []
    var pending = [value]
    while let next = pending.popLast() {
      switch next {
      case .reference(let path): found.append(path)
      case .array(let elements): pending += elements.reversed()
      case .dictionary(let entries):
        pending += entries.sorted { $0.key > $1.key }.map(\.value)
      default: break
      }
    }
    return found
  }

  private mutating func checkSensitiveKeys(_ archive: RestorationArchive) {
    for (index, record) in archive.records.enumerated() {
      for key in record.sensitiveKeys where record.state[key] != nil {
        findings.append(
          Finding(
            .error, .sensitiveValue,
            "the key is marked sensitive but has a stored value, which must never be written",
            recordIndex: index, identifierPath: record.identifierPath, key: key)
        )
      }
    }
  }

  // MARK: Text

  /// The report: one line per finding, `FILE: SEVERITY: WHERE: WHAT [check]`, then a summary.
  ///
  /// - Parameter file: The file's name, to start each line with.
  /// - Returns: The text, ending with a newline.
  public func text(file: String) -> String {
    var lines = findings.map { finding in
      var line = "\(file): \(finding.severity.rawValue): "
      let location = finding.location
      if !location.isEmpty { line += location + ": " }
      line += finding.message + " [\(finding.check.rawValue)]"
      return line.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
    func count(_ number: Int, _ noun: String) -> String {
      "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
    if let archive, isValid {
      let version = "format \(archive.version), "
      lines.append(
        "\(file): valid (\(version)\(count(archive.records.count, "object")), \(count(warningCount, "warning")))"
      )
    } else {
      lines.append(
        "\(file): invalid (\(count(errorCount, "error")), \(count(warningCount, "warning")))")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
