import ArchiveInspection
import Foundation
import StateRestoration
import TestSupport
import Testing

@Suite struct DumpTests {
  // MARK: Golden files

  @Test func talkDemoText() throws {
    assertSnapshot(ArchiveDump.text(try DemoArchives.talkDemo()))
  }

  @Test func talkDemoJSON() throws {
    assertSnapshot(ArchiveDump.json(try DemoArchives.talkDemo()))
  }

  @Test func signInText() throws {
    assertSnapshot(ArchiveDump.text(try DemoArchives.signIn()))
  }

  @Test func signInJSON() throws {
    assertSnapshot(ArchiveDump.json(try DemoArchives.signIn()))
  }

  @Test func countriesText() throws {
    assertSnapshot(ArchiveDump.text(try DemoArchives.countries()))
  }

  @Test func countriesJSON() throws {
    assertSnapshot(ArchiveDump.json(try DemoArchives.countries()))
  }

  /// An archive the Restorer app wrote (a country's detail pushed in the Countries tab), kept
  /// in the fuzzer's seed corpus.
  private func restorerArchive() throws -> RestorationArchive {
    let file = BuiltExecutable.packageRoot
      .appendingPathComponent("Fuzz/Corpus/archive-reader/restorer-country-detail.data")
    return try RestorationArchive(decoding: [UInt8](try Data(contentsOf: file)))
  }

  @Test func restorerCountryDetailText() throws {
    let text = ArchiveDump.text(try restorerArchive())
    #expect(text.contains("[View Controller] TabBarControllerID (Class: "))
    assertSnapshot(text)
  }

  @Test func restorerCountryDetailJSON() throws {
    assertSnapshot(ArchiveDump.json(try restorerArchive()))
  }

  // MARK: Layout

