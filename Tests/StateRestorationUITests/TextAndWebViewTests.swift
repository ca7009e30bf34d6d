import Foundation
import RestorerCore
import StateRestoration
import StateRestorationTesting
import StateRestorationUI
import Testing

@Suite struct TextViewTests {
  @Test func textFieldSelectionAndEditingComeBack() throws {
    let field = TextField(restorationIdentifier: "Name")
    field.text = "Garfield"
    field.selectedRange = 2..<5
    field.isEditing = true
    let saved = try encodedState(of: field)
    #expect(saved[TextField.textKey] == nil)  // text is app data, not archived by default

    let restored = TextField(restorationIdentifier: "Name")
    restored.text = "Garfield"  // the app restores its own text
    try restore(restored, from: saved)
    #expect(restored.selectedRange == 2..<5)
    #expect(restored.isEditing)
  }

  @Test func rangeThatNoLongerFitsIsDropped() throws {
    let view = TextView(restorationIdentifier: "Notes")
    view.text = "A long note about restoration"
    view.selectedRange = 20..<29
    view.isEditable = false
    let saved = try encodedState(of: view)

    let restored = TextView(restorationIdentifier: "Notes")
    restored.text = "Short"
    restored.selectedRange = 0..<1
    try restore(restored, from: saved)
    #expect(restored.selectedRange == nil)
    #expect(!restored.isEditable)
  }

  @Test func textViewRangeThatFitsAndEditingComeBackAfterProcessDeath() throws {
    final class NotesViewController: ViewController {
      let notes = TextView(restorationIdentifier: "Notes")
      override func loadView() {
        let root = View()
        root.addSubview(notes)
        setView(root)
      }
      // The text is app data: the controller archives it and gives it back in its decode.
      override func encodeRestorableState(with coder: StateCoder) throws {
        try super.encodeRestorableState(with: coder)
        coder.encode(notes.text, forKey: "notesText")
      }
      override func decodeRestorableState(with coder: StateDecoder) throws {
        try super.decodeRestorableState(with: coder)
        notes.text = coder.decode(String.self, forKey: "notesText") ?? ""
      }
    }
    final class Delegate: OptingInApplicationDelegate {
      let controller = NotesViewController(restorationIdentifier: "Editor")
      override func applicationWillFinishLaunching(_ application: Application) {
        application.addWindow(Window(rootViewController: controller))
      }
    }
    let harness = ApplicationHarness { Delegate() }
    harness.launch()
    let notes = try #require((harness.application.delegate as? Delegate)?.controller.notes)
    notes.text = "A long note about restoration"
    notes.selectedRange = 7..<11
    notes.isEditing = true

    let restart = harness.restartAndRestore()
    let restored = try #require((restart.application.delegate as? Delegate)?.controller.notes)
    #expect(restored !== notes)
    #expect(restored.text == "A long note about restoration")
    #expect(restored.selectedRange == 7..<11)
    #expect(restored.isEditing)
    #expect(restored.isEditable)
    #expect(restart.report.entry(for: "Editor/Notes")?.notes == [])
  }

  @Test func textSetLaterInRestorationStillGetsItsSelection() throws {
    // The controller restores the text in its finished-restoring; the range is checked after.
    final class Editor: ViewController {
      let field = TextField(restorationIdentifier: "Field")
      var savedText = ""
      override func loadView() {
        let root = View()
        root.addSubview(field)
        setView(root)
      }
      override func encodeRestorableState(with coder: StateCoder) throws {
        try super.encodeRestorableState(with: coder)
        coder.encode(field.text, forKey: "draft")
      }
      override func decodeRestorableState(with coder: StateDecoder) throws {
        try super.decodeRestorableState(with: coder)
        savedText = coder.decode(String.self, forKey: "draft") ?? ""
      }
      override func applicationFinishedRestoringState() { field.text = savedText }
    }
    final class Delegate: OptingInApplicationDelegate {
      let editor = Editor(restorationIdentifier: "Editor")
      override func applicationWillFinishLaunching(_ application: Application) {
        application.addWindow(Window(rootViewController: editor))
      }
    }
    let harness = ApplicationHarness { Delegate() }
    harness.launch()
    let editor = try #require((harness.application.delegate as? Delegate)?.editor)
    editor.field.text = "Half-typed"
    editor.field.selectedRange = 4..<10
    let restart = harness.restartAndRestore()
    let restoredField = try #require((restart.application.delegate as? Delegate)?.editor.field)
    #expect(restoredField.text == "Half-typed")
    #expect(restoredField.selectedRange == 4..<10)
  }

