import Foundation
import TestSupport
import Testing

/// What the README must say, and what the checkout must do for it to be true.
@Suite struct ReadmeTests {
  private func file(_ path: String) throws -> String {
    try String(
      contentsOf: BuiltExecutable.packageRoot.appendingPathComponent(path), encoding: .utf8)
  }

  /// The text of the README's section with this heading, up to the next heading.
  private func section(_ heading: String) throws -> String {
    let readme = try file("README.md")
    let start = try #require(readme.range(of: "\n## \(heading)\n"), "no section \(heading)")
    let rest = readme[start.upperBound...]
    return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
  }

  @Test func theReadmeHasAtMost250Lines() throws {
    let lines = try file("README.md").split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count <= 251, "README.md has \(lines.count - 1) lines")
  }

  @Test func theOpeningSaysWhatItIsNot() throws {
    let readme = try file("README.md")
    let opening = String(readme[..<(readme.range(of: "\n## ")?.lowerBound ?? readme.endIndex)])
      .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(opening.contains("It does not run an iOS app's UIKit code"))
    #expect(opening.contains("reads this package's archives, not a simulator's `data.data`"))
  }

  @Test func twoCommandsExplainsTheSkipLineAboutShared() throws {
    let text = try section("Two commands")
    #expect(text.contains("skipped, with a line about `../shared`"))
  }

  @Test func theDocumentationIsBuiltAndPreviewedWithThePlugin() throws {
    let text = try section("Documentation")
    #expect(text.contains("swift package generate-documentation --target StateRestoration"))
    #expect(text.contains("preview-documentation --target StateRestoration"))
    #expect(
      try file("Package.swift").contains(
        #".package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0")"#))
    // CI builds every catalog with the plugin, and a warning (a broken link) fails it.
    let script = try file("Scripts/docs.sh")
    #expect(script.contains("swift package") && script.contains("generate-documentation"))
    #expect(script.contains("--warnings-as-errors"))
    #expect(try file(".ci/run").contains("Scripts/docs.sh"))
  }

}
