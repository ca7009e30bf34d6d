import ArchiveInspection
import Foundation
import StateRestoration
import TestSupport
import Testing

@Suite struct ValidateTests {
  private func validate(_ bytes: [UInt8]) -> ArchiveValidation {
    ArchiveValidation(bytes: bytes)
  }

  /// The single error of a file, checked for its check and status.
  private func onlyError(
    _ validation: ArchiveValidation,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> ArchiveValidation.Finding {
    let errors = validation.findings.filter { $0.severity == .error }
    #expect(errors.count == 1, "\(validation.findings)", sourceLocation: sourceLocation)
    return try #require(errors.first, sourceLocation: sourceLocation)
  }

  @Test func engineArchivesAreValid() throws {
    for archive in [try DemoArchives.talkDemo(), try DemoArchives.signIn()] {
      let validation = validate(try archive.encoded())
      #expect(validation.findings.isEmpty, "\(validation.findings)")
      #expect(validation.isValid)
      #expect(validation.exitStatus == .success)
    }
    let text = validate(try DemoArchives.talkDemo().encoded()).text(file: "data.data")
    #expect(text == "data.data: valid (format 3.1, 5 objects, 0 warnings)\n")
  }

  // MARK: Failures the reader finds

  @Test func aFileThatIsNotAPropertyListIsReported() throws {
    let validation = validate(Array("hello, this is text and not an archive".utf8))
    let error = try onlyError(validation)
    #expect(error.check == .propertyList)
    #expect(error.code == .notPropertyList)
    #expect(validation.exitStatus == .notArchive)
    #expect(validation.archive == nil)
  }

  /// An archive of one identifier path of a megabyte is not valid: it exceeds the reader's
  /// limits on paths, which a restore enforces too, and saying so takes well under a second.
  @Test func aPathAboveTheReadersLimitsIsReported() throws {
    let path = Array(repeating: "a", count: 500_000).joined(separator: "/")
    let bytes = try RestorationArchive(
      records: [RestorationArchive.Record(identifierPath: path, kind: .object, className: "O")]
    ).encoded(allowingDuplicatePaths: false, limits: .unbounded)
    let clock = ContinuousClock()
    let start = clock.now
    let validation = validate(bytes)
    #expect(clock.now - start < .seconds(1))
    let error = try onlyError(validation)
    #expect(error.check == .limits)
    #expect(error.code == .limitExceeded)
    #expect(error.message.contains("identifier path of 999999 bytes, above the limit of 8192"))
    #expect(validation.exitStatus == .limitExceeded)
  }

  /// A record that names a key twice is not valid, as a restore refuses it.
  @Test func aRecordNamingAKeyTwiceIsReported() throws {
    let record = CraftedValue.dictionary([
      ("name", .string("Root")), ("kind", .string("object")), ("class", .string("Object")),
      ("name", .string("Elsewhere")), ("state", .dictionary([])),
    ])
    let bytes = CraftedArchive.bytes(records: [record])
    let validation = validate(bytes)
    let error = try onlyError(validation)
    #expect(error.code == .malformed)
    #expect(error.message == "dictionary repeats the key 'name'")
    #expect(!validation.isValid)
  }

  @Test func aTruncatedFileIsReportedAsCutShort() throws {
    let bytes = try DemoArchives.talkDemo().encoded()
    for length in [20, 60, bytes.count / 2, bytes.count - 1] {
      let validation = validate(Array(bytes.prefix(length)))
      let error = try onlyError(validation)
      #expect(error.check == .propertyList, "length \(length)")
      #expect(error.code == .truncated, "length \(length): \(error.message)")
      #expect(validation.exitStatus == .damaged)
    }
    let cut = validate(Array(bytes.prefix(bytes.count / 2)))
    #expect(
      cut.findings.first?.message == "the file was cut short after \(bytes.count / 2) bytes")
  }