  @Test func droppedRangeIsNotedInTheReport() throws {
    final class Delegate: OptingInApplicationDelegate {
      let controller = ViewController(restorationIdentifier: "Form")
      let field = TextField(restorationIdentifier: "Field")
      var text = "Long enough text"
      override func applicationWillFinishLaunching(_ application: Application) {
        controller.view.addSubview(field)
        field.text = text
        application.addWindow(Window(rootViewController: controller))
      }
    }
    var text = "Long enough text"
    let harness = ApplicationHarness {
      let delegate = Delegate()
      delegate.text = text
      return delegate
    }
    harness.launch()
    (harness.application.delegate as? Delegate)?.field.selectedRange = 5..<16
    text = "Short"
    let restart = harness.restartAndRestore()
    #expect((restart.application.delegate as? Delegate)?.field.selectedRange == nil)
    let notes = restart.report.entry(for: "Form/Field")?.notes ?? []
    #expect(notes == ["selected range 5..<16 does not fit the text (5 characters); dropped"])
  }

  @Test func switchAndSliderValuesStayOutOfTheArchive() throws {
    let toggle = Switch(restorationIdentifier: "Amazing")
    toggle.isOn = true
    let slider = Slider(restorationIdentifier: "Slider")
    slider.value = 0.7
    #expect(try encodedState(of: toggle).isEmpty)
    #expect(try encodedState(of: slider).isEmpty)
  }
}

/// A controller whose view is one scroll view, with content of a height the app decides.
final class DocumentViewController: ViewController {
  let scrollView = ScrollView(restorationIdentifier: "Scroll")
  let contentHeight: Double

  init(contentHeight: Double) {
    self.contentHeight = contentHeight
    super.init(restorationIdentifier: "Document")
  }

  override func loadView() {
    let root = View()
    root.addSubview(scrollView)
    setView(root)
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    scrollView.bounds = Size(width: 320, height: 400)
    scrollView.contentSize = Size(width: 320, height: contentHeight)
  }
}

@Suite struct ScrollViewTests {
  /// An app whose document is `height` high at each launch, as `heights` says.
  private final class Delegate: OptingInApplicationDelegate {
    let controller: DocumentViewController
    init(height: Double) {
      controller = DocumentViewController(contentHeight: height)
    }
    override func applicationWillFinishLaunching(_ application: Application) {
      application.addWindow(Window(rootViewController: controller))
    }
  }

  @Test func anOffsetPastContentThatShrankComesBackAtTheEndWithANote() throws {
    var heights = [6000.0, 1800]
    let harness = ApplicationHarness { Delegate(height: heights.removeFirst()) }
    harness.launch()
    let first = try #require((harness.application.delegate as? Delegate)?.controller)
    first.scrollView.contentOffset.y = 4200

    // The document is shorter at the next launch: as a table does, the view shows its end
    // instead of an empty screen past it.
    let restart = harness.restartAndRestore()
    let restored = try #require((restart.application.delegate as? Delegate)?.controller)
    #expect(restored.scrollView.contentOffset == Point(x: 0, y: 1400))
    #expect(restart.report.status(of: "Document/Scroll") == .restored)
    #expect(
      restart.report.entry(for: "Document/Scroll")?.notes == [
        "content offset (0, 4200) lies past the content (size 320x1800, view 320x400); restored at (0, 1400)"
      ])
  }

  @Test func anOffsetWithinTheContentComesBackAsItWas() throws {
    let harness = ApplicationHarness { Delegate(height: 6000) }
    harness.launch()
    let first = try #require((harness.application.delegate as? Delegate)?.controller)
    first.scrollView.contentOffset = Point(x: 0, y: 4200)
    let restart = harness.restartAndRestore()
    let restored = try #require((restart.application.delegate as? Delegate)?.controller)
    #expect(restored.scrollView.contentOffset == Point(x: 0, y: 4200))
    #expect(restart.report.entry(for: "Document/Scroll")?.notes == [])
  }

  @Test func aViewWithoutContentYetKeepsTheOffset() throws {
    // Content laid out after restoration (size still zero at its end) is the app's to check.
    let view = ScrollView(restorationIdentifier: "Scroll")
    view.contentOffset.y = 4200
    let saved = try encodedState(of: view)
    let restored = ScrollView(restorationIdentifier: "Scroll")
    try restore(restored, from: saved)
    #expect(restored.contentOffset.y == 4200)
  }
}

