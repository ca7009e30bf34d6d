import Foundation
import StoryboardImport
import StoryboardTestSupport
import Testing

/// Reading the real Xcode files, and bad ones.
@Suite(Fixtures.interoperability)
struct InterfaceDocumentTests {
  @Test func readsTheRestorerStoryboardsControllersIdentifiersAndLines() throws {
    let document = try InterfaceDocument(contentsOfFile: Fixtures.restorer)
    #expect(document.kind == .storyboard)
    #expect(document.format == .document(version: "3.0"))
    #expect(document.initialViewControllerID == "4")
    #expect(
      document.viewControllers.map(\.elementName) == [
        "tabBarController", "tableViewController", "viewController", "viewController",
        "navigationController", "navigationController",
      ])
    let tabBar = try #require(document.initialViewController)
    #expect(tabBar.storyboardIdentifier == "TabBarControllerID")
    #expect(tabBar.usesStoryboardIdentifierAsRestorationIdentifier)
    #expect(tabBar.effectiveRestorationIdentifier == "TabBarControllerID")
    #expect(tabBar.className == "UITabBarController")
    #expect(tabBar.line == 17)
    #expect(tabBar.children.map(\.role) == [.tab, .tab])
    #expect(tabBar.children.map(\.destinationID) == ["nB4-WC-JIG", "hd0-3g-mQA"])

    let list = try #require(document.viewController(withID: "Fow-qg-25e"))
    #expect(list.customClass == "UYLTableViewController")
    #expect(list.className == "UYLTableViewController")
    #expect(list.title == "Countries")
    #expect(list.sceneID == "ldb-MY-62c")
    let table = try #require(list.view)
    #expect(table.elementName == "tableView")
    #expect(table.restorationIdentifier == "CountryTVID")
    #expect(table.key == "view")
    #expect(table.line == 37)
    let cell = try #require(table.subviews.first)
    #expect(cell.isCell)
    #expect(cell.line == 42)
    #expect(list.segues.count == 1)
    let segue = try #require(list.segues.first)
    #expect(segue.kind == "show")
    #expect(segue.identifier == "UYLSegueShowCountry")
    #expect(segue.destinationID == "Acu-ec-qdP")
    #expect(segue.sourceElementID == "4rd-48-mh7")  // the prototype cell
    #expect(segue.line == 59)

