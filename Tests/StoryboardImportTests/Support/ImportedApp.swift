import Foundation
import RestorerCore
import StateRestoration
import StateRestorationTesting
import StateRestorationUI
import StoryboardImport
import Testing

/// The custom class of a storyboard's table view controller (`UYLTableViewController`): its
/// table view is the scene's, and it numbers its rows by name.
final class NamedRowsController: ViewController, TableViewDataSource, DataSourceModelAssociation {
  let names = (0..<300).map { "Row \($0)" }

  var tableView: TableView? { view as? TableView }

  override func viewDidLoad() {
    super.viewDidLoad()
    tableView?.dataSource = self
  }

  func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
    names.count
  }

  func modelIdentifierForElement(at indexPath: IndexPath, in view: View) -> String? {
    names.indices.contains(indexPath.row) ? names[indexPath.row] : nil
  }

  func indexPathForElement(withModelIdentifier identifier: String, in view: View) -> IndexPath? {
    names.firstIndex(of: identifier).map { IndexPath(row: $0, section: 0) }
  }
}

/// The custom class of the Restorer's capital screen (`UYLCountryViewController`); it has no
/// restoration class, so only its storyboard can re-create it.
final class CapitalController: ViewController {
  var capital = ""

  override func encodeRestorableState(with coder: StateCoder) throws {
    try super.encodeRestorableState(with: coder)
    coder.encode(capital, forKey: "capital")
  }

  override func decodeRestorableState(with coder: StateDecoder) throws {
    try super.decodeRestorableState(with: coder)
    capital = coder.decode(String.self, forKey: "capital") ?? ""
  }
}

/// File's Owner of the Restorer's `UYLWebViewController.xib`, created in code with a restoration
/// class, as the seed does; its view tree comes from the XIB.
final class NibWebController: ViewController, ViewControllerRestoration {
  let pages = BundledPages()

  var webView: WebView? { view.view(withRestorationIdentifier: "UYLWebView") as? WebView }

  override func viewDidLoad() {
    super.viewDidLoad()
    webView?.pageSource = pages
  }

  /// Loads the XIB again, as `initWithNibName:` does.
  static func makeFromNib() -> NibWebController? {
    var classes = ViewControllerClassRegistry()
    classes.register("UYLWebViewController") { NibWebController() }
    let nib = try? StoryboardImporter(classes: classes).importNib(atPath: Fixtures.webViewNib)
    let controller = nib?.instantiateViewController() as? NibWebController
    controller?.restorationClass = NibWebController.self
    return controller
  }

  static func viewController(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> ViewController? {
    let controller = makeFromNib()
    controller?.restorationIdentifier = identifierComponents.last
    return controller
  }
}

/// Registers the app's classes for the Restorer storyboard and the table-view bug repro.
func restorerClasses() -> ViewControllerClassRegistry {
  var classes = ViewControllerClassRegistry()
  classes.register("UYLTableViewController") { NamedRowsController() }
  classes.register("UYLCountryViewController") { CapitalController() }
  return classes
}

/// A harness whose every process imports the storyboard afresh, as each launch loads it.
func makeHarness(
  for document: InterfaceDocument,
  name: String,
  classes: ViewControllerClassRegistry = restorerClasses(),
  register: @escaping (Application) -> Void = { _ in }
) -> ApplicationHarness {
  let importer = StoryboardImporter(classes: classes)
  return ApplicationHarness(
    makeMainStoryboard: { importer.importStoryboard(document, name: name).storyboard },
    makeDelegate: { RegisteringDelegate(register: register) }
  )
}

/// Opts in, and registers restoration classes before restoration.
final class RegisteringDelegate: ApplicationDelegate {
  let register: (Application) -> Void

  init(register: @escaping (Application) -> Void) {
    self.register = register
  }

  func applicationWillFinishLaunching(_ application: Application) {
    register(application)
  }

  func application(_ application: Application, shouldSaveApplicationState coder: StateCoder)
    -> Bool
  { true }

  func application(_ application: Application, shouldRestoreApplicationState coder: StateDecoder)
    -> Bool
  { true }
}

/// Every controller in a tree, parents first.
func allControllers(under root: ViewController) -> [ViewController] {
  [root] + root.children.flatMap(allControllers)
    + (root.presentedViewController.map(allControllers) ?? [])
}

/// The identifier paths the engine archives for a storyboard's launch hierarchy, every view
/// loaded, as after a user visited every screen.
func archivedLaunchPaths(of document: InterfaceDocument) throws -> [String] {
  let harness = makeHarness(for: document, name: "Main", classes: ViewControllerClassRegistry())
  harness.launch()
  for window in harness.application.windows {
    for controller in window.rootViewController.map(allControllers) ?? [] {
      controller.loadViewIfNeeded()
    }
  }
  harness.application.enterBackground()
  return try #require(harness.savedArchive).records.map(\.identifierPath)
}
