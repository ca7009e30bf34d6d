import Foundation
import StateRestoration
import StateRestorationStorage

/// Shapes outside the comparison's two, where an object's keys and values rather than the tree
/// set the cost: many numbers, many short strings, long texts, two keys, long arrays, large data.
///
/// Each is a container of objects of one class that write the same keys in the same order, as
/// a screen's controllers do; Foundation's encoders get an array of `Codable` structs with the
/// same keys and values.
package enum SyntheticShape: String, CaseIterable, Sendable {
  case numbers, keys
  case longText = "long-text"
  case tiny, lists, blobs

  /// One phrase that describes an object of the shape, for the report.
  package var summary: String {
    switch self {
    case .numbers: "10 integers and 10 reals of random values"
    case .keys: "40 strings of 8 characters, mostly not ASCII"
    case .longText: "2 strings of 300 to 1,000 characters, mostly not ASCII, and an integer"
    case .tiny: "a Boolean and an integer"
    case .lists: "an array of 100 integers and a short string"
    case .blobs: "3 data values of 2 KiB"
    }
  }

  /// The keys each object writes, in order, with the kind of each one's value.
  var schema: [(key: String, kind: SyntheticValue.Kind)] { Self.schemas[self] ?? [] }

  private static let schemas = Dictionary(
    uniqueKeysWithValues: allCases.map { ($0, $0.makeSchema()) })

  private func makeSchema() -> [(key: String, kind: SyntheticValue.Kind)] {
    switch self {
    case .numbers:
      (0..<10).map { ("count\($0)", .integer) } + (0..<10).map { ("offset\($0)", .real) }
    case .keys: (0..<40).map { ("field\($0)", .text(8...8)) }
    case .longText:
      [("body", .text(300...1_000)), ("notes", .text(300...1_000)), ("cursor", .integer)]
    case .tiny: [("isOn", .bool), ("count", .integer)]
    case .lists: [("rows", .integers), ("title", .text(5...20))]
    case .blobs: (0..<3).map { ("blob\($0)", .data) }
    }
  }

  /// The values of the object at `index`, the same on every run.
  func values(_ index: Int) -> [SyntheticValue] {
    var random = Random(index)
    return schema.map { _, kind in
      switch kind {
      case .integer: .integer(Int(truncatingIfNeeded: random.next()) >> 24)
      case .real: .real(Double(random.next() % 10_000_000) / 1_000)
      case .bool: .bool(random.next() % 2 == 0)
      case .text(let lengths): .text(random.text(lengths))
      case .integers: .integers((0..<100).map { _ in Int(random.next() % 100_000) })
      case .data:
        .data(Data((0..<256).flatMap { _ in withUnsafeBytes(of: random.next()) { Array($0) } }))
      }
    }
  }
}

/// A value of a synthetic object.
enum SyntheticValue: Equatable, Sendable {
  case integer(Int)
  case real(Double)
  case bool(Bool)
  case text(String)
  case integers([Int])
  case data(Data)

  enum Kind: Sendable {
    case integer, real, bool, integers, data
    case text(ClosedRange<Int>)
  }
}

/// An object as Foundation's encoders see it: its identifier, then its keys in order.
struct SyntheticItem: Codable, Equatable {
  var shape: SyntheticShape
  var id: String
  var values: [SyntheticValue]

  /// Where a decoder finds the shape, which names the keys.
  static let shapeKey = CodingUserInfoKey(rawValue: "SyntheticShape")

  private struct Key: CodingKey {
    var stringValue: String
    init(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
  }

  init(shape: SyntheticShape, id: String, values: [SyntheticValue]) {
    (self.shape, self.id, self.values) = (shape, id, values)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(id, forKey: Key(stringValue: "id"))
    for ((key, _), value) in zip(shape.schema, values) {
      let key = Key(stringValue: key)
      switch value {
      case .integer(let value): try container.encode(value, forKey: key)
      case .real(let value): try container.encode(value, forKey: key)
      case .bool(let value): try container.encode(value, forKey: key)
      case .text(let value): try container.encode(value, forKey: key)
      case .integers(let value): try container.encode(value, forKey: key)
      case .data(let value): try container.encode(value, forKey: key)
      }
    }
  }

