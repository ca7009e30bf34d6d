// swift-format-ignore-file
import UIKit

/// The books on the shelf; the table restores its selection by book, not by row.
final class BooksViewController: UITableViewController, UIDataSourceModelAssociation {
  var books: [String] = []

  func modelIdentifierForElement(at idx: IndexPath, in view: UIView) -> String? {
    books.indices.contains(idx.row) ? books[idx.row] : nil
  }

  func indexPathForElement(withModelIdentifier identifier: String, in view: UIView) -> IndexPath? {
    books.firstIndex(of: identifier).map { IndexPath(row: $0, section: 0) }
  }
}
