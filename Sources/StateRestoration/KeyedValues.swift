internal import OrderedCollections

/// The keys and values of one coder, in the order they were first written.
public struct KeyedValues: Sendable, Hashable, Sequence {
  private var storage: OrderedDictionary<String, StateValue>

  /// Creates an empty set of values.
  public init() { storage = [:] }

  /// Creates values from key-value pairs, in order; a repeated key keeps its last value.
  public init<S: Sequence>(_ pairs: S) where S.Element == (String, StateValue) {
    storage = OrderedDictionary(pairs, uniquingKeysWith: { _, last in last })
  }

  init(_ storage: OrderedDictionary<String, StateValue>) { self.storage = storage }

  /// The keys, in insertion order.
  public var keys: [String] { storage.keys.elements }
  /// The values, parallel to ``keys``.
  public var values: [StateValue] { storage.values.elements }
  /// The number of keys.
  public var count: Int { storage.count }
  /// Whether there are no keys.
  public var isEmpty: Bool { storage.isEmpty }

  /// The value for a key; setting nil removes the key, setting a new key appends it.
  public subscript(key: String) -> StateValue? {
    get { storage[key] }
    set { storage[key] = newValue }
  }

  /// The pairs, in insertion order.
  public func makeIterator() -> some IteratorProtocol<(key: String, value: StateValue)> {
    storage.lazy.map { (key: $0.key, value: $0.value) }.makeIterator()
  }

  /// The values as an unordered dictionary.
  public var dictionary: [String: StateValue] {
    Dictionary(uniqueKeysWithValues: storage.lazy.map { ($0.key, $0.value) })
  }
}