@Suite struct WebViewTests {
  /// Visits three pages, goes back once, scrolls and zooms.
  private func browse(_ web: WebView) {
    web.load(BundledPages.home)
    web.scroll(by: 5)
    web.followLink(at: 0)  // State Preservation
    web.zoomScale = 1.5
    web.scroll(by: 7)
    web.followLink(at: 0)  // Restoration Classes
    web.scroll(by: 2)
    web.goBack()  // back to State Preservation, at 7 and x1.5
    web.scroll(by: 3)  // now at 10
    web.zoomScale = 2
  }

  @Test func historyPageScrollAndZoomComeBackWithContentAndNoReload() throws {
    let pages = BundledPages()
    let web = WebView(restorationIdentifier: "WebView")
    web.pageSource = pages
    browse(web)
    #expect(web.currentPage?.title == "State Preservation")
    let saved = try encodedState(of: web)

    let restored = WebView(restorationIdentifier: "WebView")
    restored.pageSource = pages
    try restore(restored, from: saved)
    #expect(restored.currentPage?.title == "State Preservation")
    #expect(restored.currentPage?.lines.isEmpty == false)  // content, not a blank page
    #expect(restored.loadCount == 1)
    #expect(restored.contentOffset.y == 10)
    #expect(restored.zoomScale == 2)
    #expect(
      restored.history.map(\.title) == ["Restorer", "State Preservation", "Restoration Classes"])
    #expect(restored.canGoBack && restored.canGoForward)

