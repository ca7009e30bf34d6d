import Foundation
import Testing

/// Whether the interoperability suites ran, and if not, why.
///
/// They read real Xcode files from `../shared/fixtures/xcode`, which a clone of the package
/// alone does not have: there they are skipped, each with a line that says why, and a warning
/// here counts them. CI has the files, and sets `REQUIRE_SHARED_FIXTURES=1` so that a run where
/// they went missing fails here instead of passing with suites skipped.
@Suite struct SharedFixturesTests {
  @Test func theInteroperabilityFixturesAreThereWhenRequired() {
    guard !Fixtures.xcodeFilesAvailable else { return }
    let suites = Fixtures.interoperabilitySuites
    if Fixtures.xcodeFilesRequired {
      Issue.record(
        """
        REQUIRE_SHARED_FIXTURES=1, but the interoperability fixtures are absent: \
        \(Fixtures.xcodeFolder.path) does not exist, so \(suites.count) suites would be skipped \
        (\(suites.joined(separator: ", "))). STATE_RESTORATION_SHARED_FIXTURES names the \
        shared folder when it is not ../shared.
        """)
    } else {
      Issue.record(
        """
        \(suites.count) interoperability suites skipped (\(suites.joined(separator: ", ")); \
        their tests are listed as skipped): \(Fixtures.skipMessage.rawValue). \
        REQUIRE_SHARED_FIXTURES=1 turns this warning into a failure.
        """,
        severity: .warning)
    }
  }

  @Test func theListOfInteroperabilitySuitesIsComplete() throws {
    // The warning's count is only as good as the list: every suite with the trait is in it.
    let folder = Fixtures.packageRoot.appendingPathComponent("Tests/StoryboardImportTests")
    var found: [String] = []
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
    where name.hasSuffix(".swift") {
      let source = try String(
        contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
      let lines = source.split(separator: "\n").map(String.init)
      for (index, line) in lines.enumerated()
      where line.hasPrefix("@Suite(Fixtures.interoperability)") && index + 1 < lines.count {
        let declaration = lines[index + 1].split(separator: " ")
        if declaration.count > 1 { found.append(String(declaration[1])) }
      }
    }
    #expect(found.sorted() == Fixtures.interoperabilitySuites.sorted())
  }
}
