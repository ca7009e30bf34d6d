import Logging
import StateRestoration
import StateRestorationTesting
import StateRestorationUI
import TestSupport
import Testing

/// A controller that remembers a number, to see what came back.
final class NoteViewController: ViewController {
  var note = 0
  override func encodeRestorableState(with coder: StateCoder) throws {
    try super.encodeRestorableState(with: coder)
    coder.encode(note, forKey: "note")
  }
  override func decodeRestorableState(with coder: StateDecoder) throws {
    try super.decodeRestorableState(with: coder)
    note = coder.decode(Int.self, forKey: "note") ?? 0
  }
}

/// A restoration class that refuses, as a controller whose data is gone would.
final class RefusingViewController: ViewController, ViewControllerRestoration {
  static func viewController(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> ViewController? { nil }
}

/// Re-creates a tab bar controller without its tabs: UIKit's known trap.
final class BareTabBarController: TabBarController, ViewControllerRestoration {
  static func viewController(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> ViewController? {
    let tabs = BareTabBarController(restorationIdentifier: identifierComponents.last)
    tabs.restorationClass = BareTabBarController.self
    return tabs
  }
}

/// A delegate that builds its windows with a closure and re-creates controllers by identifier.
final class ConfigurableDelegate: OptingInApplicationDelegate {
  let build: (Application) -> Void
  let factory: ([String]) -> ViewController?

  init(
    build: @escaping (Application) -> Void,
    factory: @escaping ([String]) -> ViewController? = { _ in nil }
  ) {
    self.build = build
    self.factory = factory
  }

  override func applicationWillFinishLaunching(_ application: Application) {
    application.register(restorationClass: RefusingViewController.self)
    application.register(restorationClass: BareTabBarController.self)
    build(application)
  }

  override func application(
    _ application: Application,
    viewControllerWithRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> ViewController? {
    factory(identifierComponents)
  }
}

/// A harness whose window holds the navigation controller `Navigation` over a controller
/// `root`; `factory` is the delegate's way to re-create controllers from their components.
private func navigationHarness(
  root: String,
  factory: @escaping ([String]) -> ViewController?
) -> ApplicationHarness {
  ApplicationHarness {
    ConfigurableDelegate(
      build: { application in
        let navigation = NavigationController(
          rootViewController: NoteViewController(restorationIdentifier: root),
          restorationIdentifier: "Navigation"
        )
        application.addWindow(Window(rootViewController: navigation))
      },
      factory: factory
    )
  }
}

private func root<T: ViewController>(_ application: Application, as type: T.Type) throws -> T {
  try #require(application.keyWindow?.rootViewController as? T)
}

@Suite struct ContainerAndFailureTests {
  @Test func restorationClassReturningNilLeavesOneTabInItsDefaultStateWhileTheOthersRestore() throws
  {
    let harness = ApplicationHarness {
      ConfigurableDelegate { application in
        let refusing = RefusingViewController(restorationIdentifier: "Refusing")
        refusing.restorationClass = RefusingViewController.self
        let tabs = TabBarController(
          viewControllers: [
            NoteViewController(restorationIdentifier: "A"), refusing,
            NoteViewController(restorationIdentifier: "C"),
          ],
          restorationIdentifier: "Tabs"
        )
        application.addWindow(Window(rootViewController: tabs))
      }
    }
    harness.launch()
    let tabs = try root(harness.application, as: TabBarController.self)
    (tabs.viewControllers[0] as? NoteViewController)?.note = 1
    (tabs.viewControllers[2] as? NoteViewController)?.note = 3
    tabs.selectedIndex = 2

    let restart = harness.restartAndRestore()
    let restored = try root(restart.application, as: TabBarController.self)
    #expect((restored.viewControllers[0] as? NoteViewController)?.note == 1)
    #expect((restored.viewControllers[2] as? NoteViewController)?.note == 3)
    #expect(restored.selectedIndex == 2)
    #expect(restored.viewControllers[1] is RefusingViewController)
    #expect(
      restart.report.status(of: "Tabs/:[1]:/Refusing")
        == .skipped(.restorationClassReturnedNil("RefusingViewController"))
    )
  }

