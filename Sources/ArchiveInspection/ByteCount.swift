/// A number of bytes, as a person writes it: `100000`, `512k`, `64KiB`, `1.5M`.
public struct ByteCount: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The number of bytes.
  public var bytes: Int

  /// Creates a count.
  ///
  /// - Parameter bytes: The number of bytes.
  public init(_ bytes: Int) {
    self.bytes = bytes
  }

  /// The units, all powers of 1024 as `ls -h` and `du -h` use them, by lowercased suffix.
  private static let units: [String: Int] = [
    "": 1, "b": 1,
    "k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10,
    "m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20,
    "g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30,
  ]

  /// Parses a count: a non-negative number, optionally with a fraction, then an optional unit
  /// (`B`, `k`/`KB`/`KiB`, `M`/`MB`/`MiB`, `G`/`GB`/`GiB`, any case; all powers of 1024).
  ///
  /// The count is rounded down to whole bytes; the initializer fails when the text is not a
  /// count.
  ///
  /// - Parameter text: The text, such as `64KiB`.
  public init?(parsing text: String) {
    let trimmed = trimmingWhitespace(text)
    let number = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
    let unit = trimmingWhitespace(trimmed.dropFirst(number.count)).lowercased()
    guard
      !number.isEmpty, number.filter({ $0 == "." }).count <= 1, number != ".",
      let multiplier = Self.units[unit], let value = Double(number)
    else { return nil }
    let total = (value * Double(multiplier)).rounded(.down)
    // Doubles above 2^62 are far beyond any file; refusing them keeps the conversion exact.
    guard total.isFinite, total < Double(1 << 62) else { return nil }
    bytes = Int(total)
  }

  /// The count in the largest unit that divides it (`64 KiB`), or in bytes (`100,000 bytes`).
  public var description: String {
    for (unit, size) in [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]
    where bytes >= size && bytes % size == 0 {
      return "\(bytes / size) \(unit)"
    }
    return "\(ValueFormatting.grouped(bytes)) byte\(bytes == 1 ? "" : "s")"
  }

  /// Orders counts by size.
  public static func < (lhs: ByteCount, rhs: ByteCount) -> Bool { lhs.bytes < rhs.bytes }
}

/// The text without leading and trailing spaces and tabs.
private func trimmingWhitespace(_ text: some StringProtocol) -> String {
  let isBlank = { (character: Character) in character == " " || character == "\t" }
  return String(text.drop(while: isBlank).reversed().drop(while: isBlank).reversed())
}
