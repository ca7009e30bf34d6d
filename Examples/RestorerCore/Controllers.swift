public import StateRestoration
public import StateRestorationUI

/// The countries tab's list (the storyboard's `CountryTVCID`).
public final class CountriesViewController: ViewController {
  /// The app's data.
  public var countryList: CountryList?

  /// Pushes the detail screen of a country, as selecting a row does.
  ///
  /// - Parameter country: The country to show.
  public func showCountry(_ country: Country) {
    let detail =
      storyboard?.instantiateViewController(withIdentifier: CountryViewController.storyboardID)
      as? CountryViewController
      ?? CountryViewController(restorationIdentifier: CountryViewController.storyboardID)
    detail.country = country
    navigationController?.pushViewController(detail)
  }
}

/// A country's detail screen, showing its capital (the storyboard's `CountryVCID`).
///
/// It is re-created at launch by its restoration class, which returns nil when the country has
/// been deleted from the data since: the screen is then not restored, and the navigation stack
/// ends at the list.
public final class CountryViewController: ViewController, ViewControllerRestoration {
  /// The storyboard identifier and restoration identifier.
  public static let storyboardID = "CountryVCID"
  static let nameKey = "countryName"
  static let capitalKey = "capital"

  /// The country shown.
  public var country: Country?

  /// Creates the controller; it re-creates itself at launch.
  public override init(restorationIdentifier: String? = CountryViewController.storyboardID) {
    super.init(restorationIdentifier: restorationIdentifier)
    title = "Capital"
    restorationClass = CountryViewController.self
  }

  /// Writes the country's name and capital.
  public override func encodeRestorableState(with coder: StateCoder) throws {
    try super.encodeRestorableState(with: coder)
    if let country {
      coder.encode(country.name, forKey: Self.nameKey)
      coder.encode(country.capital, forKey: Self.capitalKey)
    }
  }

  /// Reads the country back, preferring the app's current data to the archived capital.
  public override func decodeRestorableState(with coder: StateDecoder) throws {
    try super.decodeRestorableState(with: coder)
    guard let name = coder.decode(String.self, forKey: Self.nameKey) else { return }
    let capital = coder.decode(String.self, forKey: Self.capitalKey) ?? ""
    country = Self.countryList(coder)?.country(named: name) ?? Country(name: name, capital: capital)
  }

  /// Re-creates the detail screen, unless its country is no longer in the data.
  public static func viewController(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> ViewController? {
    guard let name = coder.decode(String.self, forKey: nameKey) else { return nil }
    if let list = countryList(coder), list.country(named: name) == nil {
      coder.debugLog(
        "Country '\(name)' is no longer in the data; its detail screen is not restored")
      return nil
    }
    let controller = CountryViewController(restorationIdentifier: identifierComponents.last)
    return controller
  }

  private static func countryList(_ coder: StateDecoder) -> CountryList? {
    (coder.application?.delegate as? RestorerAppDelegate)?.countryList
  }
}

/// The settings tab (the storyboard's `SettingsVCID`): the "Amazing" switch, whose value lives
/// in the user's settings file, not in the archive, and the "Push Me!" button.
public final class SettingsViewController: ViewController {
  /// Pushes the web view controller, created in code with a restoration class, as the seed
  /// app's "Push Me!" button does.
  ///
  /// - Returns: The controller pushed.
  @discardableResult
  public func pushMe() -> WebViewController {
    let controller = WebViewController()
    navigationController?.pushViewController(controller)
    return controller
  }
}

/// A controller created in code, re-created at launch by its restoration class (the seed's
/// `UYLWebViewController`).
public final class WebViewController: ViewController, ViewControllerRestoration {
  /// The restoration identifier.
  public static let identifier = "WebViewController"

  /// Creates the controller with its restoration identifier and class set, as the seed does.
  public init() {
    super.init(restorationIdentifier: Self.identifier)
    restorationClass = WebViewController.self
    title = "Web"
  }

  /// Re-creates the controller, giving it back its identifier and restoration class.
  public static func viewController(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> ViewController? {
    let controller = WebViewController()
    controller.restorationIdentifier = identifierComponents.last
    return controller
  }
}