  @Test func reorderedTabsAreMatchedByIdentifier() throws {
    var reversed = false
    let harness = ApplicationHarness {
      ConfigurableDelegate { application in
        var children = [
          NoteViewController(restorationIdentifier: "Countries"),
          NoteViewController(restorationIdentifier: "Settings"),
        ]
        if reversed { children.reverse() }
        application.addWindow(
          Window(
            rootViewController: TabBarController(
              viewControllers: children, restorationIdentifier: "Tabs"))
        )
      }
    }
    harness.launch()
    let tabs = try root(harness.application, as: TabBarController.self)
    (tabs.viewControllers[1] as? NoteViewController)?.note = 42
    tabs.selectedIndex = 1
    reversed = true  // the next version lists Settings first

    let restart = harness.restartAndRestore()
    let restored = try root(restart.application, as: TabBarController.self)
    #expect(restored.viewControllers.map(\.restorationIdentifier) == ["Settings", "Countries"])
    #expect(restored.selectedViewController?.restorationIdentifier == "Settings")
    #expect((restored.viewControllers[0] as? NoteViewController)?.note == 42)
    #expect(restart.report.status(of: "Tabs/:[1]:/Settings") == .restored)
  }

  @Test func tabBarRecreatedWithoutItsTabsIsReportedWithTheReason() throws {
    let harness = ApplicationHarness {
      ConfigurableDelegate { application in
        application.addWindow(
          Window(
            rootViewController: NavigationController(
              rootViewController: NoteViewController(restorationIdentifier: "Home"),
              restorationIdentifier: "Navigation"
            ))
        )
      }
    }
    harness.launch()
    let navigation = try root(harness.application, as: NavigationController.self)
    let tabs = BareTabBarController(
      viewControllers: [
        NoteViewController(restorationIdentifier: "One"),
        NoteViewController(restorationIdentifier: "Two"),
      ],
      restorationIdentifier: "PushedTabs"
    )
    tabs.restorationClass = BareTabBarController.self
    navigation.pushViewController(tabs)

    let restart = harness.restartAndRestore()
    let restoredNavigation = try root(restart.application, as: NavigationController.self)
    let restoredTabs = try #require(restoredNavigation.topViewController as? TabBarController)
    #expect(restoredTabs.viewControllers.isEmpty)
    let status = restart.report.status(of: "Navigation/:[1]:/PushedTabs/:[0]:/One")
    guard case .skipped(.containerHasNoSuchChild(let container, let reason)) = status else {
      Issue.record("expected a missing child of the tab bar, got \(String(describing: status))")
      return
    }
    #expect(container == "Navigation/:[1]:/PushedTabs")
    #expect(
      reason
        == "is a tab bar controller with no tabs; a tab bar controller does not archive its tabs, so they must exist before restoration (create them with the tab bar controller, in its restoration class, storyboard or init)"
    )
    #expect(
      status?.description
        == "skipped: no restoration class, the delegate returned nil, and its restored container 'Navigation/:[1]:/PushedTabs' is a tab bar controller with no tabs; a tab bar controller does not archive its tabs, so they must exist before restoration (create them with the tab bar controller, in its restoration class, storyboard or init)"
    )
  }

