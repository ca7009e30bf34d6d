import Foundation
import RestorerCore
import StateRestoration
import StateRestorationTesting
import StateRestorationUI
import TestSupport
import Testing

@Suite struct KeyTests {
  @Test func decoderReadsEscapeSequencesControlBytesAndUTF8() {
    var decoder = KeyDecoder()
    let bytes = Array("\u{1B}[A\u{1B}[B\u{1B}[5~\u{1B}[6~\u{1B}OH\u{1B}[F\r\u{7F}\tQé".utf8)
    #expect(
      decoder.decode(bytes) == [
        .up, .down, .pageUp, .pageDown, .home, .end, .enter, .backspace, .tab, .character("Q"),
        .character("é"),
      ]
    )
    #expect(decoder.decode([0x1B]) == [.escape])
    #expect(decoder.decode([0x03]) == [.interrupt])
  }

  @Test func sequencesSplitAcrossReadsAreJoined() {
    var decoder = KeyDecoder()
    #expect(decoder.decode([0x1B, UInt8(ascii: "[")], isEndOfInput: false) == [])
    #expect(decoder.decode([UInt8(ascii: "6")], isEndOfInput: false) == [])
    #expect(
      decoder.decode([UInt8(ascii: "~"), UInt8(ascii: "h")]) == [.pageDown, .character("h")])
    // Unknown sequences are skipped, not typed as characters.
    #expect(decoder.decode(Array("\u{1B}[99Zx".utf8)) == [.character("x")])
  }

  @Test func keyScriptsExpandRepeatsAndRejectUnknownWords() throws {
    #expect(
      try KeyScript.parse("down*3 enter, 2 h") == [
        .down, .down, .down, .enter, .character("2"), .character("h"),
      ])
    #expect(
      try KeyScript.parse("space esc bs pgdn") == [.character(" "), .escape, .backspace, .pageDown])
    #expect(try KeyScript.parse("") == [])
    let error = #expect(throws: KeyScriptError.self) { try KeyScript.parse("down jump") }
    #expect(error?.word == "jump")
    #expect(throws: KeyScriptError.self) { try KeyScript.parse("down*0") }
  }
}

@Suite struct SessionTests {
  private func makeHarness() throws -> ApplicationHarness {
    let countries = try CountryList.bundled().countries
    return ApplicationHarness(makeMainStoryboard: RestorerAppDelegate.makeStoryboard) {
      RestorerAppDelegate(countryList: CountryList(countries: countries))
    }
  }

  private func press(_ session: RestorerSession, _ script: String) throws {
    for key in try KeyScript.parse(script) { session.handle(key) }
  }

  @Test func drawsTheListAndMovesTheCursorWithTheScroll() throws {
    let harness = try makeHarness()
    harness.launch()
    let session = RestorerSession(application: harness.application, width: 60, height: 12)
    var frame = session.render()
    #expect(frame.lines.count == 12)
    #expect(frame.lines.allSatisfy { $0.count == 60 })
    #expect(frame.lines[0].contains("[1 Countries]"))
    #expect(frame.lines[3].hasPrefix(" >  Afghanistan"))
    #expect(frame.highlighted == [3])
    #expect(
      frame.lines[10]
        == "Started fresh: nothing was saved.".padding(toLength: 60, withPad: " ", startingAt: 0))

