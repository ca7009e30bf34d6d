import Foundation
import RestorerCore
import StateRestoration
import StateRestorationTesting
import StateRestorationUI
import Testing

/// The Restorer app's countries table, through process deaths.
@Suite struct RestorerTableTests {
  /// A harness whose processes load the bundled countries, changed by `edit` in each process.
  private func makeHarness(edit: @escaping (CountryList) -> Void = { _ in }) throws
    -> ApplicationHarness
  {
    let countries = try CountryList.bundled().countries
    #expect(countries.count >= 250 - 10)
    return ApplicationHarness(makeMainStoryboard: RestorerAppDelegate.makeStoryboard) {
      let list = CountryList(countries: countries)
      edit(list)
      return RestorerAppDelegate(countryList: list)
    }
  }

  private func countries(_ application: Application) throws -> CountriesViewController {
    let tabs = try #require(RestorerAppDelegate.tabBarController(of: application))
    let navigation = try #require(tabs.viewControllers.first as? NavigationController)
    return try #require(navigation.viewControllers.first as? CountriesViewController)
  }

  /// Scrolls the table to row 50 and selects row 52; returns those countries' names.
  private func scrollAndSelect(_ application: Application) throws -> (
    first: String, selected: String
  ) {
    let list = try countries(application)
    let table = list.tableView
    table.scrollToRow(at: IndexPath(row: 50, section: 0))
    table.selectRow(at: IndexPath(row: 52, section: 0))
    #expect(table.firstVisibleIndexPath == IndexPath(row: 50, section: 0))
    let first = try #require(list.country(at: IndexPath(row: 50, section: 0))?.name)
    let selected = try #require(list.country(at: IndexPath(row: 52, section: 0))?.name)
    return (first, selected)
  }

  @Test func firstVisibleRowAndSelectionComeBackInsideANavigationController() throws {
    let harness = try makeHarness()
    harness.launch()
    _ = try scrollAndSelect(harness.application)

    let restart = harness.restartAndRestore()
    let table = try countries(restart.application).tableView
    #expect(table.firstVisibleIndexPath == IndexPath(row: 50, section: 0))
    #expect(table.indexPathForSelectedRow == IndexPath(row: 52, section: 0))
    #expect(
      restart.report.status(
        of: "TabBarControllerID/:[0]:/CountryNCID/:[0]:/CountryTVCID/CountryTVID") == .restored)
    #expect(table.restorationNotes.isEmpty)
  }

  @Test func rowsDeletedAboveBetweenLaunchesKeepTheSameCountriesFirstAndSelected() throws {
    var deleteAbove = false
    let harness = try makeHarness { list in
      guard deleteAbove else { return }
      list.removeCountries(named: Set(list.countries[10..<13].map(\.name)))
    }
    harness.launch()
    let (first, selected) = try scrollAndSelect(harness.application)
    deleteAbove = true

    let restart = harness.restartAndRestore()
    let list = try countries(restart.application)
    let table = list.tableView
    #expect(table.firstVisibleIndexPath == IndexPath(row: 47, section: 0))
    #expect(table.firstVisibleIndexPath.flatMap(list.country(at:))?.name == first)
    #expect(table.indexPathForSelectedRow.flatMap(list.country(at:))?.name == selected)
  }

  @Test func rowsInsertedAndMovedStillRestoreToTheSameCountries() throws {
    var change = false
    let harness = try makeHarness { list in
      guard change else { return }
      list.insert(Country(name: "Atlantis", capital: "Poseidonis"), at: 0)
      list.insert(Country(name: "Lemuria", capital: "?"), at: 5)
    }
    harness.launch()
    let (first, selected) = try scrollAndSelect(harness.application)
    change = true
    let restart = harness.restartAndRestore()
    let list = try countries(restart.application)
    #expect(list.tableView.firstVisibleIndexPath == IndexPath(row: 52, section: 0))
    #expect(list.tableView.firstVisibleIndexPath.flatMap(list.country(at:))?.name == first)
    #expect(list.tableView.indexPathForSelectedRow.flatMap(list.country(at:))?.name == selected)
  }

  @Test func selectedCountryDeletedGivesNoSelectionNoCrashAndTheReportSaysSo() throws {
    var selectedName = ""
    var delete = false
    let harness = try makeHarness { list in
      if delete { list.removeCountries(named: [selectedName]) }
    }
    harness.launch()
    selectedName = try scrollAndSelect(harness.application).selected
    delete = true

    let restart = harness.restartAndRestore()
    let table = try countries(restart.application).tableView
    #expect(table.indexPathForSelectedRow == nil)
    #expect(table.firstVisibleIndexPath == IndexPath(row: 50, section: 0))
    let entry = try #require(
      restart.report.entry(
        for: "TabBarControllerID/:[0]:/CountryNCID/:[0]:/CountryTVCID/CountryTVID"))
    #expect(entry.status == .restored)
    #expect(
      entry.notes == ["selected item '\(selectedName)' is no longer in the data; not selected"])
    #expect(restart.report.description.contains("not selected"))
  }

  @Test func theArchiveHoldsModelIdentifiersNotRowNumbers() throws {
    let harness = try makeHarness()
    harness.launch()
    let (first, selected) = try scrollAndSelect(harness.application)
    harness.application.enterBackground()
    let archive = try #require(harness.savedArchive)
    let record = try #require(
      archive.record(at: "TabBarControllerID/:[0]:/CountryNCID/:[0]:/CountryTVCID/CountryTVID"))
    #expect(record.kind == .view)
    #expect(record.state[IndexedScrollView.firstVisibleItemKey] == .string(first))
    #expect(record.state[IndexedScrollView.selectedItemsKey] == .array([.string(selected)]))
  }
}

