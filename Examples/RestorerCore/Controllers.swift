public import Foundation
public import StateRestoration
public import StateRestorationUI

/// The countries tab's list (the storyboard's `CountryTVCID`), a table of about 250 countries
/// (its table view is `CountryTVID`, as in the seed project).
///
/// It is the table's data source and maps rows to countries by name
/// (``DataSourceModelAssociation``), so the first visible row and the selection come back to the
/// same countries even when the data changed between launches.
public final class CountriesViewController: ViewController, TableViewDataSource, TableViewDelegate,
  DataSourceModelAssociation
{
  /// The table view's restoration identifier.
  public static let tableIdentifier = "CountryTVID"

  /// The app's data; setting it reloads the table.
  public var countryList: CountryList? {
    didSet { if isViewLoaded { tableView.reloadData() } }
  }

  /// The table view.
  public let tableView = TableView(restorationIdentifier: CountriesViewController.tableIdentifier)
  /// The row the keyboard cursor is on; UI focus, not archived.
  public var cursorRow: Int?

  /// Builds the view: the table fills it.
  public override func loadView() {
    let root = View()
    root.addSubview(tableView)
    setView(root)
  }

  /// Connects the table to its data.
  public override func viewDidLoad() {
    super.viewDidLoad()
    tableView.delegate = self
    tableView.dataSource = self
  }

  /// The country at a row.
  ///
  /// - Parameter indexPath: The row.
  /// - Returns: The country, or nil.
  public func country(at indexPath: IndexPath) -> Country? {
    guard let countries = countryList?.countries, indexPath.section == 0,
      countries.indices.contains(indexPath.row)
    else { return nil }
    return countries[indexPath.row]
  }

  /// Pushes the detail screen of a country, as selecting a row does.
  ///
  /// - Parameter country: The country to show.
  public func showCountry(_ country: Country) {
    let detail =
      storyboard?.instantiateViewController(withIdentifier: CountryViewController.storyboardID)
      as? CountryViewController ?? CountryViewController()
    detail.country = country
    navigationController?.pushViewController(detail)
  }

  // MARK: TableViewDataSource

  /// The number of countries.
  public func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
    countryList?.countries.count ?? 0
  }

  /// The country's name.
  public func tableView(_ tableView: TableView, titleForRowAt indexPath: IndexPath) -> String {
    country(at: indexPath)?.name ?? ""
  }

  // MARK: TableViewDelegate

  /// Opens the selected country.
  public func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {
    if let country = country(at: indexPath) { showCountry(country) }
  }

  // MARK: DataSourceModelAssociation

  /// A country's name identifies it across launches.
  public func modelIdentifierForElement(at indexPath: IndexPath, in view: View) -> String? {
    country(at: indexPath)?.name
  }

  /// Where the country with a name is now.
  public func indexPathForElement(withModelIdentifier identifier: String, in view: View)
    -> IndexPath?
  {
    countryList?.index(ofCountryNamed: identifier).map { IndexPath(row: $0, section: 0) }
  }
}

/// A country's detail screen, showing its capital (the storyboard's `CountryVCID`).
///
/// It is re-created at launch by its restoration class, which returns nil when the country has
/// been deleted from the data since: the screen is then not restored, and the navigation stack
/// ends at the list.
///
/// This is the screen's second version. The app's version 1.0 saved it as `CountryVCID`, its
/// storyboard identifier, and wrote the country's name under `countryName`; version 2.0 gives it
/// the identifier `CountryDetail` and the key `name`, declares state version 1, and
/// ``RestorerAppDelegate/migrations`` says so, so that what a user of 1.0 had open comes back.
public final class CountryViewController: ViewController, ViewControllerRestoration {
  /// The storyboard identifier.
  public static let storyboardID = "CountryVCID"
  /// The restoration identifier; `CountryVCID` before the app's version 2.0.
  public static let restorationID = "CountryDetail"
  /// The key of the country's name; `countryName` before state version 1.
  static let nameKey = "name"
  static let capitalKey = "capital"

  /// The country shown.
  public var country: Country? {
    didSet { updateLabels() }
  }
  /// Shows the country's name.
  public let nameLabel = Label()
  /// Shows the capital.
  public let capitalLabel = Label()

  /// Creates the controller; it re-creates itself at launch.
  public override init(restorationIdentifier: String? = CountryViewController.restorationID) {
    super.init(restorationIdentifier: restorationIdentifier)
    title = "Capital"
    restorationClass = CountryViewController.self
  }

  /// Builds the labels.
  public override func loadView() {
    let root = View()
    root.addSubview(nameLabel)
    root.addSubview(capitalLabel)
    setView(root)
    updateLabels()
  }

  private func updateLabels() {
    nameLabel.text = country?.name ?? ""
    capitalLabel.text = country.map { $0.capital.isEmpty ? "(no capital)" : $0.capital } ?? ""
  }

