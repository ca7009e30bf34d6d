/// The keys and values of one coder, in the order they were first written.
///
/// Most objects write a handful of keys, where a linear search beats hashing; past
/// ``indexThreshold`` keys a dictionary index is built so that an object with thousands of keys
/// still encodes and decodes in linear time.
public struct KeyedValues: Sendable, Hashable, Sequence {
  /// The number of keys above which lookups go through a hash index.
  static let indexThreshold = 12

  /// The keys, in insertion order.
  public private(set) var keys: [String] = []
  /// The values, parallel to ``keys``.
  public private(set) var values: [StateValue] = []
  private var index: [String: Int]?

  /// Creates an empty set of values.
  public init() {}

  /// Creates an empty set of values with room for `capacity` keys.
  init(reservingCapacity capacity: Int) {
    keys.reserveCapacity(capacity)
    values.reserveCapacity(capacity)
  }

  /// Creates values from key-value pairs; a repeated key keeps its last value.
  ///
  /// - Parameter pairs: The pairs, in order.
  public init<S: Sequence>(_ pairs: S) where S.Element == (String, StateValue) {
    for (key, value) in pairs { self[key] = value }
  }

  /// The number of keys.
  public var count: Int { keys.count }

  /// Whether there are no keys.
  public var isEmpty: Bool { keys.isEmpty }

  /// The position of a key, if present.
  ///
  /// - Complexity: O(1) amortized above ``indexThreshold`` keys, otherwise a short linear scan.
  func position(of key: String) -> Int? {
    if let index { return index[key] }
    // Comparing lengths first skips String's general comparison for keys that cannot match;
    // equal keys usually share their storage and compare equal on the first check inside `==`.
    let length = key.utf8.count
    for position in keys.indices where keys[position].utf8.count == length {
      if keys[position] == key { return position }
    }
    return nil
  }

  /// The value for a key; setting nil removes the key.
  public subscript(key: String) -> StateValue? {
    get {
      guard let position = position(of: key) else { return nil }
      return values[position]
    }
    set {
      if let position = position(of: key) {
        if let newValue {
          values[position] = newValue
        } else {
          remove(at: position)
        }
      } else if let newValue {
        append(key, newValue)
      }
    }
  }

  /// Appends a key known not to be present.
  ///
  /// Used by readers, which check duplicates themselves.
  mutating func appendUnchecked(_ key: String, _ value: StateValue) {
    append(key, value)
  }

  private mutating func append(_ key: String, _ value: StateValue) {
    if keys.isEmpty {
      // Coders hold a handful of keys: one allocation for eight instead of four as they grow.
      keys.reserveCapacity(8)
      values.reserveCapacity(8)
    }
    keys.append(key)
    values.append(value)
    if index != nil {
      index?[key] = keys.count - 1
    } else if keys.count > Self.indexThreshold {
      var built: [String: Int] = [:]
      built.reserveCapacity(keys.count * 2)
      for (position, key) in keys.enumerated() { built[key] = position }
      index = built
    }
  }

  private mutating func remove(at position: Int) {
    keys.remove(at: position)
    values.remove(at: position)
    if index != nil {
      var built: [String: Int] = [:]
      for (position, key) in keys.enumerated() { built[key] = position }
      index = built
    }
  }

  /// Iterates over the pairs in insertion order.
  public func makeIterator() -> some IteratorProtocol<(key: String, value: StateValue)> {
    zip(keys, values).lazy.map { (key: $0, value: $1) }.makeIterator()
  }

  /// Two sets of values are equal when they hold the same pairs in the same order.
  public static func == (lhs: KeyedValues, rhs: KeyedValues) -> Bool {
    lhs.keys == rhs.keys && lhs.values == rhs.values
  }

  /// Hashes the pairs.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(keys)
    hasher.combine(values)
  }

  /// The values as a dictionary, order dropped.
  public var dictionary: [String: StateValue] {
    Dictionary(zip(keys, values), uniquingKeysWith: { _, last in last })
  }
}
