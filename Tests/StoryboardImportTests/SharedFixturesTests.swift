import Foundation
import StoryboardTestSupport
import Testing

/// Whether the interoperability suites ran, and if not, why.
///
/// They read real Xcode files from `../shared/fixtures/xcode`, which a clone of the package
/// alone does not have: there they are skipped, each with a line that says why, and a warning
/// here counts them. CI has the files, and sets `REQUIRE_SHARED_FIXTURES=1` so that a run where
/// they went missing fails here instead of passing with suites skipped.
@Suite struct SharedFixturesTests {
  @Test func theInteroperabilityFixturesAreThereWhenRequired() throws {
    guard !Fixtures.xcodeFilesAvailable else { return }
    let suites = Fixtures.interoperabilitySuites
    let tests = try interoperabilitySuitesInSource().reduce(0) { $0 + $1.tests }
    if Fixtures.xcodeFilesRequired {
      Issue.record(
        """
        REQUIRE_SHARED_FIXTURES=1, but the interoperability fixtures are absent: \
        \(Fixtures.xcodeFolder.path) does not exist, so \(tests) tests in \(suites.count) suites \
        would be skipped (\(suites.joined(separator: ", "))). STATE_RESTORATION_SHARED_FIXTURES \
        names the shared folder when it is not ../shared.
        """)
    } else {
      let message: Comment = """
        \(tests) tests in \(suites.count) interoperability suites skipped \
        (\(suites.joined(separator: ", ")); each is listed as skipped): \
        \(Fixtures.skipMessage.rawValue). REQUIRE_SHARED_FIXTURES=1 turns this warning into a \
        failure.
        """
      // Warnings are Swift Testing 6.3's; before it, the skipped tests' own lines say it.
      #if compiler(>=6.3)
        Issue.record(message, severity: .warning)
      #else
        print(message)
      #endif
    }
  }

  @Test func theListOfInteroperabilitySuitesIsComplete() throws {
    // The warning's counts are only as good as the list: every suite with the trait is in it.
    let found = try interoperabilitySuitesInSource().map(\.name)
    #expect(found.sorted() == Fixtures.interoperabilitySuites.sorted())
  }

  /// The suites with the interoperability trait, from the test sources, with their tests.
  private func interoperabilitySuitesInSource() throws -> [(name: String, tests: Int)] {
    var found: [(name: String, tests: Int)] = []
    for path in Fixtures.interoperabilityFolders {
      let folder = Fixtures.packageRoot.appendingPathComponent(path)
      for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
      where name.hasSuffix(".swift") {
        let source = try String(
          contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        let lines = source.split(separator: "\n").map(String.init)
        for (index, line) in lines.enumerated()
        where line.hasPrefix("@Suite(Fixtures.interoperability)") && index + 1 < lines.count {
          let declaration = lines[index + 1].split(separator: " ")
          guard declaration.count > 1 else { continue }
          let body = lines[(index + 1)...].prefix { !$0.hasPrefix("@Suite") }
          let tests = body.filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("@Test") }
          found.append((String(declaration[1]), tests.count))
        }
      }
    }
    return found
  }
}
