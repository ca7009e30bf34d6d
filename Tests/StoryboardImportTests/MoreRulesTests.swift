import StateRestorationUI
import StoryboardImport
import StoryboardLint
import Testing

/// Rules and reading details shown on small documents written inline.
@Suite struct MoreRulesTests {
  private func document(_ body: String, kind: String = "Storyboard.XIB", attributes: String = "")
    throws -> InterfaceDocument
  {
    let text = """
      <document type="com.apple.InterfaceBuilder3.CocoaTouch.\(kind)" version="3.0" \(attributes)>
      \(body)
      </document>
      """
    return try InterfaceDocument(bytes: Array(text.utf8), file: "Test.storyboard")
  }

  private func lint(_ body: String, initial: String) throws -> LintReport {
    StoryboardLinter().lint(
      try document(body, attributes: "initialViewController=\"\(initial)\""))
  }

  @Test func duplicateStoryboardIdentifiersAreErrors() throws {
    let report = try lint(
      """
      <scenes><scene sceneID="s"><objects>
        <viewController storyboardIdentifier="Same" useStoryboardIdentifierAsRestorationIdentifier="YES" id="a" sceneMemberID="viewController"/>
        <viewController storyboardIdentifier="Same" useStoryboardIdentifierAsRestorationIdentifier="YES" id="b" sceneMemberID="viewController"/>
      </objects></scene></scenes>
      """, initial: "a")
    #expect(report.findings.map(\.code) == [.duplicateStoryboardIdentifier, .unreachableScene])
    #expect(report.findings.first?.line == 4)
  }

  @Test func aPresentedControllerWithoutIdentifierIsANote() throws {
    let report = try lint(
      """
      <scenes><scene sceneID="s"><objects>
        <viewController storyboardIdentifier="Home" useStoryboardIdentifierAsRestorationIdentifier="YES" id="home" sceneMemberID="viewController">
          <connections><segue destination="sheet" kind="presentation" identifier="Sheet" id="p"/></connections>
        </viewController>
        <viewController id="sheet" sceneMemberID="viewController"/>
      </objects></scene></scenes>
      """, initial: "home")
    #expect(report.findings.map(\.code) == [.segueDestinationWithoutIdentifier])
    #expect(report.findings.first?.severity == .note)
    #expect(report.paths.map(\.path) == ["Home"])
  }

