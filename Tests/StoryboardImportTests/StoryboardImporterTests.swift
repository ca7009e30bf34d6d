import Foundation
import RestorerCore
import StateRestoration
import StateRestorationTesting
import StateRestorationUI
import StoryboardImport
import StoryboardTestSupport
import Testing

/// The real storyboards and XIBs become the headless hierarchy the app gets at launch, and it
/// restores through the engine.
@Suite(Fixtures.interoperability)
struct StoryboardImporterTests {
  private struct SceneShape: Equatable {
    var storyboardIdentifier: String?
    var restorationIdentifier: String?
    var usesStoryboardIdentifier: Bool
    var relationships: [Storyboard.Relationship]
  }

  private func shapes(of storyboard: Storyboard) -> [String: SceneShape] {
    storyboard.scenes.mapValues {
      SceneShape(
        storyboardIdentifier: $0.storyboardIdentifier,
        restorationIdentifier: $0.restorationIdentifier,
        usesStoryboardIdentifier: $0.usesStoryboardIdentifierAsRestorationIdentifier,
        relationships: $0.relationships)
    }
  }

  @Test(arguments: [Fixtures.restorer, Fixtures.restorer2013])
  func theRestorerStoryboardHasTheShapeOfTheOneWrittenByHand(path: String) throws {
    let imported = try StoryboardImporter().importStoryboard(atPath: path, name: "MainStoryboard")
    let byHand = RestorerAppDelegate.makeStoryboard()
    #expect(imported.storyboard.name == byHand.name)
    #expect(imported.storyboard.initialSceneID == byHand.initialSceneID)
    // One difference on purpose: since the demo's version 2.0, the detail screen has its own
    // restoration identifier instead of its Storyboard ID (its migration brings 1.0's back).
    var demo = shapes(of: byHand)
    #expect(demo["CountryVCID"]?.restorationIdentifier == "CountryDetail")
    demo["CountryVCID"]?.restorationIdentifier = nil
    demo["CountryVCID"]?.usesStoryboardIdentifier = true
    #expect(shapes(of: imported.storyboard) == demo)
  }

  @Test func theLaunchHierarchyHasTheKindsClassesAndTheScenesViews() throws {
    let imported = try StoryboardImporter().importStoryboard(atPath: Fixtures.restorer)
    #expect(imported.storyboard.name == "Restorer__Restorer__Base.lproj__MainStoryboard")
    let tabs = try #require(
      imported.storyboard.instantiateInitialViewController() as? TabBarController)
    #expect(tabs.restorationIdentifier == "TabBarControllerID")
    #expect(tabs.viewControllers.map(\.restorationIdentifier) == ["CountryNCID", "SettingsNCID"])
    let countries = try #require(tabs.viewControllers.first as? NavigationController)
    #expect(countries.title == "Countries")
    let list = try #require(countries.topViewController)
    #expect(type(of: list) == ViewController.self)
    #expect(list.restorationIdentifier == "CountryTVCID")
    let table = try #require(list.view as? TableView)
    #expect(table.restorationIdentifier == "CountryTVID")
    #expect(table.subviews.isEmpty)  // the prototype cell is a template, not a subview