  @Test func aChecksumMismatchIsReported() throws {
    var bytes = try DemoArchives.talkDemo().encoded()
    let offset = try Crafting.offset(of: "SecondViewController", in: bytes)
    bytes[offset] = UInt8(ascii: "Z")
    let validation = validate(bytes)
    let error = try onlyError(validation)
    #expect(error.check == .checksum)
    #expect(error.message.contains("torn or corrupted"))
    #expect(validation.exitStatus == .damaged)
    #expect(validation.text(file: "f").hasPrefix("f: error: checksum is 0x"))
  }

  @Test func aPropertyListWithAnotherLayoutIsNotAnArchive() throws {
    let bytes = try PropertyList.write(.dictionary(["items": .array([.integer(1)])]))
    let validation = validate(bytes)
    let error = try onlyError(validation)
    #expect(error.check == .layout)
    #expect(validation.exitStatus == .notArchive)
  }

  @Test func aNewerMajorVersionIsUnsupported() throws {
    let bytes = try Crafting.encoded(Crafting.archive([Crafting.record("A")]), major: 4)
    let validation = validate(bytes)
    let error = try onlyError(validation)
    #expect(error.check == .version)
    #expect(error.message == "archive format 4.0 is newer than the supported 3.1")
    #expect(validation.exitStatus == .unsupportedVersion)
  }

  @Test(arguments: [1, 0, -1])
  func aMajorVersionBelowTwoIsNotAKnownVersion(major: Int) throws {
    // 2.0 is the first layout a release wrote; 1.0 and below are not layouts this tool reads.
    let archive = Crafting.archive([Crafting.record("A")])
    let validation = validate(try Crafting.encoded(archive, major: major))
    let error = try onlyError(validation)
    #expect(error.check == .version)
    #expect(error.code == .unsupportedVersion)
    #expect(error.message == "archive format \(major).0 is older than any released format (2.0)")
    #expect(validation.exitStatus == .unsupportedVersion)
    #expect(validation.archive == nil)
  }

