import Foundation
import RestorationComparison
import Testing

/// The two state shapes, and every contender holding the same records of each.
@Suite struct ShapeTests {
  /// The strings of a record's values, arrays' and dictionaries' included.
  static func strings(in value: ComparableValue) -> [String] {
    switch value {
    case .string(let string): [string]
    case .array(let items): items.flatMap(strings)
    case .dictionary(let entries): entries.keys + entries.values.flatMap(strings)
    default: []
    }
  }

  @Test(arguments: [3, 7, 100, 300])
  func theLinearShapeHasItsObjectsWith6To8KeysEach(count: Int) {
    let records = Workload(shape: .linear, count: count).expectedRecords
    #expect(records.count == count)
    #expect(Set(records.map(\.path)).count == count)
    for record in records {
      #expect((6...8).contains(record.state.count), "\(record)")
    }
  }

  @Test(arguments: [2, 3, 5, 6, 37, 300, 1_000])
  func theAppShapeHasItsObjectsWith4To10KeysEach(count: Int) {
    let records = Workload(shape: .app, count: count).expectedRecords
    #expect(records.count == count)
    #expect(Set(records.map(\.path)).count == count)
    for record in records {
      #expect((4...10).contains(record.state.count), "\(record)")
    }
  }

  @Test func theAppShapeHoldsNestedControllersRegisteredObjectsAndEveryKindOfValue() throws {
    let records = Workload(shape: .app, count: 300).expectedRecords
    // Controllers nested in screens: paths of five identifiers, index components not counted.
    let depths = records.map { $0.path.split(separator: "/").count { !$0.hasPrefix(":[") } }
    #expect(depths.max() == 5)
    // Registered objects, outside the controller tree.
    let registered = records.filter { $0.kind == "object" }
    #expect(registered.map(\.path).contains("DocumentStore"))
    #expect(registered.map(\.path).contains("DocumentStore/Document-0"))
    #expect(registered.count > 20)
    let referenced = Set(
      records.compactMap { record -> String? in
        guard case .reference(let path) = record.state["document"] else { return nil }
        return path
      })
    #expect(referenced == Set(registered.map(\.path)).subtracting(["DocumentStore"]))
    // References to lower screens on some objects, not on others.
    let related = records.filter { $0.state["related"] != nil }
    #expect(related.count > 10)
    #expect(related.count < records.count / 2)
    // Strings of 5 to 60 characters, most of them not ASCII.
    let values = records.flatMap { record in
      record.state.map { (key: $0.key, value: $0.value) }
    }
    let strings = values.compactMap { entry -> String? in
      guard case .string(let string) = entry.value else { return nil }
      return string
    }
    #expect(strings.allSatisfy { (5...60).contains($0.count) })
    let nonASCII = strings.filter { $0.unicodeScalars.contains { !$0.isASCII } }
    #expect(nonASCII.count * 4 > strings.count * 3)
    #expect(strings.contains { $0.unicodeScalars.contains { $0.properties.isEmojiPresentation } })
    #expect(
      strings.contains { $0.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) } })
    // Strings are most of the values; then dates, data, string arrays and dictionaries.
    #expect(strings.count * 3 > values.count)
    let data = values.compactMap { entry -> Data? in
      guard case .data(let data) = entry.value else { return nil }
      return data
    }
    #expect(!data.isEmpty)
    #expect(data.allSatisfy { (16...256).contains($0.count) })
    #expect(values.contains { if case .date = $0.value { true } else { false } })
    #expect(values.contains { $0.key == "tags" || $0.key == "recentSearches" })
    #expect(values.contains { if case .dictionary = $0.value { true } else { false } })
  }

  @Test func theSameIndexGivesTheSameValues() {
    let first = Workload(shape: .app, count: 200).expectedRecords
    let second = Workload(shape: .app, count: 200).expectedRecords
    #expect(first == second)
  }

  static let contenders: [(StateShape, Contender)] = StateShape.allCases.flatMap { shape in
    Contender.allCases.map { (shape, $0) }
  }

  @Test(arguments: contenders)
  func everyContenderRoundTripsTheSameRecords(shape: StateShape, contender: Contender) throws {
    let workload = Workload(shape: shape, count: 80)
    let expected = Dictionary(
      uniqueKeysWithValues: workload.expectedRecords.map { ($0.path, $0) })
    let coder = makeCoder(contender, workload)
    let bytes = try coder.encode()
    try coder.decode(bytes)
    let records = try coder.records(decoding: bytes)
    #expect(records.count == expected.count)
    for record in records {
      #expect(
        record == expected[record.path],
        "\(record) against \(String(describing: expected[record.path]))")
    }
  }

  @Test(arguments: StateShape.allCases)
  func theEngineRestoresEveryObjectWithItsState(shape: StateShape) throws {
    let workload = Workload(shape: shape, count: 150)
    let expected = Dictionary(
      uniqueKeysWithValues: workload.expectedRecords.map { ($0.path, $0) })
    // What the launch's objects hold after the restore, archived again.
    let restored = try EngineContender(workload).recordsAfterRestore()
    #expect(restored.count == expected.count)
    for record in restored {
      #expect(record == expected[record.path], "\(record)")
    }
  }
}
