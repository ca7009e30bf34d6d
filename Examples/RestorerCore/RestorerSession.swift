import Foundation
import StateRestoration
public import StateRestorationUI

/// One screenful of text, with the lines to highlight.
public struct Frame: Sendable, Hashable {
  /// The lines, each exactly as wide as the frame.
  public var lines: [String]
  /// The indices of lines to show highlighted (reverse video on a terminal).
  public var highlighted: Set<Int>

  /// The lines joined with newlines, trailing spaces trimmed.
  public var text: String {
    lines.map { line in
      var trimmed = Substring(line)
      while trimmed.last == " " { trimmed = trimmed.dropLast() }
      return String(trimmed)
    }
    .joined(separator: "\n")
  }
}

/// The running Restorer app as a terminal shows it: it turns keys into actions on the headless
/// controllers and draws the visible controller as text.
///
/// Everything here is terminal-independent and tested; the executable only moves bytes between
/// this session and the terminal.
public final class RestorerSession {
  /// What the host must do after a key.
  public enum Action: Sendable, Hashable {
    /// Nothing beyond redrawing.
    case none
    /// The Home button: preserve, then exit as the system kills a suspended app.
    case home
    /// Force quit from the app switcher: the saved state is deleted.
    case forceQuit
    /// Close this window in the app switcher: its session and its saved state are deleted.
    case closeWindow
  }

  /// The application.
  public let application: Application
  /// The frame's width, in columns.
  public private(set) var width: Int
  /// The frame's height, in lines.
  public private(set) var height: Int
  /// The status line: what the last launch or action did.
  public private(set) var status: String

  /// The smallest frame the app draws into.
  public static let minimumSize = (width: 40, height: 10)

  /// Creates a session for a launched application.
  ///
  /// - Parameters:
  ///   - application: The application, already launched.
  ///   - width: The frame's width.
  ///   - height: The frame's height.
  public init(application: Application, width: Int = 80, height: Int = 24) {
    self.application = application
    self.width = width
    self.height = height
    status = Self.launchStatus(
      application.restorationReport ?? application.connectedScenes.first?.restorationReport)
    layout()
  }

  /// Describes how the launch went, for the status line.
  static func launchStatus(_ report: RestorationReport?) -> String {
    guard let report else { return "Launched." }
    switch report.outcome {
    case .nothingSaved:
      return "Started fresh: nothing was saved."
    case .restored:
      let restored = report.restoredPaths.count
      let skipped = report.entries.count - restored
      let milliseconds =
        Double(report.totalDuration.components.attoseconds) / 1e15
        + Double(report.totalDuration.components.seconds) * 1000
      var text = "Restored \(restored) objects in \(String(format: "%.1f", milliseconds)) ms"
      if skipped > 0 { text += "; \(skipped) not restored" }
      let notes = report.entries.flatMap(\.notes)
      if let note = notes.first { text += "; \(note)" }
      return text + "."
    case .discarded(let reason):
      return "Fresh start: state discarded \(reason)."
    case .vetoedByDelegate:
      return "Started fresh: the app declined to restore."
    case .postponed(let error):
      return "Started fresh, the saved state kept for a later launch: \(error)."
    }
  }

  /// Changes the frame size, as a terminal resize does.
  ///
  /// - Parameters:
  ///   - width: The new width.
  ///   - height: The new height.
  public func resize(width: Int, height: Int) {
    self.width = width
    self.height = height
    layout()
  }

  /// Whether the frame is at least ``minimumSize``, so the app is drawn.
  var isLargeEnough: Bool { width >= Self.minimumSize.width && height >= Self.minimumSize.height }

  /// The number of content lines between the bars.
  var contentHeight: Int { max(1, height - 6) }

  /// Sizes the scrolling views to the content area, so scrolling matches what is drawn.
  private func layout() {
    for navigation in tabs?.viewControllers.compactMap({ $0 as? NavigationController }) ?? [] {
      for controller in navigation.viewControllers {
        if let list = controller as? CountriesViewController {
          list.tableView.bounds = Size(width: Double(width), height: Double(contentHeight))
          list.tableView.reloadData()
        }
        if let web = controller as? WebViewController {
          let view = web.webView
          view.bounds = Size(width: Double(width), height: Double(max(1, contentHeight - 2)))
          // Zooming out stops where the text fills the screen: further would change nothing.
          view.minimumZoomScale = PageLayout.minimumZoomScale(available: textColumns)
          if view.zoomScale < view.minimumZoomScale {
            zoom(view, to: view.minimumZoomScale)
          } else {
            view.layoutPage()
          }
        }
      }
    }
  }

  /// The columns of the web view's text area, right of its margin.
  private var textColumns: Int { max(1, width - PageLayout.margin) }

