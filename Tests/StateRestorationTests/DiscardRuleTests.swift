import StateRestoration
import TestSupport
import Testing

@Suite struct DiscardRuleTests {
  @Test func successfulRestoreDeletesTheArchiveAndTheMarker() {
    let store = savedStore()
    let (report, _) = launch(store)
    #expect(report.outcome == .restored)
    #expect(store.contents[.archive] == nil)
    #expect(store.contents[.inProgressMarker] == nil)
    let (next, _) = launch(store)
    #expect(next.outcome == .nothingSaved)
  }

  @Test func forceQuitDeletesTheArchiveAndTheNextLaunchSaysWhy() {
    let store = savedStore()
    let engine = makeEngine(store: store, delegate: TestDelegate())
    engine.applicationWasForceQuit()
    #expect(store.contents[.archive] == nil)
    let (report, demo) = launch(store)
    #expect(report.outcome == .discarded(.forceQuit))
    #expect(demo.first.decodedState == nil)
    // The note is consumed: the launch after says nothing was saved.
    #expect(launch(store).0.outcome == .nothingSaved)
  }

  @Test func oneCrashDuringRestorationStillRestores() {
    let store = savedStore()
    let afterCrash = launchAndCrash(store)
    #expect(afterCrash.contents[.archive] != nil)
    #expect(afterCrash.contents[.inProgressMarker] != nil)
    let (report, demo) = launch(afterCrash)
    #expect(report.outcome == .restored)
    #expect(demo.first.decodedState != nil)
  }

  @Test func twoCrashesDuringRestorationDiscardTheArchive() {
    let store = savedStore()
    let afterSecondCrash = launchAndCrash(launchAndCrash(store))
    let (report, demo) = launch(afterSecondCrash)
    #expect(report.outcome == .discarded(.crashesDuringRestoration(launches: 2)))
    #expect(demo.first.decodedState == nil)
    #expect(afterSecondCrash.contents[.archive] == nil)
    #expect(afterSecondCrash.contents[.inProgressMarker] == nil)
  }

  @Test func developerModeKeepsTheArchiveThroughCrashesForceQuitAndRestores() {
    let developer = RestorationSettings(developerMode: true)
    let store = savedStore(settings: developer)
    let afterCrashes = launchAndCrash(
      launchAndCrash(store, settings: developer), settings: developer)
    let (report, _) = launch(afterCrashes, settings: developer)
    #expect(report.outcome == .restored)
    #expect(afterCrashes.contents[.archive] != nil)
    makeEngine(store: afterCrashes, delegate: TestDelegate(), settings: developer)
      .applicationWasForceQuit()
    #expect(afterCrashes.contents[.archive] != nil)
    #expect(launch(afterCrashes, settings: developer).0.outcome == .restored)
  }

  /// An engine whose delegate extends restoration from did-decode, as an app waiting for data
  /// would.
  private func extendingEngine(_ store: InMemoryArchiveStore) -> RestorationEngine {
    let delegate = TestDelegate()
    let engine = makeEngine(store: store, delegate: delegate)
    delegate.didDecode = { [unowned engine] _ in engine.extendStateRestoration() }
    return engine
  }

  @Test func crashWhileRestorationIsExtendedDiscards() {
    let store = savedStore()
    let engine = extendingEngine(store)
    engine.restoreApplicationState(roots: TalkDemo(pushCity: false).roots)
    #expect(engine.isRestorationInProgress)
    // The app dies before completeStateRestoration(): the next launch finds this on disk.
    let (report, _) = launch(InMemoryArchiveStore(contents: store.contents))
    #expect(report.outcome == .discarded(.crashDuringExtendedRestoration))
  }

  @Test func extendThenCompleteFinishesNormally() {
    let store = savedStore()
    let engine = extendingEngine(store)
    engine.restoreApplicationState(roots: TalkDemo(pushCity: false).roots)
    #expect(store.contents[.archive] != nil)  // kept until completion
    engine.completeStateRestoration()
    #expect(!engine.isRestorationInProgress)
    #expect(store.contents[.archive] == nil)
    #expect(store.contents[.inProgressMarker] == nil)
  }

  @Test func extendOutsideRestorationIsIgnored() {
    let store = savedStore()
    let capture = LogCapture()
    let engine = makeEngine(store: store, delegate: TestDelegate(), logger: capture.makeLogger())
    engine.extendStateRestoration()
    #expect(!engine.isRestorationInProgress)
    #expect(store.contents[.inProgressMarker] == nil)
    #expect(capture.warnings.contains { $0.contains("no restoration is in progress") })
  }

  @Test func preservingDuringAnExtendedRestorationKeepsTheNewArchive() {
    let store = savedStore()
    let engine = extendingEngine(store)
    let demo = TalkDemo(pushCity: false)
    engine.restoreApplicationState(roots: demo.roots)
    engine.preserveApplicationState(roots: demo.roots)
    engine.completeStateRestoration()
    #expect(store.contents[.archive] != nil)
    #expect(launch(store).0.outcome == .restored)
  }

