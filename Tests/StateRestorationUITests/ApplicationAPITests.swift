import StateRestoration
import StateRestorationTesting
import StateRestorationUI
import TestSupport
import Testing

/// A draft kept by the app delegate, outside the controller tree: a registered object (UIKit's
/// `registerObject(forStateRestoration:restorationIdentifier:)`).
final class Draft: StateRestoring {
  let restorationIdentifier: String? = "Draft"
  var text = ""
  var finishedRestoring = false

  func encodeRestorableState(with coder: StateCoder) throws {
    coder.encode(text, forKey: "text")
  }

  func decodeRestorableState(with coder: StateDecoder) throws {
    text = coder.decode(String.self, forKey: "text") ?? ""
  }

  func applicationFinishedRestoringState() { finishedRestoring = true }
}

/// A controller that edits the delegate's draft and archives only a reference to it.
final class DraftEditorViewController: ViewController {
  var draft: Draft?
  /// The draft the archive's reference resolved to at decode; nil if it did not resolve.
  var decodedDraft: Draft?

  override func encodeRestorableState(with coder: StateCoder) throws {
    try super.encodeRestorableState(with: coder)
    coder.encode(draft, forKey: "draft")
  }

  override func decodeRestorableState(with coder: StateDecoder) throws {
    try super.decodeRestorableState(with: coder)
    decodedDraft = coder.decodeObject(of: Draft.self, forKey: "draft")
  }
}

final class DraftDelegate: OptingInApplicationDelegate {
  let draft = Draft()
  let registers: Bool

  init(registers: Bool = true) {
    self.registers = registers
  }

  override func applicationWillFinishLaunching(_ application: Application) {
    if registers { application.registerObject(forStateRestoration: draft) }
    let editor = DraftEditorViewController(restorationIdentifier: "Editor")
    editor.draft = draft
    application.addWindow(Window(rootViewController: editor))
  }
}

@Suite struct ApplicationAPITests {
  @Test func launchReturnsTheRestorationReportAsTheHarnessDoes() throws {
    let store = InMemoryArchiveStore()
    let first = Application(
      delegate: DraftDelegate(), applicationInfo: ApplicationHarness.testApplicationInfo,
      store: store, logger: LogCapture().makeLogger())
    #expect(first.launch().outcome == .nothingSaved)
    first.enterBackground()
    first.terminate(.systemKillAfterBackground)

    let next = Application(
      delegate: DraftDelegate(), applicationInfo: ApplicationHarness.testApplicationInfo,
      store: store, logger: LogCapture().makeLogger())
    let report = next.launch()
    #expect(report.restoredEverything, "\(report)")
    #expect(report == next.restorationReport)
    // A second call launches nothing and returns the same report.
    #expect(next.launch() == report)
  }