  @Test func modalPresentedOverANavigationStackIsRestoredOnTopOfIt() throws {
    let harness = navigationHarness(root: "List") { components in
      switch components.last {
      case "Detail": return NoteViewController(restorationIdentifier: "Detail")
      case "EditNavigation":
        return NavigationController(restorationIdentifier: "EditNavigation")
      case "Editor": return NoteViewController(restorationIdentifier: "Editor")
      default: return nil
      }
    }
    harness.launch()
    let navigation = try root(harness.application, as: NavigationController.self)
    let detail = NoteViewController(restorationIdentifier: "Detail")
    navigation.pushViewController(detail)
    let editor = NoteViewController(restorationIdentifier: "Editor")
    editor.note = 7
    detail.present(
      NavigationController(rootViewController: editor, restorationIdentifier: "EditNavigation"))
    #expect(editor.isVisible)

    let restart = harness.restartAndRestore()
    #expect(
      restart.archive?.rootIdentifierPaths.contains(
        "Navigation/:[1]:/Detail/EditNavigation/:[0]:/Editor") == true)
    let restoredNavigation = try root(restart.application, as: NavigationController.self)
    let restoredDetail = try #require(restoredNavigation.topViewController)
    #expect(restoredDetail.restorationIdentifier == "Detail")
    let modal = try #require(restoredDetail.presentedViewController as? NavigationController)
    let restoredEditor = try #require(modal.topViewController as? NoteViewController)
    #expect(restoredEditor.note == 7)
    #expect(restoredEditor.isVisible)
    #expect(restoredNavigation.visibleViewController === modal)
  }

  @Test func splitViewRestoresBothColumnsAndItsCollapseState() throws {
    let harness = ApplicationHarness {
      ConfigurableDelegate(
        build: { application in
          application.addWindow(
            Window(
              rootViewController: SplitViewController(
                primary: NoteViewController(restorationIdentifier: "Master"),
                restorationIdentifier: "Split"
              ))
          )
        },
        factory: { components in
          components.last == "Detail" ? NoteViewController(restorationIdentifier: "Detail") : nil
        }
      )
    }
    harness.launch()
    let split = try root(harness.application, as: SplitViewController.self)
    let detail = NoteViewController(restorationIdentifier: "Detail")
    detail.note = 9
    split.showDetailViewController(detail)
    split.isCollapsed = true

    let restart = harness.restartAndRestore()
    let restored = try root(restart.application, as: SplitViewController.self)
    #expect(restored.isCollapsed)
    #expect((restored.secondaryViewController as? NoteViewController)?.note == 9)
    #expect(restored.primaryViewController?.restorationIdentifier == "Master")
    #expect(restored.visibleChildren.map(\.restorationIdentifier) == ["Detail"])
    // The detail keeps the same path whether the split is collapsed or not.
    #expect(restart.report.status(of: "Split/:[1]:/Detail") == .restored)
  }

  @Test func navigationStackIsCutAtTheFirstControllerThatCannotBeRecreated() throws {
    let harness = navigationHarness(root: "Root") { components in
      components.last == "Third" ? NoteViewController(restorationIdentifier: "Third") : nil
    }
    harness.launch()
    let navigation = try root(harness.application, as: NavigationController.self)
    // Nothing can re-create Second at launch.
    navigation.pushViewController(NoteViewController(restorationIdentifier: "Second"))
    navigation.pushViewController(NoteViewController(restorationIdentifier: "Third"))

    // UIKit prints the truncation with debug logging on; capture the restoring launch's log.
    let capture = LogCapture()
    harness.settings = RestorationSettings(debugLogging: true)
    harness.logger = capture.makeLogger()
    let restart = harness.restartAndRestore()
    #expect(
      capture.debugLines.contains(
        "Can't find Child View Controller at index 1 with identifier Navigation/:[1]:/Second, truncating child array"
      ), "debug log: \(capture.debugLines)")
    let restored = try root(restart.application, as: NavigationController.self)
    #expect(restored.viewControllers.map(\.restorationIdentifier) == ["Root"])
    let secondStatus = restart.report.status(of: "Navigation/:[1]:/Second")
    #expect(
      secondStatus
        == .skipped(
          .containerHasNoSuchChild(
            "Navigation",
            reason:
              "is a navigation controller whose stack has no child 'Second' at index 1; the stack is archived, but nothing re-created this child (give it a restoration class or a storyboard, or create it in the app delegate)"
          )))
    // The navigation case names the stack, not a tab bar.
    #expect(secondStatus?.description.contains("tab bar") == false)
    #expect(secondStatus?.description.contains("navigation controller") == true)
    guard case .truncated(let reason) = restart.report.status(of: "Navigation/:[2]:/Third") else {
      Issue.record("expected the third controller to be truncated: \(restart.report)")
      return
    }
    #expect(
      reason
        == "Can't find Child View Controller at index 1 with identifier Navigation/:[1]:/Second, truncating child array"
    )
  }

  @Test func childrenMayShareIdentifiersInANavigationStack() throws {
    let harness = navigationHarness(root: "Page") { components in
      components.last == "Page" ? NoteViewController(restorationIdentifier: "Page") : nil
    }
    harness.launch()
    let navigation = try root(harness.application, as: NavigationController.self)
    for note in 1...3 {
      let page = NoteViewController(restorationIdentifier: "Page")
      page.note = note
      navigation.pushViewController(page)
    }
    let restart = harness.restartAndRestore()
    let restored = try root(restart.application, as: NavigationController.self)
    #expect(
      restored.viewControllers.compactMap { ($0 as? NoteViewController)?.note } == [0, 1, 2, 3])
  }
}
