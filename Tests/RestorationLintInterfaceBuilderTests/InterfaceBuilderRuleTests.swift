import RestorationLint
import RestorationLintInterfaceBuilder
import StoryboardImport
import StoryboardTestSupport
import Testing

/// The Interface Builder rules on small documents written inline.
@Suite struct InterfaceBuilderRuleTests {
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
    // One finding, on the presenter without identifier.
    #expect(report.findings.map(\.code) == [.gapInChain])
    #expect(report.findings.first?.line == 6)
    #expect(
      report.findings.first?.message.hasPrefix(
        "viewController (id home) has no restoration identifier, but viewController 'Sheet' at line 9, which it presents, has one"
      ) == true)
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
  }

  @Test func containersNestedInAXIBAreChecked() throws {
    let report = StoryboardLinter().lint(
      try document(SampleDocuments.nestedContainers, kind: "XIB"))
    #expect(report.findings.map(\.code) == [.nibControllerNeedsRestorationClass, .fileIssue])
  }

  @Test func archiveFormatControllersAreChecked() throws {
    let document = try InterfaceDocument(
      bytes: Array(SampleDocuments.archiveFormatXIB.utf8), file: "Editor.xib")
    #expect(
      StoryboardLinter().lint(document).findings.map(\.code) == [
        .fileIssue, .nibControllerNeedsRestorationClass, .nibOwnerNeedsIdentifier,
      ])
  }

  @Test func aVeryLongChainOfContainersIsCutNotFollowedForever() throws {
    let chain = try document(
      SampleDocuments.containerChain(count: 1_000), attributes: "initialViewController=\"n0\"")
    let report = StoryboardLinter().lint(chain)
    #expect(report.findings.map(\.code) == [.fileIssue])
    #expect(report.paths.count == 64)
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

  @Test func aContainerWithoutIdentifierAboveThousandsOfControllersIsOneFinding() throws {
    let count = 5_000
    let tabs = (0..<count).map {
      "<segue destination=\"t\($0)\" kind=\"relationship\" relationship=\"viewControllers\" id=\"r\($0)\"/>"
    }
    let controllers = (0..<count).map {
      "<viewController restorationIdentifier=\"T\($0)\" id=\"t\($0)\" sceneMemberID=\"viewController\"/>"
    }
    let report = try lint(
      """
      <scenes><scene sceneID="s"><objects>
        <tabBarController id="tabs" sceneMemberID="viewController"><connections>\(tabs.joined())</connections></tabBarController>
        \(controllers.joined(separator: "\n"))
      </objects></scene></scenes>
      """, initial: "tabs")
    #expect(report.findings.map(\.code) == [.gapInChain])
    // The message names a few and counts the rest.
    #expect(report.findings.first?.message.contains("and 4997 more have one") == true)
  }
}