// MARK: - Tables and collections outside the app

/// A data source of named items, with or without model association.
class NamesDataSource: TableViewDataSource, CollectionViewDataSource {
  var names: [String]
  init(_ names: [String]) { self.names = names }
  func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { names.count }
  func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int
  {
    names.count
  }
}

final class AssociatedNamesDataSource: NamesDataSource, DataSourceModelAssociation {
  func modelIdentifierForElement(at indexPath: IndexPath, in view: View) -> String? {
    names.indices.contains(indexPath.row) ? names[indexPath.row] : nil
  }
  func indexPathForElement(withModelIdentifier identifier: String, in view: View) -> IndexPath? {
    names.firstIndex(of: identifier).map { IndexPath(row: $0, section: 0) }
  }
}

/// Runs a view's encode outside any app: what it would archive.
func encodedState(of view: View) throws -> KeyedValues {
  let coder = StateCoder()
  try view.encodeRestorableState(with: coder)
  return coder.values
}

/// Runs a fresh view's decode and finished-restoring outside any app.
func restore(_ view: View, from values: KeyedValues) throws {
  try view.decodeRestorableState(with: StateDecoder(values: values))
  view.applicationFinishedRestoringState()
}

@Suite struct TableAndCollectionUnitTests {
  private let names = (0..<300).map { "Item \($0)" }

  @Test func withoutModelAssociationOnlyTheRawOffsetComesBack() throws {
    let source = NamesDataSource(names)
    let table = TableView(restorationIdentifier: "Table")
    table.dataSource = source
    table.scrollToRow(at: IndexPath(row: 50, section: 0))
    table.selectRow(at: IndexPath(row: 52, section: 0))
    let saved = try encodedState(of: table)

    source.names.removeFirst(3)
    let restored = TableView(restorationIdentifier: "Table")
    restored.dataSource = source
    try restore(restored, from: saved)
    // The raw offset still says row 50, which is now another item; no selection (UIKit's rule).
    #expect(restored.firstVisibleIndexPath == IndexPath(row: 50, section: 0))
    #expect(restored.indexPathForSelectedRow == nil)
  }