    restored.goForward()
    #expect(restored.currentPage?.title == "Restoration Classes")
    #expect(restored.contentOffset.y == 2)
    restored.goBack()
    restored.goBack()
    #expect(restored.currentPage?.title == "Restorer")
    #expect(restored.contentOffset.y == 5)
    #expect(restored.zoomScale == 1)
  }

  @Test func aPageMeasuredAsDrawnScrollsAndRestoresByItsRows() throws {
    // An app that wraps each line into two rows at 100%, and more as it zooms in.
    func measured(_ view: WebView) -> WebView {
      view.pageHeight = { page, _, zoomScale in Double(page.lines.count) * 2 * zoomScale }
      return view
    }
    let pages = BundledPages()
    let web = measured(WebView(restorationIdentifier: "WebView"))
    web.pageSource = pages
    web.load(BundledPages.home)
    let lines = Double(web.currentPage?.lines.count ?? 0)
    #expect(web.contentSize.height == 2 * lines)
    web.zoomScale = 2
    web.layoutPage()
    #expect(web.contentSize.height == 4 * lines)
    web.scroll(by: 3 * lines)  // past the page's line count: rows, not lines
    #expect(web.contentOffset.y == 3 * lines)

    let restored = measured(WebView(restorationIdentifier: "WebView"))
    restored.pageSource = pages
    try restore(restored, from: try encodedState(of: web))
    #expect(restored.zoomScale == 2)
    #expect(restored.contentOffset.y == 3 * lines)
  }

  @Test func pageSourceSetAfterDecodeShowsThePage() throws {
    let web = WebView(restorationIdentifier: "WebView")
    let source = BundledPages()  // the view holds its page source weakly
    web.pageSource = source
    browse(web)
    let saved = try encodedState(of: web)
    let restored = WebView(restorationIdentifier: "WebView")
    try restore(restored, from: saved)
    #expect(restored.currentPage == nil)
    let pages = BundledPages()
    restored.pageSource = pages
    #expect(restored.currentPage?.title == "State Preservation")
    #expect(restored.contentOffset.y == 10)
  }

  @Test func restorerWebControllerCreatedInCodeComesBackShowingItsPage() throws {
    let countries = try CountryList.bundled().countries
    let harness = ApplicationHarness(makeMainStoryboard: RestorerAppDelegate.makeStoryboard) {
      RestorerAppDelegate(countryList: CountryList(countries: countries))
    }
    harness.launch()
    let tabs = try #require(RestorerAppDelegate.tabBarController(of: harness.application))
    tabs.selectedIndex = 1
    let settings = try #require(
      (tabs.selectedViewController as? NavigationController)?.topViewController
        as? SettingsViewController)
    settings.pushMeButton.tap()
    let web = try #require(
      (tabs.selectedViewController as? NavigationController)?.topViewController
        as? WebViewController)
    browse(web.webView)
    // The push loaded the home page already; the browse loads it again on top.
    #expect(
      web.webView.history.map(\.title)
        == ["Restorer", "Restorer", "State Preservation", "Restoration Classes"])

    let restart = harness.restartAndRestore()
    let restoredTabs = try #require(RestorerAppDelegate.tabBarController(of: restart.application))
    let restored = try #require(
      (restoredTabs.selectedViewController as? NavigationController)?.topViewController
        as? WebViewController)
    #expect(restored.isVisible)
    #expect(restored.webView.currentPage?.title == "State Preservation")
    #expect(restored.webView.contentOffset.y == 10)
    #expect(restored.webView.zoomScale == 2)
    #expect(restored.webView.canGoForward)
    #expect(restored.webView.canGoBack)
    // The page's content is there, fetched once by the view itself: the app did not reload.
    #expect(restored.webView.currentPage?.lines.isEmpty == false)
    #expect(restored.webView.loadCount == 1)
    // Titles, positions and zooms as the killed process archived them.
    #expect(restored.webView.history == web.webView.history)
    #expect(
      restart.report.status(
        of: "TabBarControllerID/:[1]:/SettingsNCID/:[1]:/WebViewController/WebView")
        == .restored
    )

    // The history works after the process death, each page where the user left it.
    restored.webView.goForward()
    #expect(restored.webView.currentPage?.title == "Restoration Classes")
    #expect(restored.webView.currentPage?.lines.isEmpty == false)
    #expect(restored.webView.contentOffset.y == 2)
    restored.webView.goBack()
    #expect(restored.webView.currentPage?.title == "State Preservation")
    #expect(restored.webView.contentOffset.y == 10)
    #expect(restored.webView.zoomScale == 2)
    restored.webView.goBack()
    #expect(restored.webView.currentPage?.title == "Restorer")
    #expect(restored.webView.contentOffset.y == 5)
    #expect(restored.webView.zoomScale == 1)
    restored.webView.goBack()  // the page the push loaded
    #expect(restored.webView.currentPage?.title == "Restorer")
    #expect(restored.webView.contentOffset.y == 0)
    #expect(!restored.webView.canGoBack)
    // Each step fetched one page: 1 at restoration, then 4 moves.
    #expect(restored.webView.loadCount == 5)
  }
}

