import Foundation
import RestorationLint
import RestorationLintInterfaceBuilder
import StateRestoration
import StateRestorationTesting
import StateRestorationUI
import StoryboardImport
import StoryboardTestSupport
import Testing

/// The linter on the real files: the Restorer is clean, and its paths are the engine's.
@Suite(Fixtures.interoperability)
struct StoryboardLinterTests {
  @Test func theRestorerStoryboardHasNothingWrongAndUIKitsPaths() throws {
    let report = try StoryboardLinter().lint(fileAtPath: Fixtures.restorer)
    #expect(report.findings.isEmpty)
    #expect(
      report.paths.map(\.path) == [
        "TabBarControllerID",
        "TabBarControllerID/:[0]:/CountryNCID",
        "TabBarControllerID/:[0]:/CountryNCID/:[0]:/CountryTVCID",
        "TabBarControllerID/:[0]:/CountryNCID/:[0]:/CountryTVCID/CountryTVID",
        "TabBarControllerID/:[1]:/SettingsNCID",
        "TabBarControllerID/:[1]:/SettingsNCID/:[0]:/SettingsVCID",
        "TabBarControllerID/:[0]:/CountryNCID/:[1]:/CountryVCID",
      ])
    #expect(report.paths.map(\.line) == [17, 170, 36, 37, 190, 77, 137])
    #expect(
      report.paths.map(\.origin) == [.launch, .launch, .launch, .launch, .launch, .launch, .segue])
    #expect(report.paths.last?.segueLine == 59)
    #expect(report.paths[2].className == "UYLTableViewController")
    #expect(report.paths[2].object == "tableViewController UYLTableViewController 'CountryTVCID'")
  }

  @Test func theRestorerStoryboardOf2013HasTheSamePaths() throws {
    let current = try StoryboardLinter().lint(fileAtPath: Fixtures.restorer)
    let old = try StoryboardLinter().lint(fileAtPath: Fixtures.restorer2013)
    #expect(old.findings.isEmpty)
    #expect(old.paths.map(\.path) == current.paths.map(\.path))
  }

  @Test(arguments: [
    Fixtures.restorer, Fixtures.restorer2013, Fixtures.tableBugMain, Fixtures.tableBugNavigation,
    Fixtures.local("SplitAndEmbed.storyboard"), Fixtures.local("Segues.storyboard"),
    Fixtures.local("Gap.storyboard"), Fixtures.local("DuplicateViews.storyboard"),
  ])
  func launchPathsAreTheOnesTheEnginePreserves(path: String) throws {
    let document = try InterfaceDocument(contentsOfFile: path)
    let report = StoryboardLinter().lint(document)
    let archived = try archivedLaunchPaths(of: document)
    let launch = report.paths.filter { $0.origin == .launch }.map(\.path)
    #expect(Set(archived) == Set(launch))
    #expect(archived.count == launch.count || !report.findings(.duplicatePath).isEmpty)
  }

  @Test func theSeguePathOfThePushedCapitalIsTheEnginesToo() throws {
    let document = try InterfaceDocument(contentsOfFile: Fixtures.restorer)
    let segueEntry = try #require(
      StoryboardLinter().lint(document).paths.first { $0.origin == .segue })
    let harness = makeHarness(for: document, name: "Main")
    harness.launch()
    do {
      let tabs = try #require(
        harness.application.keyWindow?.rootViewController as? TabBarController)
      let navigation = try #require(tabs.selectedViewController as? NavigationController)
      let capital = try #require(
        navigation.storyboard?.instantiateViewController(withIdentifier: "CountryVCID"))
      navigation.pushViewController(capital)
    }
    harness.application.enterBackground()
    let archived = try #require(harness.savedArchive).records.map(\.identifierPath)
    #expect(archived.contains(segueEntry.path))
  }

  @Test func theTableViewBugReprosStoryboardsAreClean() throws {
    for path in [Fixtures.tableBugMain, Fixtures.tableBugNavigation] {
      #expect(try StoryboardLinter().lint(fileAtPath: path).findings.isEmpty)
    }
  }

  @Test func xibsWithIdentifiedViewsGetANoteAboutTheirOwner() throws {
    for (path, identifier) in [
      (Fixtures.webViewNib, "UYLWebView"), (Fixtures.webViewNib2013, "WebViewID"),
    ] {
      let report = try StoryboardLinter().lint(fileAtPath: path)
      #expect(report.findings.map(\.code) == [.nibOwnerNeedsIdentifier])
      #expect(report.findings.first?.severity == .note)
      #expect(report.findings.first?.message.contains("UYLWebViewController") == true)
      #expect(report.paths.map(\.path) == ["(File's Owner)/\(identifier)"])
    }
  }

  @Test(arguments: [
    "FirstViewController", "SecondViewController", "CityViewController",
    "FirstViewController@SIZE_CLASSES", "SecondViewController@SIZE_CLASSES",
    "CityViewController@SIZE_CLASSES",
  ])
  func theTalkDemosXIBsUseNoIdentifiers(name: String) throws {
    let report = try StoryboardLinter().lint(fileAtPath: Fixtures.demo(name))
    #expect(report.findings.map(\.code) == [.noRestorationIdentifiers])
    #expect(report.paths.isEmpty)
  }

  @Test func launchScreensAreNotChecked() throws {
    for path in [Fixtures.restorerLaunchScreen, Fixtures.demo("Launch_Screen")] {
      #expect(try StoryboardLinter().lint(fileAtPath: path).findings.map(\.code) == [.launchScreen])
    }
  }
}