  @Test func restorationWaitsForDataThatArrivesAfterDecode() throws {
    let source = AssociatedNamesDataSource(names)
    let table = TableView(restorationIdentifier: "Table")
    table.dataSource = source
    table.scrollToRow(at: IndexPath(row: 120, section: 0))
    table.selectRow(at: IndexPath(row: 125, section: 0))

    // The restored table decodes before its controller has loaded any data (rdar://13438788's
    // situation); the data comes later, and nobody calls a workaround.
    let restored = TableView(restorationIdentifier: "Table")
    try restore(restored, from: try encodedState(of: table))
    #expect(restored.firstVisibleIndexPath == nil)
    let later = AssociatedNamesDataSource(["New"] + names)
    restored.dataSource = later
    #expect(restored.firstVisibleIndexPath == IndexPath(row: 121, section: 0))
    #expect(restored.indexPathForSelectedRow == IndexPath(row: 126, section: 0))
  }

  @Test func multipleSelectionPartialScrollAndEditModeComeBack() throws {
    let source = AssociatedNamesDataSource(names)
    let table = TableView(restorationIdentifier: "Table")
    table.allowsMultipleSelection = true
    table.rowHeight = 2
    table.dataSource = source
    table.contentOffset.y = 2 * 40 + 1  // half-way into row 40
    for row in [3, 41, 7] { table.selectRow(at: IndexPath(row: row, section: 0)) }
    table.isEditing = true
    let saved = try encodedState(of: table)

    source.names.insert("Inserted", at: 0)
    let restored = TableView(restorationIdentifier: "Table")
    restored.allowsMultipleSelection = true
    restored.rowHeight = 2
    restored.dataSource = source
    try restore(restored, from: saved)
    #expect(restored.contentOffset.y == 2 * 41 + 1)
    #expect(restored.selectedIndexPaths.map(\.row) == [4, 8, 42])
    #expect(restored.isEditing)
  }

  @Test func collectionViewRestoresItsScrollPositionByModelItem() throws {
    let source = AssociatedNamesDataSource(names)
    let grid = CollectionView(restorationIdentifier: "Grid", itemsPerRow: 4)
    grid.dataSource = source
    grid.scrollToItem(at: IndexPath(item: 80, section: 0))  // row 20 of the grid
    grid.selectItem(at: IndexPath(item: 83, section: 0))
    #expect(grid.firstVisibleIndexPath == IndexPath(item: 80, section: 0))
    let saved = try encodedState(of: grid)

    source.names.removeFirst(4)  // one grid row fewer above
    let restored = CollectionView(restorationIdentifier: "Grid", itemsPerRow: 4)
    restored.dataSource = source
    try restore(restored, from: saved)
    #expect(restored.firstVisibleIndexPath == IndexPath(item: 76, section: 0))
    #expect(restored.firstVisibleIndexPath.map { source.names[$0.item] } == "Item 80")
    #expect(restored.selectedIndexPaths.map { source.names[$0.item] } == ["Item 83"])
  }

  @Test func sectionsAreLaidOutInOrderAndVisibleRowsFollowTheBounds() throws {
    final class Sections: TableViewDataSource {
      func numberOfSections(in tableView: TableView) -> Int { 3 }
      func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        [5, 0, 10][section]
      }
    }
    let source = Sections()
    let table = TableView()
    table.bounds = Size(width: 40, height: 4)
    table.dataSource = source
    #expect(table.contentSize.height == 15)
    table.scrollToRow(at: IndexPath(row: 2, section: 2))
    #expect(table.contentOffset.y == 7)
    #expect(table.firstVisibleIndexPath == IndexPath(row: 2, section: 2))
    #expect(table.indexPathsForVisibleRows.map(\.row) == [2, 3, 4, 5])
    #expect(table.indexPath(atY: 4.5) == IndexPath(row: 4, section: 0))
    #expect(table.indexPath(after: IndexPath(row: 4, section: 0)) == IndexPath(row: 0, section: 2))
    table.selectRow(at: IndexPath(row: 9, section: 1))  // no such row
    #expect(table.indexPathForSelectedRow == nil)
  }

  @Test func hostileArchivedValuesAreIgnored() throws {
    let table = TableView(restorationIdentifier: "Table")
    let source = AssociatedNamesDataSource(names)
    table.dataSource = source
    let values = KeyedValues([
      (ScrollView.contentOffsetKey, .array([.real(.nan), .real(1)])),
      (ScrollView.zoomScaleKey, .real(-3)),
      (IndexedScrollView.firstVisibleItemKey, .integer(5)),
      (IndexedScrollView.selectedItemsKey, .string("Item 1")),
      (IndexedScrollView.firstVisibleItemOffsetKey, .real(.infinity)),
    ])
    try table.decodeRestorableState(with: StateDecoder(values: values))
    #expect(table.contentOffset == .zero)
    #expect(table.zoomScale == 1)
    #expect(table.indexPathForSelectedRow == nil)
  }
}

