import ArchiveInspection
import Foundation
import StateRestoration
import Testing

@Suite struct DiffTests {
  @Test func equalArchivesHaveNoDifferences() throws {
    let archive = try DemoArchives.talkDemo()
    let diff = ArchiveDiff(from: archive, to: try DemoArchives.talkDemo())
    #expect(diff.isEmpty)
    #expect(diff.text() == "No differences.\n")
  }

  @Test func changedKeysShowTheirOldAndNewValues() throws {
    let old = try DemoArchives.talkDemo()
    let new = try DemoArchives.talkDemo(sliderValue: 0.25, city: "Bern")
    let diff = ArchiveDiff(from: old, to: new)
    #expect(!diff.isEmpty)
    #expect(diff.added.isEmpty && diff.removed.isEmpty && diff.topLevel.isEmpty)
    #expect(
      diff.changed.map(\.new.identifierPath) == [
        "TabController/:[0]:/FirstViewController",
        "TabController/:[1]:/NavigationController/:[1]:/CityViewController",
      ]
    )
    #expect(
      diff.changed[0].keys == [
        ArchiveDiff.KeyChange(
          key: "encodingKeySliderValue",
          old: .value(.real(Double(Float(0.8926057)))),
          new: .value(.real(0.25))
        )
      ]
    )
    #expect(
      diff.text() == """
        ~ [View Controller] TabController/:[0]:/FirstViewController (Class: FirstViewController)
            ~ encodingKeySliderValue: 0.8926057 -> 0.25
        ~ [View Controller] TabController/:[1]:/NavigationController/:[1]:/CityViewController (Class: CityViewController)
            ~ cityName: Zürich -> Bern

        2 objects changed, 0 added, 0 removed

        """
    )
  }

  @Test func addedRemovedAndTopLevelChangesAreListed() throws {
    let old = Crafting.archive(
      [
        Crafting.record("Tab"),
        Crafting.record("Tab/:[0]:/Gone", state: [("x", .integer(1))]),
        Crafting.record(
          "Tab/:[1]:/Nav",
          state: [
            ("kUIViewControllerChildrenKey", .array([.reference("Tab/:[1]:/Nav")])),
            ("removedKey", .string("old")),
          ]),
      ],
      extraTopLevel: [("appVersion", .string("1.0")), ("dropped", .bool(true))]
    )
    var newRecords = old.records
    newRecords.remove(at: 1)
    newRecords[1].state["kUIViewControllerChildrenKey"] = .array([
      .reference("Tab/:[1]:/Nav"), .reference("Tab/:[2]:/New"),
    ])
    newRecords[1].state["removedKey"] = nil
    newRecords[1].state["addedKey"] = .integer(5)
    newRecords[1].sensitiveKeys = ["secret"]
    newRecords[1].className = "NavigationController"
    newRecords.append(
      RestorationArchive.Record(identifierPath: "Tab/:[2]:/New", kind: .view, className: "V"))
    var new = RestorationArchive(topLevel: old.topLevel, records: newRecords)
    new.topLevel["appVersion"] = .string("1.1")
    new.topLevel["dropped"] = nil
    new.topLevel[RestorationArchive.Key.timestamp] = .date(DemoArchives.timestamp + 60)

    let diff = ArchiveDiff(from: old, to: new)
    #expect(diff.removed.map(\.identifierPath) == ["Tab/:[0]:/Gone"])
    #expect(diff.added.map(\.identifierPath) == ["Tab/:[2]:/New"])
    #expect(
      diff.text() == """
        Top Level
            ~ UIApplicationStateRestorationTimestamp: 2014-07-06 16:05:18 +0000 -> 2014-07-06 16:06:18 +0000
            ~ appVersion: 1.0 -> 1.1
            - dropped: Yes

        - [View Controller] Tab/:[0]:/Gone (Class: DemoController)
        ~ [View Controller] Tab/:[1]:/Nav (Class: NavigationController)
            ~ class: DemoController -> NavigationController
            + addedKey: 5
            ~ kUIViewControllerChildrenKey
                - (
                      "Tab/:[1]:/Nav"
                  )
                + (
                      "Tab/:[1]:/Nav",
                      "Tab/:[2]:/New"
                  )
            - removedKey: old
            + secret: (sensitive, not saved)
        + [View] Tab/:[2]:/New (Class: V)

        1 object changed, 1 added, 1 removed, 3 top-level keys changed

        """
    )
  }

  @Test func ignoredKeysAreLeftOutEverywhere() throws {
    let old = try DemoArchives.talkDemo()
    let later = try DemoArchives.preserve(
      roots: [], at: DemoArchives.timestamp + 3_600)
    var new = old
    new.topLevel = later.topLevel
    #expect(
      ArchiveDiff(from: old, to: new).topLevel.map(\.key) == [
        RestorationArchive.Key.timestamp
      ])
    #expect(
      ArchiveDiff(from: old, to: new, ignoring: [RestorationArchive.Key.timestamp]).isEmpty)

    let slid = try DemoArchives.talkDemo(sliderValue: 0.5)
    #expect(!ArchiveDiff(from: old, to: slid).isEmpty)
    #expect(ArchiveDiff(from: old, to: slid, ignoring: ["encodingKeySliderValue"]).isEmpty)
  }

  @Test func kindRestorationClassAndStoryboardChangesAreFieldChanges() {
    let old = Crafting.archive([Crafting.record("A")])
    var record = old.records[0]
    record.kind = .object
    record.restorationClassName = "ARestoration"
    record.storyboard = StoryboardReference(name: "Main", identifier: "A")
    let new = Crafting.archive([record])
    let fields = ArchiveDiff(from: old, to: new).changed.first?.fields.map(\.field)
    #expect(fields == ["kind", "restoration class", "storyboard"])
    #expect(
      ArchiveDiff(from: old, to: new).text().contains(
        "    ~ restoration class: (none) -> ARestoration\n    ~ storyboard: (none) -> Main, scene A\n"
      )
    )
  }

  @Test func repeatedPathsArePairedInOrder() {
    let old = Crafting.archive([
      Crafting.record("A", state: [("n", .integer(1))]),
      Crafting.record("A", state: [("n", .integer(2))]),
    ])
    let new = Crafting.archive([Crafting.record("A", state: [("n", .integer(1))])])
    let diff = ArchiveDiff(from: old, to: new)
    #expect(diff.changed.isEmpty)
    #expect(diff.removed.map { $0.state["n"] } == [.integer(2)])
  }
}
