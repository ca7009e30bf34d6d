import ArchiveFuzzing
import Foundation
import StateRestoration
import TestSupport
import Testing

/// Replays the fuzzer's seed corpus and every regression input through exactly what the fuzzer
/// runs (`ArchiveFuzzing.exercise`), so CI checks the corpus without the fuzzer.
@Suite struct ArchiveCorpusTests {
  private static let fuzzFolder = BuiltExecutable.packageRoot.appendingPathComponent("Fuzz")

  private static func files(in folder: String) throws -> [URL] {
    let url = fuzzFolder.appendingPathComponent(folder)
    return try FileManager.default.contentsOfDirectory(
      at: url, includingPropertiesForKeys: nil
    )
    .filter { !$0.lastPathComponent.hasPrefix(".") }
    .sorted { $0.lastPathComponent < $1.lastPathComponent }
  }

  @Test func seedArchivesAreRealArchivesAndSurviveEveryReader() throws {
    let seeds = try Self.files(in: "Corpus/archive-reader")
    let archives = seeds.filter { $0.pathExtension == "data" }
    #expect(archives.count >= 3, "the corpus holds real archives made by the Restorer app")
    for url in seeds {
      let bytes = [UInt8](try Data(contentsOf: url))
      if url.pathExtension == "data" {
        // Seeds that are real archives must decode, or they seed nothing past the reader.
        let archive = try RestorationArchive(decoding: bytes)
        #expect(!archive.records.isEmpty, "\(url.lastPathComponent)")
      }
      ArchiveFuzzing.exercise(bytes)
    }
  }

  /// The seeds reach what updates added: records with a state version, an archive of an
  /// earlier app version that the fuzzer's migrations change, and one of a later app version,
  /// which they refuse.
  @Test func seedsHoldStateVersionsAndArchivesOfEarlierAndLaterAppVersions() throws {
    let archives = try Self.files(in: "Corpus/archive-reader").filter { $0.pathExtension == "data" }
      .map { try RestorationArchive(decoding: [UInt8](try Data(contentsOf: $0))) }
    #expect(archives.contains { $0.records.contains { $0.stateVersion > 0 } })
    #expect(archives.contains { $0.bundleVersion == "3.0" })
    let earlier = archives.filter { $0.bundleVersion == "1.0" }
    #expect(
      earlier.contains { $0.records.contains { $0.identifierPath.hasSuffix("/CountryVCID") } })
    #expect(
      ArchiveFuzzing.migrations.contains(
        .renameIdentifier("CountryVCID", to: "CountryDetail", appVersion: "2.0")))
  }

  @Test func regressionInputsSurviveEveryReader() throws {
    for url in try Self.files(in: "Regressions") {
      ArchiveFuzzing.exercise([UInt8](try Data(contentsOf: url)))
    }
  }

  @Test func repairingTheChecksumMakesAMutatedArchiveReadable() throws {
    let seed = try #require(
      try Self.files(in: "Corpus/archive-reader").first {
        $0.lastPathComponent.hasPrefix("restorer-")
      })
    var bytes = [UInt8](try Data(contentsOf: seed))
    // Change one character of a string value: still a well-formed archive, wrong checksum.
    let text = Array("terminal".utf8)
    let start = try #require(
      (0...(bytes.count - text.count)).first { Array(bytes[$0..<$0 + text.count]) == text })
    bytes[start] = UInt8(ascii: "x")
    #expect(throws: RestorationError.self) { try RestorationArchive(decoding: bytes) }
    let repaired = ArchiveFuzzing.repairingChecksum(bytes)
    #expect(repaired != bytes)
    let archive = try RestorationArchive(decoding: repaired)
    let idiom = archive.topLevel["UIApplicationStateRestorationUserInterfaceIdiom"]
    #expect(idiom == .string("xerminal"))
  }
}