/// Pet Finder's matched pets as a grid, restored by pet identity through a process death.
final class MatchedPetsGridController: ViewController, CollectionViewDataSource,
  DataSourceModelAssociation
{
  let grid = CollectionView(restorationIdentifier: "MatchedPets", itemsPerRow: 3)
  var petIDs: [Int] = []

  override func loadView() {
    let root = View()
    root.addSubview(grid)
    setView(root)
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    grid.dataSource = self
  }

  func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int
  {
    petIDs.count
  }

  func modelIdentifierForElement(at indexPath: IndexPath, in view: View) -> String? {
    petIDs.indices.contains(indexPath.item) ? "pet-\(petIDs[indexPath.item])" : nil
  }

  func indexPathForElement(withModelIdentifier identifier: String, in view: View) -> IndexPath? {
    petIDs.firstIndex { "pet-\($0)" == identifier }.map { IndexPath(item: $0, section: 0) }
  }
}

@Suite struct CollectionProcessDeathTests {
  final class Delegate: OptingInApplicationDelegate {
    let grid = MatchedPetsGridController(restorationIdentifier: "Matches")
    init(petIDs: [Int]) {
      grid.petIDs = petIDs
      // Set when the grid is built, before restoration, so the restored selection may hold
      // several items, as in UIKit.
      grid.grid.allowsMultipleSelection = true
    }
    override func applicationWillFinishLaunching(_ application: Application) {
      application.addWindow(
        Window(
          rootViewController: NavigationController(
            rootViewController: grid, restorationIdentifier: "Nav"))
      )
    }
  }

  @Test func gridScrollPositionAndSelectionFollowThePetsAcrossAProcessDeath() throws {
    var ids = Array(1...400)
    let harness = ApplicationHarness { Delegate(petIDs: ids) }
    harness.launch()
    let grid = try #require((harness.application.delegate as? Delegate)?.grid.grid)
    #expect(grid.allowsMultipleSelection)
    grid.scrollToItem(at: IndexPath(item: 150, section: 0))  // pet 151, grid row 50
    grid.selectItem(at: IndexPath(item: 152, section: 0))  // pet 153
    grid.selectItem(at: IndexPath(item: 10, section: 0))  // pet 11, deleted below
    grid.selectItem(at: IndexPath(item: 200, section: 0))  // pet 201
    #expect(grid.selectedIndexPaths.count == 3)
    ids.removeSubrange(9..<15)  // six pets above go away, pet 11 among them

    let restart = harness.restartAndRestore()
    let controller = try #require((restart.application.delegate as? Delegate)?.grid)
    let restored = controller.grid
    #expect(restored.firstVisibleIndexPath.map { controller.petIDs[$0.item] } == 151)
    #expect(restored.firstVisibleIndexPath == IndexPath(item: 144, section: 0))
    #expect(restored.indexPathForSelectedItem.map { controller.petIDs[$0.item] } == 153)
    // Both surviving pets are selected again, at their new positions.
    #expect(restored.selectedIndexPaths.map { controller.petIDs[$0.item] } == [153, 201])
    #expect(
      restored.selectedIndexPaths
        == [IndexPath(item: 146, section: 0), IndexPath(item: 194, section: 0)])
    #expect(
      restart.report.entry(for: "Nav/:[0]:/Matches/MatchedPets")?.notes
        == ["selected item 'pet-11' is no longer in the data; not selected"]
    )
  }
}