  /// The web view's page as drawn at its zoom.
  private func layout(of view: WebView) -> PageLayout? {
    guard let page = view.currentPage else { return nil }
    let columns = PageLayout.columns(zoomScale: view.zoomScale, available: textColumns)
    return PageLayout(lines: page.lines, columns: columns)
  }

  /// Zooms the web view (within its limits), keeping the line at the top of the screen there.
  private func zoom(_ view: WebView, to scale: Double) {
    let topLine = layout(of: view)?.line(atRow: Int(view.contentOffset.y)) ?? 0
    view.zoomScale = scale
    view.layoutPage()
    guard let layout = layout(of: view) else { return }
    view.contentOffset.y = min(Double(layout.firstRow(ofLine: topLine)), view.maximumContentOffsetY)
  }

  /// A zoom some steps of 25% away.
  ///
  /// Steps are powers of 1.25 (100%, 125%, 156%, ... and 80%, 64%, ...), so that a zoom clamped
  /// at a limit gets back onto them.
  ///
  /// - Parameters:
  ///   - scale: The zoom now.
  ///   - steps: How many steps, negative to zoom out.
  /// - Returns: The zoom, before the view clamps it to its limits.
  static func zoomStep(from scale: Double, by steps: Int) -> Double {
    let step = (log(max(scale, .leastNormalMagnitude)) / log(1.25)).rounded()
    return pow(1.25, step + Double(steps))
  }

  private var tabs: TabBarController? { RestorerAppDelegate.tabBarController(of: application) }

  private var navigation: NavigationController? {
    tabs?.selectedViewController as? NavigationController
  }

  /// The controller on screen.
  public var visibleController: ViewController? { navigation?.visibleViewController }

  /// A title for the window, as the app switcher lists it: the tab and the screen.
  public var windowTitle: String {
    let tab = tabs?.selectedViewController?.title ?? "Restorer"
    guard let screen = visibleController?.title, screen != tab else { return tab }
    return "\(tab) > \(screen)"
  }

  // MARK: - Keys

  /// Handles one key.
  ///
  /// - Parameter key: The key.
  /// - Returns: What the host must do next.
  @discardableResult
  public func handle(_ key: Key) -> Action {
    switch key {
    case .character("h"), .interrupt:
      return .home
    case .character("Q"):
      return .forceQuit
    case .character("w") where !application.connectedScenes.isEmpty:
      return .closeWindow
    default:
      break
    }
    // Nothing is drawn but the size message: a key would change a screen the user cannot see.
    guard isLargeEnough else { return .none }
    switch key {
    case .character("q"):
      // Quitting is two different things on iOS; say which key does which.
      status =
        application.connectedScenes.isEmpty
        ? "h = Home, Q = force quit." : "h = Home, Q = force quit, w = close."
      return .none
    case .character("1"), .character("2"):
      let index = key == .character("1") ? 0 : 1
      tabs?.selectedIndex = index
      layout()
      status = "\(tabs?.selectedViewController?.title ?? "Tab") tab."
      return .none
    default:
      break
    }
    switch visibleController {
    case let list as CountriesViewController: handleList(key, list)
    case let detail as CountryViewController: handleDetail(key, detail)
    case let settings as SettingsViewController: handleSettings(key, settings)
    case let web as WebViewController: handleWeb(key, web)
    default: break
    }
    return .none
  }

  private func handleList(_ key: Key, _ list: CountriesViewController) {
    let table = list.tableView
    let count = table.numberOfRows(inSection: 0)
    guard count > 0 else { return }
    var cursor = cursorRow(of: list)
    switch key {
    case .up: cursor -= 1
    case .down: cursor += 1
    case .pageUp: cursor -= contentHeight
    case .pageDown: cursor += contentHeight
    case .home: cursor = 0
    case .end: cursor = count - 1
    case .enter, .character(" "), .right:
      let indexPath = IndexPath(row: cursor, section: 0)
      table.userSelectItem(at: indexPath)
      status = "Selected \(list.country(at: indexPath)?.name ?? "a country")."
      layout()
      return
    default:
      return
    }
    cursor = min(max(0, cursor), count - 1)
    list.cursorRow = cursor
    table.scrollToMakeVisible(IndexPath(row: cursor, section: 0))
  }

  /// The cursor row: where the user left it, else the selected row if visible, else the first
  /// visible row (after a restore the cursor is not archived; the selection is).
  private func cursorRow(of list: CountriesViewController) -> Int {
    let table = list.tableView
    let visible = table.indexPathsForVisibleRows.map(\.row)
    if let cursor = list.cursorRow, visible.contains(cursor) { return cursor }
    if let selected = table.indexPathForSelectedRow?.row, visible.contains(selected) {
      return selected
    }
    return visible.first ?? 0
  }

  private func handleDetail(_ key: Key, _ detail: CountryViewController) {
    switch key {
    case .escape, .backspace, .left:
      navigation?.popViewController()
      status = "Back to the list."
    default:
      break
    }
  }

