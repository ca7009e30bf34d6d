import Foundation
import StateRestoration
import StateRestorationStorage
import TestSupport
import Testing

// The example of the Getting started article (whose controller the README quotes), verbatim
// apart from the temporary folder, so that it keeps compiling and doing what they say.

private final class CountriesController: RestorationNode {
  let restorationIdentifier: String? = "Countries"
  var selectedRow: Int?

  func encodeRestorableState(with coder: StateCoder) throws {
    if let selectedRow { coder.encode(selectedRow, forKey: "selectedRow") }
  }
  func decodeRestorableState(with coder: StateDecoder) throws {
    selectedRow = coder.decode(Int.self, forKey: "selectedRow")
  }
}

private final class AppDelegate: RestorationDelegate {
  func shouldSaveApplicationState(with coder: StateCoder) -> Bool { true }
  func shouldRestoreApplicationState(with coder: StateDecoder) -> Bool { true }
}

@Suite struct ReadmeExampleTests {
  @Test func readmeExampleRestoresAcrossLaunches() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }

    func launch(select row: Int?) throws -> (RestorationReport, CountriesController) {
      let delegate = AppDelegate()
      let engine = RestorationEngine(
        applicationInfo: ApplicationInfo(bundleIdentifier: "com.example.app"),
        store: try FileArchiveStore(stateRoot: folder.path, bundleIdentifier: "com.example.app"))
      engine.delegate = delegate
      let countries = CountriesController()
      let report = engine.restoreApplicationState(roots: [countries])
      if let row { countries.selectedRow = row }
      engine.preserveApplicationState(roots: [countries])
      return (report, countries)
    }

    let (first, _) = try launch(select: 52)
    #expect(first.outcome == .nothingSaved)
    let (second, countries) = try launch(select: nil)
    #expect(second.outcome == .restored)
    #expect(countries.selectedRow == 52)
  }
}
