public import StateRestoration

#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// A page a ``WebView`` shows: a title, lines of text, and links.
public struct WebPage: Sendable, Hashable {
  /// A link to another page.
  public struct Link: Sendable, Hashable {
    /// The link's text.
    public var title: String
    /// Where it goes.
    public var url: URL

    /// Creates a link.
    ///
    /// - Parameters:
    ///   - title: The text.
    ///   - url: The destination.
    public init(title: String, url: URL) {
      self.title = title
      self.url = url
    }
  }

  /// The page's address.
  public var url: URL
  /// The page's title.
  public var title: String
  /// The page's content, line by line.
  public var lines: [String]
  /// The page's links, in order.
  public var links: [Link]

  /// Creates a page.
  ///
  /// - Parameters:
  ///   - url: The address.
  ///   - title: The title.
  ///   - lines: The content.
  ///   - links: The links.
  public init(url: URL, title: String, lines: [String], links: [Link] = []) {
    self.url = url
    self.title = title
    self.lines = lines
    self.links = links
  }
}

/// Where a ``WebView`` gets pages from: bundled pages, a cache, a network client.
public protocol WebPageSource: AnyObject {
  /// The page at an address.
  ///
  /// - Parameter url: The address.
  /// - Returns: The page, or nil when there is none (the view then shows an error page).
  func page(at url: URL) -> WebPage?
}

/// A browser view with history (UIKit's `UIWebView`).
///
/// Preserves, as UIKit documents, its back/forward history, the scroll position and zoom of
/// every page in it, and which page is current. Unlike UIKit, whose restored web view comes back
/// blank until the app reloads it, restoration shows the current page again, scrolled and
/// zoomed as it was, as soon as a ``pageSource`` is there: no reload call is needed.
open class WebView: ScrollView {
  /// Archive key: the history, one dictionary per page (`url`, `title`, `offset`, `zoom`).
  public static let historyKey = "history"
  /// Archive key: the index of the current page in the history.
  public static let currentIndexKey = "currentIndex"

  /// One visited page, with where the user was on it.
  public struct HistoryItem: Sendable, Hashable, Codable {
    /// The page's address.
    public var url: URL
    /// The page's title, as last seen.
    public var title: String
    /// The vertical scroll position on the page.
    public var scrollOffset: Double
    /// The zoom on the page.
    public var zoomScale: Double
  }

  /// Measures a page as the app draws it, in the units of ``ScrollView/contentOffset``: its
  /// height at a width and a zoom scale.
  ///
  /// Without it, a page is one unit a line, whatever the width and the zoom. An app that wraps
  /// lines sets it, so that scrolling, the history's positions and restoration reach every row
  /// it draws; after the view's width changes, ``layoutPage()`` measures the page again.
  public var pageHeight: ((_ page: WebPage, _ width: Double, _ zoomScale: Double) -> Double)?

  /// Supplies pages.
  ///
  /// Setting it shows the current page if one is waiting.
  public weak var pageSource: (any WebPageSource)? {
    didSet { showCurrentPageIfNeeded() }
  }

  /// The history, oldest first.
  public private(set) var history: [HistoryItem] = []
  /// The index of the current page in ``history``, or nil before the first load.
  public private(set) var currentIndex: Int?
  /// The page shown, or nil while nothing is loaded.
  public private(set) var currentPage: WebPage?
  /// How many times a page's content was fetched from the source.
  public private(set) var loadCount = 0

  /// The current history item.
  public var currentItem: HistoryItem? {
    guard let currentIndex, history.indices.contains(currentIndex) else { return nil }
    return history[currentIndex]
  }

  /// Whether there is a page to go back to.
  public var canGoBack: Bool { (currentIndex ?? 0) > 0 }

  /// Whether there is a page to go forward to.
  public var canGoForward: Bool {
    guard let currentIndex else { return false }
    return currentIndex < history.count - 1
  }

  /// Loads a page, dropping the forward history, as following a link does.
  ///
  /// - Parameter url: The address.
  open func load(_ url: URL) {
    rememberPosition()
    let kept = currentIndex.map { Array(history.prefix($0 + 1)) } ?? []
    history =
      kept + [HistoryItem(url: url, title: url.absoluteString, scrollOffset: 0, zoomScale: 1)]
    currentIndex = history.count - 1
    show(scrollOffset: 0, zoomScale: 1)
  }

  /// Follows a link of the current page.
  ///
  /// - Parameter index: The link's position among the page's links.
  open func followLink(at index: Int) {
    guard let links = currentPage?.links, links.indices.contains(index) else { return }
    load(links[index].url)
  }

