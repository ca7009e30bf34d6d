import Foundation
import LintTestSupport
import RestorationLint
import TestSupport
import Testing

/// Xcode projects, read by the tool as a user runs it: the scenes project's reports in every
/// format, and `project.pbxproj` files that are hostile.
@Suite struct XcodeProjectTests {
  private static let scenes = LintFixtures.path("Scenes")

  @Test func theScenesProjectsJSONMatchesItsSchemaAndListsWhatWasNotDecided() throws {
    let result = try runTool(["lint", "--format", "json", Self.scenes])
    #expect(result.status == 1)
    #expect(try schemaErrors(of: result.standardOutput, schema: LintFixtures.outputSchema) == "")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(
      object["filesByKind"] as? [String: Int] == ["swift": 10, "infoPlist": 2, "xcodeProject": 1])
    let undecided = try #require(object["undecided"] as? [[String: Any]])
    #expect(undecided.count == 1)
    #expect(undecided.first?["file"] as? String == "\(Self.scenes)/Notebook/SpotlightIndexer.swift")
    #expect(undecided.first?["line"] as? Int == 8)
    #expect(undecided.first?["code"] as? String == "activity-type-not-declared")
    let summary = try #require(object["summary"] as? [String: Any])
    #expect(summary["undecided"] as? Int == 1)
    #expect(summary["errors"] as? Int == 4 && summary["warnings"] as? Int == 4)
  }

  @Test func theScenesProjectsSARIFMatchesTheOASISSchema() throws {
    let result = try runTool(["lint", "--format", "sarif", Self.scenes])
    #expect(result.status == 1)
    #expect(try schemaErrors(of: result.standardOutput, schema: LintFixtures.sarifSchema) == "")
    let log = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    let run = try #require((log["runs"] as? [[String: Any]])?.first)
    let results = try #require(run["results"] as? [[String: Any]])
    let rules = Set(results.compactMap { $0["ruleId"] as? String })
    #expect(
      rules == [
        "activity-types-read-unsafely", "activity-type-misspelled", "activity-type-not-declared",
        "restored-activity-trusted", "scene-configuration-unresolved",
        "restoration-activity-made-current", "navigation-path-codable-forced",
        "scene-storage-key-type-conflict",
      ])
    let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
    let notifications = try #require(
      invocation["toolExecutionNotifications"] as? [[String: Any]])
    #expect(
      notifications.contains {
        (($0["message"] as? [String: Any])?["text"] as? String)?.hasPrefix("not decided: ")
          == true
      })
  }

  /// A folder with one Swift file and a `project.pbxproj` holding `text`.
  private func project(_ bytes: [UInt8]) throws -> URL {
    let folder = try makeTemporaryFolder()
    let app = folder.appendingPathComponent("App")
    let xcodeproj = folder.appendingPathComponent("App.xcodeproj")
    try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: xcodeproj, withIntermediateDirectories: true)
    try Data("import UIKit\n\nfinal class ListViewController: UIViewController {}\n".utf8).write(
      to: app.appendingPathComponent("ListViewController.swift"))
    try Data(bytes).write(to: xcodeproj.appendingPathComponent("project.pbxproj"))
    return folder
  }

  static let hostile: [(name: String, bytes: [UInt8], line: Int?, reason: String)] = [
    (
      "deep", Array(("// !$*UTF8*$!\n" + String(repeating: "{a = ", count: 100_000)).utf8), 2,
      "values nested more than 64 levels deep"
    ),
    (
      "unclosed", Array("{\n objects = { A = \"unterminated; };\n}".utf8), 2,
      "a quoted string is not closed"
    ),
    (
      "not a project", Array("{ archiveVersion = 1; objects = {}; }".utf8), nil,
      "has no PBXProject root object"
    ),
    (
      // A binary property list: its magic reads as a bare string, then bytes follow.
      "binary property list", [0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30, 0xFF, 0x00, 0x91],
      1, "unexpected text after the root value"
    ),
    ("control bytes", [0x91, 0x00, 0xFF], 1, "unexpected character '0x91'"),
    ("empty", [], 1, "the file is empty"),
    ("after the root", Array("{ }\n}".utf8), 2, "unexpected text after the root value"),
  ]

  @Test(arguments: hostile.indices)
  func aHostileProjectFileIsUnreadableWithItsPathLineAndReason(_ index: Int) throws {
    let hostile = Self.hostile[index]
    let folder = try project(hostile.bytes)
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try runTool(["lint", folder.path])
    #expect(result.status == 2, "\(hostile.name)")
    let file = "\(folder.path)/App.xcodeproj/project.pbxproj"
    let place = hostile.line.map { "\(file):\($0):" } ?? "\(file):"
    #expect(
      result.standardError.contains(
        "restoration-archive-tool: \(place) is not an Xcode project file: \(hostile.reason)"),
      "\(hostile.name): \(result.standardError)")
    // The rest of the run goes on.
    #expect(result.standardOutput.contains("1 file checked (1 Swift file)"), "\(hostile.name)")
  }

  /// A project of `targets` targets that each list the same phase of `files` files, `repeats`
  /// times.
  private static func sharedPhases(targets: Int, files: Int, repeats: Int) -> [UInt8] {
    var text = "{ rootObject = P; objects = {\n"
    text += "P = { isa = PBXProject; mainGroup = G; targets = ("
    for target in 0..<targets { text += "T\(target)," }
    text += "); };\nG = { isa = PBXGroup; children = ("
    for file in 0..<files { text += "F\(file)," }
    text += "); sourceTree = \"<group>\"; };\n"
    for file in 0..<files {
      text += "F\(file) = { isa = PBXFileReference; path = F\(file).swift; };\n"
      text += "B\(file) = { isa = PBXBuildFile; fileRef = F\(file); };\n"
    }
    text += "S = { isa = PBXSourcesBuildPhase; files = ("
    for file in 0..<files { text += "B\(file)," }
    text += "); };\n"
    for target in 0..<targets {
      text += "T\(target) = { isa = PBXNativeTarget; name = T\(target); buildPhases = ("
      text += String(repeating: "S,", count: repeats) + "); };\n"
    }
    text += "}; }\n"
    return Array(text.utf8)
  }

  @Test(arguments: [
    (2_000, 10, 1, "has more than 1000 targets"),
    (900, 5_000, 10, "has more than 4000000 files in its targets' phases"),
  ])
  func aProjectWithTooManyTargetsOrSharedPhasesIsRefused(
    _ targets: Int, _ files: Int, _ repeats: Int, _ reason: String
  ) throws {
    let folder = try project(Self.sharedPhases(targets: targets, files: files, repeats: repeats))
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try runTool(["lint", folder.path])
    #expect(result.status == 2)
    #expect(
      result.standardError.contains("project.pbxproj: is not an Xcode project file: \(reason)"),
      "\(result.standardError)")
  }

  @Test func aProjectJustWithinTheBoundsIsRead() throws {
    let folder = try project(Self.sharedPhases(targets: 700, files: 5_000, repeats: 3))
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try runTool(["lint", folder.path])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("1 Xcode project"))
  }

  @Test func anInfoPlistNamedOutsideTheProjectOrThroughALinkIsNotRead() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let outside = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: outside) }
    // A plist outside the folder, reached by `..` and by a link inside it.
    let plist = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>NSUserActivityTypes</key><array>
      <string>com.example.outside</string></array></dict></plist>
      """
    try Data(plist.utf8).write(to: outside.appendingPathComponent("Info.plist"))
    try FileManager.default.createSymbolicLink(
      at: folder.appendingPathComponent("Linked"), withDestinationURL: outside)
    let scenes = URL(fileURLWithPath: Self.scenes)
    for item in ["Notebook", "NotebookShare", "Shared", "Notebook.xcodeproj"] {
      try FileManager.default.copyItem(
        at: scenes.appendingPathComponent(item), to: folder.appendingPathComponent(item))
    }
    let pbxproj = folder.appendingPathComponent("Notebook.xcodeproj/project.pbxproj")
    let text = try String(contentsOf: pbxproj, encoding: .utf8)
    let escaping = text.replacingOccurrences(
      of: "INFOPLIST_FILE = NotebookShare/Info.plist;",
      with: "INFOPLIST_FILE = \"../\(outside.lastPathComponent)/Info.plist\";"
    ).replacingOccurrences(
      of: "INFOPLIST_FILE = Notebook/Info.plist;", with: "INFOPLIST_FILE = Linked/Info.plist;")
    #expect(escaping != text)
    try Data(escaping.utf8).write(to: pbxproj)
    let result = try runTool(["lint", "--format", "json", folder.path])
    #expect(result.standardError.isEmpty, "\(result.standardError)")
    // Read, either would be a checked file of the run.
    #expect(!result.standardOutput.contains("Linked/Info.plist"))
    #expect(!result.standardOutput.contains(outside.lastPathComponent))
    #expect(result.standardOutput.contains("\"file\" : \"\(folder.path)/Notebook/Info.plist\""))
  }
}
