import ArchiveInspection
import Foundation
import StateRestoration
import Testing

@Suite struct ArchiveFileTests {
  @Test func readsAndDecodesAFile() throws {
    let archive = try DemoArchives.talkDemo()
    let (folder, file) = try DemoArchives.write(try archive.encoded())
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(try ArchiveFile.archive(at: file.path) == archive)
  }

  @Test func filesAboveTheSizeLimitAreRefusedBeforeTheyAreRead() throws {
    let (folder, file) = try DemoArchives.write(try DemoArchives.talkDemo().encoded())
    defer { try? FileManager.default.removeItem(at: folder) }
    let error = #expect(throws: RestorationError.self) {
      try ArchiveFile(readingFrom: file.path, limits: ArchiveLimits(maxFileSize: 100))
    }
    #expect(error?.code == .limitExceeded)
    #expect(error?.file == file.path)
    #expect(ToolExitStatus(for: .limitExceeded) == .limitExceeded)
  }

  @Test(arguments: [
    ("/nonexistent/data.data", "No such file or directory"),
    ("/dev/null", "is not a regular file"),
    ("/tmp", "is a folder, not a file"),
  ])
  func unreadablePathsAreStorageFailures(path: String, message: String) {
    let error = #expect(throws: RestorationError.self) { try ArchiveFile(readingFrom: path) }
    #expect(error?.code == .storageFailed)
    #expect(error?.message == message)
    #expect(error.map { ToolExitStatus.message(for: $0) } == "\(path): \(message)")
  }

  @Test func decodingErrorsNameTheFile() throws {
    let file = ArchiveFile(path: "notes.txt", bytes: Array("plain text, not an archive".utf8))
    let error = #expect(throws: RestorationError.self) { try file.decoded() }
    #expect(error?.file == "notes.txt")
    #expect(error?.code == .notPropertyList)
  }

  @Test func anEmptyFileIsCalledEmptyNotMissingAHeader() throws {
    let file = ArchiveFile(path: "data.data", bytes: [])
    let error = #expect(throws: RestorationError.self) { try file.decoded() }
    #expect(error?.code == .notPropertyList)
    #expect(error?.message == "the file is empty (0 bytes)")
    #expect(
      error.map { ToolExitStatus.message(for: $0) }
        == "data.data: not a restoration archive: the file is empty (0 bytes)")
    let validation = ArchiveValidation(bytes: [])
    #expect(validation.findings.map(\.message) == ["the file is empty (0 bytes)"])
    #expect(validation.exitStatus == .notArchive)
    // A file with a few bytes that are not a header still says so.
    let short = ArchiveFile(path: "short.data", bytes: Array("bpl".utf8))
    let shortError = #expect(throws: RestorationError.self) { try short.decoded() }
    #expect(shortError?.message.contains("no bplist header") == true)
  }
}

@Suite struct ToolExitStatusTests {
  @Test func everyErrorCodeHasOneStatus() {
    let expected: [RestorationError.Code: Int32] = [
      .storageFailed: 2, .unsafeStorage: 2,
      .notPropertyList: 3, .notArchive: 3,
      .truncated: 4, .malformed: 4, .checksumMismatch: 4,
      .unsupportedVersion: 5,
      .limitExceeded: 6,
      .typeMismatch: 70, .keyNotFound: 70, .encodingFailed: 70, .invalidIdentifier: 70,
      .decodingFailed: 70,
    ]
    #expect(Set(expected.keys) == Set(RestorationError.Code.allCases))
    for code in RestorationError.Code.allCases {
      #expect(ToolExitStatus(for: code).rawValue == expected[code], "\(code)")
    }
    // Answers are 0 and 1; every failure to answer is 2 or more.
    #expect(ToolExitStatus.success.rawValue == 0)
    #expect(ToolExitStatus.differencesFound.rawValue == 1)
    #expect(RestorationError.Code.allCases.allSatisfy { ToolExitStatus(for: $0).rawValue >= 2 })
    #expect(Set(ToolExitStatus.all.map(\.rawValue)).count == ToolExitStatus.all.count)
  }

  @Test func messagesAreOneLineWithTheKindOfFailureAndThePlace() {
    let error = RestorationError(
      .malformed, "dictionary repeats the key 'a'\nand more", file: "data.data",
      identifierPath: "Tab/:[0]:/First", key: "a", offset: 120)
    #expect(
      ToolExitStatus.message(for: error)
        == "data.data: damaged archive: dictionary repeats the key 'a' and more (object 'Tab/:[0]:/First', byte 120)"
    )
    // Said once: a place the message names already is not repeated after it.
    let said = RestorationError(
      .malformed, "the offset table at byte 8 is empty", file: "data.data", offset: 8)
    #expect(
      ToolExitStatus.message(for: said)
        == "data.data: damaged archive: the offset table at byte 8 is empty")
    let keyed = RestorationError(
      .malformed, "dictionary repeats the key 'a'", file: "data.data",
      identifierPath: "Tab", key: "a", offset: 80)
    #expect(
      ToolExitStatus.message(for: keyed)
        == "data.data: damaged archive: dictionary repeats the key 'a' (object 'Tab', byte 80)")
    let unnamed = RestorationError(.unsupportedVersion, "archive format 3.0 is newer")
    #expect(
      ToolExitStatus.message(for: unnamed, file: "x.data")
        == "x.data: unsupported archive: archive format 3.0 is newer")
  }
}
