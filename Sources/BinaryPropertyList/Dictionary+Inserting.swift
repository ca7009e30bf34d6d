extension Dictionary {
  /// The value of `key`, after inserting `value` for it if it had none: one lookup, where a
  /// read then a write would hash the key twice.
  @inlinable
  package mutating func value(forKey key: Key, insertingIfAbsent value: Value) -> Value {
    Self.read(&self[key, default: value])
  }

  /// Whether `key` was absent, then given `value`, and its value now: one lookup, and one
  /// access to a dictionary a class holds.
  @inlinable
  package mutating func insert(_ value: Value, forKey key: Key) -> (inserted: Bool, value: Value) {
    let count = self.count
    let stored = self.value(forKey: key, insertingIfAbsent: value)
    return (self.count != count, stored)
  }

  @inlinable
  static func read(_ value: inout Value) -> Value { value }
}