    let countries = try #require(document.viewController(withID: "nB4-WC-JIG"))
    #expect(countries.children.map(\.role) == [.navigationRoot])
    #expect(countries.title == "Countries")  // from its tab bar item
    let settings = try #require(document.viewController(withID: "k3p-EJ-PDh"))
    let settingsViews = try #require(settings.view)
    #expect(settingsViews.subviews.map(\.elementName) == ["stackView", "button"])
    #expect(settingsViews.subviews[0].subviews.map(\.elementName) == ["label", "switch"])
    #expect(settingsViews.subviews[1].text == "Push Me!")
    #expect(document.issues.isEmpty)
  }

  @Test func readsTheRestorerStoryboardOf2013InDocumentFormat2() throws {
    let document = try InterfaceDocument(contentsOfFile: Fixtures.restorer2013)
    #expect(document.format == .document(version: "2.0"))
    #expect(document.issues.isEmpty)
    let current = try InterfaceDocument(contentsOfFile: Fixtures.restorer)
    // Same controllers, identifiers and relationships; the cell's content view has no ID in 2.0.
    #expect(
      document.viewControllers.map(\.effectiveRestorationIdentifier)
        == current.viewControllers.map(\.effectiveRestorationIdentifier))
    #expect(
      document.viewControllers.map { $0.children.map(\.destinationID) }
        == current.viewControllers.map { $0.children.map(\.destinationID) })
    let list = try #require(document.viewController(withID: "Fow-qg-25e"))
    #expect(list.segues.first?.kind == "push")
    #expect(list.view?.subviews.first?.subviews.first?.id == nil)
  }

  @Test func readsBothStoryboardsOfTheTableViewBugRepro() throws {
    let main = try InterfaceDocument(contentsOfFile: Fixtures.tableBugMain)
    #expect(main.initialViewController?.effectiveRestorationIdentifier == "UYLTableViewController")
    #expect(main.initialViewController?.view?.restorationIdentifier == "UYLTableView")

    let navigation = try InterfaceDocument(contentsOfFile: Fixtures.tableBugNavigation)
    let root = try #require(navigation.initialViewController)
    #expect(root.elementName == "navigationController")
    #expect(root.effectiveRestorationIdentifier == "UYLNavigationController")
    // The navigation controller comes second in its scene, after the first responder.
    #expect(root.line == 48)
    #expect(root.children.map(\.destinationID) == ["LYQ-j7-YQP"])
  }

  @Test func readsAXIBsFileOwnerAndWebView() throws {
    let document = try InterfaceDocument(contentsOfFile: Fixtures.webViewNib)
    #expect(document.kind == .xib)
    #expect(document.fileOwner?.customClass == "UYLWebViewController")
    #expect(document.fileOwner?.viewOutletDestinationID == "HGF-qf-MrC")
    let web = try #require(document.fileOwnerView)
    #expect(web.elementName == "wkWebView")
    #expect(web.className == "WKWebView")
    #expect(web.restorationIdentifier == "UYLWebView")
    #expect(web.line == 19)
  }

  @Test func readsTheArchiveFormatXIBOf2013() throws {
    let document = try InterfaceDocument(contentsOfFile: Fixtures.webViewNib2013)
    #expect(document.kind == .xib)
    #expect(document.format == .archive(version: "8.00"))
    #expect(document.fileOwner?.customClass == "UYLWebViewController")
    #expect(document.fileOwner?.viewOutletDestinationID == "1047375620")
    let web = try #require(document.fileOwnerView)
    #expect(web.elementName == "webView")
    #expect(web.className == "UIWebView")
    #expect(web.restorationIdentifier == "WebViewID")
    #expect(web.line == 33)
  }

  @Test(arguments: ["FirstViewController", "FirstViewController@SIZE_CLASSES"])
  func readsTheTalkDemosFirstViewWithItsSlider(name: String) throws {
    let document = try InterfaceDocument(contentsOfFile: Fixtures.demo(name))
    #expect(document.fileOwner?.customClass == "FirstViewController")
    #expect(document.fileOwner?.customModule == "StateRestorationDemo")
    #expect(document.fileOwnerView?.subviews.map(\.elementName) == ["slider"])
    #expect(!document.usesStateRestoration)
  }

  @Test(arguments: ["SecondViewController", "SecondViewController@SIZE_CLASSES"])
  func readsTheTalkDemosSecondView(name: String) throws {
    let document = try InterfaceDocument(contentsOfFile: Fixtures.demo(name))
    #expect(
      document.fileOwnerView?.subviews.map(\.elementName) == [
        "segmentedControl", "imageView", "button",
      ])
    #expect(document.fileOwnerView?.subviews.last?.text == "Choose")
  }

  @Test(arguments: ["CityViewController", "CityViewController@SIZE_CLASSES"])
  func readsTheTalkDemosCityView(name: String) throws {
    let document = try InterfaceDocument(contentsOfFile: Fixtures.demo(name))
    #expect(document.fileOwner?.customClass == "CityViewController")
    #expect(document.fileOwnerView?.subviews.map(\.elementName) == ["imageView", "label"])
    #expect(document.fileOwnerView?.subviews.last?.text == "Cityname")
  }

  @Test func readsLaunchScreensAsSuch() throws {
    #expect(try InterfaceDocument(contentsOfFile: Fixtures.restorerLaunchScreen).isLaunchScreen)
    #expect(try InterfaceDocument(contentsOfFile: Fixtures.demo("Launch_Screen")).isLaunchScreen)
  }
}

/// Bad input ends in a typed error that names the file and, when known, the line.
@Suite struct InterfaceDocumentErrorTests {
  private func error(reading text: String) -> StoryboardImportError? {
    do {
      _ = try InterfaceDocument(bytes: Array(text.utf8), file: "Bad.storyboard")
      return nil
    } catch {
      return error
    }
  }