/// Each mistake planted in a small storyboard is found, at its line, with its severity.
@Suite struct PlantedMistakeTests {
  struct Expected: CustomTestStringConvertible, Sendable {
    var file: String
    var findings: [Finding]
    var paths: [String]
    var testDescription: String { file }
  }

  struct Finding: Equatable, Sendable, CustomStringConvertible {
    var line: Int
    var severity: LintFinding.Severity
    var code: LintFinding.Code
    var description: String { "\(line): \(severity) \(code.rawValue)" }
  }

  static let cases: [Expected] = [
    Expected(
      file: "Gap.storyboard",
      findings: [Finding(line: 17, severity: .error, code: .gapInChain)],
      paths: ["Tabs", "Tabs/:[1]:/Second"]),
    // One navigation controller without identifier, shown by five segues, above a controller
    // with one: one finding, on the navigation controller.
    Expected(
      file: "OneRootCause.storyboard",
      findings: [Finding(line: 29, severity: .error, code: .gapInChain)],
      paths: ["Main", "Main/:[0]:/Notes", "Main/:[0]:/Notes/NotesTable"]),
    Expected(
      file: "CellIdentifier.storyboard",
      findings: [
        Finding(line: 11, severity: .error, code: .identifierOnCell),
        Finding(line: 41, severity: .warning, code: .identifierOnCell),
      ],
      paths: ["List"]),
    Expected(
      file: "UseStoryboardID.storyboard",
      findings: [Finding(line: 16, severity: .error, code: .viewInUnidentifiedController)],
      paths: ["Navigation"]),
    Expected(
      file: "Tabs.storyboard",
      findings: [
        Finding(line: 18, severity: .warning, code: .tabWithoutIdentifier),
        Finding(line: 28, severity: .error, code: .duplicateSiblingIdentifier),
      ],
      paths: ["Tabs", "Tabs/:[1]:/Page", "Tabs/:[2]:/Page"]),
    Expected(
      file: "DuplicateViews.storyboard",
      findings: [Finding(line: 17, severity: .error, code: .duplicatePath)],
      paths: ["Form", "Form/Scroll", "Form/Name", "Form/Name"]),
    Expected(
      file: "UnidentifiedRoot.storyboard",
      findings: [Finding(line: 7, severity: .error, code: .viewInUnidentifiedController)],
      paths: []),
    Expected(
      file: "Container.storyboard",
      findings: [Finding(line: 17, severity: .warning, code: .containerWithoutIdentifier)],
      paths: ["Split", "Split/:[1]:/Detail"]),
    Expected(
      file: "Segues.storyboard",
      findings: [
        Finding(line: 40, severity: .warning, code: .segueDestinationWithoutStoryboardIdentifier),
        Finding(line: 54, severity: .warning, code: .segueDestinationWithoutIdentifier),
      ],
      paths: [
        "Navigation", "Navigation/:[0]:/List", "Navigation/:[0]:/List/Table",
        "Navigation/:[1]:/Detail", "Navigation/:[1]:/Detail/Notes",
      ]),
    Expected(
      file: "ControllerInNib.xib",
      findings: [Finding(line: 7, severity: .warning, code: .nibControllerNeedsRestorationClass)],
      paths: []),
    Expected(
      file: "SplitAndEmbed.storyboard", findings: [],
      paths: [
        "Split", "Split/:[0]:/MasterNav", "Split/:[0]:/MasterNav/:[0]:/Places",
        "Split/:[0]:/MasterNav/:[0]:/Places/PlacesTable", "Split/:[1]:/Detail",
        "Split/:[1]:/Detail/Search", "Split/:[1]:/Detail/:[0]:/Map",
        "Split/:[1]:/Detail/:[0]:/Map/MapScroll",
      ]),
  ]