/// The Restorer table's scenario with a collection view: a grid of 250 pets in a navigation
/// controller in the second tab of a tab bar, single selection.
@Suite struct CollectionInATabProcessDeathTests {
  final class Delegate: OptingInApplicationDelegate {
    let grid = MatchedPetsGridController(restorationIdentifier: "Matches")
    let tabs = TabBarController(restorationIdentifier: "Tabs")
    init(petIDs: [Int]) {
      grid.petIDs = petIDs
    }
    override func applicationWillFinishLaunching(_ application: Application) {
      // Tabs exist before restoration, as in UIKit; the grid is in the second one.
      tabs.setViewControllers([
        ViewController(restorationIdentifier: "Search"),
        NavigationController(rootViewController: grid, restorationIdentifier: "PetsNav"),
      ])
      application.addWindow(Window(rootViewController: tabs))
    }
  }

  private static let gridPath = "Tabs/:[1]:/PetsNav/:[0]:/Matches/MatchedPets"

  /// Selects the second tab, scrolls the grid to item 50 and selects item 52.
  private func scrollAndSelect(_ harness: ApplicationHarness) throws -> (first: Int, selected: Int)
  {
    let delegate = try #require(harness.application.delegate as? Delegate)
    delegate.tabs.selectedIndex = 1
    let grid = delegate.grid.grid
    #expect(!grid.allowsMultipleSelection)
    grid.scrollToItem(at: IndexPath(item: 50, section: 0))
    grid.selectItem(at: IndexPath(item: 52, section: 0))
    #expect(grid.firstVisibleIndexPath == IndexPath(item: 48, section: 0))
    return (delegate.grid.petIDs[48], delegate.grid.petIDs[52])
  }

  @Test func itemsDeletedAboveKeepTheSamePetFirstAndSelected() throws {
    var ids = Array(1...250)
    let harness = ApplicationHarness { Delegate(petIDs: ids) }
    harness.launch()
    let (first, selected) = try scrollAndSelect(harness)
    ids.removeSubrange(10..<13)  // three pets above go away

    let restart = harness.restartAndRestore()
    let delegate = try #require(restart.application.delegate as? Delegate)
    #expect(delegate.tabs.selectedIndex == 1)
    let grid = delegate.grid.grid
    #expect(grid.firstVisibleIndexPath.map { delegate.grid.petIDs[$0.item] } == first)
    #expect(grid.indexPathForSelectedItem == IndexPath(item: 49, section: 0))
    #expect(grid.indexPathForSelectedItem.map { delegate.grid.petIDs[$0.item] } == selected)
    #expect(restart.report.status(of: Self.gridPath) == .restored)
    #expect(restart.report.entry(for: Self.gridPath)?.notes == [])
  }

  @Test func theSelectedPetDeletedGivesNoSelectionNoCrashAndTheReportSaysSo() throws {
    var ids = Array(1...250)
    let harness = ApplicationHarness { Delegate(petIDs: ids) }
    harness.launch()
    let (first, selected) = try scrollAndSelect(harness)
    ids.removeAll { $0 == selected }

    let restart = harness.restartAndRestore()
    let delegate = try #require(restart.application.delegate as? Delegate)
    let grid = delegate.grid.grid
    #expect(grid.indexPathForSelectedItem == nil)
    #expect(grid.selectedIndexPaths.isEmpty)
    #expect(grid.firstVisibleIndexPath.map { delegate.grid.petIDs[$0.item] } == first)
    #expect(
      restart.report.entry(for: Self.gridPath)?.notes
        == ["selected item 'pet-\(selected)' is no longer in the data; not selected"])
  }
}
