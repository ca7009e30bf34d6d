/// One command of a run: a tap or a keystroke on the screen on top, or a move of the app
/// between the foreground and the background.
public enum NotesCommand: Hashable, Sendable, CustomStringConvertible {
  /// Opens the note on a row of the list (counted from 1, as shown).
  case open(row: Int)
  /// Scrolls the list so that a row (counted from 1) is at the top.
  case scroll(row: Int)
  /// Opens the editor on the note shown.
  case edit
  /// Types text at the editor's caret.
  case type(String)
  /// Moves the editor's caret left by some characters.
  case left(Int)
  /// Saves the editor's text into the notes file and goes back to the note.
  case save
  /// Goes back one screen; the editor's unsaved text is dropped.
  case back
  /// Moves the app to the background, which preserves its state.
  case background
  /// Brings the app back to the foreground.
  case foreground
  /// Does nothing for a while, as a user away from the device.
  case wait(seconds: Double)

  /// The command as typed.
  public var description: String {
    switch self {
    case .open(let row): "open \(row)"
    case .scroll(let row): "scroll \(row)"
    case .edit: "edit"
    case .type(let text): "type \(String(reflecting: text))"
    case .left(let count): "left \(count)"
    case .save: "save"
    case .back: "back"
    case .background: "background"
    case .foreground: "foreground"
    case .wait(let seconds): "wait \(seconds)"
    }
  }
}

/// The commands of one run, read from the command line's words.
public struct NotesScript: Hashable, Sendable {
  /// The commands, in order, without the final `home`.
  public var commands: [NotesCommand]
  /// Whether the run ends with `home`: preserve, then exit as iOS kills a suspended app.
  public var pressesHome: Bool

  /// The longest `wait`, in seconds.
  public static let maximumWait = 3600.0

  /// What each command does, for `--help`, indented by two spaces.
  public static let help = """
      open N        On the list: open the note on row N.
      scroll N      On the list: scroll so that row N is at the top.
      edit          On a note: open the editor.
      type TEXT     In the editor: type TEXT at the caret.
      left N        In the editor: move the caret N characters left.
      save          In the editor: save the text, back to the note.
      back          Go back one screen (the editor drops unsaved text).
      background    Move the app to the background: its state is preserved.
      foreground    Bring the app back to the foreground.
      wait SECONDS  Do nothing for a while (the system may kill the app).
      home          Last: the Home button. The app moves to the
                    background (its state is preserved) and the process
                    exits, as iOS kills a suspended app.
    """

  /// Reads commands from words, such as `open 2 edit type "Buy milk" home`.
  ///
  /// - Parameter words: The command line's words after the options.
  /// - Throws: ``NotesCommandError`` naming the first word that is not a command, a missing or
  ///   bad argument, or a `home` that is not last.
  public init(parsing words: [String]) throws(NotesCommandError) {
    commands = []
    pressesHome = false
    var remaining = words[...]
    while let word = remaining.popFirst() {
      if pressesHome {
        throw NotesCommandError("'home' ends the run, so it comes last; '\(word)' follows it")
      }
      switch word {
      case "open": commands.append(.open(row: try Self.row(after: word, in: &remaining)))
      case "scroll": commands.append(.scroll(row: try Self.row(after: word, in: &remaining)))
      case "edit": commands.append(.edit)
      case "type":
        guard let text = remaining.popFirst() else {
          throw NotesCommandError("'type' needs the text to type, such as: type \"Buy milk\"")
        }
        commands.append(.type(text))
      case "left": commands.append(.left(try Self.row(after: word, in: &remaining)))
      case "save": commands.append(.save)
      case "back": commands.append(.back)
      case "background": commands.append(.background)
      case "foreground": commands.append(.foreground)
      case "wait":
        guard let text = remaining.popFirst(), let seconds = Double(text), seconds >= 0,
          seconds <= Self.maximumWait
        else {
          throw NotesCommandError(
            "'wait' needs a number of seconds from 0 to \(Int(Self.maximumWait)), such as: wait 2")
        }
        commands.append(.wait(seconds: seconds))
      case "home": pressesHome = true
      default:
        throw NotesCommandError(
          "'\(word)' is not a command; the commands are open, scroll, edit, type, left, save, back, background, foreground, wait and home"
        )
      }
    }
  }

  /// The positive whole number after a command's name.
  private static func row(
    after command: String, in words: inout ArraySlice<String>
  ) throws(NotesCommandError) -> Int {
    guard let text = words.popFirst(), let number = Int(text), number > 0 else {
      throw NotesCommandError("'\(command)' needs a whole number from 1, such as: \(command) 2")
    }
    return number
  }
}

/// A command that cannot be read, or that does not fit the screen on top.
public struct NotesCommandError: Error, CustomStringConvertible {
  /// What is wrong, in one line.
  public var description: String

  /// Creates an error.
  ///
  /// - Parameter description: What is wrong, in one line.
  public init(_ description: String) {
    self.description = description
  }
}
