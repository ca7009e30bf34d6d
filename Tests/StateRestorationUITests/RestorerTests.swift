import RestorerCore
import StateRestoration
import StateRestorationTesting
import StateRestorationUI
import Testing

/// The seeds' Restorer app, through process deaths.
@Suite struct RestorerTests {
  /// A harness whose every process loads the bundled countries, minus `removed()`, with the
  /// capitals in `capitals()` replacing the bundled ones.
  private func makeHarness(
    settings: RestorationSettings = RestorationSettings(),
    removed: @escaping () -> Set<String> = { [] },
    capitals: @escaping () -> [String: String] = { [:] }
  ) throws -> ApplicationHarness {
    let countries = try CountryList.bundled().countries
    return ApplicationHarness(
      settings: settings,
      makeMainStoryboard: RestorerAppDelegate.makeStoryboard,
      makeDelegate: {
        let changed = capitals()
        let list = CountryList(
          countries: countries.map {
            Country(name: $0.name, capital: changed[$0.name] ?? $0.capital)
          })
        list.removeCountries(named: removed())
        return RestorerAppDelegate(countryList: list)
      }
    )
  }

  private func tabs(_ application: Application) throws -> TabBarController {
    try #require(RestorerAppDelegate.tabBarController(of: application))
  }

  private func openCountry(_ name: String, in application: Application) throws {
    let tabs = try tabs(application)
    tabs.selectedIndex = 0
    let navigation = try #require(tabs.selectedViewController as? NavigationController)
    let list = try #require(navigation.topViewController as? CountriesViewController)
    let country = try #require(list.countryList?.country(named: name))
    list.showCountry(country)
  }

  @Test func bundledDataHasAboutTwoHundredFiftyCountries() throws {
    let list = try CountryList.bundled()
    #expect(list.countries.count >= 240)
    #expect(list.country(named: "France")?.capital == "Paris")
  }

