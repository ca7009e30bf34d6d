import StateRestoration
import TestSupport
import Testing

/// Archives whose identifier paths are long: the reader refuses what exceeds its limits at
/// once, and a restore is linear in the length of the paths it accepts, however they are made.
@Suite struct LongPathTests {
  /// An archive of one record whose path is `count` copies of `component`.
  static func singlePathArchive(_ component: String, count: Int) throws -> [UInt8] {
    let path = Array(repeating: component, count: count).joined(separator: "/")
    let record = RestorationArchive.Record(
      identifierPath: path, kind: .viewController, className: "TestController")
    return try RestorationArchive(records: [record]).encoded(
      allowingDuplicatePaths: false, limits: .unbounded)
  }

  /// Restores the bytes, timing the processor time of this thread: the tests that run beside
  /// it, on the other cores or in turns on this one, do not count.
  private func restore(_ bytes: [UInt8], limits: ArchiveLimits = .default) -> (
    RestorationReport, Duration
  ) {
    let store = InMemoryArchiveStore(contents: [.archive: bytes])
    let engine = makeEngine(
      store: store, delegate: TestDelegate(), settings: RestorationSettings(limits: limits))
    let start = threadCPUTime()
    let report = engine.restoreApplicationState(roots: TalkDemo(pushCity: false).roots)
    return (report, threadCPUTime() - start)
  }

  /// A 1 MB archive of one path (500,000 ASCII components, or 333,000 two-byte ones, which the
  /// file holds as UTF-16) is refused for its path in well under a second, in a debug build.
  @Test(arguments: [("a", 500_000), ("é", 333_000)])
  func aMegabyteLongPathIsRefusedAtOnce(component: String, count: Int) throws {
    let bytes = try Self.singlePathArchive(component, count: count)
    #expect(bytes.count >= 1_000_000)
    let (report, duration) = restore(bytes)
    guard case .discarded(.unreadable(let error)) = report.outcome else {
      Issue.record("expected an unreadable archive, got \(report.outcome)")
      return
    }
    #expect(error.code == .limitExceeded)
    #expect(error.message.contains("identifier path of"))
    #expect(duration < .seconds(1))
  }

  /// Each limit on paths, alone.
  @Test func eachPathLimitIsChecked() throws {
    let long = try Self.singlePathArchive("abcd", count: 2_000)  // 9,999 bytes, 2,000 parts
    let cases: [(ArchiveLimits, String)] = [
      (ArchiveLimits(maxIdentifierPathLength: 9_998), "identifier path of 9999 bytes"),
      (
        ArchiveLimits(maxIdentifierPathLength: 10_000, maxIdentifierPathComponents: 1_999),
        "identifier path of 2000 components"
      ),
      (
        ArchiveLimits(maxIdentifierPathLength: 10_000, maxTotalIdentifierPathLength: 9_000),
        "identifier paths of 9999 bytes in all"
      ),
    ]
    for (limits, message) in cases {
      let error = #expect(throws: RestorationError.self) {
        try RestorationArchive(decoding: long, limits: limits)
      }
      #expect(error?.code == .limitExceeded)
      #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }
    let accepted = ArchiveLimits(
      maxIdentifierPathLength: 10_000, maxIdentifierPathComponents: 2_000,
      maxTotalIdentifierPathLength: 10_000)
    #expect(throws: Never.self) { try RestorationArchive(decoding: long, limits: accepted) }
  }

  /// Records that share one path object in the file still count in full towards the total: a
  /// file of 20 KB cannot make the restore analyse 2 MB of paths, under the default limits.
  @Test func sharedPathsCountTowardsTheTotal() throws {
    let path = CraftedValue.shared("name", .string(String(repeating: "p", count: 4_000)))
    let record = CraftedValue.shared(
      "record",
      .dictionary([
        ("name", path), ("kind", .string("object")), ("class", .string("Object")),
        ("state", .dictionary([])),
      ]))
    let bytes = CraftedArchive.bytes(records: Array(repeating: record, count: 500))
    #expect(bytes.count < 20_000)
    let error = #expect(throws: RestorationError.self) { try RestorationArchive(decoding: bytes) }
    #expect(error?.code == .limitExceeded)
    #expect(error?.message.contains("in all") == true, "\(String(describing: error))")
  }

  /// Records stored as a long parent's path and a short name of their own: a file of 160 KB
  /// would otherwise stand for 32 MB of paths, each analysed whole.
  @Test func pathsUnderOneLongParentAreHeldToTheFilesShare() throws {
    let parent = String(repeating: "p", count: 8_000)
    let records =
      [RestorationArchive.Record(identifierPath: parent, kind: .object, className: "Object")]
      + (0..<4_000).map {
        RestorationArchive.Record(
          identifierPath: "\(parent)/\($0)", kind: .object, className: "Object")
      }
    let archive = RestorationArchive(records: records)
    let bytes = try archive.encoded()
    #expect(bytes.count < 200_000)
    let error = #expect(throws: RestorationError.self) { try RestorationArchive(decoding: bytes) }
    #expect(error?.code == .limitExceeded)
    #expect(
      error?.message.contains("for a file of \(bytes.count) bytes") == true,
      "\(String(describing: error))")
  }

  /// With the limits raised out of the way, the restore of one long path takes time linear in
  /// its length: four times the components take about four times as long, not sixteen.
  @Test(arguments: ["a", "é"])
  func aLongPathRestoresInLinearTime(component: String) throws {
    let limits = ArchiveLimits(
      maxIdentifierPathLength: 1 << 30, maxIdentifierPathComponents: 1 << 30)
    func fastest(_ count: Int) throws -> Duration {
      let bytes = try Self.singlePathArchive(component, count: count)
      return try (0..<3).map { _ in
        let (report, duration) = restore(bytes, limits: limits)
        try #require(report.outcome == .restored)
        return duration
      }.min() ?? .zero
    }
    let small = try fastest(20_000)
    let large = try fastest(80_000)
    #expect(large < small * 8, "20,000 components: \(small); 80,000: \(large)")
  }

  /// A path's components split at every `/`, as UIKit splits them, whatever character follows:
  /// a combining accent after a separator does not join it to the next component.
  @Test func everySeparatorSplitsAPath() {
    let path = "Tab/\u{301}Detail/:[2]:/Cell"
    #expect(IdentifierPath.components(of: path) == ["Tab", "\u{301}Detail", ":[2]:", "Cell"])
    #expect(IdentifierPath.parent(of: path) == "Tab/\u{301}Detail")
    #expect(IdentifierPath.depth(of: path) == 3)
  }
}
