import Foundation
import StateRestoration
import Testing

/// Archives made by the engine from the project's scenarios, with a fixed clock and fixed app
/// information so that everything printed from them is stable.
enum DemoArchives {
  /// 2014-07-06 16:05:18 UTC, the timestamp of restorationArchiveTool's printed example.
  static let timestamp = Date(timeIntervalSince1970: 1_404_662_718)

  static let applicationInfo = ApplicationInfo(
    bundleIdentifier: "com.example.Restorer",
    bundleVersion: "1",
    systemVersion: "8.0",
    userInterfaceIdiom: "phone"
  )

  /// Preserves the tree under `roots` with the engine and returns its archive.
  static func preserve(
    roots: [any StateRestoring],
    registry: RestorationRegistry = RestorationRegistry(),
    willEncode: ((StateCoder) -> Void)? = nil,
    at date: Date = timestamp
  ) throws -> RestorationArchive {
    let delegate = DemoDelegate(willEncode: willEncode)
    let engine = RestorationEngine(
      applicationInfo: applicationInfo,
      store: InMemoryArchiveStore(),
      registry: registry,
      settings: RestorationSettings()
    )
    engine.now = { date }
    engine.delegate = delegate
    let (archive, report) = engine.makeArchive(roots: roots)
    // The engine holds its delegate weakly; keep it until the archive is made.
    withExtendedLifetime(delegate) {}
    #expect(report.issues.isEmpty, "\(report.issues)")
    return try #require(archive)
  }

  /// The talk demo (shagedorn/StateRestorationDemo): a tab bar controller whose first tab has a
  /// slider and whose second is a navigation controller with a pushed city controller that has
  /// a restoration class.
  static func talkDemo(sliderValue: Float = 0.892_605_7, city: String = "Zürich") throws
    -> RestorationArchive
  {
    let tab = TabBarController("TabController")
    let first = FirstViewController("FirstViewController")
    let navigation = NavigationController("NavigationController")
    let second = SecondViewController("SecondViewController")
    let cityController = CityViewController("CityViewController")
    first.sliderValue = sliderValue
    cityController.cityName = city
    tab.addChild(first)
    tab.addChild(navigation)
    tab.selectedIndex = 1
    navigation.addChild(second)
    navigation.addChild(cityController)
    let registry = RestorationRegistry()
    registry.register(CityViewController.self)
    return try preserve(roots: [tab], registry: registry)
  }

  /// The Restorer example's countries list.
  static func countries() throws -> RestorationArchive {
    let list = DemoController("CountryNCID")
    list.values = [("firstVisibleRow", .integer(3)), ("selectedRow", .integer(2))]
    return try preserve(roots: [list])
  }

  /// A sign-in form: a sensitive password, a view, a registered model object, a storyboard
  /// scene, and app keys of every value type at the top level.
  static func signIn() throws -> RestorationArchive {
    let form = DemoController("SignIn")
    form.restorationStoryboard = StoryboardReference(name: "Main", identifier: "SignInScene")
    form.values = [
      ("userName", .string("ada@example.com")),
      ("rememberMe", .bool(false)),
      ("attempts", .integer(-2)),
    ]
    form.sensitiveValues = [("password", "hunter2")]
    let scroll = DemoView("FormScrollView")
    scroll.contentOffset = 120.5
    form.addView(scroll)
    let model = DemoModel("Draft", parent: form)
    model.draft = "Hello,\n\"world\""
    form.references = [("draft", model)]
    let registry = RestorationRegistry()
    registry.registerObject(model)
    return try preserve(roots: [form], registry: registry) { coder in
      coder.encode("3.1", forKey: "uiVersion")
      coder.encode(Data([0x0A, 0x1B, 0x2C, 0x3D, 0x4E]), forKey: "shortData")
      coder.encode(Data((0..<100).map { UInt8($0) }), forKey: "longData")
      coder.encode(Date(timeIntervalSince1970: 1_404_662_718.25), forKey: "lastSync")
      coder.encode([1.5, -2.25, 0.1], forKey: "reals")
      coder.encode("naïve ☃", forKey: "unicode")
      coder.encode(UInt64.max, forKey: "huge")
      coder.encode(Int64.min, forKey: "smallest")
      coder.encodeValue(
        .dictionary([
          "$ref": .string("not a reference"),
          "nested": .array([.array([]), .dictionary([:]), .bool(true)]),
          "plain": .string("word"),
          "when": .date(timestamp),
        ]),
        forKey: "settings"
      )
      coder.encodeValue(.real(.infinity), forKey: "limit")
      coder.encode(form, forKey: "currentForm")
    }
  }

  /// Writes an archive's bytes to a new file in a new folder; the caller removes the folder.
  static func write(_ bytes: [UInt8], name: String = "data.data") throws -> (folder: URL, file: URL)
  {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("archive-inspection-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent(name)
    try Data(bytes).write(to: file)
    return (folder, file)
  }
}
