public import StateRestoration

#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// Maps between index paths and stable model identifiers, so a table or collection view can
/// restore its first visible item and its selection to the same items even when rows were
/// inserted, moved or deleted between launches (UIKit's `UIDataSourceModelAssociation`).
///
/// Adopt it in the data source. Without it, a table or collection view restores only its raw
/// scroll offset, as in UIKit.
public protocol DataSourceModelAssociation: AnyObject {
  /// The identifier of the model object at an index path, or nil if there is none.
  ///
  /// - Parameters:
  ///   - indexPath: The index path.
  ///   - view: The table or collection view asking.
  /// - Returns: A string that identifies the model object across launches.
  func modelIdentifierForElement(at indexPath: IndexPath, in view: View) -> String?

  /// Where the model object with an identifier is now, or nil if it no longer exists.
  ///
  /// - Parameters:
  ///   - identifier: An identifier returned earlier by ``modelIdentifierForElement(at:in:)``.
  ///   - view: The table or collection view asking.
  /// - Returns: The index path, or nil.
  func indexPathForElement(withModelIdentifier identifier: String, in view: View) -> IndexPath?
}

/// The shared machinery of ``TableView`` and ``CollectionView``: items in sections, laid out in
/// rows of equal height, a selection, an editing mode, and restoration by model identity.
///
/// When the data source adopts ``DataSourceModelAssociation``, preservation saves the model
/// identifiers of the first visible item (with how far into it the view was scrolled) and of
/// the selected items; restoration maps them back to index paths. This holds inside a
/// navigation controller too, where UIKit is known to lose the position (rdar://13438788): if
/// the data is not there yet when the view decodes, the restoration waits and is applied when
/// the data source is set or the data is reloaded, with no reload call needed from the app.
open class IndexedScrollView: ScrollView {
  /// Archive key: the model identifier of the first visible item.
  public static let firstVisibleItemKey = "firstVisibleItemIdentifier"
  /// Archive key: how far past the top of the first visible item the view was scrolled.
  public static let firstVisibleItemOffsetKey = "firstVisibleItemOffset"
  /// Archive key: the model identifiers of the selected items.
  public static let selectedItemsKey = "selectedItemIdentifiers"
  /// Archive key: whether the view was in editing mode.
  public static let editingKey = "editing"

  /// The height of one row of items.
  open var itemHeight = 1.0 {
    didSet { invalidateLayout() }
  }
  /// How many items share a row: 1 for a table, more for a grid.
  open var itemsPerRow = 1 {
    didSet { invalidateLayout() }
  }
  /// Whether items can be selected.
  open var allowsSelection = true
  /// Whether several items can be selected at once.
  open var allowsMultipleSelection = false
  /// Whether the view is in editing mode.
  open var isEditing = false

  /// The selected items, in index path order.
  public private(set) var selectedIndexPaths: [IndexPath] = []
  /// Notes about the last restoration that could not reach the report (applied late).
  public private(set) var restorationNotes: [String] = []

  private var counts: [Int]?
  private var sectionRowStarts: [Int] = []
  private var pending: PendingRestoration?
  private weak var restoringCoder: StateDecoder?

  private struct PendingRestoration {
    var firstVisibleIdentifier: String?
    var firstVisibleOffset: Double
    var selectedIdentifiers: [String]
  }

  // MARK: Data, for subclasses

  /// The number of sections, from the data source.
  ///
  /// Subclasses override.
  open var dataSourceSectionCount: Int { 0 }

  /// The number of items in a section, from the data source.
  ///
  /// Subclasses override.
  ///
  /// - Parameter section: The section.
  /// - Returns: The count.
  open func dataSourceItemCount(inSection section: Int) -> Int { 0 }

  /// Whether a data source is attached.
  ///
  /// Subclasses override.
  open var hasDataSource: Bool { false }

  /// The data source's model association, if it adopts one.
  ///
  /// Subclasses override.
  open var modelAssociation: (any DataSourceModelAssociation)? { nil }

  /// Called when the user selects an item (not when restoration does).
  ///
  /// Subclasses forward it to their delegate.
  ///
  /// - Parameter indexPath: The item.
  open func didSelectItem(at indexPath: IndexPath) {}

  // MARK: Layout

  /// Re-reads the counts from the data source, drops selections that no longer exist, and
  /// applies a restoration that was waiting for the data.
  open func reloadData() {
    guard hasDataSource else {
      counts = nil
      return
    }
    let sections = max(0, dataSourceSectionCount)
    var newCounts: [Int] = []
    newCounts.reserveCapacity(sections)
    var starts: [Int] = []
    starts.reserveCapacity(sections)
    var rows = 0
    for section in 0..<sections {
      let count = max(0, dataSourceItemCount(inSection: section))
      newCounts.append(count)
      starts.append(rows)
      rows += (count + max(1, itemsPerRow) - 1) / max(1, itemsPerRow)
    }
    counts = newCounts
    sectionRowStarts = starts
    contentSize = Size(width: bounds.width, height: Double(rows) * itemHeight)
    selectedIndexPaths.removeAll { !isValid($0) }
    if pending != nil { applyPendingRestoration() }
    contentOffset.y = min(max(0, contentOffset.y), maximumContentOffsetY)
  }

