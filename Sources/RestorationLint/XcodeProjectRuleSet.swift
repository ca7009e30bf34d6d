/// Reads Xcode projects' `project.pbxproj` files, and keeps their targets (``XcodeProject``) so
/// that the rules that cross files know which `Info.plist`, build settings and files belong to
/// which target.
///
/// A file that is not an old-style property list, or holds no project, is reported as
/// unreadable, with the line where reading stopped.
public struct XcodeProjectRuleSet: LintRuleSet {
  /// Creates the rule set.
  public init() {}

  /// Whether the set reads files of a kind: `project.pbxproj` files only.
  ///
  /// - Parameter kind: The kind.
  /// - Returns: Whether it is ``LintedFileKind/xcodeProject``.
  public func reads(_ kind: LintedFileKind) -> Bool { kind == .xcodeProject }

  /// Reads one `project.pbxproj`.
  ///
  /// - Parameter file: The file.
  /// - Returns: Checked with no findings and its ``XcodeProject`` as facts, or unreadable.
  public func read(_ file: LintSourceFile) -> LintFileReading {
    switch file.contents(limit: XcodeProject.maximumFileSize) {
    case .tooLarge: return file.tooLarge(limit: XcodeProject.maximumFileSize)
    case .unreadable: return file.cannotBeOpened
    case .bytes(let bytes):
      do {
        let project = try XcodeProject(bytes: bytes, file: file.display)
        return .checked(
          LintedFile(file: file.display, kind: .xcodeProject, findings: []), suppressions: [:],
          facts: project)
      } catch {
        return .unreadable(
          UnreadableFile(
            file: file.display, line: error.line, code: "malformedProject",
            message: "is not an Xcode project file: \(error.message)"))
      }
    }
  }

  /// Runs nothing: the rules that read projects read them through the targets
  /// (``LintProject/targets()``).
  ///
  /// - Parameter project: The project.
  public func checkProject(_ project: inout LintProject) {}
}
