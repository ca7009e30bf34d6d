/// A key press the Restorer app understands.
public enum Key: Sendable, Hashable {
  /// Arrow up.
  case up
  /// Arrow down.
  case down
  /// Arrow left.
  case left
  /// Arrow right.
  case right
  /// Page up.
  case pageUp
  /// Page down.
  case pageDown
  /// The keyboard's Home key (scroll to the top), not the device's Home button.
  case home
  /// The keyboard's End key.
  case end
  /// Return or Enter.
  case enter
  /// Escape.
  case escape
  /// Backspace or Delete.
  case backspace
  /// Tab.
  case tab
  /// Control-C.
  case interrupt
  /// A printable character.
  case character(Character)
}

/// Turns the bytes a terminal sends into keys: ANSI escape sequences for the arrows and editing
/// keys, control bytes, and UTF-8 characters.
///
/// Bytes of a sequence split across reads are kept until the rest arrives; a lone escape at the
/// end of the input is the Escape key.
public struct KeyDecoder: Sendable {
  private var pending: [UInt8] = []

  /// Creates a decoder.
  public init() {}

  /// Decodes bytes into keys.
  ///
  /// - Parameters:
  ///   - bytes: Bytes read from the terminal.
  ///   - isEndOfInput: Whether no more bytes follow right now (a lone escape is then a key).
  /// - Returns: The keys, in order.
  public mutating func decode(_ bytes: [UInt8], isEndOfInput: Bool = true) -> [Key] {
    pending += bytes
    var keys: [Key] = []
    var index = 0
    while index < pending.count {
      let byte = pending[index]
      switch byte {
      case 0x1B:
        guard index + 1 < pending.count else {
          if isEndOfInput {
            keys.append(.escape)
            index += 1
            continue
          }
          pending.removeFirst(index)
          return keys
        }
        if let (key, length) = Self.escapeSequence(pending, at: index) {
          if let key { keys.append(key) }
          index += length
        } else if Self.isIncompleteSequence(pending, at: index), !isEndOfInput {
          pending.removeFirst(index)
          return keys
        } else {
          keys.append(.escape)
          index += 1
        }
      case 0x0D, 0x0A:
        keys.append(.enter)
        index += 1
      case 0x7F, 0x08:
        keys.append(.backspace)
        index += 1
      case 0x09:
        keys.append(.tab)
        index += 1
      case 0x03:
        keys.append(.interrupt)
        index += 1
      case 0x20...0x7E:
        keys.append(.character(Character(UnicodeScalar(byte))))
        index += 1
      case 0xC0...0xF7:
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
        guard index + length <= pending.count else {
          if isEndOfInput {
            index = pending.count
          } else {
            pending.removeFirst(index)
            return keys
          }
          continue
        }
        let scalarBytes = pending[index..<(index + length)]
        let text = String(decoding: scalarBytes, as: UTF8.self)
        if let character = text.first, text.count == 1, character != "\u{FFFD}" {
          keys.append(.character(character))
        }
        index += length
      default:
        index += 1  // other control bytes and stray continuation bytes are ignored
      }
    }
    pending.removeAll()
    return keys
  }