  @Test func aMissingFileIsNamed() {
    #expect(
      throws: StoryboardImportError(.fileNotFound, "no such file", file: "/nope/Main.storyboard")
    ) {
      try InterfaceDocument(contentsOfFile: "/nope/Main.storyboard")
    }
  }

  @Test func aFolderIsNotAFile() throws {
    let error = try #require(throws: StoryboardImportError.self) {
      try InterfaceDocument(contentsOfFile: Fixtures.packageRoot.path)
    }
    #expect(error.code == .unreadable)
  }

  @Test func emptyAndBinaryInputAreNotXML() {
    #expect(error(reading: "")?.code == .malformedXML)
    #expect(error(reading: "bplist00\u{1}\u{2}")?.code == .malformedXML)
  }

  @Test func truncatedXMLGivesTheLine() throws {
    let error = try #require(throws: StoryboardImportError.self) {
      try InterfaceDocument(contentsOfFile: Fixtures.local("Truncated.storyboard"))
    }
    #expect(error.code == .malformedXML)
    #expect(error.line == 4)
    #expect(error.description.hasPrefix(Fixtures.local("Truncated.storyboard") + ":4: "))
  }

  @Test func otherXMLIsNotAnInterfaceBuilderFile() {
    let plist = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>"
    #expect(error(reading: plist)?.code == .notInterfaceBuilderFile)
    #expect(error(reading: plist)?.line == 2)
  }

  @Test(arguments: [
    "com.apple.InterfaceBuilder3.Cocoa.Storyboard.XIB", "com.apple.InterfaceBuilder3.Cocoa.XIB",
    "com.apple.InterfaceBuilder.WatchKit.Storyboard", "com.apple.InterfaceBuilder.AppleTV.XIB",
  ])
  func filesOfOtherPlatformsAreUnsupportedWithTheirType(_ type: String) {
    let document = """
      <document type="\(type)" version="3.0"/>
      """
    #expect(error(reading: document)?.code == .unsupportedDocument)
    #expect(error(reading: document)?.documentType == type)
  }

  @Test func absurdNestingIsRefusedWithoutCrashing() {
    let depth = 5_000
    let text =
      "<document type=\"com.apple.InterfaceBuilder3.CocoaTouch.XIB\" version=\"3.0\">"
      + String(repeating: "<view>", count: depth) + String(repeating: "</view>", count: depth)
      + "</document>"
    let code = error(reading: text)?.code
    #expect(code == .limitExceeded || code == .malformedXML)
  }

  @Test func seguesToMissingObjectsAreIssuesNotErrors() throws {
    let text = """
      <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" initialViewController="nowhere">
        <scenes><scene sceneID="s"><objects>
          <navigationController id="nav" sceneMemberID="viewController">
            <connections>
              <segue destination="gone" kind="relationship" relationship="rootViewController" id="r"/>
              <segue kind="show" id="noDestination"/>
            </connections>
          </navigationController>
        </objects></scene></scenes>
      </document>
      """
    let document = try InterfaceDocument(bytes: Array(text.utf8), file: "Broken.storyboard")
    #expect(document.initialViewController == nil)
    #expect(document.issues.map(\.line) == [nil, 5])
    #expect(document.issues[0].message.contains("'nowhere'"))
    #expect(document.issues[1].message.contains("'gone'"))
  }

  @Test func everyTruncationOfARealStoryboardFailsCleanly() throws {
    // Cut a storyboard at many points: each prefix either reads or throws, never crashes.
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" initialViewController="a">
        <scenes><scene sceneID="s"><objects>
          <viewController storyboardIdentifier="A" useStoryboardIdentifierAsRestorationIdentifier="YES" id="a" sceneMemberID="viewController">
            <view key="view" id="v"><rect key="frame" x="0" y="0" width="1" height="1"/></view>
          </viewController>
        </objects></scene></scenes>
      </document>
      """
    let bytes = Array(text.utf8)
    var failures = 0
    for end in stride(from: 0, to: bytes.count, by: 7) {
      do {
        _ = try InterfaceDocument(bytes: Array(bytes[..<end]), file: "Cut.storyboard")
      } catch {
        failures += 1
        #expect(error.file == "Cut.storyboard")
      }
    }
    #expect(failures > 0)
    #expect(
      try InterfaceDocument(bytes: bytes, file: "Whole.storyboard").viewControllers.count == 1)
  }
}