  @Test func selectedTabAndCountryDetailComeBackAfterProcessDeath() throws {
    let harness = try makeHarness()
    harness.launch()
    try openCountry("Chile", in: harness.application)

    let restart = harness.restartAndRestore()
    #expect(restart.report.restoredEverything, "\(restart.report)")
    #expect(
      restart.leakedObjects.isEmpty, "objects outlived their process: \(restart.leakedObjects)")
    let tabs = try tabs(restart.application)
    #expect(tabs.selectedIndex == 0)
    let navigation = try #require(tabs.selectedViewController as? NavigationController)
    #expect(navigation.viewControllers.count == 2)
    let detail = try #require(navigation.topViewController as? CountryViewController)
    #expect(detail.country == Country(name: "Chile", capital: "Santiago"))
    #expect(detail.isVisible)
    #expect(
      restart.report.status(of: "TabBarControllerID/:[0]:/CountryNCID/:[1]:/CountryDetail")
        == .restored
    )
  }

  @Test func selectedSettingsTabAndTheWebControllerComeBack() throws {
    let harness = try makeHarness()
    harness.launch()
    let tabs = try tabs(harness.application)
    tabs.selectedIndex = 1
    let navigation = try #require(tabs.selectedViewController as? NavigationController)
    let settings = try #require(navigation.topViewController as? SettingsViewController)
    settings.pushMe()

    let restart = harness.restartAndRestore()
    let restoredTabs = try self.tabs(restart.application)
    #expect(restoredTabs.selectedIndex == 1)
    let restoredNavigation = try #require(
      restoredTabs.selectedViewController as? NavigationController)
    #expect(restoredNavigation.topViewController is WebViewController)
    #expect(restoredNavigation.topViewController?.restorationClass == WebViewController.self)
    let path = "TabBarControllerID/:[1]:/SettingsNCID/:[1]:/WebViewController"
    #expect(restart.report.entry(for: path)?.source == .restorationClass)
    #expect(restart.archive?.restorationClassMap[path] == "WebViewController")
  }

  /// The seed archives the capital and shows the archived one: a data update between launches
  /// (a new capital, or none) does not change what the restored screen shows.
  @Test(arguments: ["Valparaíso", ""])
  func countryDetailShowsTheArchivedCapitalWhenTheDataChanged(newCapital: String) throws {
    var updated = false
    let harness = try makeHarness(capitals: { updated ? ["Chile": newCapital] : [:] })
    harness.launch()
    try openCountry("Chile", in: harness.application)
    updated = true

    let restart = harness.restartAndRestore()
    #expect(restart.report.restoredEverything, "\(restart.report)")
    let path = "TabBarControllerID/:[0]:/CountryNCID/:[1]:/CountryDetail"
    #expect(restart.archive?.record(at: path)?.state["capital"] == .string("Santiago"))
    let navigation = try #require(
      try tabs(restart.application).selectedViewController as? NavigationController)
    let detail = try #require(navigation.topViewController as? CountryViewController)
    #expect(detail.country == Country(name: "Chile", capital: "Santiago"))
    #expect(detail.capitalLabel.text == "Santiago")
    #expect(detail.nameLabel.text == "Chile")
    // The new process's data did change: the capital shown came from the archive.
    let list = try #require(navigation.viewControllers.first as? CountriesViewController)
    #expect(list.countryList?.country(named: "Chile")?.capital == newCapital)
    #expect(restart.report.status(of: path) == .restored)
  }

  @Test func deletedCountryIsNotRestoredAndNothingCrashes() throws {
    var deleted = false
    let harness = try makeHarness { deleted ? ["Chile"] : [] }
    harness.launch()
    try openCountry("Chile", in: harness.application)
    deleted = true

    let restart = harness.restartAndRestore()
    #expect(restart.report.outcome == .restored)
    #expect(!restart.report.restoredEverything)
    let navigation = try #require(
      try tabs(restart.application).selectedViewController as? NavigationController)
    #expect(navigation.viewControllers.count == 1)
    #expect(navigation.topViewController is CountriesViewController)
    #expect(
      restart.report.status(of: "TabBarControllerID/:[0]:/CountryNCID/:[1]:/CountryDetail")
        == .skipped(.restorationClassReturnedNil("CountryViewController"))
    )
  }

  @Test func forceQuitStartsFresh() throws {
    let harness = try makeHarness()
    harness.launch()
    try openCountry("Chile", in: harness.application)
    let restart = harness.forceQuitAndRelaunch()
    #expect(restart.report.outcome == .discarded(.forceQuit))
    let navigation = try #require(
      try tabs(restart.application).selectedViewController as? NavigationController)
    #expect(navigation.viewControllers.count == 1)
  }

  @Test func twoCrashesDuringRestorationStartFresh() throws {
    let harness = try makeHarness()
    harness.launch()
    try openCountry("Chile", in: harness.application)
    harness.application.enterBackground()
    harness.launchCrashingDuringRestoration()
    harness.launchCrashingDuringRestoration()
    let restart = harness.relaunch()
    #expect(restart.report.outcome == .discarded(.crashesDuringRestoration(launches: 2)))
    let navigation = try #require(
      try tabs(restart.application).selectedViewController as? NavigationController)
    #expect(navigation.viewControllers.count == 1)
  }

  @Test func oneCrashDuringRestorationStillRestores() throws {
    let harness = try makeHarness()
    harness.launch()
    try openCountry("Chile", in: harness.application)
    harness.application.enterBackground()
    harness.launchCrashingDuringRestoration()
    let restart = harness.relaunch()
    #expect(restart.report.restoredEverything, "\(restart.report)")
    let navigation = try #require(
      try tabs(restart.application).selectedViewController as? NavigationController)
    #expect((navigation.topViewController as? CountryViewController)?.country?.name == "Chile")
  }

  @Test func developerModeKeepsTheStateAfterAForceQuit() throws {
    let harness = try makeHarness(settings: RestorationSettings(developerMode: true))
    harness.launch()
    try openCountry("Chile", in: harness.application)
    let restart = harness.forceQuitAndRelaunch()
    #expect(restart.report.restoredEverything, "\(restart.report)")
  }
}