  @Test func aControllerPresentedFromOneWithoutIdentifierIsAGap() throws {
    let report = try lint(
      """
      <scenes><scene sceneID="s"><objects>
        <navigationController storyboardIdentifier="Nav" useStoryboardIdentifierAsRestorationIdentifier="YES" id="nav" sceneMemberID="viewController">
          <connections><segue destination="home" kind="relationship" relationship="rootViewController" id="r"/></connections>
        </navigationController>
        <viewController id="home" sceneMemberID="viewController">
          <connections><segue destination="sheet" kind="presentation" id="p"/></connections>
        </viewController>
        <viewController storyboardIdentifier="Sheet" useStoryboardIdentifierAsRestorationIdentifier="YES" id="sheet" sceneMemberID="viewController"/>
      </objects></scene></scenes>
      """, initial: "nav")
    #expect(report.findings.map(\.code) == [.controllerWithoutIdentifier, .gapInChain])
    #expect(
      report.findings.last?.message.contains("its presenter viewController (id home)") == true)
  }

  @Test func relationshipCyclesAndUnknownRelationshipsAreFileIssues() throws {
    let report = try lint(
      """
      <scenes><scene sceneID="s"><objects>
        <navigationController storyboardIdentifier="Nav" useStoryboardIdentifierAsRestorationIdentifier="YES" id="nav" sceneMemberID="viewController">
          <connections>
            <segue destination="nav" kind="relationship" relationship="rootViewController" id="r"/>
            <segue destination="nav" kind="relationship" relationship="somethingNew" id="n"/>
          </connections>
        </navigationController>
      </objects></scene></scenes>
      """, initial: "nav")
    #expect(report.findings.map(\.code) == [.fileIssue, .fileIssue])
    #expect(report.findings.map(\.line) == [3, 6])
    #expect(report.findings[1].message.contains("'somethingNew'"))
    #expect(report.paths.map(\.path) == ["Nav"])
    // The importer does not loop either.
    let storyboard = StoryboardImporter().importStoryboard(
      try document(
        """
        <scenes><scene sceneID="s"><objects>
          <navigationController id="nav" sceneMemberID="viewController">
            <connections><segue destination="nav" kind="relationship" relationship="rootViewController" id="r"/></connections>
          </navigationController>
        </objects></scene></scenes>
        """, attributes: "initialViewController=\"nav\"")
    ).storyboard
    #expect(
      (storyboard.instantiateInitialViewController() as? NavigationController)?.viewControllers
        .isEmpty == true)
  }

  @Test func containersNestedInAXIBAreRelationships() throws {
    let nib = try document(
      """
      <objects>
        <tabBarController restorationIdentifier="Tabs" id="tabs">
          <viewControllers>
            <navigationController restorationIdentifier="Nav" id="nav">
              <viewControllers>
                <viewController restorationIdentifier="Home" title="Home" id="home">
                  <view key="view" id="homeView" hidden="YES">
                    <rect key="frame" x="0.0" y="0.0" width="320" height="480"/>
                    <subviews>
                      <textField restorationIdentifier="Name" text="Ada" id="name">
                        <rect key="frame" x="0.0" y="0.0" width="100" height="30"/>
                      </textField>
                    </subviews>
                  </view>
                </viewController>
                <viewController id="second"/>
              </viewControllers>
            </navigationController>
            <viewController restorationIdentifier="Other" id="other"/>
          </viewControllers>
        </tabBarController>
      </objects>
      """, kind: "XIB")
    #expect(nib.viewControllers.map(\.id) == ["tabs", "nav", "home", "second", "other"])
    #expect(nib.viewControllers[0].children.map(\.role) == [.tab, .tab])
    #expect(nib.viewControllers[1].children.map(\.destinationID) == ["home"])
    #expect(nib.issues.map(\.line) == [17])  // only a navigation root is imported

    let imported = StoryboardImporter().importNib(nib)
    let tabs = try #require(imported.storyboard.instantiateScene("tabs") as? TabBarController)
    #expect(tabs.viewControllers.map(\.restorationIdentifier) == ["Nav", "Other"])
    let home = try #require(
      (tabs.viewControllers.first as? NavigationController)?.topViewController)
    #expect(home.view.isHidden)
    #expect((home.view.subviews.first as? TextField)?.text == "Ada")

    let report = StoryboardLinter().lint(nib)
    #expect(report.findings.map(\.code) == [.nibControllerNeedsRestorationClass, .fileIssue])
  }

  @Test func archiveFormatControllersAreReadWithTheirIdentifier() throws {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <archive type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="8.00">
        <data>
          <array class="NSMutableArray" key="IBDocument.RootObjects" id="1000">
            <object class="IBUIViewController" id="42">
              <string key="IBUIRestorationIdentifier">Editor</string>
            </object>
            <object class="IBUIView" id="7">
              <array class="NSMutableArray" key="NSSubviews">
                <reference ref="8"/>
              </array>
              <object class="IBUITextField" key="NSNextKeyView" id="8">
                <string key="IBUIRestorationIdentifier">Title</string>
                <string key="IBUIText">Draft</string>
              </object>
            </object>
          </array>
          <object class="IBObjectContainer" key="IBDocument.Objects">
            <object class="IBMutableOrderedSet" key="objectRecords">
              <array key="orderedObjects">
                <object class="IBObjectRecord">
                  <int key="objectID">3</int>
                  <reference key="object" ref="42"/>
                </object>
              </array>
            </object>
            <dictionary class="NSMutableDictionary" key="flattenedProperties">
              <string key="3.CustomClassName">EditorViewController</string>
            </dictionary>
          </object>
        </data>
      </archive>
      """
    let document = try InterfaceDocument(bytes: Array(text.utf8), file: "Editor.xib")
    let editor = try #require(document.viewControllers.first)
    #expect(editor.elementName == "viewController")
    #expect(editor.customClass == "EditorViewController")
    #expect(editor.restorationIdentifier == "Editor")
    #expect(editor.line == 5)
    let field = try #require(document.topLevelViews.first?.subviews.first)
    #expect(field.elementName == "textField")
    #expect(field.restorationIdentifier == "Title")
    #expect(field.text == "Draft")
    #expect(field.line == 12)  // where the object is written out, not where it is referenced
    #expect(
      StoryboardLinter().lint(document).findings.map(\.code) == [
        .fileIssue, .nibControllerNeedsRestorationClass, .nibOwnerNeedsIdentifier,
      ])
  }

  @Test func anUnknownDocumentVersionIsReadWithAnIssue() throws {
    let text = """
      <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="4.0"><objects/></document>
      """
    let document = try InterfaceDocument(bytes: Array(text.utf8), file: "New.xib")
    #expect(document.issues.count == 1)
    #expect(document.issues.first?.message.contains("document format 4.0") == true)
  }

  @Test func filesOverTheSizeLimitAreRefusedBeforeParsing() {
    let bytes = [UInt8](repeating: 0x20, count: InterfaceDocument.maximumFileSize + 1)
    #expect(throws: StoryboardImportError.self) {
      try InterfaceDocument(bytes: bytes, file: "Huge.storyboard")
    }
  }

  @Test func aVeryLongChainOfContainersIsCutNotFollowedForever() throws {
    let count = 1_000
    let scenes = (0..<count).map { index in
      let next =
        index + 1 < count
        ? "<connections><segue destination=\"n\(index + 1)\" kind=\"relationship\" relationship=\"rootViewController\" id=\"r\(index)\"/></connections>"
        : ""
      return """
        <navigationController restorationIdentifier="N\(index)" id="n\(index)" sceneMemberID="viewController">\(next)</navigationController>
        """
    }
    let body = "<scenes><scene sceneID=\"s\"><objects>\(scenes.joined())</objects></scene></scenes>"
    let chain = try document(body, attributes: "initialViewController=\"n0\"")

    let imported = StoryboardImporter().importStoryboard(chain)
    // Cut every 65 controllers; each piece is a tree of its own.
    #expect(imported.warnings.count == (count - 1) / 65)
    #expect(imported.warnings.allSatisfy { $0.message.contains("nest more than 64 deep") })
    var depth = 0
    var current = imported.storyboard.instantiateInitialViewController()
    while let next = current?.children.first {
      depth += 1
      current = next
    }
    #expect(depth == StoryboardImporter.maximumNesting)

    let report = StoryboardLinter().lint(chain)
    #expect(report.findings.map(\.code) == [.fileIssue])
    #expect(report.paths.count == 64)
  }

  @Test func aControllerClaimedByTwoContainersStaysWithTheFirst() throws {
    let imported = StoryboardImporter().importStoryboard(
      try document(
        """
        <scenes><scene sceneID="s"><objects>
          <tabBarController id="a" sceneMemberID="viewController">
            <connections><segue destination="c" kind="relationship" relationship="viewControllers" id="r1"/></connections>
          </tabBarController>
          <tabBarController id="b" sceneMemberID="viewController">
            <connections><segue destination="c" kind="relationship" relationship="viewControllers" id="r2"/></connections>
          </tabBarController>
          <viewController id="c" sceneMemberID="viewController"/>
        </objects></scene></scenes>
        """))
    #expect(imported.warnings.map(\.line) == [7])
    #expect(imported.storyboard.instantiateScene("a")?.children.count == 1)
    #expect(imported.storyboard.instantiateScene("b")?.children.isEmpty == true)
  }

  @Test func aDeepChainOfArchivedSubviewsIsCut() throws {
    let count = 2_000
    let objects = (0..<count).map { index in
      let next =
        index + 1 < count
        ? "<array class=\"NSMutableArray\" key=\"NSSubviews\"><reference ref=\"\(index + 1)\"/></array>"
        : ""
      return "<object class=\"IBUIView\" id=\"\(index)\">\(next)</object>"
    }
    let text = """
      <archive type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="8.00"><data>
      <array class="NSMutableArray" key="IBDocument.RootObjects"><reference ref="0"/></array>
      <array key="Elsewhere">\(objects.joined())</array>
      </data></archive>
      """
    let document = try InterfaceDocument(bytes: Array(text.utf8), file: "Deep.xib")
    #expect(document.issues.count == 1)
    var depth = 0
    var view = document.topLevelViews.first
    while let next = view?.subviews.first {
      depth += 1
      view = next
    }
    #expect(depth == 256)
  }

  @Test func aMissingInitialControllerMakesTheScenesNobodyShowsTheRoots() throws {
    let report = try lint(
      """
      <scenes><scene sceneID="s"><objects>
        <navigationController storyboardIdentifier="Nav" useStoryboardIdentifierAsRestorationIdentifier="YES" id="nav" sceneMemberID="viewController">
          <connections><segue destination="a" kind="relationship" relationship="rootViewController" id="r"/></connections>
        </navigationController>
        <viewController storyboardIdentifier="A" useStoryboardIdentifierAsRestorationIdentifier="YES" id="a" sceneMemberID="viewController">
          <connections><segue destination="b" kind="show" id="ab"/></connections>
        </viewController>
        <viewController storyboardIdentifier="B" useStoryboardIdentifierAsRestorationIdentifier="YES" id="b" sceneMemberID="viewController"/>
      </objects></scene></scenes>
      """, initial: "nowhere")
    #expect(report.findings.map(\.code) == [.fileIssue, .noInitialViewController])
    #expect(report.paths.map(\.path) == ["Nav", "Nav/:[0]:/A", "Nav/:[1]:/B"])
  }
}
