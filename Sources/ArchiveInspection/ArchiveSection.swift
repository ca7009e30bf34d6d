public import StateRestoration

/// One archive among those of an app with scenes, with the scene session it belongs to.
///
/// Output for programs (`dump --json`, `paths --dot`) covers all of an app's archives in one
/// document, so each part says which session it is, and why it is missing when it is.
public struct ArchiveSection: Sendable {
  /// The scene session's identifier; nil for the app's own archive.
  public var session: String?
  /// The archive file's path.
  public var path: String
  /// The archive, or why it cannot be read.
  public var archive: Result<RestorationArchive, RestorationError>

  /// Creates a section.
  ///
  /// - Parameters:
  ///   - session: The scene session's identifier; nil for the app's own archive.
  ///   - path: The archive file's path.
  ///   - archive: The archive, or why it cannot be read.
  public init(
    session: String?, path: String, archive: Result<RestorationArchive, RestorationError>
  ) {
    self.session = session
    self.path = path
    self.archive = archive
  }

  /// What the section is called: `scene session ID`, or `app archive`.
  public var title: String { Self.title(session: session) }

  /// What a section is called, in headers and graph clusters alike.
  ///
  /// - Parameter session: The scene session's identifier; nil for the app's own archive.
  /// - Returns: `scene session ID`, or `app archive`.
  public static func title(session: String?) -> String {
    session.map { "scene session \($0)" } ?? "app archive"
  }

  /// Why the archive cannot be read, as the tool's error line says it without the file (the
  /// section names that); nil when it was read.
  public var errorMessage: String? {
    guard case .failure(var error) = archive else { return nil }
    error.file = nil
    return ToolExitStatus.message(for: error)
  }
}