  private func handleSettings(_ key: Key, _ settings: SettingsViewController) {
    switch key {
    case .up: settings.focusedItem = 0
    case .down: settings.focusedItem = 1
    case .enter, .character(" "):
      if settings.focusedItem == 0 {
        settings.amazingSwitch.toggle()
        status =
          "Amazing is \(settings.amazingSwitch.isOn ? "on" : "off") (kept in the settings file, not the archive)."
      } else {
        settings.pushMeButton.tap()
        layout()
        status = "Pushed the web view controller (created in code, with a restoration class)."
      }
    default:
      break
    }
  }

  private func handleWeb(_ key: Key, _ controller: WebViewController) {
    let web = controller.webView
    let page = Double(max(1, contentHeight - 2))
    switch key {
    case .up: web.scroll(by: -1)
    case .down: web.scroll(by: 1)
    case .pageUp: web.scroll(by: -page)
    case .pageDown: web.scroll(by: page)
    case .home: web.scroll(by: -web.contentOffset.y)
    case .end: web.scroll(by: web.maximumContentOffsetY)
    case .tab, .right:
      let links = web.currentPage?.links.count ?? 0
      if links > 0 { controller.focusedLink = (controller.focusedLink + 1) % links }
    case .enter:
      guard
        let link = web.currentPage?.links.indices.contains(controller.focusedLink) == true
          ? web.currentPage?.links[controller.focusedLink] : nil
      else { return }
      web.followLink(at: controller.focusedLink)
      controller.focusedLink = 0
      status = "Opened \(link.title)."
    case .character("b"):
      web.goBack()
      controller.focusedLink = 0
    case .character("f"):
      web.goForward()
      controller.focusedLink = 0
    case .character("+"), .character("="):
      guard web.zoomScale < web.maximumZoomScale else {
        status = "Zoomed in as far as it goes."
        return
      }
      zoom(web, to: Self.zoomStep(from: web.zoomScale, by: 1))
    case .character("-"):
      guard web.zoomScale > web.minimumZoomScale else {
        status = "Zoomed out as far as it goes: the text fills the screen's width."
        return
      }
      zoom(web, to: Self.zoomStep(from: web.zoomScale, by: -1))
    case .escape, .backspace, .left:
      navigation?.popViewController()
      status = "Back to Settings."
    default:
      break
    }
  }

  // MARK: - Drawing

  /// Draws the visible controller.
  ///
  /// - Returns: The frame.
  public func render() -> Frame {
    guard isLargeEnough else { return tooSmallFrame() }
    var lines: [String] = []
    var highlighted: Set<Int> = []
    lines.append(titleBar())
    lines.append(navigationBar())
    lines.append(String(repeating: "-", count: width))
    let (content, marks) = contentLines()
    for (index, line) in content.prefix(contentHeight).enumerated() {
      if marks.contains(index) { highlighted.insert(lines.count) }
      lines.append(line)
    }
    while lines.count < 3 + contentHeight { lines.append("") }
    lines.append(String(repeating: "-", count: width))
    lines.append(status)
    lines.append(helpLine())
    return Frame(lines: lines.map { fit($0) }, highlighted: highlighted)
  }

  /// The size message, wrapped to the frame, with the keys that still work.
  private func tooSmallFrame() -> Frame {
    let need = "need \(Self.minimumSize.width)x\(Self.minimumSize.height)"
    let lines = Self.wrap(
      ["Terminal too small:", need, "(h Home,", "Q force quit)"], width: max(1, width))
    var frame = Array(lines.prefix(max(1, height)))
    while frame.count < max(1, height) { frame.append("") }
    return Frame(lines: frame.map { fit($0) }, highlighted: [])
  }

