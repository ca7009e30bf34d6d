// Notes: a list of notes, a note's screen and an editor, whose screens and half-typed text
// survive process kills as an iOS app's do. `swift run notes --help` lists the commands.
import ArgumentParser
import Foundation
import NotesCore
import StateRestoration
import StateRestorationStorage
import StateRestorationUI

let options = NotesOptions.parseOrExit()

do {
  let script = try NotesScript(parsing: options.commands)

  // The notes are the app's data, in a file of their own. The restoration archive holds only
  // UI state: which screen is open, which note is selected, the text typed but not saved.
  let notes = try NoteStore(path: "\(options.stateDirectory)/Notes/notes.json")

  // The archive is kept in <state dir>/Saved Application State/com.example.Notes.savedState/.
  let store = try FileArchiveStore(
    stateRoot: options.stateDirectory, bundleIdentifier: "com.example.Notes")
  // The delegate opts in, registers the restoration classes of the screens created in code,
  // and builds the window as the app launches: a test's ApplicationHarness launches it so too.
  let delegate = NotesAppDelegate(notes: notes)
  let application = Application(
    delegate: delegate, applicationInfo: ApplicationInfo(bundleIdentifier: "com.example.Notes"),
    store: store)
  let report = application.launch()  // restores what the last process preserved

  let session = NotesSession(application: application, navigation: delegate.navigation)
  print(session.launchSummary(report))
  for command in script.commands {
    try session.perform(command)  // as a tap or a keystroke on the screen on top
  }
  print(session.screen)

  if script.pressesHome {
    // Home: the app moves to the background, which preserves its state, and the process ends
    // as iOS kills a suspended app. The next launch restores this screen.
    let preservation = application.enterBackground()
    application.terminate(.systemKillAfterBackground)
    print(try NotesSession.homeSummary(preservation, archivePath: store.path(of: .archive)))
  } else {
    print(session.exitSummary)
  }
} catch {
  FileHandle.standardError.write(Data("notes: \(error)\n".utf8))
  exit(1)
}