  /// Version 1: the country's name is under `name`, no longer `countryName`.
  public override var restorationStateVersion: Int { 1 }

  /// Writes the country's name and capital.
  public override func encodeRestorableState(with coder: StateCoder) throws {
    try super.encodeRestorableState(with: coder)
    if let country {
      coder.encode(country.name, forKey: Self.nameKey)
      coder.encode(country.capital, forKey: Self.capitalKey)
    }
  }

  /// Reads the country back with its archived capital, as the seed app does.
  ///
  /// The screen comes back showing what it showed, even if the data's capital has changed or is
  /// missing since. Only an archive without a capital falls back to the data.
  public override func decodeRestorableState(with coder: StateDecoder) throws {
    try super.decodeRestorableState(with: coder)
    guard let name = coder.decode(String.self, forKey: Self.nameKey) else { return }
    let capital =
      coder.decode(String.self, forKey: Self.capitalKey)
      ?? Self.countryList(coder)?.country(named: name)?.capital ?? ""
    country = Country(name: name, capital: capital)
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
    return CountryViewController(restorationIdentifier: identifierComponents.last)
  }

  private static func countryList(_ coder: StateDecoder) -> CountryList? {
    (coder.application?.delegate as? RestorerAppDelegate)?.countryList
  }
}

/// The settings tab (the storyboard's `SettingsVCID`): the "Amazing" switch, whose value lives
/// in the user's settings, not in the archive, and the "Push Me!" button.
public final class SettingsViewController: ViewController {
  /// The "Amazing" switch.
  public let amazingSwitch = Switch()
  /// The "Push Me!" button.
  public let pushMeButton = Button("Push Me!")
  /// Which item has the keyboard focus: 0 the switch, 1 the button; not archived.
  public var focusedItem = 0
  /// Where the switch's value lives.
  public var settings: (any UserSettings)? {
    didSet { amazingSwitch.isOn = settings?.isAmazing ?? true }
  }

  /// Builds the switch and the button.
  public override func loadView() {
    let root = View()
    root.addSubview(amazingSwitch)
    root.addSubview(pushMeButton)
    setView(root)
  }

  /// Reads the switch's value from the settings and wires the controls, as the seed does in
  /// `viewDidLoad`.
  public override func viewDidLoad() {
    super.viewDidLoad()
    amazingSwitch.isOn = settings?.isAmazing ?? true
    amazingSwitch.valueChanged = { [weak self] isOn in self?.settings?.isAmazing = isOn }
    pushMeButton.action = { [weak self] in self?.pushMe() }
  }

  /// Pushes the web view controller, created in code with a restoration class, as the seed
  /// app's "Push Me!" button does.
  ///
  /// - Returns: The controller pushed.
  @discardableResult
  public func pushMe() -> WebViewController {
    let controller = WebViewController()
    controller.loadViewIfNeeded()
    controller.webView.load(BundledPages.home)
    navigationController?.pushViewController(controller)
    return controller
  }
}

/// Where the settings tab keeps the "Amazing" switch: app data, outside the archive.
public protocol UserSettings: AnyObject {
  /// The switch's value.
  var isAmazing: Bool { get set }
}

/// Settings kept in memory, for tests.
public final class InMemoryUserSettings: UserSettings {
  /// The switch's value; on by default, as the seed registers it.
  public var isAmazing: Bool

  /// Creates settings.
  ///
  /// - Parameter isAmazing: The initial value.
  public init(isAmazing: Bool = true) {
    self.isAmazing = isAmazing
  }
}

/// A controller created in code, re-created at launch by its restoration class (the seed's
/// `UYLWebViewController`), holding a web view with the restoration identifier `WebView`.
///
/// Its web view restores its history, page, scroll and zoom and shows the page again by itself:
/// no reload workaround, unlike the seed's.
public final class WebViewController: ViewController, ViewControllerRestoration {
  /// The restoration identifier.
  public static let identifier = "WebViewController"

  /// The web view.
  public let webView = WebView(restorationIdentifier: "WebView")
  /// The pages it shows.
  public let pages = BundledPages()
  /// Which link of the page has the keyboard focus; not archived.
  public var focusedLink = 0

  /// Creates the controller with its restoration identifier and class set, as the seed does.
  public init() {
    super.init(restorationIdentifier: Self.identifier)
    restorationClass = WebViewController.self
    title = "Web"
  }

  /// Builds the view: the web view fills it.
  public override func loadView() {
    let root = View()
    root.addSubview(webView)
    setView(root)
  }

  /// Connects the page source, and measures pages as the terminal draws them, wrapped at the
  /// zoom's width, so that scrolling reaches every row.
  public override func viewDidLoad() {
    super.viewDidLoad()
    webView.pageHeight = { page, width, zoomScale in
      let columns = PageLayout.columns(
        zoomScale: zoomScale, available: Int(width) - PageLayout.margin)
      return Double(PageLayout(lines: page.lines, columns: columns).rows.count)
    }
    webView.pageSource = pages
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
