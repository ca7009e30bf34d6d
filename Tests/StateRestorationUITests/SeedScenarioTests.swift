import StateRestoration
import StateRestorationTesting
import StateRestorationUI
import Testing

// MARK: - The talk's demo (seed 002)

/// The talk's first tab: a slider whose value the controller encodes, since a slider archives
/// nothing of its own (its value belongs to the app).
final class FirstViewController: ViewController {
  /// The slider, with an identifier so that it has a record of its own in the archive.
  let slider = Slider(restorationIdentifier: "Slider")
  /// What the slider shows.
  var sliderValue: Float {
    get { slider.value }
    set { slider.value = newValue }
  }

  override init(restorationIdentifier: String?) {
    super.init(restorationIdentifier: restorationIdentifier)
    slider.value = 0.5
  }

  override func loadView() {
    let root = View()
    root.addSubview(slider)
    setView(root)
  }

  override func encodeRestorableState(with coder: StateCoder) throws {
    try super.encodeRestorableState(with: coder)
    coder.encode(slider.value, forKey: "encodingKeySliderValue")
  }
  override func decodeRestorableState(with coder: StateDecoder) throws {
    try super.decodeRestorableState(with: coder)
    slider.value = coder.decode(Float.self, forKey: "encodingKeySliderValue") ?? slider.value
  }
}

final class SecondViewController: ViewController {}

final class CityViewController: ViewController, ViewControllerRestoration {
  var cityName = ""
  /// Whether the navigation controller was linked when decode ran (nil: decode did not run).
  var hadNavigationControllerDuringDecode: Bool?

  init(cityName: String) {
    self.cityName = cityName
    super.init(restorationIdentifier: "CityViewController")
    restorationClass = CityViewController.self
  }

  override func encodeRestorableState(with coder: StateCoder) throws {
    try super.encodeRestorableState(with: coder)
    coder.encode(cityName, forKey: "cityName")
  }

  override func decodeRestorableState(with coder: StateDecoder) throws {
    try super.decodeRestorableState(with: coder)
    hadNavigationControllerDuringDecode = navigationController != nil
    cityName = try coder.decodeRequired(String.self, forKey: "cityName")
  }

  static func viewController(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> ViewController? {
    let city = CityViewController(cityName: "")
    city.restorationIdentifier = identifierComponents.last
    return city
  }
}

final class TalkDemoDelegate: OptingInApplicationDelegate {
  var traits = TraitCollection(horizontalSizeClass: .compact, verticalSizeClass: .regular)
  var registersRestorationClasses = true

  override func applicationWillFinishLaunching(_ application: Application) {
    if registersRestorationClasses {
      application.register(restorationClass: CityViewController.self)
    }
    let navigation = NavigationController(
      rootViewController: SecondViewController(restorationIdentifier: "SecondViewController"),
      restorationIdentifier: "NavigationController"
    )
    let tabs = TabBarController(
      viewControllers: [
        FirstViewController(restorationIdentifier: "FirstViewController"), navigation,
      ],
      restorationIdentifier: "TabController"
    )
    application.addWindow(
      Window(rootViewController: tabs, restorationIdentifier: "MainWindow", traitCollection: traits)
    )
  }