  /// The content is laid out once the data is loaded; until then the restored offset waits,
  /// and ``reloadData()`` brings it within the rows.
  override var hasLaidOutContent: Bool { counts != nil }

  private func invalidateLayout() {
    if counts != nil { reloadData() }
  }

  private var loadedCounts: [Int] {
    if counts == nil { reloadData() }
    return counts ?? []
  }

  /// The number of sections.
  public var numberOfSections: Int { loadedCounts.count }

  /// The number of items in a section.
  ///
  /// - Parameter section: The section.
  /// - Returns: The count, or 0 for a section that does not exist.
  public func numberOfItems(inSection section: Int) -> Int {
    let counts = loadedCounts
    return counts.indices.contains(section) ? counts[section] : 0
  }

  /// Whether an index path names an existing item.
  ///
  /// - Parameter indexPath: The index path.
  /// - Returns: True if the item exists.
  public func isValid(_ indexPath: IndexPath) -> Bool {
    indexPath.count == 2 && indexPath.row >= 0
      && indexPath.row < numberOfItems(inSection: indexPath.section)
  }

  /// The vertical position of the top of an item's row.
  ///
  /// - Parameter indexPath: The item.
  /// - Returns: The offset, in content coordinates.
  public func offsetY(of indexPath: IndexPath) -> Double {
    _ = loadedCounts
    guard sectionRowStarts.indices.contains(indexPath.section) else { return contentSize.height }
    let row = sectionRowStarts[indexPath.section] + indexPath.row / max(1, itemsPerRow)
    return Double(row) * itemHeight
  }

  /// The first item of the row at a vertical position.
  ///
  /// - Parameter y: The position, in content coordinates.
  /// - Returns: The item, or nil when there are no items.
  public func indexPath(atY y: Double) -> IndexPath? {
    let counts = loadedCounts
    let perRow = max(1, itemsPerRow)
    let row = max(0, Int((y / max(itemHeight, .leastNonzeroMagnitude)).rounded(.down)))
    // Binary search for the last section starting at or before `row`.
    var low = 0
    var high = sectionRowStarts.count - 1
    var section = -1
    while low <= high {
      let middle = (low + high) / 2
      if sectionRowStarts[middle] <= row {
        section = middle
        low = middle + 1
      } else {
        high = middle - 1
      }
    }
    // Skip empty sections; past the end, answer the last item.
    while section >= 0, section < counts.count, counts[section] == 0 { section += 1 }
    guard section >= 0, section < counts.count else {
      guard let last = counts.lastIndex(where: { $0 > 0 }) else { return nil }
      return IndexPath(row: counts[last] - 1, section: last)
    }
    let item = min((row - sectionRowStarts[section]) * perRow, counts[section] - 1)
    return IndexPath(row: max(0, item), section: section)
  }

  /// The first item shown at the top of the visible area.
  public var firstVisibleIndexPath: IndexPath? {
    indexPath(atY: contentOffset.y + contentInset.top)
  }

  /// The items shown in the visible area, in order.
  public var indexPathsForVisibleItems: [IndexPath] {
    guard let first = firstVisibleIndexPath else { return [] }
    var result: [IndexPath] = []
    let bottom = contentOffset.y + bounds.height
    var current = first
    while offsetY(of: current) < bottom {
      result.append(current)
      guard let next = self.indexPath(after: current) else { break }
      current = next
    }
    return result
  }

  /// The item after an item, across sections.
  ///
  /// - Parameter indexPath: The item.
  /// - Returns: The next item, or nil at the end.
  public func indexPath(after indexPath: IndexPath) -> IndexPath? {
    var section = indexPath.section
    var row = indexPath.row + 1
    while section < numberOfSections {
      if row < numberOfItems(inSection: section) { return IndexPath(row: row, section: section) }
      section += 1
      row = 0
    }
    return nil
  }

  /// Scrolls so that an item's row is at the top (as far as the content allows).
  ///
  /// - Parameter indexPath: The item.
  open func scrollToItem(at indexPath: IndexPath) {
    guard isValid(indexPath) else { return }
    contentOffset.y = min(max(0, offsetY(of: indexPath) - contentInset.top), maximumContentOffsetY)
  }

