internal import Foundation
public import RestorationLint
internal import StoryboardImport

/// The rules for storyboards and XIBs, as a `ProjectLinter` runs them: each file is read with
/// `XMLParser` and checked by ``StoryboardLinter``, and its `restoration-lint:` XML comments
/// turn rules off line by line.
///
/// The set keeps each file's `InterfaceDocument` as its facts, so that the rule sets after it
/// (the Swift rules) can match scenes with classes.
public struct InterfaceBuilderRuleSet: LintRuleSet {
  /// Creates the rule set.
  public init() {}

  /// Whether the set reads files of a kind: storyboards and XIBs.
  ///
  /// - Parameter kind: The kind.
  /// - Returns: Whether it is a storyboard or a XIB.
  public func reads(_ kind: LintedFileKind) -> Bool { kind == .storyboard || kind == .xib }

  /// Reads and checks one storyboard or XIB.
  ///
  /// - Parameter file: The file.
  /// - Returns: Its report, with its identifier paths, or why it could not be read.
  public func read(_ file: LintSourceFile) -> LintFileReading {
    var document: InterfaceDocument
    do {
      document = try InterfaceDocument(contentsOfFile: file.path)
    } catch {
      // A multi-platform project's other storyboards are no mistake: listed, like Objective-C.
      if error.code == .unsupportedDocument, let type = error.documentType {
        return .unchecked(
          UncheckedFile(
            file: file.display, reason: .otherPlatform, message: Self.otherPlatform(type)))
      }
      return .unreadable(
        UnreadableFile(
          file: file.display, line: error.line, code: error.code.rawValue, message: error.message))
    }
    document.file = file.display
    let report = StoryboardLinter().lint(document)
    let data = FileManager.default.contents(atPath: file.path) ?? Data()
    let comments = XMLComments.suppressions(in: data, file: file.display)
    let linted = LintedFile(
      file: file.display, kind: document.kind == .storyboard ? .storyboard : .xib,
      format: report.format, paths: report.paths, findings: report.findings + comments.findings,
      listsPaths: file.isExplicit)
    return .checked(linted, suppressions: comments.suppressions, facts: document)
  }

  /// Why a file of another platform is not checked, in words.
  static func otherPlatform(_ type: String) -> String {
    let kind =
      type.hasSuffix("Storyboard") || type.hasSuffix("Storyboard.XIB") ? "storyboard" : "XIB"
    let platform: String
    if type.contains(".Cocoa.") {
      platform = "an AppKit (macOS)"
    } else if type.contains(".WatchKit.") {
      platform = "a WatchKit (watchOS)"
    } else if type.contains(".AppleTV.") {
      platform = "a tvOS"
    } else {
      platform = "a '\(type)'"
    }
    return "\(platform) \(kind) (the lint reads iOS storyboards and XIBs)"
  }

  /// Runs nothing: every Interface Builder rule needs its file only.
  ///
  /// - Parameter project: The project.
  public func checkProject(_ project: inout LintProject) {}
}