  static func tabs(_ application: Application) -> TabBarController? {
    application.keyWindow?.rootViewController as? TabBarController
  }
}

@Suite struct TalkDemoTests {
  @Test func sliderValueCityAndSizeClassesComeBack() throws {
    let harness = ApplicationHarness { TalkDemoDelegate() }
    harness.launch()
    let tabs = try #require(TalkDemoDelegate.tabs(harness.application))
    let first = try #require(tabs.viewControllers.first as? FirstViewController)
    first.sliderValue = 0.8926057
    tabs.selectedIndex = 1
    let navigation = try #require(tabs.selectedViewController as? NavigationController)
    navigation.pushViewController(CityViewController(cityName: "Dresden"))

    let restart = harness.restartAndRestore()
    #expect(restart.report.restoredEverything, "\(restart.report)")
    #expect(
      restart.archive?.rootIdentifierPaths == [
        "MainWindow",
        "TabController",
        "TabController/:[0]:/FirstViewController",
        "TabController/:[1]:/NavigationController",
        "TabController/:[1]:/NavigationController/:[0]:/SecondViewController",
        "TabController/:[1]:/NavigationController/:[1]:/CityViewController",
        "TabController/:[0]:/FirstViewController/Slider",
      ]
    )
    let restoredTabs = try #require(TalkDemoDelegate.tabs(restart.application))
    #expect((restoredTabs.viewControllers.first as? FirstViewController)?.sliderValue == 0.8926057)
    #expect(restoredTabs.selectedIndex == 1)
    let restoredNavigation = try #require(
      restoredTabs.selectedViewController as? NavigationController)
    let city = try #require(restoredNavigation.topViewController as? CityViewController)
    #expect(city.cityName == "Dresden")
    #expect(
      restart.report.entry(
        for: "TabController/:[1]:/NavigationController/:[1]:/CityViewController")?.source
        == .restorationClass
    )
    let window = try #require(restart.application.keyWindow)
    #expect(
      window.restoredTraitCollection
        == TraitCollection(horizontalSizeClass: .compact, verticalSizeClass: .regular)
    )
  }

  @Test func sliderShowsTheValueItsControllerEncodedAndArchivesNoneOfItsOwn() throws {
    let harness = ApplicationHarness { TalkDemoDelegate() }
    harness.launch()
    let tabs = try #require(TalkDemoDelegate.tabs(harness.application))
    let first = try #require(tabs.viewControllers.first as? FirstViewController)
    #expect(first.isVisible)
    first.slider.value = 0.25  // the user drags the slider

    let restart = harness.restartAndRestore()
    #expect(restart.report.restoredEverything, "\(restart.report)")
    let restoredTabs = try #require(TalkDemoDelegate.tabs(restart.application))
    let restored = try #require(restoredTabs.viewControllers.first as? FirstViewController)
    #expect(restored !== first)
    #expect(restored.slider.value == 0.25)
    #expect(restored.view.view(withRestorationIdentifier: "Slider") === restored.slider)

    let controllerPath = "TabController/:[0]:/FirstViewController"
    let sliderPath = "\(controllerPath)/Slider"
    #expect(restart.report.status(of: sliderPath) == .restored)
    let archive = try #require(restart.archive)
    #expect(archive.record(at: controllerPath)?.state["encodingKeySliderValue"] == .real(0.25))
    // The view's record carries no value: the slider's value is the controller's to encode.
    let sliderRecord = try #require(archive.record(at: sliderPath))
    #expect(!sliderRecord.state.contains { $0.value == .real(0.25) })
  }

  @Test func containerIsLinkedWhenAChildDecodes() throws {
    // The seeds' trap: in UIKit, navigationController is nil inside a restored child's decode.
    let harness = ApplicationHarness { TalkDemoDelegate() }
    harness.launch()
    let tabs = try #require(TalkDemoDelegate.tabs(harness.application))
    let navigation = try #require(tabs.viewControllers.last as? NavigationController)
    navigation.pushViewController(CityViewController(cityName: "Leipzig"))
    let restart = harness.restartAndRestore()
    let restoredNavigation = try #require(
      TalkDemoDelegate.tabs(restart.application)?.viewControllers.last as? NavigationController)
    let city = try #require(restoredNavigation.topViewController as? CityViewController)
    #expect(city.hadNavigationControllerDuringDecode == true)
  }

  @Test func unregisteredRestorationClassIsReported() throws {
    var registers = true
    let harness = ApplicationHarness {
      let delegate = TalkDemoDelegate()
      delegate.registersRestorationClasses = registers
      return delegate
    }
    harness.launch()
    let navigation = try #require(
      TalkDemoDelegate.tabs(harness.application)?.viewControllers.last as? NavigationController)
    navigation.pushViewController(CityViewController(cityName: "Görlitz"))
    registers = false  // the next version of the app forgot to register the class
    let restart = harness.restartAndRestore()
    #expect(
      restart.report.status(of: "TabController/:[1]:/NavigationController/:[1]:/CityViewController")
        == .skipped(.restorationClassNotRegistered("CityViewController"))
    )
    let restored = try #require(
      TalkDemoDelegate.tabs(restart.application)?.viewControllers.last as? NavigationController)
    #expect(restored.viewControllers.count == 1)
  }
}