  @Test func registeredObjectReferencedFromAnEncodeComesBackAfterProcessDeath() throws {
    let harness = ApplicationHarness { DraftDelegate() }
    harness.launch()
    // Not kept in a local: the harness checks that the old process's delegate is released.
    try #require(harness.application.delegate as? DraftDelegate).draft.text = "Dear Sir,"

    let restart = harness.restartAndRestore()
    #expect(restart.report.restoredEverything, "\(restart.report)")
    #expect(restart.leakedObjects.isEmpty, "\(restart.leakedObjects)")
    let record = try #require(restart.archive?.record(at: "Draft"))
    #expect(record.kind == .object)
    #expect(record.state["text"] == .string("Dear Sir,"))
    #expect(restart.archive?.record(at: "Editor")?.state["draft"] == .reference("Draft"))

    let restored = try #require(restart.application.delegate as? DraftDelegate)
    #expect(restored.draft.text == "Dear Sir,")
    #expect(restored.draft.finishedRestoring)
    #expect(restart.report.status(of: "Draft") == .restored)
    #expect(restart.report.entry(for: "Draft")?.source == .existing)
    let editor = try #require(
      restart.application.keyWindow?.rootViewController as? DraftEditorViewController)
    #expect(editor.decodedDraft === restored.draft)
  }

  @Test func harnessReportsAViewThatOutlivesItsProcess() throws {
    let harness = ApplicationHarness { DraftDelegate() }
    harness.launch()
    let kept = try #require(harness.application.keyWindow?.rootViewController?.view)
    let restart = harness.restartAndRestore()
    // The view holds its controller weakly, so only the view itself outlives the process.
    #expect(restart.leakedObjects == ["View (no identifier)"])
    withExtendedLifetime(kept) {}
  }

  @Test func unregisteredObjectDoesNotComeBack() throws {
    let harness = ApplicationHarness { DraftDelegate(registers: false) }
    harness.launch()
    (harness.application.delegate as? DraftDelegate)?.draft.text = "Dear Sir,"
    let restart = harness.restartAndRestore()
    // Without registration at launch nothing finds the draft, whatever the archive holds.
    #expect(restart.report.status(of: "Draft") != .restored)
    let restored = try #require(restart.application.delegate as? DraftDelegate)
    #expect(restored.draft.text == "")
  }

  @Test func dismissedControllerDisappearsAndIsLeftOutOfTheNextArchive() throws {
    let timeline = Timeline()
    let harness = ApplicationHarness {
      ConfigurableDelegate(
        build: { application in
          application.addWindow(
            Window(rootViewController: TracingViewController("Root", timeline: timeline)))
        },
        factory: { components in
          components.last == "Modal" ? TracingViewController("Modal", timeline: timeline) : nil
        }
      )
    }
    harness.launch()
    let root = try #require(harness.application.keyWindow?.rootViewController)
    let modal = TracingViewController("Modal", timeline: timeline)
    root.present(modal)
    #expect(modal.isVisible)
    harness.application.enterBackground()
    #expect(harness.savedArchive?.record(at: "Root/Modal") != nil)
    harness.application.enterForeground()

    timeline.events = []
    modal.dismiss()  // called on the presented controller, as UIKit allows
    #expect(timeline.events == ["Modal.viewWillDisappear", "Modal.viewDidDisappear"])
    #expect(!modal.isVisible)
    #expect(root.isVisible)
    #expect(root.presentedViewController == nil)
    #expect(modal.presentingViewController == nil)

    let restart = harness.restartAndRestore()
    #expect(restart.archive?.record(at: "Root/Modal") == nil)
    #expect(restart.archive?.rootIdentifierPaths == ["Root"])
    #expect(restart.application.keyWindow?.rootViewController?.presentedViewController == nil)
  }

  @Test func dismissFromThePresenterTakesNestedPresentationsWithIt() throws {
    let timeline = Timeline()
    let root = TracingViewController("Root", timeline: timeline)
    let window = Window(rootViewController: root)
    window.makeKeyAndVisible()
    let sheet = TracingViewController("Sheet", timeline: timeline)
    let alert = TracingViewController("Alert", timeline: timeline)
    root.present(sheet)
    sheet.present(alert)
    #expect(alert.isVisible)

    timeline.events = []
    root.dismiss()
    #expect(
      timeline.events == [
        "Alert.viewWillDisappear", "Alert.viewDidDisappear",
        "Sheet.viewWillDisappear", "Sheet.viewDidDisappear",
      ])
    #expect(root.presentedViewController == nil)
    #expect(sheet.presentedViewController == nil)
    #expect(alert.presentingViewController == nil)
    #expect(root.isVisible)
    root.dismiss()  // nothing presented: nothing happens
    #expect(timeline.events.count == 4)
  }

  @Test func childRemovedFromItsParentLeavesTheContainerAndTheArchive() throws {
    let harness = ApplicationHarness {
      ConfigurableDelegate(build: { application in
        let parent = ViewController(restorationIdentifier: "Parent")
        let first = NoteViewController(restorationIdentifier: "First")
        first.note = 1
        let second = NoteViewController(restorationIdentifier: "Second")
        second.note = 2
        parent.addChild(first)
        parent.addChild(second)
        application.addWindow(Window(rootViewController: parent))
      })
    }
    harness.launch()
    let parent = try #require(harness.application.keyWindow?.rootViewController)
    let first = try #require(parent.children.first)
    first.removeFromParent()
    #expect(first.parent == nil)
    #expect(parent.children.map(\.restorationIdentifier) == ["Second"])
    (parent.children.first as? NoteViewController)?.note = 22

    let restart = harness.restartAndRestore()
    // Second moved up to index 0; First is gone.
    #expect(restart.archive?.rootIdentifierPaths == ["Parent", "Parent/:[0]:/Second"])
    #expect(restart.archive?.record(at: "Parent/:[0]:/Second")?.state["note"] == .integer(22))
  }

  @Test func windowWithoutIdentifierWritesNoRecordButItsRootRestores() throws {
    let harness = ApplicationHarness {
      ConfigurableDelegate(build: { application in
        application.addWindow(
          Window(
            rootViewController: NoteViewController(restorationIdentifier: "Root"),
            traitCollection: TraitCollection(
              horizontalSizeClass: .compact, verticalSizeClass: .regular)
          ))
      })
    }
    harness.launch()
    let root = try #require(
      harness.application.keyWindow?.rootViewController as? NoteViewController)
    root.note = 12

    let restart = harness.restartAndRestore()
    #expect(restart.report.restoredEverything, "\(restart.report)")
    let archive = try #require(restart.archive)
    #expect(archive.rootIdentifierPaths == ["Root"])
    // No window record, so no size classes anywhere in the archive.
    #expect(archive.records.allSatisfy { $0.kind != .view })
    #expect(
      !archive.records.contains {
        $0.state[Window.horizontalSizeClassKey] != nil
          || $0.state[Window.verticalSizeClassKey] != nil
      })
    let window = try #require(restart.application.keyWindow)
    #expect(window.restoredTraitCollection == nil)
    #expect((window.rootViewController as? NoteViewController)?.note == 12)
    #expect(restart.report.status(of: "Root") == .restored)
  }

  @Test func windowWithIdentifierRecordsItsSizeClasses() throws {
    let harness = ApplicationHarness {
      ConfigurableDelegate(build: { application in
        application.addWindow(
          Window(
            rootViewController: NoteViewController(restorationIdentifier: "Root"),
            restorationIdentifier: "Main",
            traitCollection: TraitCollection(
              horizontalSizeClass: .compact, verticalSizeClass: .regular)
          ))
      })
    }
    harness.launch()
    let restart = harness.restartAndRestore()
    let archive = try #require(restart.archive)
    #expect(archive.rootIdentifierPaths == ["Main", "Root"])
    #expect(archive.record(at: "Main")?.state[Window.horizontalSizeClassKey] == .string("compact"))
    #expect(
      restart.application.keyWindow?.restoredTraitCollection
        == TraitCollection(horizontalSizeClass: .compact, verticalSizeClass: .regular))
  }
}