  /// Goes back one page, to where the user was on it.
  open func goBack() {
    guard canGoBack, let currentIndex else { return }
    move(to: currentIndex - 1)
  }

  /// Goes forward one page, to where the user was on it.
  open func goForward() {
    guard canGoForward, let currentIndex else { return }
    move(to: currentIndex + 1)
  }

  /// Fetches the current page again, keeping the position.
  open func reload() {
    guard let item = currentItem else { return }
    show(scrollOffset: contentOffset.y, zoomScale: item.zoomScale)
  }

  /// Measures the current page again, after its drawing changed (the view's width or the zoom
  /// scale), and keeps the offset within it.
  open func layoutPage() {
    guard let page = currentPage else { return }
    contentSize = Size(width: bounds.width, height: height(of: page))
    contentOffset.y = min(max(0, contentOffset.y), maximumContentOffsetY)
  }

  private func height(of page: WebPage) -> Double {
    pageHeight?(page, bounds.width, zoomScale) ?? Double(page.lines.count)
  }

  private func move(to index: Int) {
    rememberPosition()
    currentIndex = index
    let item = history[index]
    show(scrollOffset: item.scrollOffset, zoomScale: item.zoomScale)
  }

  /// Stores the current scroll position and zoom in the current history item.
  private func rememberPosition() {
    guard let currentIndex, history.indices.contains(currentIndex) else { return }
    history[currentIndex].scrollOffset = contentOffset.y
    history[currentIndex].zoomScale = zoomScale
  }

  private func show(scrollOffset: Double, zoomScale: Double) {
    guard let item = currentItem else { return }
    guard let pageSource else {
      currentPage = nil
      return
    }
    let page =
      pageSource.page(at: item.url)
      ?? WebPage(
        url: item.url, title: "Not Found",
        lines: ["The page \(item.url.absoluteString) could not be found."])
    loadCount += 1
    currentPage = page
    if let currentIndex { history[currentIndex].title = page.title }
    self.zoomScale = zoomScale
    contentSize = Size(width: bounds.width, height: height(of: page))
    contentOffset = Point(x: 0, y: min(max(0, scrollOffset), maximumContentOffsetY))
  }

  /// The content is laid out once a page is shown, which places the offset within it.
  override var hasLaidOutContent: Bool { currentPage != nil }

  private func showCurrentPageIfNeeded() {
    guard currentPage == nil, let item = currentItem else { return }
    show(scrollOffset: item.scrollOffset, zoomScale: item.zoomScale)
  }

  /// Writes the history with each page's position, and the current page.
  open override func encodeRestorableState(with coder: StateCoder) throws {
    rememberPosition()
    try super.encodeRestorableState(with: coder)
    let items: [StateValue] = history.map { item in
      .dictionary([
        "url": .string(item.url.absoluteString),
        "title": .string(item.title),
        "offset": .real(item.scrollOffset),
        "zoom": .real(item.zoomScale),
      ])
    }
    coder.encodeValue(.array(items), forKey: Self.historyKey)
    if let currentIndex { coder.encode(currentIndex, forKey: Self.currentIndexKey) }
  }

  /// Reads the history back and shows the current page where the user left it.
  open override func decodeRestorableState(with coder: StateDecoder) throws {
    try super.decodeRestorableState(with: coder)
    guard case .array(let items) = coder.decodeValue(forKey: Self.historyKey) else { return }
    var restored: [HistoryItem] = []
    for case .dictionary(let fields) in items {
      guard let address = fields["url"].flatMap(String.init(stateValue:)),
        let url = URL(string: address)
      else {
        coder.reportNote("a history entry without a valid address was skipped")
        continue
      }
      let offset = fields["offset"].flatMap(Double.init(stateValue:)) ?? 0
      let zoom = fields["zoom"].flatMap(Double.init(stateValue:)) ?? 1
      restored.append(
        HistoryItem(
          url: url,
          title: fields["title"].flatMap(String.init(stateValue:)) ?? address,
          scrollOffset: offset.isFinite ? offset : 0,
          zoomScale: zoom.isFinite && zoom > 0 ? zoom : 1
        )
      )
    }
    history = restored
    let index = coder.decode(Int.self, forKey: Self.currentIndexKey) ?? restored.count - 1
    currentIndex = restored.indices.contains(index) ? index : restored.indices.last
    currentPage = nil
    showCurrentPageIfNeeded()
  }
}
