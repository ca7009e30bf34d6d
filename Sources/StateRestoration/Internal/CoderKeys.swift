/// The key names of the coders of one preservation pass, each stored once and named by a small
/// number.
///
/// Objects of one kind write the same few keys; numbering them once per pass lets a coder find
/// a repeated key by comparing integers, and lets the archive writer add each key string to the
/// property list once instead of hashing it again for every object.
final class CoderKeys {
  /// Whether a coder of the pass was written to after its values were sent to the concurrent
  /// writer (an app that keeps a coder and writes to it from a later encode).
  @exclusivity(unchecked) var writtenAfterHandOff = false
  /// The names, by number.
  // Unchecked exclusivity, as in `StateCoder`: these are read and written for every key an
  // object writes, and nothing reenters while they change.
  @exclusivity(unchecked) private(set) var names: [String] = []
  @exclusivity(unchecked) private var numbers = StringTable(capacity: 64)
  /// The last keys asked for, by the bits of their `String` value.
  ///
  /// Literal keys keep the same bits from call to call, and two strings with equal bits are
  /// equal. The names are held, so their storage cannot be freed and reused while cached.
  @exclusivity(unchecked) private var recent = [(name: String, number: Int32)?](
    repeating: nil, count: 64)

  /// The number of a key name, assigned on first use.
  @inline(__always)
  func number(of name: String) -> Int32 {
    guard Self.hasTwoWordStrings else { return intern(name) }
    let bits = Self.bits(of: name)
    let slot = Int(truncatingIfNeeded: mixBits(bits.0 ^ (bits.1 &* 31))) & (recent.count - 1)
    if let cached = recent[slot], Self.bits(of: cached.name) == bits { return cached.number }
    let number = intern(name)
    recent[slot] = (name, number)
    return number
  }

  private func intern(_ name: String) -> Int32 {
    let lookup = numbers.lookUp(name)
    let number: Int32
    if let known = lookup.value {
      number = Int32(truncatingIfNeeded: known)
    } else {
      number = Int32(truncatingIfNeeded: names.count)
      numbers.insert(name, names.count, at: lookup)
      names.append(name)
    }
    return number
  }

  /// The number of a key name, or nil if no coder of the pass has used it.
  func existingNumber(of name: String) -> Int32? {
    numbers.value(for: name).map { Int32(truncatingIfNeeded: $0) }
  }

  private static let hasTwoWordStrings = MemoryLayout<String>.size == 16

  /// A string's representation, as two words; only called where a `String` is two words.
  @inline(__always)
  private static func bits(of string: String) -> (UInt64, UInt64) {
    return withUnsafeBytes(of: string) { raw in
      (raw.load(as: UInt64.self), raw.load(fromByteOffset: 8, as: UInt64.self))
    }
  }
}
