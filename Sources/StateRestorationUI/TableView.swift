#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// Supplies a table view's rows (UIKit's `UITableViewDataSource`).
public protocol TableViewDataSource: AnyObject {
  /// The number of sections; 1 by default.
  ///
  /// - Parameter tableView: The table view asking.
  /// - Returns: The count.
  func numberOfSections(in tableView: TableView) -> Int

  /// The number of rows in a section.
  ///
  /// - Parameters:
  ///   - tableView: The table view asking.
  ///   - section: The section.
  /// - Returns: The count.
  func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int

  /// The text of a row, for renderers; empty by default.
  ///
  /// - Parameters:
  ///   - tableView: The table view asking.
  ///   - indexPath: The row.
  /// - Returns: The text.
  func tableView(_ tableView: TableView, titleForRowAt indexPath: IndexPath) -> String
}

extension TableViewDataSource {
  /// One section by default.
  public func numberOfSections(in tableView: TableView) -> Int { 1 }
  /// No text by default.
  public func tableView(_ tableView: TableView, titleForRowAt indexPath: IndexPath) -> String { "" }
}

/// Hears about a table view's selections (UIKit's `UITableViewDelegate`).
public protocol TableViewDelegate: AnyObject {
  /// Called when the user selects a row.
  ///
  /// - Parameters:
  ///   - tableView: The table view.
  ///   - indexPath: The row.
  func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath)
}

/// Rows in sections, one per line of height ``rowHeight`` (UIKit's `UITableView`).
///
/// Restores its scroll position and selection by model identity when its data source adopts
/// ``DataSourceModelAssociation`` (see ``IndexedScrollView``), and its editing mode.
open class TableView: IndexedScrollView {
  /// Supplies the rows; held weakly, as in UIKit.
  ///
  /// Setting it loads the data.
  public weak var dataSource: (any TableViewDataSource)? {
    didSet { reloadData() }
  }
  /// Hears about selections; held weakly.
  public weak var delegate: (any TableViewDelegate)?

  /// The height of every row.
  open var rowHeight: Double {
    get { itemHeight }
    set { itemHeight = newValue }
  }

  /// The number of rows in a section.
  ///
  /// - Parameter section: The section.
  /// - Returns: The count.
  public func numberOfRows(inSection section: Int) -> Int { numberOfItems(inSection: section) }

  /// The selected row, or the first selected one.
  public var indexPathForSelectedRow: IndexPath? { selectedIndexPaths.first }

  /// The rows shown in the visible area.
  public var indexPathsForVisibleRows: [IndexPath] { indexPathsForVisibleItems }

  /// Selects a row.
  ///
  /// - Parameter indexPath: The row.
  public func selectRow(at indexPath: IndexPath) { selectItem(at: indexPath) }

  /// Deselects a row.
  ///
  /// - Parameter indexPath: The row.
  public func deselectRow(at indexPath: IndexPath) { deselectItem(at: indexPath) }

  /// Scrolls a row to the top.
  ///
  /// - Parameter indexPath: The row.
  public func scrollToRow(at indexPath: IndexPath) { scrollToItem(at: indexPath) }

  /// The text of a row, from the data source.
  ///
  /// - Parameter indexPath: The row.
  /// - Returns: The text.
  public func title(forRowAt indexPath: IndexPath) -> String {
    dataSource?.tableView(self, titleForRowAt: indexPath) ?? ""
  }

  /// The data source's section count.
  open override var dataSourceSectionCount: Int { dataSource?.numberOfSections(in: self) ?? 0 }

  /// The data source's row count.
  open override func dataSourceItemCount(inSection section: Int) -> Int {
    dataSource?.tableView(self, numberOfRowsInSection: section) ?? 0
  }

  /// Whether a data source is set.
  open override var hasDataSource: Bool { dataSource != nil }

  /// The data source's model association.
  open override var modelAssociation: (any DataSourceModelAssociation)? {
    dataSource as? any DataSourceModelAssociation
  }

  /// Tells the delegate.
  open override func didSelectItem(at indexPath: IndexPath) {
    delegate?.tableView(self, didSelectRowAt: indexPath)
  }
}

/// Supplies a collection view's items (UIKit's `UICollectionViewDataSource`).
public protocol CollectionViewDataSource: AnyObject {
  /// The number of sections; 1 by default.
  ///
  /// - Parameter collectionView: The collection view asking.
  /// - Returns: The count.
  func numberOfSections(in collectionView: CollectionView) -> Int

  /// The number of items in a section.
  ///
  /// - Parameters:
  ///   - collectionView: The collection view asking.
  ///   - section: The section.
  /// - Returns: The count.
  func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int

  /// The text of an item, for renderers; empty by default.
  ///
  /// - Parameters:
  ///   - collectionView: The collection view asking.
  ///   - indexPath: The item.
  /// - Returns: The text.
  func collectionView(_ collectionView: CollectionView, titleForItemAt indexPath: IndexPath)
    -> String
}

extension CollectionViewDataSource {
  /// One section by default.
  public func numberOfSections(in collectionView: CollectionView) -> Int { 1 }
  /// No text by default.
  public func collectionView(_ collectionView: CollectionView, titleForItemAt indexPath: IndexPath)
    -> String
  { "" }
}

/// Hears about a collection view's selections (UIKit's `UICollectionViewDelegate`).
public protocol CollectionViewDelegate: AnyObject {
  /// Called when the user selects an item.
  ///
  /// - Parameters:
  ///   - collectionView: The collection view.
  ///   - indexPath: The item.
  func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: IndexPath)
}

/// Items in a grid, ``IndexedScrollView/itemsPerRow`` to a row (UIKit's `UICollectionView` with a flow layout).
///
/// Unlike UIKit, which restores only the raw content offset of a collection view, it restores
/// its scroll position by model item too, like its selection.
open class CollectionView: IndexedScrollView {
  /// Supplies the items; held weakly.
  ///
  /// Setting it loads the data.
  public weak var dataSource: (any CollectionViewDataSource)? {
    didSet { reloadData() }
  }
  /// Hears about selections; held weakly.
  public weak var delegate: (any CollectionViewDelegate)?

  /// Creates a collection view.
  ///
  /// - Parameters:
  ///   - restorationIdentifier: The identifier for restoration.
  ///   - itemsPerRow: How many items share a row.
  public init(restorationIdentifier: String? = nil, itemsPerRow: Int = 3) {
    super.init(restorationIdentifier: restorationIdentifier)
    self.itemsPerRow = itemsPerRow
  }

  /// The selected item, or the first selected one.
  public var indexPathForSelectedItem: IndexPath? { selectedIndexPaths.first }

  /// The text of an item, from the data source.
  ///
  /// - Parameter indexPath: The item.
  /// - Returns: The text.
  public func title(forItemAt indexPath: IndexPath) -> String {
    dataSource?.collectionView(self, titleForItemAt: indexPath) ?? ""
  }

  /// The data source's section count.
  open override var dataSourceSectionCount: Int { dataSource?.numberOfSections(in: self) ?? 0 }

  /// The data source's item count.
  open override func dataSourceItemCount(inSection section: Int) -> Int {
    dataSource?.collectionView(self, numberOfItemsInSection: section) ?? 0
  }

  /// Whether a data source is set.
  open override var hasDataSource: Bool { dataSource != nil }

  /// The data source's model association.
  open override var modelAssociation: (any DataSourceModelAssociation)? {
    dataSource as? any DataSourceModelAssociation
  }

  /// Tells the delegate.
  open override func didSelectItem(at indexPath: IndexPath) {
    delegate?.collectionView(self, didSelectItemAt: indexPath)
  }
}