  /// Scrolls just enough to show an item.
  ///
  /// - Parameter indexPath: The item.
  open func scrollToMakeVisible(_ indexPath: IndexPath) {
    guard isValid(indexPath) else { return }
    let top = offsetY(of: indexPath)
    if top < contentOffset.y {
      contentOffset.y = top
    } else if top + itemHeight > contentOffset.y + bounds.height {
      contentOffset.y = min(top + itemHeight - bounds.height, maximumContentOffsetY)
    }
  }

  // MARK: Selection

  /// Selects an item, replacing the selection unless multiple selection is allowed.
  ///
  /// - Parameter indexPath: The item; ignored when it does not exist.
  open func selectItem(at indexPath: IndexPath) {
    guard allowsSelection, isValid(indexPath) else { return }
    if allowsMultipleSelection {
      guard !selectedIndexPaths.contains(indexPath) else { return }
      selectedIndexPaths.append(indexPath)
      selectedIndexPaths.sort { ($0.section, $0.row) < ($1.section, $1.row) }
    } else {
      selectedIndexPaths = [indexPath]
    }
  }

  /// Selects an item as the user does: selects it and tells the delegate.
  ///
  /// - Parameter indexPath: The item.
  open func userSelectItem(at indexPath: IndexPath) {
    guard allowsSelection, isValid(indexPath) else { return }
    selectItem(at: indexPath)
    didSelectItem(at: indexPath)
  }

  /// Deselects an item.
  ///
  /// - Parameter indexPath: The item.
  open func deselectItem(at indexPath: IndexPath) {
    selectedIndexPaths.removeAll { $0 == indexPath }
  }

  // MARK: State restoration

  /// Writes the scroll position and, through the model association, the first visible item
  /// and the selection as model identifiers; and the editing mode.
  open override func encodeRestorableState(with coder: StateCoder) throws {
    try super.encodeRestorableState(with: coder)
    coder.encode(isEditing, forKey: Self.editingKey)
    guard let association = modelAssociation else { return }
    if let first = firstVisibleIndexPath,
      let identifier = association.modelIdentifierForElement(at: first, in: self)
    {
      coder.encode(identifier, forKey: Self.firstVisibleItemKey)
      coder.encode(
        contentOffset.y + contentInset.top - offsetY(of: first),
        forKey: Self.firstVisibleItemOffsetKey
      )
    }
    let selected = selectedIndexPaths.compactMap {
      association.modelIdentifierForElement(at: $0, in: self)
    }
    if !selected.isEmpty { coder.encode(selected, forKey: Self.selectedItemsKey) }
  }

  /// Reads the state back; the first visible item and the selection are mapped back through the
  /// model association now, or as soon as the data is there.
  open override func decodeRestorableState(with coder: StateDecoder) throws {
    try super.decodeRestorableState(with: coder)
    isEditing = coder.decode(Bool.self, forKey: Self.editingKey) ?? isEditing
    let first = coder.decode(String.self, forKey: Self.firstVisibleItemKey)
    let selected = coder.decode([String].self, forKey: Self.selectedItemsKey) ?? []
    guard first != nil || !selected.isEmpty else { return }
    let offset = coder.decode(Double.self, forKey: Self.firstVisibleItemOffsetKey)
    pending = PendingRestoration(
      firstVisibleIdentifier: first,
      firstVisibleOffset: offset.map { $0.isFinite ? $0 : 0 } ?? 0,
      selectedIdentifiers: selected
    )
    restoringCoder = coder
    restorationNotes = []
    if hasDataSource { reloadData() }
  }

  private func applyPendingRestoration() {
    guard let pending, let association = modelAssociation, numberOfSections > 0 else { return }
    self.pending = nil
    if let identifier = pending.firstVisibleIdentifier {
      if let indexPath = association.indexPathForElement(withModelIdentifier: identifier, in: self),
        isValid(indexPath)
      {
        let offset = min(max(0, pending.firstVisibleOffset), itemHeight)
        contentOffset.y = min(
          max(0, offsetY(of: indexPath) + offset - contentInset.top),
          maximumContentOffsetY
        )
      } else {
        note("first visible item '\(identifier)' is no longer in the data; kept the saved offset")
      }
    }
    var selection: [IndexPath] = []
    for identifier in pending.selectedIdentifiers {
      if let indexPath = association.indexPathForElement(withModelIdentifier: identifier, in: self),
        isValid(indexPath)
      {
        selection.append(indexPath)
      } else {
        note("selected item '\(identifier)' is no longer in the data; not selected")
      }
    }
    selection.sort { ($0.section, $0.row) < ($1.section, $1.row) }
    selectedIndexPaths = allowsMultipleSelection ? selection : Array(selection.prefix(1))
  }

  private func note(_ message: String) {
    restorationNotes.append(message)
    restoringCoder?.reportNote(message)
  }
}