    let settings = try #require(
      (tabs.viewControllers.last as? NavigationController)?.topViewController)
    #expect(settings.title == "Settings")
    let views = settings.view.subviews
    #expect(views.count == 2)
    #expect(views[0].subviews.map { String(describing: type(of: $0)) } == ["Label", "Switch"])
    #expect((views[0].subviews.first as? Label)?.text == "Amazing  Feature")
    #expect((views[1] as? Button)?.title == "Push Me!")

    // Each unregistered custom class falls back to its kind's class, with a warning at its line.
    #expect(imported.warnings.map(\.line) == [36, 77, 137])
    #expect(imported.warnings[0].message.contains("'UYLTableViewController' is not registered"))
    #expect(imported.warnings[0].description.hasPrefix("\(Fixtures.restorer):36: warning: "))
  }

  @Test func registeredClassesReplaceTheKindsClass() throws {
    let imported = try StoryboardImporter(classes: restorerClasses())
      .importStoryboard(atPath: Fixtures.restorer)
    #expect(imported.warnings.map(\.line) == [77])  // UYLSettingsViewController only
    let detail = try #require(
      imported.storyboard.instantiateViewController(withIdentifier: "CountryVCID"))
    #expect(detail is CapitalController)
    #expect(detail.restorationIdentifier == "CountryVCID")
    #expect(detail.title == "Capital")
    #expect(detail.storyboard === imported.storyboard)
    #expect((detail.view.subviews.first as? Label)?.text == "Capital")
  }

  @Test(arguments: [Fixtures.restorer, Fixtures.restorer2013])
  func theImportedRestorerRestoresTheTableAndThePushedCapitalAfterProcessDeath(path: String)
    throws
  {
    let document = try InterfaceDocument(contentsOfFile: path)
    let harness = makeHarness(for: document, name: "MainStoryboard")
    harness.launch()
    // In a block, so that nothing of the first process outlives it.
    do {
      let tabs = try #require(
        harness.application.keyWindow?.rootViewController as? TabBarController)
      let navigation = try #require(tabs.selectedViewController as? NavigationController)
      let list = try #require(navigation.topViewController as? NamedRowsController)
      let table = try #require(list.tableView)
      table.scrollToRow(at: IndexPath(row: 50, section: 0))
      table.selectRow(at: IndexPath(row: 52, section: 0))
      let capital = try #require(
        list.storyboard?.instantiateViewController(withIdentifier: "CountryVCID")
          as? CapitalController)
      capital.capital = "Santiago"
      navigation.pushViewController(capital)
    }

    let restart = harness.restartAndRestore()
    #expect(restart.report.outcome == .restored)
    #expect(restart.leakedObjects.isEmpty, "\(restart.leakedObjects)")
    let detailPath = "TabBarControllerID/:[0]:/CountryNCID/:[1]:/CountryVCID"
    #expect(restart.report.status(of: detailPath) == .restored)
    #expect(restart.report.entry(for: detailPath)?.source == .storyboard)
    let tablePath = "TabBarControllerID/:[0]:/CountryNCID/:[0]:/CountryTVCID/CountryTVID"
    #expect(restart.report.status(of: tablePath) == .restored)

    let restoredTabs = try #require(
      restart.application.keyWindow?.rootViewController as? TabBarController)
    let restoredNavigation = try #require(
      restoredTabs.selectedViewController as? NavigationController)
    #expect((restoredNavigation.topViewController as? CapitalController)?.capital == "Santiago")
    restoredNavigation.popViewController()
    let restoredTable = try #require(
      (restoredNavigation.topViewController as? NamedRowsController)?.tableView)
    #expect(restoredTable.firstVisibleIndexPath == IndexPath(row: 50, section: 0))
    #expect(restoredTable.indexPathForSelectedRow == IndexPath(row: 52, section: 0))
  }

  @Test(arguments: [
    (Fixtures.tableBugMain, "UYLTableViewController/UYLTableView"),
    (
      Fixtures.tableBugNavigation,
      "UYLNavigationController/:[0]:/UYLTableViewController/UYLTableView"
    ),
  ])
  func theTableViewBugReprosScrollPositionComesBack(path: String, tablePath: String) throws {
    // rdar://13438788: inside a navigation controller, UIKit lost the first visible row.
    let document = try InterfaceDocument(contentsOfFile: path)
    let harness = makeHarness(for: document, name: "MainStoryboard")
    harness.launch()
    let root = try #require(harness.application.keyWindow?.rootViewController)
    let list = try #require(
      allControllers(under: root).compactMap { $0 as? NamedRowsController }.first)
    try #require(list.tableView).scrollToRow(at: IndexPath(row: 50, section: 0))

    let restart = harness.restartAndRestore()
    #expect(restart.report.status(of: tablePath) == .restored)
    let restoredRoot = try #require(restart.application.keyWindow?.rootViewController)
    let restored = try #require(
      allControllers(under: restoredRoot).compactMap { $0 as? NamedRowsController }.first)
    #expect(restored.tableView?.firstVisibleIndexPath == IndexPath(row: 50, section: 0))
  }

  @Test func aControllerMadeFromTheWebViewXIBComesBackWithItsPage() throws {
    let document = try InterfaceDocument(contentsOfFile: Fixtures.restorer)
    let harness = makeHarness(for: document, name: "MainStoryboard") {
      $0.register(restorationClass: NibWebController.self)
    }
    harness.launch()
    let tabs = try #require(harness.application.keyWindow?.rootViewController as? TabBarController)
    tabs.selectedIndex = 1
    let settings = try #require(tabs.selectedViewController as? NavigationController)
    // What the seed's pushMe does: load the controller from its XIB, identify it, push it.
    let web = try #require(NibWebController.makeFromNib())
    web.restorationIdentifier = "UYLWebViewController"
    settings.pushViewController(web)
    let webView = try #require(web.webView)
    webView.load(BundledPages.home)
    webView.followLink(at: 0)
    let page = try #require(webView.currentItem?.url)

    let restart = harness.restartAndRestore()
    let webPath = "TabBarControllerID/:[1]:/SettingsNCID/:[1]:/UYLWebViewController"
    #expect(restart.report.entry(for: webPath)?.source == .restorationClass)
    #expect(restart.report.status(of: webPath + "/UYLWebView") == .restored)
    let restoredTabs = try #require(
      restart.application.keyWindow?.rootViewController as? TabBarController)
    let restoredWeb = try #require(
      (restoredTabs.selectedViewController as? NavigationController)?.topViewController
        as? NibWebController)
    #expect(restoredWeb.webView?.currentItem?.url == page)
    #expect(restoredWeb.webView?.canGoBack == true)
  }

  @Test(arguments: [Fixtures.webViewNib, Fixtures.webViewNib2013])
  func aXIBGivesItsOwnerItsViewTree(path: String) throws {
    let nib = try StoryboardImporter().importNib(atPath: path)
    #expect(nib.ownerClassName == "UYLWebViewController")
    #expect(
      nib.warnings.map(\.message) == [
        "File's Owner's class 'UYLWebViewController' is not registered; ViewController is used"
      ])
    let controller = nib.instantiateViewController()
    #expect(type(of: controller) == ViewController.self)
    #expect(controller.restorationIdentifier == nil)
    let web = try #require(controller.view as? WebView)
    #expect(web.restorationIdentifier == (path == Fixtures.webViewNib ? "UYLWebView" : "WebViewID"))
  }

  @Test(arguments: ["", "@SIZE_CLASSES"])
  func theTalkDemosXIBsBuildTheirViews(variant: String) throws {
    func classNames(_ name: String) throws -> [String] {
      let nib = try StoryboardImporter().importNib(atPath: Fixtures.demo(name + variant))
      let view = try #require(nib.makeView())
      return view.subviews.map { String(describing: type(of: $0)) }
    }
    #expect(try classNames("FirstViewController") == ["Slider"])
    #expect(try classNames("SecondViewController") == ["View", "View", "Button"])
    #expect(try classNames("CityViewController") == ["View", "Label"])

    var classes = ViewControllerClassRegistry()
    classes.register("StateRestorationDemo.CityViewController") { CapitalController() }
    let city = try StoryboardImporter(classes: classes)
      .importNib(atPath: Fixtures.demo("CityViewController" + variant))
    #expect(city.warnings.isEmpty)
    #expect(city.instantiateViewController() is CapitalController)
  }
}

