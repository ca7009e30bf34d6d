import StateRestoration
import Synchronization
import Testing

@Suite struct RestorationTests {
  /// Preserves `demo` into a fresh store and returns the store.
  private func preserve(_ roots: [any StateRestoring], delegate: TestDelegate = TestDelegate())
    -> InMemoryArchiveStore
  {
    let store = InMemoryArchiveStore()
    let engine = makeEngine(store: store, delegate: delegate)
    let report = engine.preserveApplicationState(roots: roots)
    guard case .saved = report.outcome else {
      Issue.record("preservation failed: \(report)")
      return store
    }
    return store
  }

  @Test func restoresStateIntoTheLaunchHierarchyAndRecreatesPushedControllers() throws {
    let saved = TalkDemo()
    saved.first.state = ["sliderValue": 89]
    saved.city.state = ["cityIndex": 3]
    let store = preserve(saved.roots)

    // Relaunch: the storyboard gives the tabs and the navigation root, not the pushed city.
    let launched = TalkDemo(pushCity: false)
    let engine = makeEngine(store: store, delegate: TestDelegate())
    let report = engine.restoreApplicationState(roots: launched.roots)

    #expect(report.outcome == .restored)
    #expect(report.entries.allSatisfy { $0.status == .restored })
    #expect(launched.first.decodedState == ["sliderValue": 89])
    #expect(launched.navigation.children.count == 2)
    let city = try #require(launched.navigation.children.last)
    #expect(city !== saved.city)
    #expect(city.decodedState == ["cityIndex": 3])
    #expect(
      city.receivedComponents
        == IdentifierPath.components(
          of: "TabController/:[1]:/NavigationController/:[1]:/CityViewController"))
    #expect(
      report.entry(for: "TabController/:[1]:/NavigationController/:[1]:/CityViewController")?.source
        == .restorationClass)
    #expect(report.entry(for: "TabController")?.source == .existing)
  }

  @Test func decodeRunsParentsFirstAfterLocatingEverythingThenDidDecodeThenFinished() {
    let saved = TalkDemo()
    let store = preserve(saved.roots)
    let log = EventLog()
    let launched = TalkDemo(log: log, pushCity: false)
    let delegate = TestDelegate()
    delegate.log = log
    let engine = makeEngine(store: store, delegate: delegate)
    engine.restoreApplicationState(roots: launched.roots)
    let ids = [
      "TabController", "FirstViewController", "NavigationController", "SecondViewController",
    ]
    var expected: [String] = []
    for id in ids { expected += ["willDecode \(id)", "decode \(id)"] }
    // The city was created by its restoration class, without the log.
    expected.append("didDecode")
    expected += ids.map { "finished \($0)" }
    #expect(log.events == expected)
  }

  @Test func restorationClassReturningNilStopsTheLookup() {
    let saved = TalkDemo()
    saved.city.state = ["returnNil": 1]
    let store = preserve(saved.roots)
    let launched = TalkDemo(pushCity: false)
    let delegate = TestDelegate()
    delegate.factory = { _ in TestController("CityViewController") }
    let engine = makeEngine(store: store, delegate: delegate)
    let report = engine.restoreApplicationState(roots: launched.roots)
    let path = "TabController/:[1]:/NavigationController/:[1]:/CityViewController"
    #expect(report.status(of: path) == .skipped(.restorationClassReturnedNil("CityRestoration")))
    // The delegate is not asked after a restoration class said no.
    #expect(!delegate.requestedPaths.contains(IdentifierPath.components(of: path)))
    // The navigation controller truncated its stack at the missing child; siblings are intact.
    #expect(launched.navigation.children.count == 1)
    #expect(report.status(of: "TabController/:[0]:/FirstViewController") == .restored)
  }

  /// Siblings share their parent's split path: every object is still asked for with its own
  /// path's components, after a change of parent, under an empty root and below a name with
  /// slashes.
  @Test func objectsAreAskedForWithTheirOwnPathsComponents() throws {
    let paths = [
      "", "/A", "/A/B", "Root", "Root/:[0]:/Nav", "Root/:[0]:/Nav/:[0]:/First",
      "Root/:[0]:/Nav/:[1]:/Second", "Root/:[1]:/Other", "Root/:[0]:/Nav/:[2]:/Third",
      "Root/:[1]:/Other/x/y", "Root/:[1]:/Other/x/y/:[12]:/Deep",
    ]
    var archive = RestorationArchive()
    archive.records = paths.map {
      RestorationArchive.Record(identifierPath: $0, kind: .viewController, className: "C")
    }
    let store = InMemoryArchiveStore(contents: [.archive: try archive.encoded()])
    let delegate = TestDelegate()
    delegate.factory = { TestController($0.last) }
    let report = makeEngine(store: store, delegate: delegate).restoreApplicationState(roots: [])
    #expect(report.outcome == .restored)
    #expect(delegate.requestedPaths == paths.map { IdentifierPath.components(of: $0) })
    #expect(delegate.requestedPaths[2] == ["", "A", "B"])
    #expect(delegate.requestedPaths[10] == ["Root", ":[1]:", "Other", "x", "y", ":[12]:", "Deep"])
  }

  @Test func delegateReturningNilKeepsLookingForAnExistingObject() {
    let saved = TalkDemo()
    saved.second.state = ["rows": 250]
    let store = preserve(saved.roots)
    let launched = TalkDemo(pushCity: false)
    let delegate = TestDelegate()
    delegate.factory = { _ in nil }
    let engine = makeEngine(store: store, delegate: delegate)
    let report = engine.restoreApplicationState(roots: launched.roots)
    let path = "TabController/:[1]:/NavigationController/:[0]:/SecondViewController"
    #expect(delegate.requestedPaths.contains(IdentifierPath.components(of: path)))
    #expect(report.entry(for: path)?.source == .existing)
    #expect(launched.second.decodedState == ["rows": 250])
  }

  @Test func delegateCanRecreateControllersFromTheirComponents() {
    // Seed 004: the delegate re-creates any controller with at least two components, so the
    // navigation root is not instantiated twice.
    let navigation = TestController("Nav")
    let list = TestController("List")
    let detail = TestController("Detail")
    navigation.addChild(list)
    navigation.addChild(detail)
    detail.state = ["petID": 7]
    let store = preserve([navigation])

    let launchedNavigation = TestController("Nav")
    let launchedList = TestController("List")
    launchedNavigation.addChild(launchedList)
    let delegate = TestDelegate()
    delegate.factory = { components in
      guard components.count > 1, let last = components.last, last != "List" else { return nil }
      return TestController(last)
    }
    let engine = makeEngine(store: store, delegate: delegate)
    let report = engine.restoreApplicationState(roots: [launchedNavigation])
    #expect(report.entry(for: "Nav")?.source == .existing)
    #expect(report.entry(for: "Nav/:[1]:/Detail")?.source == .delegate)
    #expect(launchedNavigation.children.map(\.restorationIdentifier) == ["List", "Detail"])
    #expect(launchedNavigation.children.last?.decodedState == ["petID": 7])
  }

  @Test func objectOfTheWrongClassIsNotDecoded() {
    let root = TestController("Root")
    let child = TestController("Child")
    child.objectRestorationClass = WrongClassRestoration.self
    // A key the wrongly-classed object would read, were it decoded.
    child.state = ["value": 41]
    root.addChild(child)
    let registry = makeRegistry()
    registry.register(WrongClassRestoration.self)
    let store = InMemoryArchiveStore()
    makeEngine(store: store, delegate: TestDelegate(), registry: registry)
      .preserveApplicationState(roots: [root])

    let launchedRoot = TestController("Root")
    let engine = makeEngine(store: store, delegate: TestDelegate(), registry: registry)
    let report = engine.restoreApplicationState(roots: [launchedRoot])
    #expect(
      report.status(of: "Root/:[0]:/Child")
        == .skipped(.classMismatch(archived: "TestController", found: "MismatchedObject"))
    )
    #expect(WrongClassRestoration.made.withLock { $0.contains("Child") }, "the class was asked")
    #expect(!WrongClassRestoration.decoded.withLock { $0.contains("Child") }, "nothing decoded")
  }

  @Test func subclassOfTheArchivedClassIsDecoded() {
    let saved = TalkDemo()
    saved.city.state = ["special": 1, "cityIndex": 2]
    let store = preserve(saved.roots)
    let launched = TalkDemo(pushCity: false)
    let report = makeEngine(store: store, delegate: TestDelegate())
      .restoreApplicationState(roots: launched.roots)
    #expect(report.entries.allSatisfy { $0.status == .restored })
    #expect(launched.navigation.children.last is SpecialController)
    #expect(launched.navigation.children.last?.decodedState?["cityIndex"] == 2)
  }

  @Test func unregisteredRestorationClassIsSkippedWithAReason() {
    let saved = TalkDemo()
    let store = preserve(saved.roots)
    let launched = TalkDemo(pushCity: false)
    let engine = makeEngine(store: store, delegate: TestDelegate(), registry: RestorationRegistry())
    let report = engine.restoreApplicationState(roots: launched.roots)
    #expect(
      report.status(of: "TabController/:[1]:/NavigationController/:[1]:/CityViewController")
        == .skipped(.restorationClassNotRegistered("CityRestoration"))
    )
  }

  @Test func childrenOfAnObjectThatWasNotRestoredAreSkipped() {
    let root = TestController("Root")
    let child = TestController("Child")
    let grandchild = TestController("Grandchild")
    root.addChild(child)
    child.addChild(grandchild)
    let store = preserve([root])
    // At launch only the root exists and nothing can create Child.
    let report = makeEngine(store: store, delegate: TestDelegate())
      .restoreApplicationState(roots: [TestController("Root")])
    #expect(report.status(of: "Root/:[0]:/Child") == .skipped(.containerHasNoSuchChild("Root")))
    #expect(
      report.status(of: "Root/:[0]:/Child/:[0]:/Grandchild")
        == .skipped(.missingParent("Root/:[0]:/Child")))
    // Only what came back, in archive order.
    #expect(report.restoredPaths == ["Root"])
    #expect(report.entries.count == 3)
  }

  @Test func aParentListedAfterItsChildrenStillStopsTheChildrenAfterIt() throws {
    // An archive written by another tool, not parents first: Child's record comes between its
    // two children. Nothing at launch can make Child, so the child after it is skipped for its
    // missing parent, though its sibling before it shares its parent path.
    let store = preserve([TestController("Child")])
    let saved = try RestorationArchive(decoding: try #require(store.contents[.archive]))
    var crafted = saved
    crafted.records = ["Child/:[0]:/A", "Child", "Child/:[1]:/B"].map {
      RestorationArchive.Record(
        identifierPath: $0, kind: .viewController, className: "TestController")
    }
    store.contents[.archive] = try crafted.encoded()
    let report = makeEngine(store: store, delegate: TestDelegate())
      .restoreApplicationState(roots: [])
    #expect(report.status(of: "Child") == .skipped(.notFound))
    #expect(report.status(of: "Child/:[0]:/A") == .skipped(.notFound))
    #expect(report.status(of: "Child/:[1]:/B") == .skipped(.missingParent("Child")))
  }

  @Test func referencesPullUnreferencedObjectsIntoTheArchive() throws {
    let controller = TestController("Detail")
    let pet = TestObject("Pet", parent: controller)
    pet.value = 42
    let settings = TestObject("Settings")
    settings.value = 5
    let root = ReferringController("Detail", key: "pet")
    root.referenced = pet
    pet.restorationParent = root
    let delegate = TestDelegate()
    delegate.willEncode = { coder in coder.encode(settings, forKey: "settings") }
    let store = InMemoryArchiveStore()
    let engine = makeEngine(store: store, delegate: delegate)
    let registry = engine.registry
    registry.registerObject(pet)
    registry.registerObject(settings)
    let (archive, _) = engine.makeArchive(roots: [root])
    let records = try #require(archive).records
    #expect(records.map(\.identifierPath) == ["Settings", "Detail", "Detail/Pet"])
    #expect(records[0].kind == .object)
    #expect(archive?.topLevel["settings"] == .reference("Settings"))
    _ = controller

    // At launch, registered objects at the same path get their state back.
    engine.preserveApplicationState(roots: [root])
    let launchedRoot = ReferringController("Detail", key: "pet")
    let launchedPet = TestObject("Pet", parent: launchedRoot)
    let launchedSettings = TestObject("Settings")
    let relaunchDelegate = TestDelegate()
    var resolvedSettings: (any StateRestoring)?
    relaunchDelegate.didDecode = { coder in
      resolvedSettings = coder.decodeObject(forKey: "settings")
    }
    let relaunched = makeEngine(store: store, delegate: relaunchDelegate)
    relaunched.registry.registerObject(launchedPet)
    relaunched.registry.registerObject(launchedSettings)
    let report = relaunched.restoreApplicationState(roots: [launchedRoot])
    #expect(report.entries.allSatisfy { $0.status == .restored }, "\(report)")
    #expect(launchedPet.decodedValue == 42)
    #expect(launchedSettings.decodedValue == 5)
    #expect(launchedSettings.finishedCalls == 1)
    #expect(resolvedSettings === launchedSettings)
  }

  /// A node already in the walk through a reference is not added again by its parent.
  @Test func aNodeReferencedBeforeItsParentIsVisitedIsArchivedOnce() throws {
    let root = TestController("Root")
    let first = ReferringController("First", key: "cousin")
    let second = TestController("Second")
    let cousin = TestController("Cousin")
    let sibling = TestController("Sibling")
    root.addChild(first)
    root.addChild(second)
    second.addChild(cousin)
    second.addChild(sibling)
    // The first child's encode pulls in a child of the second before the second is visited.
    first.referenced = cousin
    let engine = makeEngine(store: InMemoryArchiveStore(), delegate: TestDelegate())
    let (archive, report) = engine.makeArchive(roots: [root])
    #expect(report.issues.isEmpty, "\(report.issues)")
    let paths = try #require(archive).records.map(\.identifierPath)
    #expect(
      paths == [
        "Root", "Root/:[0]:/First", "Root/:[1]:/Second", "Root/:[1]:/Second/:[0]:/Cousin",
        "Root/:[1]:/Second/:[1]:/Sibling",
      ])
    #expect(archive?.records[1].state["cousin"] == .reference("Root/:[1]:/Second/:[0]:/Cousin"))
  }

  @Test func referenceToAnObjectWithoutPathIsReportedAndNotEncoded() {
    let root = TestController("Root")
    let anonymous = TestObject(nil)
    final class Referrer: TestController {
      var target: (any StateRestoring)?
      override func encodeRestorableState(with coder: StateCoder) throws {
        coder.encode(target, forKey: "target")
      }
    }
    let referrer = Referrer("Referrer")
    referrer.target = anonymous
    root.addChild(referrer)
    let (archive, report) = makeEngine(store: InMemoryArchiveStore(), delegate: TestDelegate())
      .makeArchive(roots: [root])
    #expect(
      report.issues(of: .referenceWithoutPath).map(\.identifierPath) == ["Root/:[0]:/Referrer"])
    #expect(archive?.record(at: "Root/:[0]:/Referrer")?.state["target"] == nil)
  }

  @Test func viewsAreFoundInsideTheirControllerAndDecoded() {
    let controller = TestController("Countries")
    controller.installRootView()
    let table = TestView("CountryTable")
    table.offset = 2_200
    controller.rootView?.addSubview(table)
    let store = preserve([controller])

    let launched = TestController("Countries")
    launched.installRootView()
    let launchedTable = TestView("CountryTable")
    launched.rootView?.addSubview(launchedTable)
    let report = makeEngine(store: store, delegate: TestDelegate())
      .restoreApplicationState(roots: [launched])
    #expect(report.entry(for: "Countries/CountryTable")?.kind == .view)
    #expect(launchedTable.decodedOffset == 2_200)
  }

  @Test func viewsOfARecreatedControllerAreFoundToo() {
    let root = TestController("Root")
    let pushed = TestController("Web")
    pushed.objectRestorationClass = ViewOwningRestoration.self
    pushed.installRootView()
    let web = TestView("WebView")
    web.offset = 640
    pushed.rootView?.addSubview(web)
    root.addChild(pushed)
    let registry = makeRegistry()
    registry.register(ViewOwningRestoration.self)
    let store = InMemoryArchiveStore()
    makeEngine(store: store, delegate: TestDelegate(), registry: registry)
      .preserveApplicationState(roots: [root])
    let launched = TestController("Root")
    let report = makeEngine(store: store, delegate: TestDelegate(), registry: registry)
      .restoreApplicationState(roots: [launched])
    #expect(report.status(of: "Root/:[0]:/Web/WebView") == .restored)
    let view = launched.children.first?.rootView?.subviews.first
    #expect(view?.decodedOffset == 640)
  }

  @Test func delegateSeesTopLevelValuesAndCanVeto() {
    let saved = TalkDemo()
    let delegate = TestDelegate()
    delegate.willEncode = { coder in coder.encode(3, forKey: "uiVersion") }
    let store = preserve(saved.roots, delegate: delegate)
    let relaunch = TestDelegate()
    relaunch.shouldRestore = false
    let launched = TalkDemo(pushCity: false)
    let report = makeEngine(store: store, delegate: relaunch).restoreApplicationState(
      roots: launched.roots)
    #expect(report.outcome == .vetoedByDelegate)
    #expect(launched.first.decodedState == nil)
    let topLevel = relaunch.seenTopLevel
    #expect(topLevel?["uiVersion"] == .integer(3))
    #expect(topLevel?[RestorationArchive.Key.bundleVersion] == .string("1"))
    #expect(topLevel?[RestorationArchive.Key.systemVersion] == .string("8.0"))
    #expect(topLevel?[RestorationArchive.Key.userInterfaceIdiom] == .string("phone"))
    #expect(topLevel?[RestorationArchive.Key.majorVersion] == .integer(3))
    #expect(topLevel?[RestorationArchive.Key.minorVersion] == .integer(1))
    if case .date = topLevel?[RestorationArchive.Key.timestamp] {
    } else {
      Issue.record("no timestamp in the top level")
    }
  }

  @Test func reservedTopLevelKeysAreIgnoredAndReported() {
    let delegate = TestDelegate()
    delegate.willEncode = { coder in
      coder.encode("hacked", forKey: RestorationArchive.Key.bundleVersion)
    }
    let (archive, report) = makeEngine(store: InMemoryArchiveStore(), delegate: delegate)
      .makeArchive(roots: [])
    #expect(archive?.bundleVersion == "1")
    #expect(report.issues(of: .reservedKey).count == 1)
  }

  @Test func notOptingInSavesNothing() {
    let delegate = TestDelegate()
    delegate.shouldSave = false
    let store = InMemoryArchiveStore()
    let report = makeEngine(store: store, delegate: delegate).preserveApplicationState(
      roots: TalkDemo().roots)
    #expect(report.outcome == .notOptedIn)
    #expect(store.contents[.archive] == nil)
  }

  @Test func decodeErrorsAreReportedPerObjectAndTheRestStillRestores() {
    let saved = TalkDemo()
    let store = preserve(saved.roots)
    let launched = TalkDemo(pushCity: false)
    launched.first.decodeError = RestorationError(.typeMismatch, "bad slider")
    let report = makeEngine(store: store, delegate: TestDelegate()).restoreApplicationState(
      roots: launched.roots)
    guard
      case .skipped(.decodeFailed(let error)) = report.status(
        of: "TabController/:[0]:/FirstViewController")
    else {
      Issue.record("expected a decode failure, got \(report)")
      return
    }
    #expect(error.message == "bad slider")
    #expect(report.status(of: "TabController/:[1]:/NavigationController") == .restored)
    #expect(launched.first.finishedCalls == 0)
    #expect(launched.second.finishedCalls == 1)
  }

  @Test func anObjectFoundForTwoRecordsIsRestoredOnlyForTheFirst() {
    let first = TestController("First")
    first.state = ["n": 1]
    let second = TestController("Second")
    second.state = ["n": 2]
    let store = preserve([first, second])

    // The delegate hands out one object for every path.
    let shared = TestController("First")
    let delegate = TestDelegate()
    delegate.factory = { _ in shared }
    let report = makeEngine(store: store, delegate: delegate).restoreApplicationState(roots: [])
    #expect(report.status(of: "First") == .restored)
    #expect(report.status(of: "Second") == .skipped(.objectAlreadyRestored("First")))
    #expect(shared.decodedState == ["n": 1])
    #expect(delegate.requestedPaths == [["First"], ["Second"]])
  }

  @Test func aContainersChildAlreadyRestoredElsewhereIsNotTakenAgain() {
    let navigation = TestController("Nav")
    let other = TestController("Other")
    let child = TestController("Child")
    navigation.addChild(child)
    child.state = ["n": 3]
    // "Other" comes before the child's record, so the delegate is asked for it first.
    let store = preserve([other, navigation])

    // At launch the navigation controller has no child until the delegate, asked for "Other",
    // makes one and pushes it: the child is found in its container after the launch
    // hierarchy was mapped, but it was restored as "Other" already.
    let launchedNavigation = TestController("Nav")
    let delegate = TestDelegate()
    delegate.factory = { components in
      guard components == ["Other"] else { return nil }
      let pushed = TestController("Child")
      launchedNavigation.addChild(pushed)
      return pushed
    }
    let report = makeEngine(store: store, delegate: delegate).restoreApplicationState(roots: [
      launchedNavigation
    ])
    #expect(report.status(of: "Other") == .restored)
    #expect(report.status(of: "Nav") == .restored)
    #expect(
      report.status(of: "Nav/:[0]:/Child") == .skipped(.containerHasNoSuchChild("Nav")))
  }

  @Test func duplicatePathsInAnArchiveAreSkippedAfterTheFirst() throws {
    var archive = RestorationArchive()
    let first = RestorationArchive.Record(
      identifierPath: "Root",
      kind: .viewController,
      className: "TestController",
      state: KeyedValues([("a", .integer(1))])
    )
    var second = first
    second.state = KeyedValues([("a", .integer(2))])
    archive.records = [first, second]
    #expect(throws: RestorationError.self) { try archive.encoded() }

    let store = InMemoryArchiveStore()
    store.contents[.archive] = try archive.encoded(allowingDuplicatePaths: true)
    let root = TestController("Root")
    let report = makeEngine(store: store, delegate: TestDelegate()).restoreApplicationState(roots: [
      root
    ])
    #expect(report.outcome == .restored)
    #expect(root.decodedState == ["a": 1])
    #expect(report.entries.map(\.status) == [.restored, .skipped(.duplicatePath)])
  }
}