  @Test func sectionsAreShapedLikeRestorationArchiveToolsOutput() throws {
    let lines = ArchiveDump.text(try DemoArchives.talkDemo())
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.first == "Restoration class map is {")
    #expect(
      lines[1]
        == "    \"TabController/:[1]:/NavigationController/:[1]:/CityViewController\" = CityViewController;"
    )
    let headers = lines.indices.filter { lines[$0].hasPrefix("[") || lines[$0] == "Top Level" }
    #expect(headers.count == 6)
    for header in headers {
      // A dashed underline exactly as wide as the header, then a blank line.
      #expect(lines[header + 1] == String(repeating: "-", count: lines[header].count))
      #expect(lines[header + 2].isEmpty)
      // Entries indented 16 spaces, dot leaders ending in one column, at least three dots.
      let entries = lines[(header + 3)...].drop { !$0.contains("...") }.prefix { !$0.isEmpty }
        .filter { !$0.hasPrefix(String(repeating: " ", count: 17)) }
      #expect(!entries.isEmpty)
      var columns = Set<Int>()
      var shortestLeader = Int.max
      for entry in entries {
        #expect(entry.hasPrefix(String(repeating: " ", count: 16)))
        let text = entry.dropFirst(16)
        let key = text.prefix { $0 != "." }
        let leader = text.dropFirst(key.count).prefix { $0 == "." }
        columns.insert(16 + key.count + leader.count)
        shortestLeader = min(shortestLeader, leader.count)
      }
      #expect(columns.count == 1, "entries under \(lines[header]) do not share a column")
      #expect(shortestLeader == 3)
    }
    #expect(
      lines.contains(
        "[View Controller] TabController/:[0]:/FirstViewController (Class: FirstViewController)")
    )
    #expect(lines.contains("                encodingKeySliderValue............0.8926057"))
    #expect(
      lines.contains(
        "                kTabBarSelectedViewControllerKey...Object Identifier Proxy: TabController/:[1]:/NavigationController"
      )
    )
    #expect(lines.contains("                kViewControllerViewWasLoadedKey....Yes"))
    #expect(
      lines.contains(
        "                UIApplicationStateRestorationTimestamp............2014-07-06 16:05:18 +0000"
      )
    )
    // Arrays as NSArray describes them, continuation lines under the entry.
    let children = try #require(lines.firstIndex { $0.contains("kUIViewControllerChildrenKey") })
    #expect(lines[children].hasSuffix("kUIViewControllerChildrenKey......("))
    #expect(
      lines[children + 1]
        == "                        \"TabController/:[1]:/NavigationController/:[0]:/SecondViewController\","
    )
    #expect(lines[children + 3] == "                    )")
    // Two blank lines between sections, as in the transcription.
    for header in headers.dropFirst() where lines[header] != "Top Level" {
      #expect(lines[header - 1].isEmpty && lines[header - 2].isEmpty && !lines[header - 3].isEmpty)
    }
  }

  @Test func objectsAreInArchiveOrderAndKeysSortedCaseInsensitively() throws {
    let archive = Crafting.archive([
      Crafting.record(
        "B", state: [("zeta", .integer(1)), ("Alpha", .integer(2)), ("beta", .integer(3))]),
      Crafting.record("A"),
    ])
    let text = ArchiveDump.text(archive)
    let b = try #require(text.range(of: "] B (Class"))
    let a = try #require(text.range(of: "] A (Class"))
    #expect(b.lowerBound < a.lowerBound)
    let alpha = try #require(text.range(of: "Alpha.."))
    let beta = try #require(text.range(of: "beta.."))
    let zeta = try #require(text.range(of: "zeta.."))
    #expect(alpha.lowerBound < beta.lowerBound && beta.lowerBound < zeta.lowerBound)
    #expect(text.contains("                (no keys)"))
    // The app's own top-level keys come after the engine's, in the Top Level section.
    let withAppKeys = Crafting.archive([], extraTopLevel: [("AppKey", .string("x"))])
    let dump = ArchiveDump.text(withAppKeys)
    let idiom = try #require(dump.range(of: "UIApplicationStateRestorationUserInterfaceIdiom"))
    let appKey = try #require(dump.range(of: "AppKey."))
    #expect(idiom.lowerBound < appKey.lowerBound)
  }

  @Test func viewsObjectsRestorationClassesAndStoryboardsAreShown() throws {
    let text = ArchiveDump.text(try DemoArchives.signIn())
    #expect(text.contains("[View] SignIn/FormScrollView (Class: DemoView)"))
    #expect(text.contains("[Object] SignIn/Draft (Class: DemoModel)"))
    #expect(text.contains("                Storyboard: Main, scene SignInScene\n"))
    let talk = ArchiveDump.text(try DemoArchives.talkDemo())
    #expect(talk.contains("                Restoration class: CityViewController\n"))
    #expect(talk.components(separatedBy: "Restoration class: ").count == 2)
  }

  // MARK: Sensitive keys

  @Test func sensitiveKeysAreListedAsWithheldAndTheirValuesNeverPrinted() throws {
    let signIn = try DemoArchives.signIn()
    let text = ArchiveDump.text(signIn)
    let password = try #require(text.split(separator: "\n").first { $0.contains("password") })
    #expect(password.hasPrefix("                password..."))
    #expect(password.hasSuffix(".(sensitive, not saved)"))
    #expect(!text.contains("hunter2"))
    let json = ArchiveDump.json(signIn)
    #expect(json.contains("\"sensitiveKeys\": [\n        \"password\"\n      ]"))
    #expect(!json.contains("hunter2"))

    // A hand-made archive that stores a value under a sensitive key still does not show it.
    let leaky = Crafting.archive([
      Crafting.record(
        "Form", state: [("password", .string("hunter2"))], sensitiveKeys: ["password"])
    ])
    let leakyText = ArchiveDump.text(try RestorationArchive(decoding: try leaky.encoded()))
    #expect(leakyText.contains("\n                password...(sensitive, not saved)\n"))
    #expect(!leakyText.contains("hunter2"))
    let leakyJSON = ArchiveDump.json(try RestorationArchive(decoding: try leaky.encoded()))
    #expect(leakyJSON.contains("\"sensitiveKeys\": [\n        \"password\"\n      ]"))
    #expect(!leakyJSON.contains("hunter2"))
  }

  // MARK: Values

  @Test(arguments: [
    (StateValue.bool(true), "Yes"),
    (.bool(false), "No"),
    (.integer(-7), "-7"),
    (.unsignedInteger(.max), "18446744073709551615"),
    (.real(Double(Float(0.8926057))), "0.8926057"),
    (.real(0.1), "0.1"),
    (.real(2), "2.0"),
    (.real(-.infinity), "-inf"),
    (.string("plain words"), "plain words"),
    (.string(""), "\"\""),
    (.string("two\nlines"), "\"two\\nlines\""),
    (.data(Data([0x0A, 0x1B, 0x2C, 0x3D, 0x4E])), "<0a1b2c3d 4e>"),
    (.data(Data()), "<>"),
    (.date(Date(timeIntervalSince1970: 1_404_662_718)), "2014-07-06 16:05:18 +0000"),
    (.date(Date(timeIntervalSince1970: -1)), "1969-12-31 23:59:59 +0000"),
    (.date(Date(timeIntervalSinceReferenceDate: 0)), "2001-01-01 00:00:00 +0000"),
    (.date(Date(timeIntervalSince1970: 951_782_400)), "2000-02-29 00:00:00 +0000"),
    (.date(Date(timeIntervalSince1970: 1e300)), "<date 1e+300 seconds from 1970>"),
    (.reference("Tab/:[0]:/First"), "Object Identifier Proxy: Tab/:[0]:/First"),
    (.array([]), "(\n    )"),
    (.dictionary([:]), "{\n    }"),
  ])
  func valuesPrintAsRestorationArchiveToolPrintsThem(value: StateValue, expected: String) throws {
    let archive = Crafting.archive([Crafting.record("A", state: [("key", value)])])
    let text = ArchiveDump.text(archive)
    let expectedEntry =
      "                key..."
      + expected.replacingOccurrences(
        of: "\n", with: "\n" + String(repeating: " ", count: 16))
    #expect(text.hasSuffix(expectedEntry + "\n"), "\(text)")
  }

  @Test func containersUseNSArrayAndNSDictionaryDescriptions() throws {
    let value = StateValue.array([
      .string("Bare1"),
      .string("needs quotes"),
      .string("_TtC4Demo"),
      .string("é\"\\"),
      .integer(3),
      .integer(-3),
      .real(0.5),
      .bool(true),
      .data(Data([1, 2])),
      .date(Date(timeIntervalSince1970: 0)),
      .reference("Tab/:[1]:/Nav"),
      .dictionary(["b": .integer(2), "a key": .array([.string("x")])]),
    ])
    let archive = Crafting.archive([Crafting.record("A", state: [("list", value)])])
    let text = ArchiveDump.text(archive)
    let entry = try #require(text.range(of: "                list..."))
    let lines = text[entry.lowerBound...].split(separator: "\n").map(String.init)
    #expect(
      lines == [
        "                list...(",
        "                        Bare1,",
        "                        \"needs quotes\",",
        "                        \"_TtC4Demo\",",
        "                        \"\\U00e9\\\"\\\\\",",
        "                        3,",
        "                        \"-3\",",
        "                        \"0.5\",",
        "                        Yes,",
        "                        <0102>,",
        "                        \"1970-01-01 00:00:00 +0000\",",
        "                        \"Tab/:[1]:/Nav\",",
        "                        {",
        "                            \"a key\" = (",
        "                                x",
        "                            );",
        "                            b = 2;",
        "                        }",
        "                    )",
      ]
    )
  }

  @Test func keysAndPathsThatAreNotPlainTextAreQuoted() {
    let archive = Crafting.archive([
      Crafting.record("Tab\tBar", state: [("two\nlines", .integer(1)), (" padded", .integer(2))])
    ])
    let text = ArchiveDump.text(archive)
    #expect(text.contains("[View Controller] \"Tab\\tBar\" (Class: DemoController)\n"))
    #expect(text.contains("                \" padded\"......2\n"))
    #expect(text.contains("                \"two\\nlines\"...1\n"))
  }

  @Test func jsonKeepsValuesJSONCannotHoldDirectly() throws {
    let archive = Crafting.archive([
      Crafting.record(
        "A",
        state: [
          ("far", .date(Date(timeIntervalSince1970: 1e300))),
          ("nan", .real(.nan)),
          ("nested", .dictionary(["$date": .dictionary(["$$x": .integer(1)])])),
          ("text", .string("tab\tquote\"\u{1}")),
        ])
    ])
    let json = ArchiveDump.json(archive)
    #expect(json.contains(#""far": {\#n          "$date": 1e+300\#n        }"#))
    #expect(json.contains(#""$real": "nan""#))
    #expect(json.contains(#""$$date": {\#n            "$$$x": 1\#n          }"#))
    #expect(json.contains(#""text": "tab\tquote\"\u0001""#))
    #expect(try JSONSerialization.jsonObject(with: Data(json.utf8)) is NSDictionary)
  }

  @Test func longDataIsAbbreviatedWithItsLength() throws {
    let bytes = Data((0..<100).map { UInt8($0) })
    let archive = Crafting.archive([Crafting.record("A", state: [("blob", .data(bytes))])])
    #expect(
      ArchiveDump.text(archive).contains(
        "blob...<00010203 04050607 08090a0b 0c0d0e0f 10111213 14151617 18191a1b 1c1d1e1f ... 5c5d5e5f 60616263> (100 bytes)"
      )
    )
  }

  /// The version a class declared for what it encodes is shown under the object's header in
  /// the text, when it is not the default, and always in the JSON.
  @Test func eachObjectsStateVersionIsShown() throws {
    var versioned = Crafting.record("A/B", state: [("name", .string("Lima"))])
    versioned.stateVersion = 2
    let bytes = try Crafting.archive([Crafting.record("A"), versioned]).encoded()
    let archive = try RestorationArchive(decoding: bytes)
    let text = ArchiveDump.text(archive)
    #expect(text.contains("                State version: 2\n"), "\(text)")
    #expect(text.components(separatedBy: "State version:").count == 2)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(ArchiveDump.json(archive).utf8))
        as? [String: Any])
    let objects = try #require(json["objects"] as? [[String: Any]])
    #expect(objects.map { $0["stateVersion"] as? Int } == [0, 2])
  }

  // MARK: JSON

  @Test func jsonIsValidAndTagsReferencesDataDatesAndSpecialReals() throws {
    let json = ArchiveDump.json(try DemoArchives.signIn())
    let root = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(root["formatVersion"] as? String == "3.1")
    let top = try #require(root["topLevel"] as? [String: Any])
    #expect((top["currentForm"] as? [String: String]) == ["$ref": "SignIn"])
    #expect((top["shortData"] as? [String: String]) == ["$data": "ChssPU4="])
    #expect((top["lastSync"] as? [String: String]) == ["$date": "2014-07-06T16:05:18.25Z"])
    #expect((top["limit"] as? [String: String]) == ["$real": "inf"])
    #expect((top["huge"] as? NSNumber)?.uint64Value == UInt64.max)
    #expect((top["smallest"] as? NSNumber)?.int64Value == Int64.min)
    let settings = try #require(top["settings"] as? [String: Any])
    // An archived dictionary's own "$ref" key is escaped, so it is never taken for a reference.
    #expect(settings["$$ref"] as? String == "not a reference")
    #expect(settings["$ref"] == nil)
    let objects = try #require(root["objects"] as? [[String: Any]])
    // Views in the tree come first; a referenced object joins when the reference is encoded.
    #expect(
      objects.map { $0["path"] as? String } == ["SignIn", "SignIn/FormScrollView", "SignIn/Draft"])
    let storyboard = try #require(objects[0]["storyboard"] as? [String: String])
    #expect(storyboard == ["name": "Main", "identifier": "SignInScene"])
    #expect(objects[2]["restorationClass"] is NSNull)
    // Stable: the same archive gives the same bytes.
    #expect(ArchiveDump.json(try DemoArchives.signIn()) == json)
  }
}
