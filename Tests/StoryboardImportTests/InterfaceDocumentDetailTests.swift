import StateRestorationUI
import StoryboardImport
import StoryboardTestSupport
import Testing

/// Reading and importing details shown on small documents written inline.
@Suite struct InterfaceDocumentDetailTests {
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

  @Test func aRelationshipCycleDoesNotLoop() throws {
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
    let nib = try document(SampleDocuments.nestedContainers, kind: "XIB")
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
  }

  @Test func archiveFormatControllersAreReadWithTheirIdentifier() throws {
    let text = SampleDocuments.archiveFormatXIB
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
    let chain = try document(
      SampleDocuments.containerChain(count: count), attributes: "initialViewController=\"n0\"")

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
}
