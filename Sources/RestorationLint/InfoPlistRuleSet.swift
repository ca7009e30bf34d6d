/// Reads an app's `Info.plist` files, and keeps what they say about scenes and user activities
/// (``InfoPlist``) for the rules that cross files.
///
/// Each must be a property list with a dictionary at its root, as Xcode requires; a malformed
/// one is reported as unreadable.
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
  /// - Returns: Checked with no findings and its ``InfoPlist`` as facts, or unreadable.
  public func read(_ file: LintSourceFile) -> LintFileReading {
    switch file.contents(limit: Self.maximumFileSize) {
    case .tooLarge: return file.tooLarge(limit: Self.maximumFileSize)
    case .unreadable: return file.cannotBeOpened
    case .bytes(let bytes):
      guard let plist = InfoPlist(bytes: bytes, file: file.display) else {
        return .unreadable(Self.malformed(file.display))
      }
      return .checked(
        LintedFile(file: file.display, kind: .infoPlist, findings: []), suppressions: [:],
        facts: plist)
    }
  }

  /// The entry for a file that is not a property list with a dictionary at its root.
  static func malformed(_ file: String) -> UnreadableFile {
    UnreadableFile(
      file: file, code: "malformedPropertyList",
      message: "is not a property list with a dictionary at its root, as an Info.plist is")
  }

  /// Runs nothing: the rules that read `Info.plist` files read them through the targets
  /// (``LintProject/targets()``).
  ///
  /// - Parameter project: The project.
  public func checkProject(_ project: inout LintProject) {}
}