  init(from decoder: any Decoder) throws {
    guard let key = Self.shapeKey, let shape = decoder.userInfo[key] as? SyntheticShape else {
      throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no shape given"))
    }
    let container = try decoder.container(keyedBy: Key.self)
    (self.shape, id) = (shape, try container.decode(String.self, forKey: Key(stringValue: "id")))
    values = try shape.schema.map { key, kind in
      let key = Key(stringValue: key)
      return switch kind {
      case .integer: .integer(try container.decode(Int.self, forKey: key))
      case .real: .real(try container.decode(Double.self, forKey: key))
      case .bool: .bool(try container.decode(Bool.self, forKey: key))
      case .text: .text(try container.decode(String.self, forKey: key))
      case .integers: .integers(try container.decode([Int].self, forKey: key))
      case .data: .data(try container.decode(Data.self, forKey: key))
      }
    }
  }
}

/// An object as the engine sees it: the container, or one of its objects.
private final class SyntheticNode: RestorationNode {
  let restorationIdentifier: String?
  let shape: SyntheticShape
  weak var parent: SyntheticNode?
  var children: [SyntheticNode] = []
  var values: [SyntheticValue] = []

  init(_ identifier: String, shape: SyntheticShape) {
    (restorationIdentifier, self.shape) = (identifier, shape)
  }

  var restorationContainer: RestorationParentLink? {
    parent.map { RestorationParentLink(parent: $0, index: nil) }
  }
  var restorationChildren: [any StateRestoring] { children }

  func encodeRestorableState(with coder: StateCoder) throws {
    for ((key, _), value) in zip(shape.schema, values) {
      switch value {
      case .integer(let value): coder.encode(value, forKey: key)
      case .real(let value): coder.encode(value, forKey: key)
      case .bool(let value): coder.encode(value, forKey: key)
      case .text(let value): coder.encode(value, forKey: key)
      case .integers(let value): coder.encode(value, forKey: key)
      case .data(let value): coder.encode(value, forKey: key)
      }
    }
  }

  func decodeRestorableState(with coder: StateDecoder) throws {
    guard parent != nil else { return }
    values = shape.schema.compactMap { key, kind in
      switch kind {
      case .integer: coder.decode(Int.self, forKey: key).map(SyntheticValue.integer)
      case .real: coder.decode(Double.self, forKey: key).map(SyntheticValue.real)
      case .bool: coder.decode(Bool.self, forKey: key).map(SyntheticValue.bool)
      case .text: coder.decode(String.self, forKey: key).map(SyntheticValue.text)
      case .integers: coder.decode([Int].self, forKey: key).map(SyntheticValue.integers)
      case .data: coder.decode(Data.self, forKey: key).map(SyntheticValue.data)
      }
    }
  }

