import Foundation
import LintTestSupport
import RestorationLint
import RestorationLintSwift
import TestSupport
import Testing

/// What a folder walk reads and skips, and the rules that cross Swift and Interface Builder.
@Suite struct FolderWalkTests {
  private let forceCast = """
    final class A: UIViewController {
      override func decodeRestorableState(with coder: NSCoder) {
        _ = coder.decodeObject(forKey: "a") as! Int
      }
    }
    """

  private func write(_ text: String, _ path: String, in folder: URL) throws {
    let url = folder.appendingPathComponent(path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: url, atomically: true, encoding: .utf8)
  }

  @Test func linksAndBuildFoldersAreNotFollowed() throws {
    let base = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: base) }
    let project = base.appendingPathComponent("Project")
    let outside = base.appendingPathComponent("Outside")
    try write(forceCast, "Outside/Secret.swift", in: base)
    try write(forceCast, "Project/.build/Checkout.swift", in: base)
    try write(forceCast, "Project/DerivedData/Build.swift", in: base)
    try write(forceCast, "Project/Carthage/Dep.swift", in: base)
    try write(forceCast, "Project/.git/hook.swift", in: base)
    try write("let x = 1\n", "Project/App/Main.swift", in: base)
    let manager = FileManager.default
    try manager.createSymbolicLink(
      at: project.appendingPathComponent("App/Linked"), withDestinationURL: outside)
    try manager.createSymbolicLink(
      at: project.appendingPathComponent("App/Linked.swift"),
      withDestinationURL: outside.appendingPathComponent("Secret.swift"))
    let result = try ProjectLinter.iOS().lint([project.path])
    #expect(result.files.map(\.file) == ["\(project.path)/App/Main.swift"])
    #expect(result.findings.isEmpty)
    #expect(result.summary == "1 file checked (1 Swift file): 0 errors, 0 warnings, 0 notes")
  }

  @Test func aMissingPathAndAnUnreadableInfoPlistAreReported() throws {
    let base = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: base) }
    try write("not a plist", "App/Info.plist", in: base)
    let result = try ProjectLinter.iOS().lint([base.path, "/nope/App"])
    #expect(result.unreadable.map(\.code) == ["fileNotFound", "malformedPropertyList"])
    #expect(result.exitStatus() == .unreadableFile)
  }

  @Test func aHugeSwiftFileIsListedNotRead() throws {
    let base = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: base) }
    let line = "let value = 1\n"
    let big = String(
      repeating: line, count: SwiftFileFacts.maximumFileSize / line.utf8.count + 1)
    try write(big, "Generated.swift", in: base)
    let result = try ProjectLinter.iOS().lint([base.path])
    #expect(result.unchecked.map(\.reason) == [.tooLarge])
    #expect(result.files.isEmpty)
  }

  @Test func objectiveCSourcesAndHeadersAreListedNotChecked() throws {
    let base = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: base) }
    try write("#import \"Map.h\"\n", "Map.m", in: base)
    try write("@interface Map : NSObject\n@end\n", "Map.h", in: base)
    try write("#import \"Map.h\"\n", "Bridge.mm", in: base)
    let result = try ProjectLinter.iOS().lint([base.path])
    #expect(result.unchecked.map(\.reason) == [.objectiveC, .objectiveC, .objectiveC])
    #expect(
      Set(result.unchecked.map { URL(fileURLWithPath: $0.file).lastPathComponent })
        == ["Map.m", "Map.h", "Bridge.mm"])
    #expect(result.text.hasSuffix("; 3 Objective-C files not checked\n"))
  }

  @Test func deeplyNestedSwiftIsANoteNotACrash() throws {
    let base = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: base) }
    try write("let x = " + String(repeating: "(", count: 20_000) + "1\n", "Parens.swift", in: base)
    let classes =
      String(repeating: "class A {\n", count: 2_000) + String(repeating: "}\n", count: 2_000)
    try write(classes, "Classes.swift", in: base)
    let result = try ProjectLinter.iOS().lint([base.path])
    #expect(result.findings.map(\.code) == [.swiftSyntaxError, .swiftSyntaxError])
    #expect(result.findings.map(\.line) == [257, 1])
  }

  @Test func aXIBControllerWhoseClassSetsItsRestorationClassIsNotReported() throws {
    let base = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: base) }
    let xib = """
      <?xml version="1.0" encoding="UTF-8"?>
      <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0">
          <objects>
              <placeholder placeholderIdentifier="IBFilesOwner" id="-1" userLabel="File's Owner"/>
              <viewController restorationIdentifier="Editor" id="editor" customClass="EditorViewController">
                  <view key="view" id="v"/>
              </viewController>
          </objects>
      </document>
      """
    try write(xib, "Editor.xib", in: base)
    try write("final class EditorViewController: UIViewController {}\n", "Editor.swift", in: base)
    let before = try ProjectLinter.iOS().lint([base.path]).findings.map(\.code)
    #expect(before.contains(.nibControllerNeedsRestorationClass))
    try write(
      """
      final class EditorViewController: UIViewController {
        override func awakeFromNib() {
          super.awakeFromNib()
          restorationClass = EditorViewController.self
        }
      }
      extension EditorViewController: UIViewControllerRestoration {
        static func viewController(
          withRestorationIdentifierPath identifierComponents: [String], coder: NSCoder
        ) -> UIViewController? { nil }
      }
      """, "Editor.swift", in: base)
    let after = try ProjectLinter.iOS().lint([base.path]).findings.map(\.code)
    #expect(!after.contains(.nibControllerNeedsRestorationClass))
  }

  @Test func aFileNamedOnTheCommandLineStillListsItsPaths() throws {
    let file = LintFixtures.path("Project/Atlas/Base.lproj/Main.storyboard")
    let text = try ProjectLinter.iOS().lint([file]).text
    #expect(text.hasPrefix("\(file): storyboard, document format 3.0\n  restoration paths:\n"))
    #expect(text.contains("    Tabs/:[0]:/CountriesNav/:[0]:/Countries/CountriesTable  "))
  }
}

/// Keys decoded and encoded across files.
@Suite struct CoderKeyTests {
  @Test func aKeyEncodedThroughAHelperSilencesTheRule() throws {
    let base = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: base) }
    let decoding = """
      final class A: UIViewController {
        override func decodeRestorableState(with coder: NSCoder) {
          super.decodeRestorableState(with: coder)
          _ = coder.decodeInteger(forKey: "page")
        }
      }
      """
    try decoding.write(
      to: base.appendingPathComponent("A.swift"), atomically: true, encoding: .utf8)
    let before = try ProjectLinter.iOS().lint([base.path]).findings.map(\.code)
    #expect(before == [.decodedKeyNeverEncoded])
    let helper = """
      func save(_ value: Int, as key: String, in coder: NSCoder) {
        coder.encode(value, forKey: key)
      }
      """
    try helper.write(
      to: base.appendingPathComponent("Save.swift"), atomically: true, encoding: .utf8)
    #expect(try ProjectLinter.iOS().lint([base.path]).findings.isEmpty)
  }
}
