import Logging
import StateRestoration
import TestSupport

/// The talk demo's hierarchy (seed 002): a tab bar controller whose second tab is a navigation
/// controller with a pushed city controller that has a restoration class.
struct TalkDemo {
  let tab = TestController("TabController")
  let first = TestController("FirstViewController")
  let navigation = TestController("NavigationController")
  let second = TestController("SecondViewController")
  let city = TestController("CityViewController")

  /// The launch hierarchy, as a storyboard would build it: without the pushed city.
  init(log: EventLog? = nil, pushCity: Bool = true) {
    for controller in [tab, first, navigation, second, city] { controller.log = log }
    tab.addChild(first)
    tab.addChild(navigation)
    navigation.addChild(second)
    city.objectRestorationClass = CityRestoration.self
    if pushCity { navigation.addChild(city) }
  }

  var roots: [any StateRestoring] { [tab] }
}

let applicationInfo = ApplicationInfo(
  bundleIdentifier: "com.example.Restorer",
  bundleVersion: "1",
  systemVersion: "8.0",
  userInterfaceIdiom: "phone"
)

func makeRegistry() -> RestorationRegistry {
  let registry = RestorationRegistry()
  registry.register(CityRestoration.self)
  return registry
}

/// An engine whose log goes to a capture by default: a passing test prints nothing, and one that
/// expects warnings passes its own ``LogCapture`` to read them.
func makeEngine(
  store: any ArchiveStore,
  delegate: TestDelegate,
  registry: RestorationRegistry = makeRegistry(),
  settings: RestorationSettings = RestorationSettings(),
  logger: Logger = LogCapture().makeLogger()
) -> RestorationEngine {
  let engine = RestorationEngine(
    applicationInfo: applicationInfo,
    store: store,
    registry: registry,
    settings: settings,
    logger: logger
  )
  engine.delegate = delegate
  keepAlive(delegate)
  return engine
}

/// The engine holds its delegate weakly, as UIKit's application does; tests that create a
/// delegate inline keep it alive for the rest of the run (a deliberate leak, tests only).
private func keepAlive(_ object: AnyObject) {
  _ = Unmanaged.passRetained(object)
}
