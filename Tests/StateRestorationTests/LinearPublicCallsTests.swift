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

  /// A decoder reading every key of a record restored from a file: a record of a hostile file
  /// may hold millions of keys.
  @Test func decodingEveryKeyOfARecordFromAFileIsLinear() throws {
    final class Wide: TestController {
      var keyCount = 0
      var decoded = 0
      override func encodeRestorableState(with coder: StateCoder) throws {
        for index in 0..<keyCount { coder.encode(index, forKey: "key \(index)") }
      }
      override func decodeRestorableState(with coder: StateDecoder) throws {
        decoded = coder.allKeys.filter { coder.decode(Int.self, forKey: $0) != nil }.count
      }
    }
    func fastest(_ count: Int) throws -> Duration {
      let store = InMemoryArchiveStore()
      let saved = Wide("Wide")
      saved.keyCount = count
      makeEngine(store: store, delegate: TestDelegate()).preserveApplicationState(roots: [saved])
      let bytes = try #require(store.contents[.archive])
      return fastestThreadTime {
        let restoring = InMemoryArchiveStore()
        restoring.contents[.archive] = bytes
        let launched = Wide("Wide")
        let report = makeEngine(store: restoring, delegate: TestDelegate())
          .restoreApplicationState(roots: [launched])
        #expect(report.outcome == .restored)
        #expect(launched.decoded == count)
      }
    }
    let small = try fastest(10_000)
    let large = try fastest(100_000)
    #expect(large < small * 30, "10,000 keys: \(small); 100,000: \(large)")
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