// MARK: - Pet Finder (seed 003)

struct Pet: Equatable {
  var id: Int
  var name: String
  var age: Int
}

final class PetStore {
  var pets: [Int: Pet] = [
    1: Pet(id: 1, name: "Tom", age: 3),
    2: Pet(id: 2, name: "Garfield", age: 7),
  ]
}

final class MatchedPetsViewController: ViewController {}

final class PetDetailsViewController: ViewController {
  var petID: Int?
  var currentPet: Pet?
  var store: PetStore?

  override func encodeRestorableState(with coder: StateCoder) throws {
    if let petID { coder.encode(petID, forKey: "petId") }
    try super.encodeRestorableState(with: coder)
  }

  override func decodeRestorableState(with coder: StateDecoder) throws {
    petID = coder.decode(Int.self, forKey: "petId")
    try super.decodeRestorableState(with: coder)
  }

  override func applicationFinishedRestoringState() {
    guard let petID else { return }
    currentPet = store?.pets[petID]
  }

  func edit() -> PetEditViewController {
    let editor = PetEditViewController()
    editor.petID = petID
    editor.name = currentPet?.name ?? ""
    editor.age = currentPet.map { String($0.age) } ?? ""
    navigationController?.pushViewController(editor)
    return editor
  }
}

/// Created entirely in code, with a restoration class (the tutorial's PetEditViewController).
final class PetEditViewController: ViewController, ViewControllerRestoration {
  var petID: Int?
  var name = ""
  var age = ""

  override func viewDidLoad() {
    super.viewDidLoad()
    restorationIdentifier = "PetEditViewController"
    restorationClass = PetEditViewController.self
  }

  override func encodeRestorableState(with coder: StateCoder) throws {
    if let petID { coder.encode(petID, forKey: "petId") }
    coder.encode(name, forKey: "name")
    coder.encode(age, forKey: "age")
    try super.encodeRestorableState(with: coder)
  }

  override func decodeRestorableState(with coder: StateDecoder) throws {
    petID = coder.decode(Int.self, forKey: "petId")
    name = coder.decode(String.self, forKey: "name") ?? ""
    age = coder.decode(String.self, forKey: "age") ?? ""
    try super.decodeRestorableState(with: coder)
  }

  static func viewController(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> ViewController? {
    let editor = PetEditViewController()
    editor.loadViewIfNeeded()
    return editor
  }
}

final class PetFinderDelegate: OptingInApplicationDelegate {
  let store = PetStore()

  static func makeStoryboard() -> Storyboard {
    let storyboard = Storyboard(name: "Main")
    storyboard.addScene(
      storyboardIdentifier: "RootTabBarController",
      usesStoryboardIdentifierAsRestorationIdentifier: true,
      relationships: [.viewControllers(["PetCardViewController", "NavigationController"])],
      isInitial: true
    ) { TabBarController() }
    storyboard.addScene(
      storyboardIdentifier: "PetCardViewController",
      usesStoryboardIdentifierAsRestorationIdentifier: true
    ) { ViewController() }
    storyboard.addScene(
      storyboardIdentifier: "NavigationController",
      usesStoryboardIdentifierAsRestorationIdentifier: true,
      relationships: [.rootViewController("MatchedPetsCollectionViewController")]
    ) { NavigationController() }
    storyboard.addScene(
      storyboardIdentifier: "MatchedPetsCollectionViewController",
      usesStoryboardIdentifierAsRestorationIdentifier: true
    ) { MatchedPetsViewController() }
    storyboard.addScene(
      storyboardIdentifier: "PetDetailsViewController",
      usesStoryboardIdentifierAsRestorationIdentifier: true
    ) { PetDetailsViewController() }
    return storyboard
  }

