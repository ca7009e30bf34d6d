/// A JSON value whose objects keep the order they were built in, so output is stable.
///
/// Foundation's `JSONEncoder` sorts keys but cannot put `path` before `state`, and it is not in
/// every FoundationEssentials; this writer is the few lines the tool needs.
indirect enum JSON {
  case null
  case bool(Bool)
  /// A number, already in JSON syntax.
  case number(String)
  case string(String)
  case array([JSON])
  case object([(String, JSON)])

  /// The value, pretty-printed with two-space indentation, without a final newline.
  func rendered(indent: Int = 0) -> String {
    let inner = String(repeating: "  ", count: indent + 1)
    let outer = String(repeating: "  ", count: indent)
    switch self {
    case .null: return "null"
    case .bool(let flag): return flag ? "true" : "false"
    case .number(let text): return text
    case .string(let text): return Self.quoted(text)
    case .array(let elements):
      if elements.isEmpty { return "[]" }
      let lines = elements.map { inner + $0.rendered(indent: indent + 1) }
      return "[\n" + lines.joined(separator: ",\n") + "\n" + outer + "]"
    case .object(let members):
      if members.isEmpty { return "{}" }
      let lines = members.map { key, value in
        inner + Self.quoted(key) + ": " + value.rendered(indent: indent + 1)
      }
      return "{\n" + lines.joined(separator: ",\n") + "\n" + outer + "}"
    }
  }

  /// A JSON string literal; non-ASCII characters are kept as UTF-8.
  static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        result += "\\u" + ValueFormatting.hex(UInt64(scalar.value), digits: 4)
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
