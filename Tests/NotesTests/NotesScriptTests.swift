import NotesCore
import Testing

@Suite struct NotesScriptTests {
  @Test func readsTheReadmeCommands() throws {
    let script = try NotesScript(parsing: ["open", "2", "edit", "type", "Buy milk", "home"])
    #expect(script.commands == [.open(row: 2), .edit, .type("Buy milk")])
    #expect(script.pressesHome)
  }

  @Test func readsEveryCommand() throws {
    let words = [
      "scroll", "5", "open", "7", "edit", "type", "", "left", "3", "save", "back", "background",
      "wait", "0.5", "foreground",
    ]
    let script = try NotesScript(parsing: words)
    #expect(
      script.commands == [
        .scroll(row: 5), .open(row: 7), .edit, .type(""), .left(3), .save, .back, .background,
        .wait(seconds: 0.5), .foreground,
      ])
    #expect(!script.pressesHome)
    #expect(try NotesScript(parsing: []).commands.isEmpty)
  }

  @Test(arguments: [
    (["fly"], "'fly' is not a command; the commands are open, scroll"),
    (["open"], "'open' needs a whole number from 1, such as: open 2"),
    (["open", "two"], "'open' needs a whole number from 1"),
    (["scroll", "0"], "'scroll' needs a whole number from 1"),
    (["left", "-1"], "'left' needs a whole number from 1"),
    (["type"], "'type' needs the text to type"),
    (["wait", "forever"], "'wait' needs a number of seconds from 0 to 3600"),
    (["wait", "nan"], "'wait' needs a number of seconds"),
    (["home", "open", "1"], "'home' ends the run, so it comes last; 'open' follows it"),
  ])
  func badWordsAreOneClearLine(words: [String], message: String) {
    #expect {
      try NotesScript(parsing: words)
    } throws: { error in
      let description = (error as? NotesCommandError)?.description ?? ""
      return description.hasPrefix(message) && !description.contains("\n")
    }
  }
}
