import ArgumentParser
import Foundation
import NotesCore

/// The command line: where the state lives, and the commands to run.
struct NotesOptions: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "notes",
    abstract: "A notes app whose screens survive process kills, as an iOS app's do.",
    usage: "notes [--state-dir <folder>] [<command> ...]",
    discussion: """
      A list of notes, a note's screen, and an editor. Each run launches the
      app, which restores the screen the last run preserved, runs the
      commands, and prints the screen. The commands:

      \(NotesScript.help)

      Example:
        notes open 2 edit type "Buy milk" home   # the editor, half-typed
        notes                                    # the same editor again

      The notes live in <folder>/Notes/notes.json; the restoration archive
      holds only UI state, in <folder>/Saved Application State/
      com.example.Notes.savedState/. A command that does not fit the screen
      stops the run with status 1, and nothing is preserved.
      """
  )

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Where the app keeps its notes and its saved state.",
      discussion:
        "Default: $XDG_STATE_HOME/swift-state-restoration, or ~/.local/state/swift-state-restoration.",
      valueName: "folder"
    )
  )
  var stateDir: String?

  @Argument(help: ArgumentHelp("The commands to run, in order.", valueName: "command"))
  var commands: [String] = []

  /// Checks the commands before the app launches: a typo must not cost the saved state, which
  /// a launch consumes.
  func validate() throws {
    do {
      _ = try NotesScript(parsing: commands)
    } catch {
      throw ValidationError(error.description)
    }
    if stateDir?.isEmpty == true { throw ValidationError("--state-dir needs a folder.") }
  }

  /// The folder for the notes and the saved state.
  var stateDirectory: String {
    if let stateDir { return stateDir }
    let environment = ProcessInfo.processInfo.environment
    if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
      return "\(xdg)/swift-state-restoration"
    }
    // $HOME first, as shells and the XDG specification do; NSHomeDirectory() reads the password
    // database on Linux, which ignores a HOME set for a test or a sandbox.
    let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
    return "\(home)/.local/state/swift-state-restoration"
  }
}
