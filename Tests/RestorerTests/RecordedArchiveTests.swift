import Foundation
import RestorerCore
import StateRestoration
import StateRestorationTesting
import StateRestorationUI
import Testing

/// The Restorer app's archives, recorded in `__RestorationArchives__` by the version of the app
/// that saved them (`country-detail-1.0.data` by the demo itself, `restorer --keys "down*52 enter
/// h"`), and restored by every run with the current code.
@Suite struct RecordedArchiveTests {
  private let archives = RecordedArchives()
  /// The app's bundle version, as the demo launches it.
  private let applicationInfo = ApplicationInfo(
    bundleIdentifier: "com.example.Restorer", bundleVersion: "1.0", userInterfaceIdiom: "terminal")

  private func makeHarness() throws -> ApplicationHarness {
    ApplicationHarness(
      applicationInfo: applicationInfo, makeMainStoryboard: RestorerAppDelegate.makeStoryboard
    ) {
      do {
        return RestorerAppDelegate(countryList: try CountryList.bundled())
      } catch {
        Issue.record("the bundled countries: \(error)")
        return OptingInApplicationDelegate()
      }
    }
  }

  private func navigation(_ application: Application) throws -> NavigationController {
    let tabs = try #require(RestorerAppDelegate.tabBarController(of: application))
    return try #require(tabs.viewControllers.first as? NavigationController)
  }

  /// Costa Rica's detail over the list, then Home.
  @Test func aCountrysDetailIsRecorded() throws {
    let harness = try makeHarness()
    harness.launch()
    let list = try #require(
      try navigation(harness.application).topViewController as? CountriesViewController)
    list.showCountry(try #require(list.countryList?.country(named: "Costa Rica")))
    harness.application.enterBackground()
    let outcome = try archives.record(
      harness.store.contents[.archive] ?? [], named: "country-detail",
      appVersion: applicationInfo.bundleVersion)
    if case .recordedNew = outcome { Issue.record("\(outcome): commit it") }
  }

  /// Restores every recorded archive; the detail screen must come back with its country.
  private func replayEveryArchive() throws -> [RecordedArchives.Replay] {
    try archives.replay(
      makeHarness,
      check: { archive, application, _ in
        guard archive.fileName.hasPrefix("country-detail-") else { return }
        let detail = try #require(
          try navigation(application).topViewController as? CountryViewController,
          "\(archive.fileName): the country's detail is not shown")
        #expect(detail.country == Country(name: "Costa Rica", capital: "San Jose"))
      })
  }

  @Test func everyRecordedArchiveRestoresWithTheCurrentCode() throws {
    let replays = try replayEveryArchive()
    #expect(replays.contains { $0.archive.fileName == "country-detail-1.0.data" })
    for replay in replays { #expect(replay.passed, "\(replay)") }
  }
}