  override func applicationWillFinishLaunching(_ application: Application) {
    application.register(restorationClass: PetEditViewController.self)
  }

  override func application(
    _ application: Application,
    viewControllerWithRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> ViewController? {
    // Pet details comes from the storyboard; give it the data it looks pets up in.
    guard identifierComponents.last == "PetDetailsViewController",
      let details = application.mainStoryboard?.instantiateViewController(
        withIdentifier: "PetDetailsViewController")
        as? PetDetailsViewController
    else { return nil }
    details.store = store
    return details
  }
}

@Suite struct PetFinderTests {
  private func navigation(_ application: Application) throws -> NavigationController {
    let tabs = try #require(application.keyWindow?.rootViewController as? TabBarController)
    return try #require(tabs.viewControllers.last as? NavigationController)
  }

  @Test func detailRestoresItsPetIDAndLooksThePetUpWhenRestorationFinishes() throws {
    let harness = ApplicationHarness(makeMainStoryboard: PetFinderDelegate.makeStoryboard) {
      PetFinderDelegate()
    }
    harness.launch()
    let tabs = try #require(harness.application.keyWindow?.rootViewController as? TabBarController)
    tabs.selectedIndex = 1
    let details = try #require(
      harness.application.mainStoryboard?.instantiateViewController(
        withIdentifier: "PetDetailsViewController")
        as? PetDetailsViewController
    )
    details.petID = 2
    try navigation(harness.application).pushViewController(details)

    let restart = harness.restartAndRestore()
    let restored = try #require(
      try navigation(restart.application).topViewController as? PetDetailsViewController)
    #expect(restored.petID == 2)
    #expect(restored.currentPet == Pet(id: 2, name: "Garfield", age: 7))
    #expect(
      restart.report.entry(
        for: "RootTabBarController/:[1]:/NavigationController/:[1]:/PetDetailsViewController")?
        .source == .delegate
    )
  }

  @Test func editControllerCreatedInCodeBringsBackUnsavedEdits() throws {
    let harness = ApplicationHarness(makeMainStoryboard: PetFinderDelegate.makeStoryboard) {
      PetFinderDelegate()
    }
    harness.launch()
    let details = try #require(
      harness.application.mainStoryboard?.instantiateViewController(
        withIdentifier: "PetDetailsViewController")
        as? PetDetailsViewController
    )
    details.petID = 1
    details.store = (harness.application.delegate as? PetFinderDelegate)?.store
    details.applicationFinishedRestoringState()
    try navigation(harness.application).pushViewController(details)
    let editor = details.edit()
    editor.loadViewIfNeeded()
    editor.name = "Tom the Cat"  // typed but not saved
    editor.age = "4"

    let restart = harness.restartAndRestore()
    let stack = try navigation(restart.application).viewControllers
    #expect(stack.count == 3)
    let restoredEditor = try #require(stack.last as? PetEditViewController)
    #expect(restoredEditor.name == "Tom the Cat")
    #expect(restoredEditor.age == "4")
    #expect(restoredEditor.petID == 1)
    #expect(restoredEditor.restorationClass == PetEditViewController.self)
    // The model was not touched: unsaved edits live in the UI state only.
    #expect((restart.application.delegate as? PetFinderDelegate)?.store.pets[1]?.name == "Tom")
  }
}

// MARK: - The app delegate re-creating controllers from the storyboard (seed 004)