  @Test(arguments: cases)
  func findsThePlantedMistakes(expected: Expected) throws {
    let path = Fixtures.local(expected.file)
    let report = try StoryboardLinter().lint(fileAtPath: path)
    #expect(
      report.findings.map { Finding(line: $0.line ?? 0, severity: $0.severity, code: $0.code) }
        == expected.findings)
    #expect(report.paths.map(\.path) == expected.paths)
    #expect(report.findings.allSatisfy { $0.file == path && $0.object != nil })
  }

  @Test func messagesNameTheObjectAndWhatToDo() throws {
    let gap = try StoryboardLinter().lint(fileAtPath: Fixtures.local("Gap.storyboard"))
    let error = try #require(gap.findings(.gapInChain).first)
    // The finding is on the cause, the container without identifier, and names what it cuts off.
    #expect(error.object == "navigationController (id nav)")
    #expect(error.objectID == "nav")
    #expect(error.message.contains("its child tableViewController 'List' at line 26 has one"))
    #expect(error.message.contains("it is also a tab of tabBarController 'Tabs'"))
    #expect(error.message.hasSuffix("; give it a restoration identifier"))
    // The line says which object, and names its identifier once.
    #expect(
      error.description.hasPrefix(
        Fixtures.local("Gap.storyboard")
          + ":17: error: navigationController (id nav) has no restoration identifier, but"))
    #expect(error.description.hasSuffix("[gap-in-chain]"))

    let cells = try StoryboardLinter().lint(fileAtPath: Fixtures.local("CellIdentifier.storyboard"))
    #expect(cells.findings[0].message.contains("set it on tableView (id table) at line 8 instead"))
    #expect(cells.findings[1].message.contains("collectionView 'Photos' has its own identifier"))
  }

  @Test func aStoryboardWithoutIdentifiersGetsOneNote() throws {
    let text = """
      <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" initialViewController="a">
        <scenes><scene sceneID="s"><objects>
          <navigationController id="a" sceneMemberID="viewController"/>
        </objects></scene></scenes>
      </document>
      """
    let report = StoryboardLinter().lint(
      try InterfaceDocument(bytes: Array(text.utf8), file: "Plain.storyboard"))
    #expect(report.findings.map(\.code) == [.noRestorationIdentifiers])
  }

  @Test func scenesOutsideTheLaunchHierarchyAndOtherStoryboardsGetNotes() throws {
    let text = """
      <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0">
        <scenes>
          <scene sceneID="a"><objects>
            <navigationController storyboardIdentifier="Nav" useStoryboardIdentifierAsRestorationIdentifier="YES" id="nav" sceneMemberID="viewController">
              <connections>
                <segue destination="ref" kind="relationship" relationship="rootViewController" id="r"/>
              </connections>
            </navigationController>
            <viewControllerPlaceholder storyboardName="Settings" referencedIdentifier="Root" id="ref" sceneMemberID="viewController"/>
          </objects></scene>
        </scenes>
      </document>
      """
    let report = StoryboardLinter().lint(
      try InterfaceDocument(bytes: Array(text.utf8), file: "Main.storyboard"))
    #expect(report.findings.map(\.code) == [.noInitialViewController, .storyboardReference])
    #expect(report.findings[1].line == 6)
    #expect(report.findings[1].message.contains("scene 'Root' of storyboard 'Settings'"))
    #expect(report.paths.map(\.path) == ["Nav"])

    let withInitial = text.replacingOccurrences(
      of: "version=\"3.0\">",
      with: "version=\"3.0\" initialViewController=\"other\">"
    ).replacingOccurrences(
      of: "</scenes>",
      with: """
        <scene sceneID="b"><objects>
          <viewController storyboardIdentifier="Other" useStoryboardIdentifierAsRestorationIdentifier="YES" id="other" sceneMemberID="viewController"/>
        </objects></scene>
        </scenes>
        """)
    let unreachable = StoryboardLinter().lint(
      try InterfaceDocument(bytes: Array(withInitial.utf8), file: "Main.storyboard"))
    #expect(unreachable.findings.map(\.code) == [.unreachableScene, .storyboardReference])
    #expect(unreachable.paths.map(\.path) == ["Other"])
  }

  @Test func seguesThatLoopEnd() throws {
    let text = """
      <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" initialViewController="nav">
        <scenes><scene sceneID="s"><objects>
          <navigationController storyboardIdentifier="Nav" useStoryboardIdentifierAsRestorationIdentifier="YES" id="nav" sceneMemberID="viewController">
            <connections><segue destination="a" kind="relationship" relationship="rootViewController" id="r"/></connections>
          </navigationController>
          <viewController storyboardIdentifier="A" useStoryboardIdentifierAsRestorationIdentifier="YES" id="a" sceneMemberID="viewController">
            <connections><segue destination="b" kind="show" id="ab"/></connections>
          </viewController>
          <viewController storyboardIdentifier="B" useStoryboardIdentifierAsRestorationIdentifier="YES" id="b" sceneMemberID="viewController">
            <connections><segue destination="a" kind="show" id="ba"/><segue destination="b" kind="presentation" id="bb"/></connections>
          </viewController>
        </objects></scene></scenes>
      </document>
      """
    let report = StoryboardLinter().lint(
      try InterfaceDocument(bytes: Array(text.utf8), file: "Loop.storyboard"))
    #expect(report.findings.isEmpty)
    #expect(report.paths.map(\.path) == ["Nav", "Nav/:[0]:/A", "Nav/:[1]:/B"])
  }
}