/// Seed 001's setup: a controller created in code, with a restoration class, holding a table and
/// a web view that must come back with it.
final class CodeBuiltController: ViewController, ViewControllerRestoration, TableViewDataSource,
  DataSourceModelAssociation
{
  let table = TableView(restorationIdentifier: "Table")
  let web = WebView(restorationIdentifier: "Web")
  let pages = BundledPages()
  var rows = (0..<100).map { "Row \($0)" }

  override func loadView() {
    let root = View()
    root.addSubview(table)
    root.addSubview(web)
    setView(root)
  }

  override func viewDidLoad() {
    super.viewDidLoad()
    table.dataSource = self
    web.pageSource = pages
  }

  func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { rows.count }

  func modelIdentifierForElement(at indexPath: IndexPath, in view: View) -> String? {
    rows.indices.contains(indexPath.row) ? rows[indexPath.row] : nil
  }

  func indexPathForElement(withModelIdentifier identifier: String, in view: View) -> IndexPath? {
    rows.firstIndex(of: identifier).map { IndexPath(row: $0, section: 0) }
  }

  static func viewController(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> ViewController? {
    let controller = CodeBuiltController(restorationIdentifier: identifierComponents.last)
    controller.restorationClass = CodeBuiltController.self
    controller.rows.insert("Row -1", at: 0)  // the data changed meanwhile
    return controller
  }
}

@Suite struct CodeBuiltControllerTests {
  @Test func tableAndWebViewUnderARestorationClassControllerComeBack() throws {
    final class Delegate: OptingInApplicationDelegate {
      let navigation = NavigationController(
        rootViewController: ViewController(restorationIdentifier: "Settings"),
        restorationIdentifier: "Navigation"
      )
      override func applicationWillFinishLaunching(_ application: Application) {
        application.register(restorationClass: CodeBuiltController.self)
        application.addWindow(Window(rootViewController: navigation))
      }
    }
    let harness = ApplicationHarness { Delegate() }
    harness.launch()
    let controller = CodeBuiltController(restorationIdentifier: "Pushed")
    controller.restorationClass = CodeBuiltController.self
    (harness.application.delegate as? Delegate)?.navigation.pushViewController(controller)
    controller.table.scrollToRow(at: IndexPath(row: 30, section: 0))
    controller.table.selectRow(at: IndexPath(row: 31, section: 0))
    controller.web.load(BundledPages.home)
    controller.web.followLink(at: 1)
    controller.web.scroll(by: 4)

    let restart = harness.restartAndRestore()
    let restored = try #require(
      (restart.application.delegate as? Delegate)?.navigation.topViewController
        as? CodeBuiltController
    )
    #expect(restored !== controller)
    #expect(restored.table.firstVisibleIndexPath.map { restored.rows[$0.row] } == "Row 30")
    #expect(restored.table.indexPathForSelectedRow.map { restored.rows[$0.row] } == "Row 31")
    #expect(restored.web.currentPage?.title == "Restoration Classes")
    #expect(restored.web.contentOffset.y == 4)
    #expect(restart.report.entry(for: "Navigation/:[1]:/Pushed/Table")?.status == .restored)
    #expect(restart.report.entry(for: "Navigation/:[1]:/Pushed/Web")?.status == .restored)
  }

  @Test func viewsWithoutIdentifiersAreNeverArchived() throws {
    let controller = ViewController(restorationIdentifier: "Root")
    let anonymous = ScrollView()
    anonymous.contentOffset.y = 3
    let named = ScrollView(restorationIdentifier: "Named")
    named.contentInset = EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)
    named.zoomScale = 1.25
    anonymous.addSubview(named)
    controller.view.addSubview(anonymous)
    let engine = RestorationEngine(
      applicationInfo: ApplicationInfo(bundleIdentifier: "test"),
      store: InMemoryArchiveStore(),
      settings: RestorationSettings()
    )
    final class OptIn: RestorationDelegate {
      func shouldSaveApplicationState(with coder: StateCoder) -> Bool { true }
      func shouldRestoreApplicationState(with coder: StateDecoder) -> Bool { true }
    }
    let delegate = OptIn()
    engine.delegate = delegate
    let archive = try #require(engine.makeArchive(roots: [controller]).archive)
    #expect(archive.rootIdentifierPaths == ["Root", "Root/Named"])
    let state = try #require(archive.record(at: "Root/Named")?.state)
    let restored = ScrollView(restorationIdentifier: "Named")
    try restore(restored, from: state)
    #expect(restored.contentInset == EdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
    #expect(restored.zoomScale == 1.25)
  }
}
