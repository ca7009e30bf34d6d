import StateRestoration
import StateRestorationTesting
import StateRestorationUI
import Testing

// The README's view-controller example, so that it keeps compiling and working.

/// Namespaced so its names do not clash with the other tests.
private enum ReadmeUI {
  final class CityViewController: ViewController, ViewControllerRestoration {
    var cityName = ""

    override func encodeRestorableState(with coder: StateCoder) throws {
      try super.encodeRestorableState(with: coder)
      coder.encode(cityName, forKey: "cityName")
    }

    override func decodeRestorableState(with coder: StateDecoder) throws {
      try super.decodeRestorableState(with: coder)
      cityName = coder.decode(String.self, forKey: "cityName") ?? ""
    }

    static func viewController(
      withRestorationIdentifierPath identifierComponents: [String],
      coder: StateDecoder
    ) -> ViewController? {
      let city = CityViewController(restorationIdentifier: identifierComponents.last)
      city.restorationClass = CityViewController.self
      return city
    }
  }

  final class AppDelegate: ApplicationDelegate {
    let navigation = NavigationController(
      rootViewController: ViewController(restorationIdentifier: "Cities"),
      restorationIdentifier: "Navigation"
    )

    func applicationWillFinishLaunching(_ application: Application) {
      application.register(restorationClass: CityViewController.self)
      application.addWindow(Window(rootViewController: navigation))
    }

    func application(_ application: Application, shouldSaveApplicationState coder: StateCoder)
      -> Bool
    {
      true
    }

    func application(_ application: Application, shouldRestoreApplicationState coder: StateDecoder)
      -> Bool
    { true }
  }
}

@Suite struct ReadmeUIExampleTests {
  @Test func cityComesBackAfterTheProcessDies() throws {
    let harness = ApplicationHarness { ReadmeUI.AppDelegate() }
    harness.launch()
    let city = ReadmeUI.CityViewController(restorationIdentifier: "City")
    city.restorationClass = ReadmeUI.CityViewController.self
    city.cityName = "Dresden"
    (harness.application.delegate as? ReadmeUI.AppDelegate)?.navigation.pushViewController(city)

    let restart = harness.restartAndRestore()  // Home, the process is killed, launch again
    #expect(restart.report.outcome == .restored)
    let navigation = try #require(
      (restart.application.delegate as? ReadmeUI.AppDelegate)?.navigation)
    #expect((navigation.topViewController as? ReadmeUI.CityViewController)?.cityName == "Dresden")
  }
}
