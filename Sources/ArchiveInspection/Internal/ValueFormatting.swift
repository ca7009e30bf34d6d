import StateRestoration

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// Values are printed as restorationArchiveTool prints them: a value on its own line as its
// description (strings bare, `Yes`/`No`, proxies as `Object Identifier Proxy: PATH`), and
// containers in the format of NSArray's and NSDictionary's `description`, whose elements are
// quoted unless they are plain alphanumerics.

/// Formats archived values for people.
enum ValueFormatting {
  /// The spaces for one level of container indentation, as NSArray's description uses.
  static let indentUnit = "    "

  /// A value shown after a key's dot leader; containers span several lines, the lines after the
  /// first indented for container level 1 (the caller adds the entry's own indentation).
  static func entry(_ value: StateValue) -> String {
    switch value {
    case .string(let string):
      return isPlainText(string) ? string : quoted(string)
    case .date(let date):
      return self.date(date)
    case .reference(let path):
      return "Object Identifier Proxy: \(path)"
    case .integer(let number):
      return String(number)
    case .unsignedInteger(let number):
      return String(number)
    case .real(let number):
      return real(number)
    case .array, .dictionary:
      return description(value, level: 1)
    case .bool, .data:
      return element(value, level: 1)
    }
  }

  /// A value as an element of a container at `level`.
  static func element(_ value: StateValue, level: Int) -> String {
    switch value {
    case .bool(let flag): return flag ? "Yes" : "No"
    case .integer(let number): return quotedIfNeeded(String(number))
    case .unsignedInteger(let number): return quotedIfNeeded(String(number))
    case .real(let number): return quotedIfNeeded(real(number))
    case .string(let string): return quotedIfNeeded(string)
    case .data(let data): return self.data(data)
    case .date(let date): return quoted(self.date(date))
    // Inside containers a proxy shows as its path, as restorationArchiveTool shows a
    // navigation controller's children.
    case .reference(let path): return quotedIfNeeded(path)
    case .array, .dictionary: return description(value, level: level)
    }
  }