/// Re-creates a controller together with its view tree, as a controller created in code does.
enum ViewOwningRestoration: ObjectRestoration {
  static func object(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> (any StateRestoring)? {
    let controller = TestController(identifierComponents.last)
    controller.objectRestorationClass = ViewOwningRestoration.self
    controller.installRootView()
    controller.rootView?.addSubview(TestView("WebView"))
    return controller
  }
}

/// A controller that also encodes a reference to another object, under a key of its own.
private final class ReferringController: TestController {
  let key: String
  var referenced: (any StateRestoring)?

  init(_ identifier: String, key: String) {
    self.key = key
    super.init(identifier)
  }

  override func encodeRestorableState(with coder: StateCoder) throws {
    try super.encodeRestorableState(with: coder)
    coder.encode(referenced, forKey: key)
  }
}

/// `decodeObject(of:forKey:)` answers nil for an absent key and for an object of another class,
/// and the object for its own class.
///
/// The absent key is what every release build of a container met first: Swift 6.3.1's
/// optimizer dropped the nil check of the cast that method makes, and the cast crashed. CI runs
/// this suite optimized as well.
@Suite struct DecodeObjectOfTypeTests {
  @Test func absentKeysAndOtherClassesAreNilAndTheOwnClassIsTheObject() {
    func tree() -> (root: TestController, decoding: ObjectDecodingController) {
      let root = TestController("Root")
      let target = TestController("Target")
      let decoding = ObjectDecodingController("Decoding")
      decoding.target = target
      root.addChild(target)
      root.addChild(decoding)
      return (root, decoding)
    }
    let store = InMemoryArchiveStore()
    let saved = tree()
    makeEngine(store: store, delegate: TestDelegate()).preserveApplicationState(roots: [saved.root])
    let launched = tree()
    launched.decoding.target = nil
    let report = makeEngine(store: store, delegate: TestDelegate())
      .restoreApplicationState(roots: [launched.root])
    #expect(report.outcome == RestorationReport.Outcome.restored)
    let decoding = launched.decoding
    #expect(decoding.readsMade)
    #expect(decoding.absent == nil)
    #expect(decoding.otherClass == nil)
    #expect(decoding.ownClass != nil)
    #expect(decoding.ownClass === launched.root.children.first)
  }
}

/// A controller that references another and reads the reference back with
/// `decodeObject(of:forKey:)` three ways.
final class ObjectDecodingController: TestController {
  var target: TestController?
  /// Whether the decode below ran.
  var readsMade = false
  var absent: TestController?
  var otherClass: SpecialController?
  var ownClass: TestController?

