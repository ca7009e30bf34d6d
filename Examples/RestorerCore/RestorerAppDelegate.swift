public import StateRestoration
public import StateRestorationUI

/// The Restorer app: a tab bar with Countries (a navigation controller over a list of about 250
/// countries, each opening a detail screen with its capital) and Settings (a switch, and a
/// button that pushes a web view controller created in code).
///
/// The storyboard mirrors the seed project's `MainStoryboard`: every controller uses its
/// storyboard identifier as its restoration identifier.
public final class RestorerAppDelegate: ApplicationDelegate {
  /// The storyboard's name.
  public static let storyboardName = "MainStoryboard"
  /// The app's version, which the archive records.
  public static let bundleVersion = "2.0"
  /// What the app's updates renamed, applied to the archives of earlier versions as they are
  /// read: version 2.0 gave the country's detail screen its own restoration identifier, and its
  /// state version 1 renamed the key of the country's name.
  public static let migrations: [RestorationMigration] = [
    .renameIdentifier(
      CountryViewController.storyboardID, to: CountryViewController.restorationID,
      appVersion: "2.0"),
    .renameKey(
      "countryName", to: CountryViewController.nameKey, className: "CountryViewController",
      stateVersion: 1),
  ]

  /// The app's data.
  public let countryList: CountryList
  /// The user's settings (the "Amazing" switch).
  public let userSettings: any UserSettings
  /// The migrations the app declares: ``migrations``, unless a test leaves them out.
  public let migrations: [RestorationMigration]
  /// Runs at the end of restoration, before it completes; the demo's
  /// `--crash-during-restore` crashes here to show the crash guard at work.
  public var restorationDidDecode: (() -> Void)?

  /// Creates the delegate.
  ///
  /// - Parameters:
  ///   - countryList: The countries to show.
  ///   - userSettings: Where the settings tab keeps its switch.
  ///   - migrations: The migrations to declare; by default the app's.
  public init(
    countryList: CountryList, userSettings: any UserSettings = InMemoryUserSettings(),
    migrations: [RestorationMigration] = RestorerAppDelegate.migrations
  ) {
    self.countryList = countryList
    self.userSettings = userSettings
    self.migrations = migrations
  }

  /// The main storyboard, as the seed project's `MainStoryboard` lays it out.
  public static func makeStoryboard() -> Storyboard {
    let storyboard = Storyboard(name: storyboardName)
    storyboard.addScene(
      storyboardIdentifier: "TabBarControllerID",
      usesStoryboardIdentifierAsRestorationIdentifier: true,
      relationships: [.viewControllers(["CountryNCID", "SettingsNCID"])],
      isInitial: true
    ) { TabBarController() }
    storyboard.addScene(
      storyboardIdentifier: "CountryNCID",
      usesStoryboardIdentifierAsRestorationIdentifier: true,
      relationships: [.rootViewController("CountryTVCID")]
    ) {
      let navigation = NavigationController()
      navigation.title = "Countries"
      return navigation
    }
    storyboard.addScene(
      storyboardIdentifier: "CountryTVCID",
      usesStoryboardIdentifierAsRestorationIdentifier: true
    ) {
      let list = CountriesViewController()
      list.title = "Countries"
      return list
    }
    // The detail screen has its own restoration identifier since version 2.0.
    storyboard.addScene(
      storyboardIdentifier: CountryViewController.storyboardID,
      restorationIdentifier: CountryViewController.restorationID
    ) { CountryViewController() }
    storyboard.addScene(
      storyboardIdentifier: "SettingsNCID",
      usesStoryboardIdentifierAsRestorationIdentifier: true,
      relationships: [.rootViewController("SettingsVCID")]
    ) {
      let navigation = NavigationController()
      navigation.title = "Settings"
      return navigation
    }
    storyboard.addScene(
      storyboardIdentifier: "SettingsVCID",
      usesStoryboardIdentifierAsRestorationIdentifier: true
    ) {
      let settings = SettingsViewController()
      settings.title = "Settings"
      return settings
    }
    return storyboard
  }

  /// The storyboard each window of the app (each scene) is made from, when the app uses
  /// scenes; without scenes, the application's main storyboard.
  public private(set) lazy var storyboard = Self.makeStoryboard()

  /// Registers the restoration classes and the migrations (and, with scenes, the storyboard)
  /// and hands the data to the list, before restoration.
  public func applicationWillFinishLaunching(_ application: Application) {
    application.engine.registry.migrations = migrations
    application.register(restorationClass: CountryViewController.self)
    application.register(restorationClass: WebViewController.self)
    if application.sceneManifest != nil { application.register(storyboard: storyboard) }
    for window in application.windows {
      window.rootViewController.map(injectData)
    }
  }

  /// Hands the app's data to the controllers under `controller`.
  func injectData(into controller: ViewController) {
    if let list = controller as? CountriesViewController { list.countryList = countryList }
    if let settings = controller as? SettingsViewController { settings.settings = userSettings }
    for child in controller.children { injectData(into: child) }
  }

  /// Opts in to preservation.
  public func application(_ application: Application, shouldSaveApplicationState coder: StateCoder)
    -> Bool
  { true }

  /// Opts in to restoration.
  public func application(
    _ application: Application,
    shouldRestoreApplicationState coder: StateDecoder
  ) -> Bool { true }

  /// Runs ``restorationDidDecode``.
  public func application(
    _ application: Application, didDecodeRestorableStateWith coder: StateDecoder
  ) {
    restorationDidDecode?()
  }

  /// The tab bar controller of the first window, or of the first connected scene's.
  public static func tabBarController(of application: Application) -> TabBarController? {
    let window = application.keyWindow ?? application.connectedScenes.first?.window
    return window?.rootViewController as? TabBarController
  }
}

/// Each window of the Restorer app when it uses scenes: the storyboard's tab bar, restored
/// from that window's own saved state.
public final class RestorerSceneDelegate: SceneDelegate {
  private let appDelegate: RestorerAppDelegate

  /// Creates the delegate of one scene.
  ///
  /// - Parameter appDelegate: The app's delegate, which holds the data and the storyboard.
  public init(appDelegate: RestorerAppDelegate) {
    self.appDelegate = appDelegate
  }

  /// Makes the window from the storyboard, before the scene is restored.
  public func scene(
    _ scene: Scene, willConnectTo session: SceneSession, options: Scene.ConnectionOptions
  ) {
    guard let initial = appDelegate.storyboard.instantiateInitialViewController() else { return }
    appDelegate.injectData(into: initial)
    scene.window = Window(rootViewController: initial)
    scene.title = session.title
  }
}