  @Test func aNewerMinorVersionIsOnlyAWarning() throws {
    let bytes = try Crafting.encoded(Crafting.archive([Crafting.record("A")]), minor: 3)
    let validation = validate(bytes)
    #expect(validation.isValid)
    #expect(validation.findings.map(\.check) == [.version])
    #expect(validation.findings.first?.severity == .warning)
    #expect(validation.exitStatus == .success)
    #expect(
      validation.text(file: "f").hasSuffix("f: valid (format 3.3, 1 object, 1 warning)\n"))
  }

  @Test func aReferenceToARecordThatDoesNotExistIsReportedWithItsObject() throws {
    let archive = Crafting.archive([
      Crafting.record("Nav", state: [("top", .reference("Nav/:[0]:/Child"))]),
      Crafting.record("Nav/:[0]:/Child"),
    ])
    var bytes = try archive.encoded()
    // Record 1 is the only UID; point it past the two records.
    try Crafting.retargetReferences(&bytes, from: 1, to: 9)
    let validation = validate(bytes)
    let error = try onlyError(validation)
    #expect(error.check == .reference)
    #expect(error.identifierPath == "Nav")
    #expect(error.message == "reference to object record 9, but there are 2")
    #expect(validation.exitStatus == .damaged)
    #expect(
      validation.text(file: "f").hasPrefix(
        "f: error: object 'Nav': reference to object record 9, but there are 2 [reference]\n"))
  }

  // MARK: Failures in archives that read

  @Test func referencesToPathsWithoutARecordAreReportedWithTheirKey() {
    // Only an archive built in memory can hold one; files hold record numbers.
    let archive = Crafting.archive(
      [
        Crafting.record("A"),
        Crafting.record("A/B", state: [("list", .array([.string("x"), .reference("Nowhere")]))]),
      ],
      extraTopLevel: [("start", .reference("Elsewhere"))]
    )
    let findings = ArchiveValidation(archive: archive).findings
    #expect(findings.map(\.check) == [.reference, .reference])
    #expect(findings[0].key == "start" && findings[0].recordIndex == nil)
    #expect(findings[1].key == "list" && findings[1].recordIndex == 1)
    #expect(findings[1].location == "record 1 (A/B), key 'list'")
    #expect(findings[1].message == "references 'Nowhere', which has no record")
  }

  @Test func childrenBeforeTheirParentsAreReported() throws {
    let bytes = try Crafting.archive([
      Crafting.record("Tab/:[0]:/First"),
      Crafting.record("Tab"),
      Crafting.record("Tab/:[1]:/Nav/:[0]:/Second"),
      Crafting.record("Tab/:[1]:/Nav"),
    ]).encoded()
    let validation = validate(bytes)
    #expect(validation.findings.map(\.check) == [.order, .order])
    #expect(validation.findings.map(\.recordIndex) == [0, 2])
    #expect(
      validation.findings[0].message
        == "comes before its ancestor 'Tab' (record 1); parents must come first")
    #expect(validation.exitStatus == .differencesFound)
    #expect(
      validation.text(file: "f").hasSuffix(
        "f: error: record 2 (Tab/:[1]:/Nav/:[0]:/Second): comes before its ancestor 'Tab/:[1]:/Nav' (record 3); parents must come first [order]\nf: invalid (2 errors, 0 warnings)\n"
      ))
  }

  @Test func duplicatePathsAreReported() throws {
    let archive = Crafting.archive([
      Crafting.record("A"),
      Crafting.record("A/B"),
      Crafting.record("A"),
    ])
    #expect(throws: RestorationError.self) { try archive.encoded() }
    let validation = validate(try archive.encoded(allowingDuplicatePaths: true))
    let error = try onlyError(validation)
    #expect(error.check == .duplicatePath)
    #expect(error.recordIndex == 2)
    #expect(error.location == "record 2 (A)")
    #expect(validation.exitStatus == .differencesFound)
  }

  @Test func storedValuesOfSensitiveKeysAreReported() throws {
    let bytes = try Crafting.archive([
      Crafting.record(
        "Form", state: [("password", .string("hunter2"))], sensitiveKeys: ["password"])
    ]).encoded()
    let validation = validate(bytes)
    let error = try onlyError(validation)
    #expect(error.check == .sensitiveValue)
    #expect(error.key == "password")
    #expect(!validation.text(file: "f").contains("hunter2"))
  }

  @Test func malformedPathsAndMissingEngineKeysAreReported() throws {
    var archive = Crafting.archive([
      Crafting.record(""),
      Crafting.record("A//B"),
      Crafting.record("A/:[0]:"),
    ])
    archive.topLevel[RestorationArchive.Key.timestamp] = .string("yesterday")
    archive.topLevel[RestorationArchive.Key.bundleVersion] = nil
    let validation = validate(try archive.encoded())
    #expect(
      validation.findings.map { "\($0.severity) \($0.check)" } == [
        "warning topLevel", "warning topLevel",
        "error identifierPath", "warning identifierPath", "warning identifierPath",
      ]
    )
    #expect(validation.findings[0].key == RestorationArchive.Key.bundleVersion)
    #expect(validation.findings[1].message == "the top-level value is String, not a date")
    #expect(validation.errorCount == 1 && validation.warningCount == 4)
  }

  @Test func everyProblemOfAnArchiveThatReadsIsReported() throws {
    let bytes = try Crafting.archive([
      Crafting.record("A/:[0]:/B"),
      Crafting.record("A", state: [("pin", .integer(1234))], sensitiveKeys: ["pin"]),
      Crafting.record("A"),
    ]).encoded(allowingDuplicatePaths: true)
    let validation = validate(bytes)
    #expect(Set(validation.findings.map(\.check)) == [.order, .duplicatePath, .sensitiveValue])
    #expect(validation.text(file: "f").hasSuffix("f: invalid (3 errors, 0 warnings)\n"))
  }
}
