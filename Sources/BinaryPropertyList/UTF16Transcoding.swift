// The package's only unsafe buffer code, for the strings most apps' state is made of: the
// standard library's UTF-16 view and `String(decoding:as: UTF16.self)` took several times
// longer per character than the rest of writing or reading a value.

/// Transcoding between `String`'s UTF-8 and the big-endian UTF-16 of property lists.
enum UTF16Transcoding {
  /// Calls `body` with the big-endian UTF-16 of a `String`'s UTF-8 (whole sequences: each lead
  /// byte is trusted), made in a temporary buffer.
  static func withBigEndianUTF16(
    of utf8: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void
  ) {
    // A code unit takes at most two bytes for each UTF-8 byte.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * utf8.count) { output in
      guard let first = utf8.baseAddress, let target = output.baseAddress else {
        return body(UnsafeBufferPointer(start: nil, count: 0))
      }
      // Pointers, as in the reader below.
      var source = first
      let end = first + utf8.count
      var out = target
      func put(_ unit: UInt32) {
        out[0] = UInt8(truncatingIfNeeded: unit >> 8)
        out[1] = UInt8(truncatingIfNeeded: unit)
        out += 2
      }
      // `String` holds valid UTF-8, so each lead byte says how many continuation bytes follow.
      while source < end {
        let lead = UInt32(source[0])
        if lead < 0x80 {
          put(lead)
          source += 1
        } else if lead < 0xE0 {
          put((lead & 0x1F) << 6 | UInt32(source[1] & 0x3F))
          source += 2
        } else if lead < 0xF0 {
          put((lead & 0x0F) << 12 | UInt32(source[1] & 0x3F) << 6 | UInt32(source[2] & 0x3F))
          source += 3
        } else {
          let scalar =
            (lead & 0x07) << 18 | UInt32(source[1] & 0x3F) << 12
            | UInt32(source[2] & 0x3F) << 6 | UInt32(source[3] & 0x3F)
          put(0xD800 | (scalar - 0x10000) >> 10)
          put(0xDC00 | (scalar - 0x10000) & 0x3FF)
          source += 4
        }
      }
      body(UnsafeBufferPointer(start: target, count: out - target))
    }
  }

  /// Big-endian UTF-16 as a string, each unpaired surrogate a U+FFFD; `start` and `count` lie
  /// inside `bytes`, checked by the caller.
  static func string(fromBigEndianUTF16 bytes: [UInt8], start: Int, count: Int) -> String {
    // Made apart, then copied into a string of its size: a string keeps its capacity for life.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count * 3) { output in
      bytes.withUnsafeBufferPointer { input in
        guard count > 0, let first = input.baseAddress, let target = output.baseAddress else {
          return ""
        }
        // Pointers, not indices: the loop runs once per character, and index arithmetic is
        // checked for overflow at every step.
        var source = first + start
        let end = source + 2 * count
        var out = target
        func put(_ byte: UInt32) {
          out.pointee = UInt8(truncatingIfNeeded: byte)
          out += 1
        }
        func unit(at pointer: UnsafePointer<UInt8>) -> UInt32 {
          UInt32(pointer[0]) << 8 | UInt32(pointer[1])
        }
        while source < end {
          var scalar = unit(at: source)
          source += 2
          if scalar < 0x80 {
            put(scalar)
            continue
          }
          if scalar & 0xF800 == 0xD800 {
            if scalar < 0xDC00, source < end, unit(at: source) & 0xFC00 == 0xDC00 {
              scalar = 0x10000 + ((scalar - 0xD800) << 10 | (unit(at: source) - 0xDC00))
              source += 2
            } else {
              scalar = 0xFFFD
            }
          }
          switch scalar {
          case ..<0x800:
            put(0xC0 | scalar >> 6)
            put(0x80 | scalar & 0x3F)
          case ..<0x10000:
            put(0xE0 | scalar >> 12)
            put(0x80 | scalar >> 6 & 0x3F)
            put(0x80 | scalar & 0x3F)
          default:
            put(0xF0 | scalar >> 18)
            put(0x80 | scalar >> 12 & 0x3F)
            put(0x80 | scalar >> 6 & 0x3F)
            put(0x80 | scalar & 0x3F)
          }
        }
        return String(
          decoding: UnsafeBufferPointer(start: target, count: out - target), as: UTF8.self)
      }
    }
  }
}