/// Imports of the small test storyboards: containers, embedding, fallbacks.
@Suite struct StoryboardImporterShapeTests {
  @Test func splitViewsAndEmbeddedChildrenBecomeChildren() throws {
    let imported = try StoryboardImporter().importStoryboard(
      atPath: Fixtures.local("SplitAndEmbed.storyboard"))
    #expect(imported.warnings.isEmpty)
    let split = try #require(
      imported.storyboard.instantiateInitialViewController() as? SplitViewController)
    #expect(split.viewControllers.map(\.restorationIdentifier) == ["MasterNav", "Detail"])
    #expect(split.primaryViewController is NavigationController)
    let detail = try #require(split.secondaryViewController)
    #expect(detail.children.map(\.restorationIdentifier) == ["Map"])
    #expect(detail.view.subviews.first is TextField)
    #expect(detail.children.first?.view.subviews.first is ScrollView)
  }

  @Test func sceneIDsAreStoryboardIdentifiersWhenUniqueElseObjectIDs() throws {
    let imported = try StoryboardImporter().importStoryboard(
      atPath: Fixtures.local("Tabs.storyboard"))
    #expect(imported.storyboard.sceneOrder == ["Tabs", "first", "second", "third"])
    #expect(imported.sceneIDs["tab"] == "Tabs")
    let tabs = try #require(
      imported.storyboard.instantiateInitialViewController() as? TabBarController)
    #expect(tabs.viewControllers.map(\.title) == ["First", nil, nil])
  }

  @Test func whatCannotBeImportedIsAWarningWithItsLine() throws {
    let text = """
      <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" initialViewController="nav">
        <scenes>
          <scene sceneID="a"><objects>
            <navigationController id="nav" sceneMemberID="viewController">
              <connections>
                <segue destination="other" kind="relationship" relationship="rootViewController" id="r"/>
              </connections>
            </navigationController>
            <viewControllerPlaceholder storyboardName="Settings" id="other" sceneMemberID="viewController"/>
          </objects></scene>
          <scene sceneID="b"><objects>
            <pageViewController id="pages" sceneMemberID="viewController"/>
          </objects></scene>
        </scenes>
      </document>
      """
    let document = try InterfaceDocument(bytes: Array(text.utf8), file: "Main.storyboard")
    let imported = StoryboardImporter().importStoryboard(document)
    #expect(imported.warnings.map(\.line) == [6, 12])
    #expect(imported.warnings[0].message.contains("storyboard 'Settings'"))
    #expect(
      imported.warnings[1].message.contains("<pageViewController> has no headless counterpart"))
    let navigation = try #require(
      imported.storyboard.instantiateInitialViewController() as? NavigationController)
    #expect(navigation.viewControllers.isEmpty)
  }
}
