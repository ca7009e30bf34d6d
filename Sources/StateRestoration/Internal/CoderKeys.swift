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
  /// The numbers of the last keys asked for.
  @exclusivity(unchecked) private var recent = RecentStrings<Int32>()

  /// The number of a key name, assigned on first use.
  @inline(__always)
  func number(of name: String) -> Int32 {
    recent.value(for: name) { intern($0) }
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
}
