/// A value of an old-style (OpenStep) property list, the format of Xcode's `project.pbxproj`.
///
/// ```
/// { objects = { A1 = { isa = PBXNativeTarget; name = "My App"; }; }; rootObject = A0; }
/// ```
public enum OpenStepValue: Sendable, Hashable {
  /// A string, quoted or not.
  case string(String)
  /// Bytes written as `<0fbd 7a>`.
  case data([UInt8])
  /// `( value, value, )`.
  case array([OpenStepValue])
  /// `{ key = value; }`; a key given twice keeps its last value.
  case dictionary([String: OpenStepValue])

  /// The string, or nil for another kind of value.
  public var string: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The array, or nil for another kind of value.
  public var array: [OpenStepValue]? {
    if case .array(let values) = self { return values }
    return nil
  }

  /// The dictionary, or nil for another kind of value.
  public var dictionary: [String: OpenStepValue]? {
    if case .dictionary(let values) = self { return values }
    return nil
  }

  /// Reads an old-style property list, within limits that keep hostile input harmless.
  ///
  /// Strings may be quoted (`"..."` or `'...'`, with C escapes and `\U` followed by hex digits)
  /// or bare (letters, digits and `_$+/:.-`); `/* */` and `//` comments are skipped. Bytes that
  /// are not UTF-8 inside a quoted string become U+FFFD.
  ///
  /// - Parameters:
  ///   - bytes: The file's bytes.
  ///   - maximumDepth: The deepest nesting of arrays and dictionaries read.
  ///   - maximumValueCount: The most values read, in all.
  /// - Returns: The root value.
  /// - Throws: ``OpenStepSyntaxError`` with the line where reading stopped.
  /// - Complexity: O(*n*) in the number of bytes, with recursion no deeper than `maximumDepth`.
  public static func parse(
    _ bytes: [UInt8], maximumDepth: Int = 64, maximumValueCount: Int = 2_000_000
  ) throws(OpenStepSyntaxError) -> OpenStepValue {
    var parser = OpenStepParser(
      bytes: bytes, maximumDepth: maximumDepth, maximumValueCount: maximumValueCount)
    return try parser.document()
  }
}

/// Why an old-style property list could not be read, and where.
public struct OpenStepSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The line where reading stopped, from 1.
  public var line: Int
  /// What was wrong there.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - line: The line.
  ///   - message: What was wrong.
  public init(line: Int, message: String) {
    self.line = line
    self.message = message
  }

  /// `line N: message`.
  public var description: String { "line \(line): \(message)" }
}

/// A recursive descent over the bytes; each value costs one step of the count, each nesting one
/// level of the depth.
private struct OpenStepParser {
  let bytes: [UInt8]
  let maximumDepth: Int
  let maximumValueCount: Int
  var index = 0
  var valueCount = 0

  init(bytes: [UInt8], maximumDepth: Int, maximumValueCount: Int) {
    self.bytes = bytes
    self.maximumDepth = maximumDepth
    self.maximumValueCount = maximumValueCount
    // A UTF-8 byte order mark.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
  }

  mutating func document() throws(OpenStepSyntaxError) -> OpenStepValue {
    try skipSpaceAndComments()
    guard index < bytes.count else { throw error("the file is empty") }
    let root = try value(depth: 0)
    try skipSpaceAndComments()
    guard index == bytes.count else { throw error("unexpected text after the root value") }
    return root
  }

  /// The line of the current position: counted only when an error is thrown.
  private func error(_ message: String, at position: Int? = nil) -> OpenStepSyntaxError {
    let end = min(position ?? index, bytes.count)
    var line = 1
    for byte in bytes[0..<end] where byte == 0x0A { line += 1 }
    return OpenStepSyntaxError(line: line, message: message)
  }

  private mutating func value(depth: Int) throws(OpenStepSyntaxError) -> OpenStepValue {
    guard depth < maximumDepth else {
      throw error("values nested more than \(maximumDepth) levels deep")
    }
    valueCount += 1
    guard valueCount <= maximumValueCount else {
      throw error("more than \(maximumValueCount) values")
    }
    guard index < bytes.count else { throw error("the file ends where a value should be") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return .dictionary(try dictionary(depth: depth))
    case UInt8(ascii: "("): return .array(try array(depth: depth))
    case UInt8(ascii: "<"): return .data(try data())
    default: return .string(try string())
    }
  }

  private mutating func dictionary(
    depth: Int
  ) throws(OpenStepSyntaxError) -> [String: OpenStepValue] {
    let start = index
    index += 1
    var entries: [String: OpenStepValue] = [:]
    while true {
      try skipSpaceAndComments()
      guard index < bytes.count else {
        throw error("a dictionary is not closed with '}'", at: start)
      }
      if bytes[index] == UInt8(ascii: "}") {
        index += 1
        return entries
      }
      let key = try string()
      try skipSpaceAndComments()
      try expect(UInt8(ascii: "="), "'=' after the key \"\(Self.shortened(key))\"")
      try skipSpaceAndComments()
      let entry = try value(depth: depth + 1)
      try skipSpaceAndComments()
      try expect(UInt8(ascii: ";"), "';' after the value of \"\(Self.shortened(key))\"")
      entries[key] = entry
    }
  }