  /// Recognises `ESC [ ...` and `ESC O ...` sequences; unknown complete ones are skipped.
  private static func escapeSequence(_ bytes: [UInt8], at start: Int) -> (Key?, Int)? {
    let introducer = bytes[start + 1]
    if introducer == UInt8(ascii: "O"), start + 2 < bytes.count {
      switch bytes[start + 2] {
      case UInt8(ascii: "A"): return (.up, 3)
      case UInt8(ascii: "B"): return (.down, 3)
      case UInt8(ascii: "C"): return (.right, 3)
      case UInt8(ascii: "D"): return (.left, 3)
      case UInt8(ascii: "H"): return (.home, 3)
      case UInt8(ascii: "F"): return (.end, 3)
      default: return (nil, 3)
      }
    }
    guard introducer == UInt8(ascii: "[") else { return nil }
    var end = start + 2
    while end < bytes.count, (0x30...0x3F).contains(bytes[end]) { end += 1 }
    guard end < bytes.count else { return nil }
    let parameters = String(decoding: bytes[(start + 2)..<end], as: UTF8.self)
    let length = end - start + 1
    switch bytes[end] {
    case UInt8(ascii: "A"): return (.up, length)
    case UInt8(ascii: "B"): return (.down, length)
    case UInt8(ascii: "C"): return (.right, length)
    case UInt8(ascii: "D"): return (.left, length)
    case UInt8(ascii: "H"): return (.home, length)
    case UInt8(ascii: "F"): return (.end, length)
    case UInt8(ascii: "~"):
      switch parameters {
      case "1", "7": return (.home, length)
      case "4", "8": return (.end, length)
      case "5": return (.pageUp, length)
      case "6": return (.pageDown, length)
      case "3": return (.backspace, length)
      default: return (nil, length)
      }
    default:
      return (nil, length)
    }
  }

  private static func isIncompleteSequence(_ bytes: [UInt8], at start: Int) -> Bool {
    let introducer = bytes[start + 1]
    if introducer == UInt8(ascii: "O") { return start + 2 >= bytes.count }
    guard introducer == UInt8(ascii: "[") else { return false }
    var end = start + 2
    while end < bytes.count, (0x30...0x3F).contains(bytes[end]) { end += 1 }
    return end >= bytes.count
  }
}

/// Keys written as words, for `--keys`: `down*50 enter h`.
///
/// Words: `up`, `down`, `left`, `right`, `pgup`, `pgdn`, `home`, `end`, `enter`, `esc`, `bs`,
/// `tab`, `space`, or a single character (`1`, `h`, `Q`, `+`). A word may end in `*N` to repeat
/// it N times.
public enum KeyScript {
  /// The words and what they mean, for help texts.
  public static let wordHelp =
    "up down left right pgup pgdn home end enter esc bs tab space, or one character (1 2 h Q w b f + -); add *N to repeat"

  /// Parses a script.
  ///
  /// - Parameter script: The words, separated by spaces or commas.
  /// - Returns: The keys.
  /// - Throws: ``KeyScriptError`` naming the first word that is not a key.
  public static func parse(_ script: String) throws(KeyScriptError) -> [Key] {
    var keys: [Key] = []
    for word in script.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\n" }) {
      var name = Substring(word)
      var count = 1
      if let star = word.lastIndex(of: "*"), star != word.startIndex {
        guard let repeatCount = Int(word[word.index(after: star)...]),
          (1...100_000).contains(repeatCount)
        else {
          throw KeyScriptError(word: String(word), reason: "the repeat count must be 1 to 100000")
        }
        count = repeatCount
        name = word[..<star]
      }
      guard let key = key(named: name) else {
        throw KeyScriptError(word: String(word), reason: "is not a key (\(wordHelp))")
      }
      keys += Array(repeating: key, count: count)
    }
    return keys
  }

  private static func key(named name: Substring) -> Key? {
    switch name.lowercased() {
    case "up": return .up
    case "down": return .down
    case "left": return .left
    case "right": return .right
    case "pgup", "pageup": return .pageUp
    case "pgdn", "pagedown": return .pageDown
    case "home": return .home
    case "end": return .end
    case "enter", "return": return .enter
    case "esc", "escape": return .escape
    case "bs", "backspace": return .backspace
    case "tab": return .tab
    case "space": return .character(" ")
    default: return name.count == 1 ? name.first.map(Key.character) : nil
    }
  }
}

/// A `--keys` word that is not a key.
public struct KeyScriptError: Error, CustomStringConvertible {
  /// The word.
  public var word: String
  /// What is wrong with it.
  public var reason: String
  /// `'word' reason`.
  public var description: String { "'\(word)' \(reason)" }
}