  /// A container of `count` objects, with their values or, for a launch, without.
  static func tree(_ shape: SyntheticShape, count: Int, values: Bool) -> SyntheticNode {
    let root = SyntheticNode("Synthetic", shape: shape)
    root.children = (0..<count).map { index in
      let child = SyntheticNode("item\(index)", shape: shape)
      child.parent = root
      if values { child.values = shape.values(index) }
      return child
    }
    return root
  }
}

private final class SyntheticDelegate: RestorationDelegate {
  func shouldSaveApplicationState(with coder: StateCoder) -> Bool { true }
  func shouldRestoreApplicationState(with coder: StateDecoder) -> Bool { true }
}

/// The engine against `JSONEncoder` and `PropertyListEncoder` (binary) on one synthetic shape.
package struct SyntheticComparison: Sendable {
  /// One contender's medians, in seconds and bytes.
  package struct Result: Sendable {
    package var encode: Double
    package var decode: Double
    package var bytes: Int
  }

  package var shape: SyntheticShape
  package var objects: Int
  package var engine: Result
  package var json: Result
  package var propertyList: Result

  /// Measures each contender `runs` times, in rounds of one run each, and checks that every
  /// one gives back every value.
  ///
  /// The engine's encode is a preserve into a store in memory (walk, encode, archive), its
  /// decode a restore into a launch's objects made beforehand, as a storyboard makes them.
  package init(shape: SyntheticShape, objects: Int, runs: Int) throws {
    (self.shape, self.objects) = (shape, objects)
    let original = SyntheticNode.tree(shape, count: objects, values: true)
    let items = original.children.map {
      SyntheticItem(shape: shape, id: $0.restorationIdentifier ?? "", values: $0.values)
    }
    let store = InMemoryArchiveStore()
    let delegate = SyntheticDelegate()
    func makeEngine() -> RestorationEngine {
      let engine = RestorationEngine(
        applicationInfo: ApplicationInfo(
          bundleIdentifier: "com.example.synthetic", bundleVersion: "1", systemVersion: "1",
          userInterfaceIdiom: "phone"),
        store: store, registry: RestorationRegistry(), settings: RestorationSettings())
      engine.delegate = delegate
      return engine
    }
    let jsonEncoder = JSONEncoder()
    let plistEncoder = PropertyListEncoder()
    plistEncoder.outputFormat = .binary
    let (jsonDecoder, plistDecoder) = (JSONDecoder(), PropertyListDecoder())
    if let key = SyntheticItem.shapeKey {
      jsonDecoder.userInfo[key] = shape
      plistDecoder.userInfo[key] = shape
    }
    var times: [[Double]] = Array(repeating: [], count: 6)
    var sizes = [0, 0, 0]
    let clock = ContinuousClock()
    func time(_ slot: Int, _ body: () throws -> Void) rethrows {
      times[slot].append(try clock.measure(body).seconds)
    }
    for _ in 0..<max(1, runs) {
      let preserver = makeEngine()
      try time(0) {
        guard case .saved = preserver.preserveApplicationState(roots: [original]).outcome else {
          throw ComparisonFailure("the engine did not save the \(shape.rawValue) shape")
        }
      }
      let archive = try store.read(.archive, maxSize: .max) ?? []
      sizes[0] = archive.count
      let launch = SyntheticNode.tree(shape, count: objects, values: false)
      let restorer = makeEngine()
      try time(1) {
        let report = restorer.restoreApplicationState(roots: [launch])
        guard report.outcome == .restored else {
          throw ComparisonFailure("the engine did not restore: \(report.outcome)")
        }
      }
      guard launch.children.map(\.values) == original.children.map(\.values) else {
        throw ComparisonFailure("the engine restored other values than it saved")
      }
      var (json, plist) = (Data(), Data())
      var (fromJSON, fromPlist): ([SyntheticItem], [SyntheticItem]) = ([], [])
      try time(2) { json = try jsonEncoder.encode(items) }
      try time(3) { fromJSON = try jsonDecoder.decode([SyntheticItem].self, from: json) }
      try time(4) { plist = try plistEncoder.encode(items) }
      try time(5) { fromPlist = try plistDecoder.decode([SyntheticItem].self, from: plist) }
      guard fromJSON == items, fromPlist == items else {
        throw ComparisonFailure("a Foundation decoder gave back other values")
      }
      (sizes[1], sizes[2]) = (json.count, plist.count)
    }
    let medians = times.map { median($0) ?? 0 }
    engine = Result(encode: medians[0], decode: medians[1], bytes: sizes[0])
    json = Result(encode: medians[2], decode: medians[3], bytes: sizes[1])
    propertyList = Result(encode: medians[4], decode: medians[5], bytes: sizes[2])
  }
}