  private mutating func array(depth: Int) throws(OpenStepSyntaxError) -> [OpenStepValue] {
    let start = index
    index += 1
    var values: [OpenStepValue] = []
    while true {
      try skipSpaceAndComments()
      guard index < bytes.count else { throw error("an array is not closed with ')'", at: start) }
      if bytes[index] == UInt8(ascii: ")") {
        index += 1
        return values
      }
      values.append(try value(depth: depth + 1))
      try skipSpaceAndComments()
      guard index < bytes.count else { throw error("an array is not closed with ')'", at: start) }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
      } else if bytes[index] != UInt8(ascii: ")") {
        throw error("',' or ')' expected in an array")
      }
    }
  }

  private mutating func data() throws(OpenStepSyntaxError) -> [UInt8] {
    let start = index
    index += 1
    var result: [UInt8] = []
    var high: UInt8?
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if byte == UInt8(ascii: ">") {
        guard high == nil else { throw error("data with an odd number of hex digits") }
        return result
      }
      if Self.isSpace(byte) { continue }
      guard let digit = Self.hexValue(byte) else {
        throw error("a data value holds a non-hex byte")
      }
      if let first = high {
        result.append(first << 4 | digit)
        high = nil
      } else {
        high = digit
      }
    }
    throw error("a data value is not closed with '>'", at: start)
  }

  private mutating func string() throws(OpenStepSyntaxError) -> String {
    guard index < bytes.count else { throw error("the file ends where a string should be") }
    let first = bytes[index]
    if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") { return try quoted(first) }
    let start = index
    while index < bytes.count, Self.isBare(bytes[index]) { index += 1 }
    guard index > start else {
      throw error("unexpected character '\(Self.describe(bytes[start]))'")
    }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  private mutating func quoted(_ quote: UInt8) throws(OpenStepSyntaxError) -> String {
    let start = index
    index += 1
    var text: [UInt8] = []
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if byte == quote { return String(decoding: text, as: UTF8.self) }
      guard byte == UInt8(ascii: "\\") else {
        text.append(byte)
        continue
      }
      guard index < bytes.count else { break }
      let escaped = bytes[index]
      index += 1
      switch escaped {
      case UInt8(ascii: "n"): text.append(0x0A)
      case UInt8(ascii: "t"): text.append(0x09)
      case UInt8(ascii: "r"): text.append(0x0D)
      case UInt8(ascii: "a"): text.append(0x07)
      case UInt8(ascii: "b"): text.append(0x08)
      case UInt8(ascii: "f"): text.append(0x0C)
      case UInt8(ascii: "v"): text.append(0x0B)
      case UInt8(ascii: "U"), UInt8(ascii: "u"):
        var scalar: UInt32 = 0
        var digits = 0
        while digits < 4, index < bytes.count, let digit = Self.hexValue(bytes[index]) {
          scalar = scalar << 4 | UInt32(digit)
          digits += 1
          index += 1
        }
        let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
        text.append(contentsOf: Array(String(Character(character)).utf8))
      case UInt8(ascii: "0")...UInt8(ascii: "7"):
        var octal = UInt32(escaped - UInt8(ascii: "0"))
        var digits = 1
        while digits < 3, index < bytes.count,
          (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[index])
        {
          octal = octal << 3 | UInt32(bytes[index] - UInt8(ascii: "0"))
          digits += 1
          index += 1
        }
        text.append(UInt8(truncatingIfNeeded: octal))
      default: text.append(escaped)
      }
    }
    throw error("a quoted string is not closed", at: start)
  }

  private mutating func expect(_ byte: UInt8, _ what: String) throws(OpenStepSyntaxError) {
    guard index < bytes.count, bytes[index] == byte else { throw error("\(what) expected") }
    index += 1
  }

  private mutating func skipSpaceAndComments() throws(OpenStepSyntaxError) {
    while index < bytes.count {
      let byte = bytes[index]
      if Self.isSpace(byte) {
        index += 1
      } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count,
        bytes[index + 1] == UInt8(ascii: "*")
      {
        let start = index
        index += 2
        while index + 1 < bytes.count,
          !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/"))
        {
          index += 1
        }
        guard index + 1 < bytes.count else {
          throw error("a comment is not closed with '*/'", at: start)
        }
        index += 2
      } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count,
        bytes[index + 1] == UInt8(ascii: "/")
      {
        while index < bytes.count, bytes[index] != 0x0A { index += 1 }
      } else {
        return
      }
    }
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C || byte == 0x0B
  }

  private static func isBare(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "+"), UInt8(ascii: "/"),
      UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"):
      return true
    default:
      return false
    }
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }

  /// A byte as an error message shows it: itself when printable ASCII, else its hex value.
  private static func describe(_ byte: UInt8) -> String {
    (0x21..<0x7F).contains(byte)
      ? String(UnicodeScalar(byte)) : "0x" + String(byte, radix: 16, uppercase: true)
  }

  /// A key as an error message quotes it: at most 40 characters.
  private static func shortened(_ text: String) -> String {
    text.count > 40 ? String(text.prefix(40)) + "..." : text
  }
}