  /// Wraps phrases into lines of at most `width` characters, breaking only between phrases
  /// unless a phrase alone is too long.
  static func wrap(_ phrases: [String], width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for phrase in phrases {
      if line.isEmpty {
        line = phrase
      } else if line.count + 1 + phrase.count <= width {
        line += " " + phrase
      } else {
        lines.append(line)
        line = phrase
      }
      while line.count > width {
        lines.append(String(line.prefix(width)))
        line = String(line.dropFirst(width))
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }

  /// Pads or cuts a line to the frame's width.
  private func fit(_ line: String) -> String {
    if line.count >= width { return String(line.prefix(width)) }
    return line + String(repeating: " ", count: width - line.count)
  }

  private func titleBar() -> String {
    let names = (tabs?.viewControllers ?? []).enumerated().map { index, controller in
      let title = controller.title ?? "Tab \(index + 1)"
      return tabs?.selectedIndex == index ? "[\(index + 1) \(title)]" : " \(index + 1) \(title) "
    }
    let right = names.joined(separator: " ")
    let left = " Restorer"
    let gap = max(1, width - left.count - right.count - 1)
    return left + String(repeating: " ", count: gap) + right
  }

  private func navigationBar() -> String {
    guard let navigation, let top = navigation.visibleViewController else { return "" }
    var left = " "
    if navigation.viewControllers.count > 1 {
      let previous = navigation.viewControllers[navigation.viewControllers.count - 2]
      left += "< \(previous.title ?? "Back")   "
    }
    left += top.title ?? ""
    var right = ""
    if let list = top as? CountriesViewController {
      let rows = list.tableView.indexPathsForVisibleRows.map(\.row)
      if let first = rows.first, let last = rows.last {
        right = "rows \(first + 1)-\(last + 1) of \(list.tableView.numberOfRows(inSection: 0)) "
      }
    } else if let web = top as? WebViewController {
      right = "zoom \(Int((web.webView.zoomScale * 100).rounded()))% "
    }
    let gap = max(1, width - left.count - right.count)
    return left + String(repeating: " ", count: gap) + right
  }

  private func contentLines() -> ([String], Set<Int>) {
    switch visibleController {
    case let list as CountriesViewController:
      let table = list.tableView
      let cursor = cursorRow(of: list)
      let selected = Set(table.selectedIndexPaths.map(\.row))
      var lines: [String] = []
      var marks: Set<Int> = []
      for indexPath in table.indexPathsForVisibleRows.prefix(contentHeight) {
        let isCursor = indexPath.row == cursor
        let marker = isCursor ? ">" : " "
        let selection = selected.contains(indexPath.row) ? "*" : " "
        if isCursor { marks.insert(lines.count) }
        lines.append(" \(marker)\(selection) \(table.title(forRowAt: indexPath))")
      }
      return (lines, marks)
    case let detail as CountryViewController:
      guard let country = detail.country else { return (["", "   (no country)"], []) }
      return (
        [
          "", "   Country:  \(country.name)",
          "   Capital:  \(country.capital.isEmpty ? "(none)" : country.capital)", "",
          "   Esc or Backspace goes back to the list.",
        ], []
      )
    case let settings as SettingsViewController:
      let on = settings.amazingSwitch.isOn
      let rows = [
        " \(settings.focusedItem == 0 ? ">" : " ") Amazing            [\(on ? " ON" : "OFF")]",
        " \(settings.focusedItem == 1 ? ">" : " ") Push Me!",
      ]
      return (
        [""] + rows + [
          "", "   The switch's value lives in the settings file, not in the",
          "   restoration archive: it is app data.",
        ], [1 + settings.focusedItem]
      )
    case let web as WebViewController:
      return webLines(web)
    default:
      return ([], [])
    }
  }

  private func webLines(_ controller: WebViewController) -> ([String], Set<Int>) {
    let web = controller.webView
    guard let page = web.currentPage else { return (["", "   (blank page)"], []) }
    let links = page.links.enumerated().map { index, link in
      index == controller.focusedLink ? ">\(link.title)<" : " \(link.title) "
    }
    var history: [String] = []
    if web.canGoBack { history.append("b: back") }
    if web.canGoForward { history.append("f: forward") }
    var lines = [
      " \(page.title)" + (history.isEmpty ? "" : "   (" + history.joined(separator: ", ") + ")"),
      " Links: " + links.joined(separator: " "),
    ]
    // The text wraps at the zoom's width (see PageLayout); the offset counts its rows.
    let rows = layout(of: web)?.rows ?? []
    let first = Int(web.contentOffset.y.rounded(.down))
    let margin = String(repeating: " ", count: PageLayout.margin)
    lines += rows.dropFirst(first).prefix(max(0, contentHeight - 2)).map { margin + $0.text }
    return (lines, [])
  }

  /// The keys of the visible screen; the lifecycle keys come first, so that a narrow terminal
  /// (40 columns) still shows them when the line is cut.
  private func helpLine() -> String {
    // With scenes, w closes this window; the other keys then fit in what is left of 80.
    let hasScenes = !application.connectedScenes.isEmpty
    let common =
      hasScenes ? " h Home  Q force quit  w close  1/2 tabs  " : " h Home  Q force quit  1/2 tabs  "
    switch visibleController {
    case is CountriesViewController:
      return common + "Up/Down PgUp/PgDn Home/End  Enter open"
    case is CountryViewController: return common + "Esc back"
    case is SettingsViewController: return common + "Up/Down move  Enter toggle/press"
    case is WebViewController:
      // Fits 80 columns; Up/Down scroll the page, as everywhere. b and f move in the page
      // history; Esc goes back to Settings, as it goes back from a country.
      return common
        + (hasScenes
          ? "Tab/Enter link  b/f  +/- zoom Esc back"
          : "Tab/Enter link  b/f history  +/- zoom  Esc back")
    default: return common
    }
  }
}