  @Test func truncatedArchiveGivesATypedErrorAndAFreshStart() throws {
    let store = savedStore()
    let bytes = try #require(store.contents[.archive])
    store.contents[.archive] = Array(bytes.prefix(bytes.count / 2))
    let capture = LogCapture()
    let demo = TalkDemo(pushCity: false)
    let report = makeEngine(store: store, delegate: TestDelegate(), logger: capture.makeLogger())
      .restoreApplicationState(roots: demo.roots)
    guard case .discarded(.unreadable(let error)) = report.outcome else {
      Issue.record("expected an unreadable archive, got \(report.outcome)")
      return
    }
    #expect([.truncated, .malformed, .checksumMismatch].contains(error.code))
    #expect(error.file == "memory:data.data")
    #expect(demo.first.decodedState == nil)
    #expect(store.contents[.archive] == nil)
    #expect(capture.warnings.contains { $0.contains("discarded as unreadable") })
  }

  @Test func flippedBitIsCaughtByTheChecksum() throws {
    let store = savedStore()
    var bytes = try #require(store.contents[.archive])
    bytes[bytes.count / 2] ^= 0x10
    store.contents[.archive] = bytes
    let (report, _) = launch(store)
    guard case .discarded(.unreadable(let error)) = report.outcome else {
      Issue.record("expected an unreadable archive, got \(report.outcome)")
      return
    }
    #expect(error.code == .checksumMismatch)
  }

  @Test func archiveFromANewerMajorVersionIsDiscarded() throws {
    let bytes = try RestorationArchive().encoded(
      allowingDuplicatePaths: false, version: .init(major: 4, minor: 0))
    let store = InMemoryArchiveStore(contents: [.archive: bytes])
    let (report, _) = launch(store)
    guard case .discarded(.unreadable(let error)) = report.outcome else {
      Issue.record("expected an unreadable archive, got \(report.outcome)")
      return
    }
    #expect(error.code == .unsupportedVersion)
  }

  @Test(arguments: [1, 0, -1])
  func archiveWithAMajorVersionBelowTwoIsUnsupported(major: Int) throws {
    // 2.0 is the first layout a release wrote: an archive that says less was not written by
    // any release, and must not be read as if it were.
    let bytes = try RestorationArchive().encoded(
      allowingDuplicatePaths: false, version: .init(major: major, minor: 0))
    #expect {
      try RestorationArchive(decoding: bytes)
    } throws: { error in
      let error = error as? RestorationError
      return error?.code == .unsupportedVersion
        && error?.message
          == "archive format \(major).0 is older than any released format (2.0)"
    }
    let store = InMemoryArchiveStore(contents: [.archive: bytes])
    let (report, _) = launch(store)
    guard case .discarded(.unreadable(let error)) = report.outcome else {
      Issue.record("expected an unreadable archive, got \(report.outcome)")
      return
    }
    #expect(error.code == .unsupportedVersion)
  }

  @Test func vetoDeletesTheArchiveLikeAnyFinishedLaunch() {
    let store = savedStore()
    let delegate = TestDelegate()
    delegate.shouldRestore = false
    let report = makeEngine(store: store, delegate: delegate).restoreApplicationState(roots: [])
    #expect(report.outcome == .vetoedByDelegate)
    #expect(store.contents[.archive] == nil)
  }

  @Test func developerModeKeepsAnUnreadableArchiveAVetoedOneAndOneLeftByAnExtendedCrash()
    throws
  {
    let developer = RestorationSettings(developerMode: true)

    let unreadable = savedStore(settings: developer)
    let bytes = try #require(unreadable.contents[.archive])
    unreadable.contents[.archive] = Array(bytes.prefix(bytes.count / 2))
    let (unreadableReport, _) = launch(unreadable, settings: developer)
    guard case .discarded(.unreadable) = unreadableReport.outcome else {
      Issue.record("expected an unreadable archive, got \(unreadableReport.outcome)")
      return
    }
    #expect(unreadable.contents[.archive] == Array(bytes.prefix(bytes.count / 2)))

    let vetoed = savedStore(settings: developer)
    let delegate = TestDelegate()
    delegate.shouldRestore = false
    let vetoReport = makeEngine(store: vetoed, delegate: delegate, settings: developer)
      .restoreApplicationState(roots: [])
    #expect(vetoReport.outcome == .vetoedByDelegate)
    #expect(vetoed.contents[.archive] != nil)

    let extended = savedStore(settings: developer)
    let extendingDelegate = TestDelegate()
    let engine = makeEngine(store: extended, delegate: extendingDelegate, settings: developer)
    extendingDelegate.didDecode = { [unowned engine] _ in engine.extendStateRestoration() }
    engine.restoreApplicationState(roots: TalkDemo(pushCity: false).roots)
    // The app dies before completing; the next launch, in developer mode, still restores.
    let afterCrash = InMemoryArchiveStore(contents: extended.contents)
    let (report, _) = launch(afterCrash, settings: developer)
    #expect(report.outcome == .restored)
    #expect(afterCrash.contents[.archive] != nil)
  }

  @Test func withoutADelegateNothingIsRestoredAndTheArchiveIsLeftAlone() {
    let store = savedStore()
    let saved = store.contents
    let engine = RestorationEngine(applicationInfo: applicationInfo, store: store)
    let demo = TalkDemo(pushCity: false)
    let report = engine.restoreApplicationState(roots: demo.roots)
    #expect(report.outcome == .vetoedByDelegate)
    #expect(demo.first.decodedState == nil)
    #expect(store.contents == saved, "no crash-guard marker, the archive untouched")
    #expect(launch(store).0.outcome == .restored)
  }
}
