/// What was last worked out for a few strings, found by the bits of their `String` values.
///
/// Apps pass literal keys and identifiers, or copies of one string, whose bits repeat from call
/// to call; and two strings with equal bits are equal. A string met again is found by comparing
/// two words, where hashing or scanning its bytes cost a few hundred instructions. A string
/// whose bits differ from the cached one's is worked out again, never mistaken for it. The
/// strings are held, so that their storage cannot be freed and reused by another string while
/// cached.
///
/// Coder key numbers, the checked states' key numbers and identifier depths go through it.
package struct RecentStrings<Value> {
  /// A cached string's bits with its value.
  private struct Slot {
    var bits: (UInt64, UInt64)
    var value: Value?
  }

  // The bits and the value side by side, so that a hit reads one slot with one bounds check;
  // the strings apart, so that finding one does not retain the cached string.
  // Empty until the first string is cached, so that one made and never asked (a spent pass's
  // replacement tables) allocates nothing.
  private var slots: [Slot] = []
  private var strings: [String] = []

  private static var slotCount: Int { 64 }

  package init() {}

  /// The value cached for `string`, or `compute(string)`, cached.
  @inline(__always)
  package mutating func value(for string: String, _ compute: (String) -> Value) -> Value {
    // The bits identify a string only where a `String` is the two words read here.
    guard MemoryLayout<String>.size == 16 else { return compute(string) }
    let key = withUnsafeBytes(of: string) { raw in
      (raw.load(as: UInt64.self), raw.load(fromByteOffset: 8, as: UInt64.self))
    }
    let slot = Int(truncatingIfNeeded: mixBits(key.0 ^ (key.1 &* 31))) & (Self.slotCount - 1)
    if slots.isEmpty {
      slots = [Slot](repeating: Slot(bits: (0, 0), value: nil), count: Self.slotCount)
      strings = [String](repeating: "", count: Self.slotCount)
    } else if let cached = slots.withUnsafeBufferPointer({ slots -> Value? in
      slots[slot].bits == key ? slots[slot].value : nil
    }) {
      return cached
    }
    let value = compute(string)
    slots[slot] = Slot(bits: key, value: value)
    strings[slot] = string
    return value
  }
}
