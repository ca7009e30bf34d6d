/// A web page's text as the terminal draws it: each line of the page wrapped to a column whose
/// width the zoom sets.
///
/// A terminal cannot draw smaller or larger characters, so the zoom changes how many fit on a
/// row instead, as a phone's browser reflows text: zooming in narrows the column (fewer words
/// a row, more rows), zooming out widens it up to the screen's width. Nothing is cut off; every
/// row is reached by scrolling down.
struct PageLayout {
  /// The text column's width at 100%, in characters: about what a phone shows, so that the
  /// text can also be zoomed out on a wider screen.
  static let columnsAtActualSize = 48
  /// The columns left of the text.
  static let margin = 3

  /// The page's rows, in order: the line each comes from, and its text.
  let rows: [(line: Int, text: String)]

  /// Wraps lines at a width, between words where it can, and inside a word longer than a row.
  ///
  /// - Parameters:
  ///   - lines: The page's lines.
  ///   - columns: The text column's width, at least 1.
  init(lines: [String], columns: Int) {
    let columns = max(1, columns)
    var rows: [(line: Int, text: String)] = []
    for (index, line) in lines.enumerated() {
      var row = ""
      for word in line.split(separator: " ", omittingEmptySubsequences: true) {
        if !row.isEmpty, row.count + 1 + word.count <= columns {
          row += " " + word
          continue
        }
        if !row.isEmpty { rows.append((index, row)) }
        var rest = Substring(word)
        while rest.count > columns {
          rows.append((index, String(rest.prefix(columns))))
          rest = rest.dropFirst(columns)
        }
        row = String(rest)
      }
      rows.append((index, row))
    }
    self.rows = rows
  }

  /// The text column's width at a zoom scale, for a screen with `available` columns for text.
  static func columns(zoomScale: Double, available: Int) -> Int {
    let wanted = (Double(columnsAtActualSize) / max(zoomScale, .leastNonzeroMagnitude)).rounded()
    return Int(min(max(1, wanted), Double(max(1, available))))
  }

  /// The smallest useful zoom: the one at which the text fills the screen (never above 100%).
  static func minimumZoomScale(available: Int) -> Double {
    min(1, Double(columnsAtActualSize) / Double(max(1, available)))
  }

  /// The line shown on a row.
  ///
  /// - Parameter row: The row; past the end, the last line.
  /// - Returns: The line's index, 0 for a page without rows.
  func line(atRow row: Int) -> Int {
    rows.isEmpty ? 0 : rows[min(max(0, row), rows.count - 1)].line
  }

  /// The first row of a line.
  ///
  /// - Parameter line: The line's index.
  /// - Returns: Its first row, or the row count when the page has no such line.
  func firstRow(ofLine line: Int) -> Int {
    rows.firstIndex { $0.line >= line } ?? rows.count
  }
}