final class StoryboardFactoryDelegate: OptingInApplicationDelegate {
  var requests: [[String]] = []

  static func makeStoryboard() -> Storyboard {
    let storyboard = Storyboard(name: "Main")
    storyboard.addScene(
      storyboardIdentifier: "NavController",
      usesStoryboardIdentifierAsRestorationIdentifier: true,
      relationships: [.rootViewController("ListController")],
      isInitial: true
    ) { NavigationController() }
    storyboard.addScene(
      storyboardIdentifier: "ListController", usesStoryboardIdentifierAsRestorationIdentifier: true
    ) {
      ViewController()
    }
    storyboard.addScene(
      storyboardIdentifier: "DetailController",
      usesStoryboardIdentifierAsRestorationIdentifier: true
    ) {
      ViewController()
    }
    storyboard.addScene(
      storyboardIdentifier: "MoreController", usesStoryboardIdentifierAsRestorationIdentifier: true
    ) {
      ViewController()
    }
    return storyboard
  }

  override func application(
    _ application: Application,
    viewControllerWithRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> ViewController? {
    requests.append(identifierComponents)
    // "At least two components": the navigation root is not instantiated again, or its
    // storyboard relationship would put a second root controller on the stack.
    guard identifierComponents.count > 1, let last = identifierComponents.last else { return nil }
    return application.mainStoryboard?.instantiateViewController(withIdentifier: last)
  }
}

@Suite struct StoryboardDelegateTests {
  @Test func delegateRecreatesPushedControllersButNotTheNavigationRoot() throws {
    let harness = ApplicationHarness(makeMainStoryboard: StoryboardFactoryDelegate.makeStoryboard) {
      StoryboardFactoryDelegate()
    }
    harness.launch()
    let navigation = try #require(
      harness.application.keyWindow?.rootViewController as? NavigationController)
    let storyboard = try #require(harness.application.mainStoryboard)
    for identifier in ["DetailController", "MoreController"] {
      navigation.pushViewController(
        try #require(storyboard.instantiateViewController(withIdentifier: identifier)))
    }

    let restart = harness.restartAndRestore()
    let restored = try #require(
      restart.application.keyWindow?.rootViewController as? NavigationController)
    #expect(
      restored.viewControllers.map(\.restorationIdentifier) == [
        "ListController", "DetailController", "MoreController",
      ])
    let delegate = try #require(restart.application.delegate as? StoryboardFactoryDelegate)
    #expect(delegate.requests.first == ["NavController"])
    #expect(delegate.requests.contains(["NavController", ":[2]:", "MoreController"]))
    #expect(restart.report.entry(for: "NavController")?.source == .existing)
    #expect(restart.report.entry(for: "NavController/:[2]:/MoreController")?.source == .delegate)
    #expect(restored.viewControllers.allSatisfy { $0.storyboard?.name == "Main" })
  }

  @Test func storyboardRecordedInTheArchiveRecreatesControllersWhenNothingElseDoes() throws {
    final class PassiveDelegate: OptingInApplicationDelegate {
    }
    let harness = ApplicationHarness(makeMainStoryboard: StoryboardFactoryDelegate.makeStoryboard) {
      PassiveDelegate()
    }
    harness.launch()
    let navigation = try #require(
      harness.application.keyWindow?.rootViewController as? NavigationController)
    let detail = try #require(
      harness.application.mainStoryboard?.instantiateViewController(
        withIdentifier: "DetailController"))
    navigation.pushViewController(detail)
    let restart = harness.restartAndRestore()
    #expect(
      restart.archive?.record(at: "NavController/:[1]:/DetailController")?.storyboard?.name
        == "Main")
    #expect(
      restart.report.entry(for: "NavController/:[1]:/DetailController")?.source == .storyboard)
    let restored = try #require(
      restart.application.keyWindow?.rootViewController as? NavigationController)
    #expect(restored.viewControllers.count == 2)
  }
}