  override func encodeRestorableState(with coder: StateCoder) throws {
    try super.encodeRestorableState(with: coder)
    coder.encode(target, forKey: "target")
  }

  override func decodeRestorableState(with coder: StateDecoder) throws {
    try super.decodeRestorableState(with: coder)
    readsMade = true
    absent = coder.decodeObject(of: TestController.self, forKey: "absent")
    otherClass = coder.decodeObject(of: SpecialController.self, forKey: "target")
    ownClass = coder.decodeObject(of: TestController.self, forKey: "target")
  }
}

/// Archived class names are a type's unqualified name, as `String(describing:)` prints it, for
/// nested and generic classes alike; a restore accepts an object of any subclass of the archived
/// class, however far down, and still refuses another class.
@Suite struct ClassNameTests {
  @Test func namesAreUnqualifiedAndSubclassesAnyLevelDownAreAccepted() throws {
    let root = TestController("Root")
    root.addChild(NamingOuter.Nested("A"))
    root.addChild(NamingGeneric<Int>("B"))
    root.addChild(TestController("C"))
    let store = InMemoryArchiveStore()
    makeEngine(store: store, delegate: TestDelegate()).preserveApplicationState(roots: [root])
    let archive = try RestorationArchive(decoding: try #require(store.contents[.archive]))
    #expect(
      archive.record(at: "Root/:[0]:/A")?.className == String(describing: NamingOuter.Nested.self))
    #expect(archive.record(at: "Root/:[0]:/A")?.className == "Nested")
    #expect(
      archive.record(at: "Root/:[1]:/B")?.className == String(describing: NamingGeneric<Int>.self))
    #expect(archive.record(at: "Root/:[1]:/B")?.className == "NamingGeneric<Int>")