  /// NSArray's and NSDictionary's description format at an indentation level: elements one
  /// level deeper, the closing bracket at this level; dictionary keys sorted.
  static func description(_ value: StateValue, level: Int) -> String {
    let inner = String(repeating: indentUnit, count: level + 1)
    let outer = String(repeating: indentUnit, count: level)
    switch value {
    case .array(let elements):
      let lines = elements.map { inner + element($0, level: level + 1) }
      return "(\n" + lines.joined(separator: ",\n") + (lines.isEmpty ? "" : "\n") + outer + ")"
    case .dictionary(let entries):
      let lines = entries.sorted { $0.key < $1.key }.map { key, value in
        inner + quotedIfNeeded(key) + " = " + element(value, level: level + 1) + ";"
      }
      return "{\n" + lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n") + outer + "}"
    default:
      return element(value, level: level)
    }
  }

  // MARK: Strings

  /// Whether NSString's description in a container would leave the string bare: it is not
  /// empty and holds only ASCII letters and digits.
  static func isBare(_ string: String) -> Bool {
    !string.isEmpty
      && string.utf8.allSatisfy { byte in
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
      }
  }

  /// Whether a string can be printed as is on a line of its own: not empty, no control
  /// characters, no leading or trailing space that a reader could not see.
  static func isPlainText(_ string: String) -> Bool {
    guard let first = string.unicodeScalars.first, let last = string.unicodeScalars.last else {
      return false
    }
    if first == " " || last == " " { return false }
    return !string.unicodeScalars.contains { $0.properties.generalCategory == .control }
  }

  /// The string quoted when it is not bare.
  static func quotedIfNeeded(_ string: String) -> String {
    isBare(string) ? string : quoted(string)
  }

  /// The string in double quotes with NSString's escapes: `\"`, `\\`, `\n`, `\t`, `\r`, and
  /// `\Uxxxx` for every other UTF-16 unit outside printable ASCII, so the output is plain ASCII.
  static func quoted(_ string: String) -> String {
    var result = "\""
    for unit in string.utf16 {
      switch unit {
      case 0x22: result += "\\\""
      case 0x5C: result += "\\\\"
      case 0x0A: result += "\\n"
      case 0x09: result += "\\t"
      case 0x0D: result += "\\r"
      case 0x20...0x7E: result.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
      default: result += "\\U" + hex(UInt64(unit), digits: 4)
      }
    }
    return result + "\""
  }

  /// A key or identifier path on a line: as is when it is plain text, quoted otherwise.
  static func name(_ string: String) -> String {
    isPlainText(string) ? string : quoted(string)
  }

  // MARK: Scalars

  /// A real in its shortest exact form; a value that is exactly a `Float` (as a slider's value
  /// is, widened when archived) is shown in `Float`'s shortest form, `0.8926057` rather than
  /// `0.8926057219505310`, which reads back as the same number.
  static func real(_ value: Double) -> String {
    if value.isNaN { return "nan" }
    if value.isInfinite { return value < 0 ? "-inf" : "inf" }
    let narrow = Float(value)
    return Double(narrow) == value ? narrow.description : value.description
  }

  /// Bytes as NSData describes them: lowercase hex in groups of four bytes; long data shows its
  /// first 32 and last 8 bytes and its length.
  static func data(_ data: Data) -> String {
    let bytes = [UInt8](data)
    func groups(_ slice: ArraySlice<UInt8>) -> String {
      var text = ""
      for (offset, byte) in slice.enumerated() {
        if offset > 0, offset % 4 == 0 { text += " " }
        text += hex(UInt64(byte), digits: 2)
      }
      return text
    }
    guard bytes.count > 64 else { return "<" + groups(bytes[...]) + ">" }
    return "<" + groups(bytes.prefix(32)) + " ... " + groups(bytes.suffix(8)) + "> ("
      + grouped(bytes.count) + " bytes)"
  }

  /// A date as NSDate describes it, in UTC to the second: `2014-07-06 16:05:18 +0000`.
  static func date(_ date: Date) -> String {
    guard let parts = CivilTime(date) else {
      return "<date \(date.timeIntervalSince1970) seconds from 1970>"
    }
    return "\(parts.dateText) \(parts.timeText) +0000"
  }

  /// A date in ISO 8601, UTC, with the fraction of a second when there is one:
  /// `2014-07-06T16:05:18Z`, `2014-07-06T16:05:18.25Z`; nil beyond the years 0000 to 9999.
  static func isoDate(_ date: Date) -> String? {
    guard let parts = CivilTime(date) else { return nil }
    return "\(parts.dateText)T\(parts.timeText)\(parts.fractionText)Z"
  }

  /// A count with thousands separators: `65,536`.
  static func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (offset, digit) in digits.enumerated() {
      if offset > 0, (digits.count - offset) % 3 == 0 { result += "," }
      result.append(digit)
    }
    return value < 0 ? "-" + result : result
  }

  /// A number in lowercase hexadecimal, zero-padded to `digits`.
  static func hex(_ value: UInt64, digits: Int) -> String {
    let text = String(value, radix: 16)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}

/// A date broken into its UTC calendar fields, without Foundation's calendars (which are not
/// part of FoundationEssentials).
private struct CivilTime {
  var year: Int
  var month: Int
  var day: Int
  var seconds: Int
  /// The fraction of the second, in microseconds.
  var microseconds: Int

  /// Nil for dates outside the years 0 to 9999, which four-digit years cannot show.
  init?(_ date: Date) {
    let interval = date.timeIntervalSince1970
    // Years 0 to 9999.
    guard interval.isFinite, interval >= -62_167_219_200, interval < 253_402_300_800 else {
      return nil
    }
    var whole = interval.rounded(.down)
    var micro = Int(((interval - whole) * 1_000_000).rounded())
    if micro >= 1_000_000 {
      whole += 1
      micro -= 1_000_000
    }
    let total = Int(whole)
    let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
    seconds = total - days * 86_400
    microseconds = micro
    // Howard Hinnant's days-to-civil algorithm.
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  }

  private static func padded(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }

  var dateText: String {
    "\(Self.padded(year, 4))-\(Self.padded(month, 2))-\(Self.padded(day, 2))"
  }

  var timeText: String {
    "\(Self.padded(seconds / 3_600, 2)):\(Self.padded(seconds / 60 % 60, 2)):\(Self.padded(seconds % 60, 2))"
  }

  var fractionText: String {
    guard microseconds > 0 else { return "" }
    var digits = Self.padded(microseconds, 6)
    while digits.hasSuffix("0") { digits.removeLast() }
    return "." + digits
  }
}
