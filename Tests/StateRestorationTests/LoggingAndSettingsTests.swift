import StateRestoration
import TestSupport
import Testing

@Suite struct LoggingAndSettingsTests {
  @Test func debugLoggingWritesUIKitsMessagesAndTimings() {
    let store = InMemoryArchiveStore()
    let settings = RestorationSettings(debugLogging: true)
    let saved = TalkDemo()
    let preserveCapture = LogCapture()
    makeEngine(
      store: store, delegate: TestDelegate(), settings: settings,
      logger: preserveCapture.makeLogger()
    )
    .preserveApplicationState(roots: saved.roots)
    for phase in ["encodeObjects", "encodeArchive", "write"] {
      #expect(
        preserveCapture.debugLines.contains {
          $0.hasPrefix("Preservation phase '\(phase)' took ") && $0.hasSuffix(" ms")
        }, "\(phase)")
    }
    let capture = LogCapture()
    makeEngine(
      store: store, delegate: TestDelegate(), settings: settings, logger: capture.makeLogger()
    )
    .restoreApplicationState(roots: TalkDemo(pushCity: false).roots)
    let lines = capture.debugLines
    #expect(
      lines.contains(
        "State restoration archive was saved with major version 3, minor version 1. Current major version 3, current minor version 1."
      )
    )
    #expect(
      lines.contains {
        $0.hasPrefix("Root restoration identifier paths are (")
          && $0.contains("TabController/:[1]:/NavigationController")
      })
    #expect(
      lines.contains {
        $0.hasPrefix("Restoration Class map: {") && $0.contains("= CityRestoration;")
      })
    #expect(
      lines.contains(
        "Object in root set for index [0] for identifier path TabController: <TestController>"))
    #expect(
      lines.contains {
        $0.hasPrefix("Restoration phase 'decodeArchive' took ") && $0.hasSuffix(" ms")
      })
  }

  @Test func truncationIsLoggedWithUIKitsLine() {
    let store = InMemoryArchiveStore()
    let saved = TalkDemo()
    saved.city.state = ["returnNil": 1]
    makeEngine(store: store, delegate: TestDelegate()).preserveApplicationState(roots: saved.roots)
    let capture = LogCapture()
    let report = makeEngine(
      store: store,
      delegate: TestDelegate(),
      settings: RestorationSettings(debugLogging: true),
      logger: capture.makeLogger()
    ).restoreApplicationState(roots: TalkDemo(pushCity: false).roots)
    #expect(
      capture.debugLines.contains(
        "Can't find Child View Controller at index 1 with identifier TabController/:[1]:/NavigationController/:[1]:/CityViewController, truncating child array"
      )
    )
    #expect(report.outcome == .restored)
  }

  @Test func debugMessagesAreSilentWhenDebugLoggingIsOff() {
    let store = InMemoryArchiveStore()
    makeEngine(store: store, delegate: TestDelegate()).preserveApplicationState(
      roots: TalkDemo().roots)
    let capture = LogCapture()
    makeEngine(store: store, delegate: TestDelegate(), logger: capture.makeLogger())
      .restoreApplicationState(roots: TalkDemo(pushCity: false).roots)
    #expect(capture.debugLines.isEmpty)
  }

  @Test func settingsComeFromTheEnvironment() {
    let on = RestorationSettings.fromEnvironment { name in
      ["STATE_RESTORATION_DEVELOPER_MODE": "1", "STATE_RESTORATION_DEBUG_LOGGING": "YES"][name]
    }
    #expect(on.developerMode)
    #expect(on.debugLogging)
    let off = RestorationSettings.fromEnvironment { name in
      ["STATE_RESTORATION_DEVELOPER_MODE": "0"][name]
    }
    #expect(!off.developerMode)
    #expect(!off.debugLogging)
    let forced = RestorationSettings.fromEnvironment(developerMode: true) { _ in nil }
    #expect(forced.developerMode)
  }

  @Test func reportDescribesEveryObject() {
    let store = InMemoryArchiveStore()
    let saved = TalkDemo()
    saved.city.state = ["returnNil": 1]
    makeEngine(store: store, delegate: TestDelegate()).preserveApplicationState(roots: saved.roots)
    let report = makeEngine(store: store, delegate: TestDelegate())
      .restoreApplicationState(roots: TalkDemo(pushCity: false).roots)
    let text = report.description
    #expect(text.hasPrefix("Restoration: restored\n"))
    #expect(text.contains("  TabController [TestController]: restored (existing)"))
    #expect(
      text.contains(
        "  TabController/:[1]:/NavigationController/:[1]:/CityViewController [TestController]: skipped: restoration class 'CityRestoration' returned nil"
      )
    )
    #expect(report.timings[.locateObjects] != nil)
  }
}
