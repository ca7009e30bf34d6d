package import Foundation
import RestorerCore
package import StateRestoration
package import StateRestorationTesting
package import StateRestorationUI
package import StoryboardImport
import Testing

/// The custom class of a storyboard's table view controller (`UYLTableViewController`): its
/// table view is the scene's, and it numbers its rows by name.
package final class NamedRowsController: ViewController, TableViewDataSource,
  DataSourceModelAssociation
{
  package let names = (0..<300).map { "Row \($0)" }

  package var tableView: TableView? { view as? TableView }

  package override func viewDidLoad() {
    super.viewDidLoad()
    tableView?.dataSource = self
  }

  package func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
    names.count
  }

  package func modelIdentifierForElement(at indexPath: IndexPath, in view: View) -> String? {
    names.indices.contains(indexPath.row) ? names[indexPath.row] : nil
  }

  package func indexPathForElement(withModelIdentifier identifier: String, in view: View)
    -> IndexPath?
  {
    names.firstIndex(of: identifier).map { IndexPath(row: $0, section: 0) }
  }
}

/// The custom class of the Restorer's capital screen (`UYLCountryViewController`); it has no
/// restoration class, so only its storyboard can re-create it.
package final class CapitalController: ViewController {
  package var capital = ""

  package override func encodeRestorableState(with coder: StateCoder) throws {
    try super.encodeRestorableState(with: coder)
    coder.encode(capital, forKey: "capital")
  }

  package override func decodeRestorableState(with coder: StateDecoder) throws {
    try super.decodeRestorableState(with: coder)
    capital = coder.decode(String.self, forKey: "capital") ?? ""
  }
}

/// File's Owner of the Restorer's `UYLWebViewController.xib`, created in code with a restoration
/// class, as the seed does; its view tree comes from the XIB.
package final class NibWebController: ViewController, ViewControllerRestoration {
  let pages = BundledPages()

  package var webView: WebView? { view.view(withRestorationIdentifier: "UYLWebView") as? WebView }

  package override func viewDidLoad() {
    super.viewDidLoad()
    webView?.pageSource = pages
  }

  /// Loads the XIB again, as `initWithNibName:` does.
  package static func makeFromNib() -> NibWebController? {
    var classes = ViewControllerClassRegistry()
    classes.register("UYLWebViewController") { NibWebController() }
    let nib = try? StoryboardImporter(classes: classes).importNib(atPath: Fixtures.webViewNib)
    let controller = nib?.instantiateViewController() as? NibWebController
    controller?.restorationClass = NibWebController.self
    return controller
  }

  package static func viewController(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> ViewController? {
    let controller = makeFromNib()
    controller?.restorationIdentifier = identifierComponents.last
    return controller
  }
}

/// Registers the app's classes for the Restorer storyboard and the table-view bug repro.
package func restorerClasses() -> ViewControllerClassRegistry {
  var classes = ViewControllerClassRegistry()
  classes.register("UYLTableViewController") { NamedRowsController() }
  classes.register("UYLCountryViewController") { CapitalController() }
  return classes
}

/// A harness whose every process imports the storyboard afresh, as each launch loads it.
package func makeHarness(
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
package final class RegisteringDelegate: ApplicationDelegate {
  package let register: (Application) -> Void

  package init(register: @escaping (Application) -> Void) {
    self.register = register
  }

  package func applicationWillFinishLaunching(_ application: Application) {
    register(application)
  }

  package func application(_ application: Application, shouldSaveApplicationState coder: StateCoder)
    -> Bool
  { true }

  package func application(
    _ application: Application, shouldRestoreApplicationState coder: StateDecoder
  )
    -> Bool
  { true }
}

/// Every controller in a tree, parents first.
package func allControllers(under root: ViewController) -> [ViewController] {
  [root] + root.children.flatMap(allControllers)
    + (root.presentedViewController.map(allControllers) ?? [])
}

/// The identifier paths the engine archives for a storyboard's launch hierarchy, every view
/// loaded, as after a user visited every screen.
package func archivedLaunchPaths(of document: InterfaceDocument) throws -> [String] {
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
