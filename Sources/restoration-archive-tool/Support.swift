import ArchiveInspection
import ArgumentParser
import Foundation
import StateRestoration

/// Where to find the archive an app saved: its bundle identifier and the state folder.
struct AppArchiveOptions: ParsableArguments {
  @Option(
    name: .customLong("bundle-id"),
    help: ArgumentHelp(
      "Read the archive the app with this bundle identifier saved, instead of a file.",
      valueName: "id"
    )
  )
  var bundleIdentifier: String?

  @Option(
    name: .customLong("state-dir"),
    help: ArgumentHelp(
      "With --bundle-id, the folder the app keeps its state in.",
      discussion: """
        Default: $XDG_STATE_HOME/swift-state-restoration, else \
        ~/.local/state/swift-state-restoration, where the library and the Restorer demo keep it.
        """,
      valueName: "folder"
    )
  )
  var stateDirectory: String?

  /// Whether an app's archive is asked for.
  var isGiven: Bool { bundleIdentifier != nil }

  func validate() throws {
    if stateDirectory != nil, bundleIdentifier == nil {
      throw ValidationError("--state-dir is used only with --bundle-id.")
    }
    _ = try source()
  }

  /// The app's archive, or nil without `--bundle-id`.
  ///
  /// - Throws: ``ValidationError`` for a bundle identifier that cannot name a folder, or when
  ///   no state folder is given and no home folder is known.
  func source() throws(ValidationError) -> ArchiveSource? {
    guard let bundleIdentifier else { return nil }
    guard let stateRoot = stateDirectory ?? FileArchiveStore.defaultStateRoot() else {
      throw ValidationError(
        "--bundle-id: no home folder to look for the state folder in; give --state-dir.")
    }
    do {
      let store = try FileArchiveStore(stateRoot: stateRoot, bundleIdentifier: bundleIdentifier)
      return .app(bundleIdentifier: bundleIdentifier, path: store.path(of: .archive))
    } catch {
      throw ValidationError("--bundle-id: \(error.message).")
    }
  }
}

/// The archive a subcommand reads: a file, or the one an app saved.
struct ArchiveArgument: ParsableArguments {
  @Argument(help: "The archive file (a `data.data`), unless --bundle-id is given.")
  var archive: String?

  @OptionGroup var app: AppArchiveOptions

  func validate() throws {
    switch (archive, app.isGiven) {
    case (nil, false):
      throw ValidationError("Give the archive file, or --bundle-id for the archive an app saved.")
    case (.some, true):
      throw ValidationError("Give the archive file or --bundle-id, not both.")
    default: break
    }
  }

  /// The archive to read.
  ///
  /// - Throws: ``ValidationError`` when the arguments name none (``validate()`` reports that
  ///   first).
  func source() throws -> ArchiveSource {
    if let source = try app.source() { return source }
    guard let archive else {
      throw ValidationError("Give the archive file, or --bundle-id for the archive an app saved.")
    }
    return .file(archive)
  }
}

/// An archive to read, as the command line named it.
enum ArchiveSource {
  /// A file named by its path.
  case file(String)
  /// The archive an app saved, found by its bundle identifier.
  case app(bundleIdentifier: String, path: String)

  /// The file's path.
  var path: String {
    switch self {
    case .file(let path), .app(_, let path): path
    }
  }

  /// Restates an error about an app's archive that is not there: the path alone does not say
  /// that the app has simply saved nothing yet.
  func explained(_ error: RestorationError) -> RestorationError {
    guard case .app(let bundleIdentifier, let path) = self, error.code == .storageFailed,
      !FileManager.default.fileExists(atPath: path)
    else { return error }
    return RestorationError(
      .storageFailed,
      "no saved state for \(bundleIdentifier) (no such file): an app saves it when it moves to the background; --state-dir names another state folder",
      file: path)
  }
}

/// Reads and decodes an archive, or prints the one-line error and exits with its status.
func loadArchive(_ source: ArchiveSource) throws -> RestorationArchive {
  try reportingErrors(source) { () throws(RestorationError) in
    try ArchiveFile.archive(at: source.path)
  }
}

/// Reads a file, or prints the one-line error and exits with its status.
func readFile(_ source: ArchiveSource) throws -> ArchiveFile {
  try reportingErrors(source) { () throws(RestorationError) in
    try ArchiveFile(readingFrom: source.path)
  }
}

/// Decodes a file read before, or prints the one-line error and exits with its status.
func decode(_ file: ArchiveFile) throws -> RestorationArchive {
  try reportingErrors(.file(file.path)) { () throws(RestorationError) in try file.decoded() }
}

/// Runs `body`; a ``RestorationError`` becomes one line on standard error and the exit status
/// ``ToolExitStatus`` maps its code to.
func reportingErrors<T>(
  _ source: ArchiveSource, _ body: () throws(RestorationError) -> T
) throws -> T {
  do {
    return try body()
  } catch {
    let error = source.explained(error)
    printError(ToolExitStatus.message(for: error))
    throw ExitCode(ToolExitStatus(for: error.code).rawValue)
  }
}

/// Writes `restoration-archive-tool: <message>` on standard error.
func printError(_ message: String) {
  FileHandle.standardError.write(Data("restoration-archive-tool: \(message)\n".utf8))
}

/// Writes text on standard output as is.
func write(_ text: String) {
  print(text, terminator: "")
}
