import StateRestoration
import TestSupport
import Testing

/// Public calls an app makes once per object stay linear in the number of objects: ten times the
/// objects take about ten times as long, not a hundred.
@Suite struct LinearPublicCallsTests {
  /// Registering objects that stay alive, as an app registers its models.
  @Test func registeringObjectsIsLinear() {
    func fastest(_ count: Int) -> Duration {
      let objects = (0..<count).map { TestObject("object \($0)") }
      return fastestThreadTime {
        let registry = RestorationRegistry()
        for object in objects { registry.registerObject(object) }
        #expect(registry.registeredObjects.count == count)
      }
    }
    let small = fastest(10_000)
    let large = fastest(100_000)
    #expect(large < small * 30, "10,000 objects: \(small); 100,000: \(large)")
  }

  /// Registering objects that go away one after another: the registry forgets them as it goes.
  @Test func registeringShortLivedObjectsIsLinear() {
    func fastest(_ count: Int) -> Duration {
      fastestThreadTime {
        let registry = RestorationRegistry()
        for index in 0..<count { registry.registerObject(TestObject("object \(index)")) }
        #expect(registry.registeredObjects.isEmpty)
      }
    }
    let small = fastest(10_000)
    let large = fastest(100_000)
    #expect(large < small * 30, "10,000 objects: \(small); 100,000: \(large)")
  }

  /// Looking up every object of a restoration report by its path.
  @Test func lookingUpEveryEntryOfAReportIsLinear() {
    func fastest(_ count: Int) -> Duration {
      let entries = (0..<count).map { index in
        RestorationReport.Entry(
          identifierPath: "Root/item \(index)", kind: .viewController, className: "Item",
          status: index.isMultiple(of: 2) ? .restored : .skipped(.notFound), source: nil,
          notes: [])
      }
      let report = RestorationReport(outcome: .restored, entries: entries)
      return fastestThreadTime {
        var restored = 0
        for entry in entries where report.status(of: entry.identifierPath) == .restored {
          restored += 1
        }
        #expect(restored == (count + 1) / 2)
      }
    }
    let small = fastest(10_000)
    let large = fastest(100_000)
    #expect(large < small * 30, "10,000 entries: \(small); 100,000: \(large)")
  }

  /// A path archived twice reports its first entry, as the restore handled it.
  @Test func aRepeatedPathReportsItsFirstEntry() {
    let first = RestorationReport.Entry(
      identifierPath: "Root", kind: .viewController, className: "A", status: .restored,
      source: .existing, notes: [])
    var second = first
    second.className = "B"
    second.status = .skipped(.duplicatePath)
    let report = RestorationReport(outcome: .restored, entries: [first, second])
    #expect(report.entry(for: "Root")?.className == "A")
    #expect(report.status(of: "Root") == .restored)
    #expect(report.status(of: "Other") == nil)
  }
}
