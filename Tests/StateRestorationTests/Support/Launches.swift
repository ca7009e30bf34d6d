import StateRestoration
import Testing

/// A decode that "crashes": it captures the store exactly as it is at that instant (what a
/// killed process leaves on disk) and stops the launch there.
final class CrashingController: TestController {
  var onDecode: (() -> Void)?
  override func decodeRestorableState(with coder: StateDecoder) throws {
    onDecode?()
    try super.decodeRestorableState(with: coder)
  }
}

/// A store holding the talk demo's archive.
func savedStore(settings: RestorationSettings = RestorationSettings()) -> InMemoryArchiveStore {
  let store = InMemoryArchiveStore()
  let report = makeEngine(store: store, delegate: TestDelegate(), settings: settings)
    .preserveApplicationState(roots: TalkDemo().roots)
  #expect(report.outcome == .saved(bytes: store.contents[.archive]?.count ?? -1))
  return store
}

/// Launches once, "crashing" in the first controller's decode: returns the store as the crash
/// left it.
func launchAndCrash(
  _ store: InMemoryArchiveStore,
  settings: RestorationSettings = RestorationSettings()
) -> InMemoryArchiveStore {
  let tab = CrashingController("TabController")
  var atCrash: [ArchiveStoreItem: [UInt8]] = [:]
  tab.onDecode = { atCrash = store.contents }
  makeEngine(store: store, delegate: TestDelegate(), settings: settings)
    .restoreApplicationState(roots: [tab])
  return InMemoryArchiveStore(contents: atCrash)
}

/// Launches once into the talk demo's launch hierarchy.
@discardableResult
func launch(
  _ store: InMemoryArchiveStore,
  settings: RestorationSettings = RestorationSettings()
) -> (report: RestorationReport, demo: TalkDemo) {
  let demo = TalkDemo(pushCity: false)
  let report = makeEngine(store: store, delegate: TestDelegate(), settings: settings)
    .restoreApplicationState(roots: demo.roots)
  return (report, demo)
}