    let launched = TestController("Root")
    launched.addChild(NamingGeneric<Int>("A"))
    launched.addChild(NamingGeneric<Int>("B"))
    launched.addChild(NamingDeep("C"))
    let report = makeEngine(store: store, delegate: TestDelegate())
      .restoreApplicationState(roots: [launched])
    #expect(
      report.status(of: "Root/:[0]:/A")
        == .skipped(.classMismatch(archived: "Nested", found: "NamingGeneric<Int>")))
    #expect(report.status(of: "Root/:[1]:/B") == .restored)
    // Two levels below the archived `TestController`.
    #expect(report.status(of: "Root/:[2]:/C") == .restored)
  }

  @Test func aRegisteredClassIsNamedAsStringDescribingNamesIt() {
    let registry = RestorationRegistry()
    registry.register(NamingOuter.Restoration.self)
    #expect(registry.name(of: NamingOuter.Restoration.self) == "Restoration")
    #expect(
      registry.name(of: NamingOuter.Restoration.self)
        == String(describing: NamingOuter.Restoration.self))
    #expect(registry.restorationClass(named: "Restoration") != nil)
  }
}

enum NamingOuter {
  final class Nested: TestController {}

  enum Restoration: ObjectRestoration {
    static func object(
      withRestorationIdentifierPath identifierComponents: [String], coder: StateDecoder
    ) -> (any StateRestoring)? { nil }
  }
}

final class NamingGeneric<Value>: TestController {}
class NamingMiddle: TestController {}
final class NamingDeep: NamingMiddle {}