    try press(session, "down*10")  // 6 content lines: the list scrolls with the cursor
    frame = session.render()
    #expect(frame.lines[1].contains("rows 6-11 of 252"))
    #expect(frame.lines[8].hasPrefix(" >  "))
    try press(session, "enter")
    frame = session.render()
    #expect(frame.lines[1].hasPrefix(" < Countries   Capital"))
    #expect(frame.text.contains("Capital:  Buenos Aires"))
    try press(session, "esc")
    #expect(session.render().lines[8].hasPrefix(" >* Argentina"))
  }

  @Test func settingsSwitchAndPushMeAndTheWebView() throws {
    let harness = try makeHarness()
    harness.launch()
    let delegate = try #require(harness.application.delegate as? RestorerAppDelegate)
    let session = RestorerSession(application: harness.application, width: 80, height: 24)
    try press(session, "2 enter")
    #expect(delegate.userSettings.isAmazing == false)
    #expect(session.render().text.contains("Amazing            [OFF]"))
    try press(session, "down enter")
    #expect(session.visibleController is WebViewController)
    try press(session, "tab enter down*4 + +")
    let frame = session.render()
    #expect(frame.lines[3].hasPrefix(" Restoration Classes   (b: back)"))
    #expect(frame.lines[1].contains("zoom 156%"))
    // Row 4 was the end of paragraph 1; zooming keeps that paragraph at the top.
    #expect(frame.lines[5].contains("Paragraph 1"))
    try press(session, "b")
    #expect(session.render().lines[3].hasPrefix(" Restorer   (f: forward)"))
  }

  @Test func lifecycleKeysAreReportedToTheHost() throws {
    let harness = try makeHarness()
    harness.launch()
    let session = RestorerSession(application: harness.application)
    #expect(session.handle(.character("h")) == .home)
    #expect(session.handle(.interrupt) == .home)
    #expect(session.handle(.character("Q")) == .forceQuit)
    #expect(session.handle(.character("x")) == .none)
  }

  @Test func tooSmallTerminalSaysSo() throws {
    let harness = try makeHarness()
    harness.launch()
    let session = RestorerSession(application: harness.application, width: 30, height: 5)
    #expect(session.render().lines[0].hasPrefix("Terminal too small: need 40x10"))
  }

  @Test func tooSmallMessageFitsTwentyByFiveAndKeysWaitForRoom() throws {
    let harness = try makeHarness()
    harness.launch()
    let session = RestorerSession(application: harness.application, width: 20, height: 5)
    let frame = session.render()
    #expect(frame.lines.count == 5)
    #expect(frame.lines.allSatisfy { $0.count == 20 })
    #expect(
      frame.text == "Terminal too small:\nneed 40x10 (h Home,\nQ force quit)\n\n")
    // Keys that would change the hidden screen are ignored; the lifecycle keys still work.
    try press(session, "down enter 2 q")
    #expect(session.status == "Started fresh: nothing was saved.")
    session.resize(width: 80, height: 24)
    #expect(session.visibleController is CountriesViewController)
    #expect(session.render().lines[3].hasPrefix(" >  Afghanistan"))
    session.resize(width: 20, height: 5)
    #expect(session.handle(.character("h")) == .home)
    #expect(session.handle(.interrupt) == .home)
    #expect(session.handle(.character("Q")) == .forceQuit)
  }

  @Test func listPagesAndJumpsToItsEnds() throws {
    let harness = try makeHarness()
    harness.launch()
    let names = try bundledCountryNames()
    // 6 content lines.
    let session = RestorerSession(application: harness.application, width: 60, height: 12)
    try press(session, "pgdn")
    var frame = session.render()
    #expect(frame.lines[1].contains("rows 2-7 of \(names.count)"))
    #expect(frame.lines[8] == " >  \(names[6])".padding(toLength: 60, withPad: " ", startingAt: 0))
    try press(session, "pgdn")
    #expect(session.render().lines[1].contains("rows 8-13 of"))
    try press(session, "end")
    frame = session.render()
    #expect(frame.lines[1].contains("rows \(names.count - 5)-\(names.count) of \(names.count)"))
    #expect(frame.lines[8].hasPrefix(" >  \(names[names.count - 1])"))
    try press(session, "pgup")
    frame = session.render()
    #expect(frame.lines[3].hasPrefix(" >  \(names[names.count - 7])"))
    try press(session, "home")
    frame = session.render()
    #expect(frame.lines[1].contains("rows 1-6 of"))
    #expect(frame.lines[3].hasPrefix(" >  \(names[0])"))
    #expect(frame.highlighted == [3])
  }

  @Test func backspaceGoesBackFromTheDetailAndTheWebView() throws {
    let harness = try makeHarness()
    harness.launch()
    let session = RestorerSession(application: harness.application)
    try press(session, "down enter")
    #expect(session.visibleController is CountryViewController)
    try press(session, "bs")
    #expect(session.visibleController is CountriesViewController)
    #expect(session.status == "Back to the list.")
    try press(session, "2 down enter")
    #expect(session.visibleController is WebViewController)
    try press(session, "bs")
    #expect(session.visibleController is SettingsViewController)
    #expect(session.status == "Back to Settings.")
  }

  @Test func webViewScrollsByRowPageAndToItsEnds() throws {
    let harness = try makeHarness()
    harness.launch()
    // 6 content lines: the title, the links, and 4 rows of the page; at 100% its text wraps
    // at 48 columns, so each paragraph takes 2 rows.
    let session = RestorerSession(application: harness.application, width: 80, height: 12)
    try press(session, "2 down enter")
    #expect(session.render().lines[5].hasPrefix("   Welcome to Restorer"))
    try press(session, "down*2")
    #expect(session.render().lines[5].hasPrefix("   Paragraph 1:"))
    try press(session, "pgdn")
    #expect(session.render().lines[5].hasPrefix("   Paragraph 3:"))
    try press(session, "up")
    #expect(
      session.render().lines[5]
        == "   position and zoom.".padding(toLength: 80, withPad: " ", startingAt: 0))
    try press(session, "pgup")
    #expect(session.render().lines[5].hasPrefix("   Follow a link"))
    try press(session, "end")
    let end = session.render()
    #expect(end.lines[7].hasPrefix("   Paragraph 40:"))
    #expect(end.lines[8].hasPrefix("   position and zoom."))
    try press(session, "home")
    #expect(session.render().lines[5].hasPrefix("   Welcome to Restorer"))
  }

  @Test func helpLineShowsTheLifecycleKeysFirstAtFortyColumns() throws {
    let harness = try makeHarness()
    harness.launch()
    let session = RestorerSession(application: harness.application, width: 40, height: 10)
    func help() -> String { session.render().lines[9] }
    #expect(help().hasPrefix(" h Home  Q force quit  1/2 tabs"))  // the list
    try press(session, "enter")
    #expect(help().hasPrefix(" h Home  Q force quit  1/2 tabs"))  // the detail
    try press(session, "2")
    #expect(help().hasPrefix(" h Home  Q force quit  1/2 tabs"))  // settings
    try press(session, "down enter")
    #expect(help().hasPrefix(" h Home  Q force quit  1/2 tabs"))  // the web view
    session.resize(width: 80, height: 24)
    let wide = session.render().lines[23].trimmingCharacters(in: .whitespaces)
    #expect(wide.hasSuffix("+/- zoom  Esc back"))  // not cut at 80 columns, Esc explained
  }

  /// Every content row of the web page, from its top to its end, as drawn.
  private func allPageRows(_ session: RestorerSession) throws -> [String] {
    try press(session, "home")
    var rows: [String] = []
    var seen: Set<[String]> = []
    while true {
      let frame = session.render().text.split(separator: "\n", omittingEmptySubsequences: false)
      let content = frame[5..<(frame.count - 3)].map(String.init)
      guard seen.insert(content).inserted else { break }
      rows.append(contentsOf: content.prefix(1))
      try press(session, "down")
    }
    // The last screen, below its first row.
    let last = session.render().text.split(separator: "\n", omittingEmptySubsequences: false)
    rows.append(contentsOf: last[6..<(last.count - 3)].map(String.init))
    return rows
  }

  @Test func zoomWrapsTheTextNarrowerOrWiderAndCutsNothing() throws {
    let harness = try makeHarness()
    harness.launch()
    let session = RestorerSession(application: harness.application, width: 80, height: 24)
    try press(session, "2 down enter down*2")
    func firstRow() -> String { String(session.render().text.split(separator: "\n")[5]) }
    // At 100% the text is 48 columns wide, as on a phone.
    #expect(firstRow() == "   Paragraph 1: the restored page keeps its scroll")
    try press(session, "-")  // 80%: 60 columns
    #expect(firstRow() == "   Paragraph 1: the restored page keeps its scroll position and")
    try press(session, "-")  // 64%: the whole line
    #expect(firstRow() == "   Paragraph 1: the restored page keeps its scroll position and zoom.")
    try press(session, "- -")  // where the text fills the screen, zooming out stops and says so
    #expect(session.render().lines[1].contains("zoom 62%"))
    #expect(session.status.hasPrefix("Zoomed out as far as it goes"))
    try press(session, "+ + + + +")  // back on the steps of 25%: 80, 100, 125, 156, 195%
    #expect(session.render().lines[1].contains("zoom 195%"))
    #expect(firstRow() == "   Paragraph 1: the restored")  // 25 columns
    // At every zoom, scrolling reaches every word of the page, and no row is cut.
    let page = try #require(
      (session.visibleController as? WebViewController)?.webView.currentPage?.lines)
    let words = page.flatMap { $0.split(separator: " ") }
    for zoom in ["-", "- -", "- - - - -", "+ + +", "+ + + + + + + + +"] {
      let rows = try allPageRows(session)
      #expect(rows.flatMap { $0.split(separator: " ") } == words, "\(session.render().lines[1])")
      try press(session, zoom)
    }
  }

  @Test func leavingAndComingBackKeepsTheWebViewsRow() throws {
    let harness = try makeHarness()
    harness.launch()
    let session = RestorerSession(application: harness.application, width: 80, height: 24)
    try press(session, "2 down enter down*3")  // the second row of paragraph 1
    let row = session.render().lines[5]
    #expect(row.hasPrefix("   position and zoom."))
    try press(session, "1 2")
    #expect(session.render().lines[5] == row)
  }

  @Test func countryNamesHaveNoStraySpaces() throws {
    for name in try bundledCountryNames() {
      #expect(name == name.trimmingCharacters(in: .whitespacesAndNewlines), "\(name)")
    }
  }

  @Test func lowercaseQSaysWhichKeyQuits() throws {
    let harness = try makeHarness()
    harness.launch()
    let session = RestorerSession(application: harness.application)
    #expect(session.handle(.character("q")) == .none)
    #expect(session.status == "h = Home, Q = force quit.")
  }

  @Test func executablesAreFoundThroughPATH() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tool = folder.appendingPathComponent("some-tool")
    try Data("#!/bin/sh\n".utf8).write(to: tool)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool.path)
    #expect(executableInPath(named: "some-tool", path: "/nonexistent:\(folder.path)") == tool.path)
    #expect(executableInPath(named: "some-tool", path: "/nonexistent") == nil)
    // A folder of that name is not a program.
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("sub/some-tool"), withIntermediateDirectories: true)
    #expect(
      executableInPath(named: "some-tool", path: folder.appendingPathComponent("sub").path) == nil)
  }

  @Test func launchStatusNamesWhyTheAppStartedFresh() throws {
    let harness = try makeHarness()
    harness.launch()
    RestorerSession(application: harness.application).handle(.down)
    let restart = harness.forceQuitAndRelaunch()
    let session = RestorerSession(application: restart.application)
    #expect(session.status == "Fresh start: state discarded after a force quit.")
  }

  @Test func settingsFileKeepsTheSwitchOutsideTheArchive() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("Preferences/com.example.Restorer.plist").path
    let settings = FileUserSettings(path: path)
    #expect(settings.isAmazing)  // the seed's registered default
    settings.isAmazing = false
    #expect(FileUserSettings(path: path).isAmazing == false)
    // A damaged file gives the default instead of a crash.
    try Data("not a plist".utf8).write(to: URL(fileURLWithPath: path))
    #expect(FileUserSettings(path: path).isAmazing)
  }
}
