internal import Foundation

/// Reads an app's `Info.plist` files.
///
/// Each must be a property list with a dictionary at its root, as Xcode requires; a malformed
/// one is reported as unreadable. No rule looks into them yet.
public struct InfoPlistRuleSet: LintRuleSet {
  /// `Info.plist` files larger than this are listed as not checked.
  public static let maximumFileSize = 4 * 1024 * 1024

  /// Creates the rule set.
  public init() {}

  /// Whether the set reads files of a kind: `Info.plist` files only.
  ///
  /// - Parameter kind: The kind.
  /// - Returns: Whether it is ``LintedFileKind/infoPlist``.
  public func reads(_ kind: LintedFileKind) -> Bool { kind == .infoPlist }

  /// Reads one `Info.plist`.
  ///
  /// - Parameter file: The file.
  /// - Returns: Checked with no findings, or unreadable.
  public func read(_ file: LintSourceFile) -> LintFileReading {
    switch file.contents(limit: Self.maximumFileSize) {
    case .tooLarge: return file.tooLarge(limit: Self.maximumFileSize)
    case .unreadable: return file.cannotBeOpened
    case .bytes(let bytes):
      let value = try? PropertyListSerialization.propertyList(
        from: Data(bytes), options: [], format: nil)
      guard value is [String: Any] else {
        return .unreadable(
          UnreadableFile(
            file: file.display, code: "malformedPropertyList",
            message: "is not a property list with a dictionary at its root, as an Info.plist is"))
      }
      return .checked(
        LintedFile(file: file.display, kind: .infoPlist, findings: []), suppressions: [:],
        facts: nil)
    }
  }

  /// Runs nothing: no rule crosses `Info.plist` files yet.
  ///
  /// - Parameter project: The project.
  public func checkProject(_ project: inout LintProject) {}
}
