#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A string as a dictionary key equal only to the same UTF-8 bytes.
///
/// `String` compares (and hashes, slower) by canonical equivalence, wrong where bytes are the
/// identity. Hashed once, with the seeded `Hasher`, so keys from a file cannot be made to collide.
package struct ExactString: Hashable {
  /// The string.
  package let string: String
  private let hash: Int

  /// Makes a key of a string.
  package init(_ string: String) {
    self.string = string
    var hasher = Hasher()
    var copy = string
    copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    hash = hasher.finalize()
  }

  package static func == (lhs: ExactString, rhs: ExactString) -> Bool {
    lhs.hash == rhs.hash && lhs.string.utf8.count == rhs.string.utf8.count
      && bytesEqual(lhs.string, rhs.string, count: lhs.string.utf8.count)
  }

  package func hash(into hasher: inout Hasher) { hasher.combine(hash) }

  // A seeded hash of the bytes already: hashing it again cost as much as the rest of a lookup.
  package func _rawHashValue(seed: Int) -> Int { hash ^ seed }

  /// Whether the first `count` UTF-8 bytes of two strings, each at least that long, are equal.
  package static func bytesEqual(_ left: String, _ right: String, count: Int) -> Bool {
    var left = left
    var right = right
    return left.withUTF8 { left in
      right.withUTF8 { right in
        guard count > 0, let a = left.baseAddress, let b = right.baseAddress else { return true }
        return memcmp(a, b, count) == 0
      }
    }
  }
}
