import StateRestoration
import TestSupport
import Testing

/// `restoredEverything` and `unrestored`: the one question a test of restoration asks, and
/// what it answers when a screen is lost.
@Suite struct RestoredEverythingTests {
  @Test func everyObjectBackIsEverythingRestored() {
    let store = savedStore()
    let (report, _) = launch(store)
    #expect(report.outcome == .restored)
    #expect(report.restoredEverything, "\(report)")
    #expect(report.unrestored == [])
  }

  @Test func nothingSavedOrDiscardedIsNotEverythingRestored() {
    let (first, _) = launch(InMemoryArchiveStore())
    #expect(first.outcome == .nothingSaved)
    #expect(!first.restoredEverything)
    let unreadable = InMemoryArchiveStore(contents: [.archive: [1, 2, 3]])
    let (discarded, _) = launch(unreadable)
    #expect(!discarded.restoredEverything, "\(discarded)")
  }

  @Test func anUnregisteredRestorationClassIsAWarningAndNotEverythingRestored() {
    let store = savedStore()
    let log = LogCapture()
    let demo = TalkDemo(pushCity: false)
    // The archive's city controller has a restoration class this launch does not register.
    let report = makeEngine(
      store: store, delegate: TestDelegate(), registry: RestorationRegistry(),
      logger: log.makeLogger()
    ).restoreApplicationState(roots: demo.roots)
    #expect(report.outcome == .restored)
    #expect(!report.restoredEverything)
    let city = "TabController/:[1]:/NavigationController/:[1]:/CityViewController"
    #expect(report.unrestored.map(\.identifierPath) == [city], "\(report)")
    #expect(
      report.unrestored.first?.status
        == .skipped(.restorationClassNotRegistered("CityRestoration")))
    let warning = "\(city): restoration class 'CityRestoration' is not registered; not restored"
    #expect(report.warnings == [warning])
    #expect(log.warnings == [warning])
  }

  @Test func aTruncatedChildIsNotEverythingRestored() {
    let report = RestorationReport(
      outcome: .restored,
      entries: [
        .init(identifierPath: "A", kind: .viewController, className: "A", status: .restored),
        .init(
          identifierPath: "A/B", kind: .viewController, className: "B",
          status: .truncated("cut short")),
      ])
    #expect(!report.restoredEverything)
    #expect(report.unrestored.map(\.identifierPath) == ["A/B"])
  }
}
