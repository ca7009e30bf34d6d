import ArchiveInspection
import ArgumentParser
import Foundation
import StateRestoration
import StateRestorationStorage

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
      return .app(
        bundleIdentifier: bundleIdentifier, path: store.path(of: .archive), stateRoot: stateRoot)
    } catch {
      throw ValidationError("--bundle-id: \(error.message).")
    }
  }
}

/// The archives a subcommand reads: a file, the archives of a `.savedState` folder, or those an
/// app saved.
struct ArchiveArgument: ParsableArguments {
  @Argument(
    help: ArgumentHelp(
      "The archive file (a `data.data`), or an app's `.savedState` folder, unless --bundle-id is given.",
      discussion: """
        A folder, like --bundle-id, covers the app's archive and every scene session's, each in \
        a section headed with its session (`==> scene session ID: PATH <==`), a lone one and \
        --session's too; --json and --dot make one document of them all. An app without scenes \
        has one archive, printed without a header.
        """,
      valueName: "archive"))
  var archive: String?

  @OptionGroup var app: AppArchiveOptions

  @Option(
    help: ArgumentHelp(
      "With a folder or --bundle-id, only this scene session's archive.", valueName: "id"))
  var session: String?

  func validate() throws {
    switch (archive, app.isGiven) {
    case (nil, false):
      throw ValidationError("Give the archive file, or --bundle-id for the archive an app saved.")
    case (.some, true):
      throw ValidationError("Give the archive file or --bundle-id, not both.")
    default: break
    }
    if let session {
      do {
        try ApplicationInfo.validate(sceneIdentifier: session)
      } catch {
        throw ValidationError("--session: \(error.message).")
      }
    }
  }

  /// The archives to read: one for a file, each session's (and the app's own, if any) for a
  /// folder or an app; with ``session``, that session's alone, still as a section.
  ///
  /// - Throws: `ExitCode` after printing why, when the folder holds no archive or not the
  ///   session asked for.
  func targets() throws -> [ArchiveTarget] {
    let folder: String
    let bundleIdentifier: String?
    // What is below it was found by the tool, not named by the user: no link is followed there.
    let root: String
    switch try source() {
    case .app(let identifier, let path, let stateRoot):
      folder = String(path.dropLast("/data.data".count))
      bundleIdentifier = identifier
      root = stateRoot
      if let error = ArchiveSource.found(folder, below: root).linkError {
        throw ExitCode(report(error, at: .found(folder, below: root)).status)
      }
    case .file(let path), .found(let path, _):
      guard isFolder(path) else {
        if session != nil {
          throw ValidationError("--session needs a `.savedState` folder or --bundle-id.")
        }
        return [ArchiveTarget(section: nil, source: .file(path))]
      }
      folder = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
      bundleIdentifier = nil
      root = folder
    }
    let sessions = sessionIdentifiers(in: folder)
    let appArchive = "\(folder)/data.data"
    if let session {
      // The same bytes, else the one name of another normalization form: the folder is opened
      // by its own name, the bytes it has on disk.
      let equivalent = sessions.filter { $0 == session }
      guard
        let session = sessions.first(where: { $0.utf8.elementsEqual(session.utf8) })
          ?? (equivalent.count == 1 ? equivalent.first : nil)
      else {
        printError(
          "\(folder): no scene session \(session)"
            + (sessions.isEmpty
              ? "; the app has none" : "; its sessions: \(sessions.joined(separator: ", "))"))
        throw ExitCode(ToolExitStatus(for: .storageFailed).rawValue)
      }
      return [
        ArchiveTarget(
          section: .session(session),
          source: .found("\(folder)/Scenes/\(session)/data.data", below: root))
      ]
    }
    // An app without scenes reads as before: its one archive, no section header.
    let appSource: ArchiveSource =
      bundleIdentifier.map { .app(bundleIdentifier: $0, path: appArchive, stateRoot: root) }
      ?? .found(appArchive, below: root)
    if sessions.isEmpty, bundleIdentifier == nil,
      !FileManager.default.fileExists(atPath: appArchive)
    {
      printError(
        "\(folder): is a folder, not a file, and holds no archive (a data.data, or Scenes/<session>/data.data)"
      )
      throw ExitCode(ToolExitStatus.unreadable.rawValue)
    }
    guard !sessions.isEmpty else { return [ArchiveTarget(section: nil, source: appSource)] }
    // Every archive of an app with scenes is a section, a lone one too: the output must say
    // which window's state it is.
    var targets: [ArchiveTarget] = []
    if FileManager.default.fileExists(atPath: appArchive) {
      targets.append(ArchiveTarget(section: .app, source: appSource))
    }
    for session in sessions {
      targets.append(
        ArchiveTarget(
          section: .session(session),
          source: .found("\(folder)/Scenes/\(session)/data.data", below: root)))
    }
    return targets
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
  /// The archive an app saved, found by its bundle identifier below the state folder.
  case app(bundleIdentifier: String, path: String, stateRoot: String)
  /// An archive the tool found below a folder: the one the user named, or an app's.
  case found(String, below: String)

  /// The file's path.
  var path: String {
    switch self {
    case .file(let path), .app(_, let path, _), .found(let path, _): path
    }
  }

  /// Why an archive the tool found cannot be read, or nil.
  ///
  /// A link on its way from the folder it was found in is one the app would never follow, so
  /// what it leads to is not what the app uses. A file the user named is read wherever it
  /// leads.
  var linkError: RestorationError? {
    let (path, root): (String, String)
    switch self {
    case .file: return nil
    case .app(_, let file, let stateRoot): (path, root) = (file, stateRoot)
    case .found(let file, let folder): (path, root) = (file, folder)
    }
    var current = root.hasSuffix("/") ? String(root.dropLast()) : root
    for component in path.dropFirst(current.count).split(separator: "/") {
      current += "/\(component)"
      if (try? FileManager.default.destinationOfSymbolicLink(atPath: current)) != nil {
        return RestorationError(
          .unsafeStorage,
          "is a symbolic link, which the app never follows, so it is not what the app uses; name the file itself to read it",
          file: current)
      }
    }
    return nil
  }

  /// Restates an error about an app's archive that is not there: the path alone does not say
  /// that the app has simply saved nothing yet.
  func explained(_ error: RestorationError) -> RestorationError {
    guard case .app(let bundleIdentifier, let path, _) = self, error.code == .storageFailed,
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
    if let error = source.linkError { throw error }
    return try ArchiveFile.archive(at: source.path)
  }
}

/// Reads a file, or prints the one-line error and exits with its status.
func readFile(_ source: ArchiveSource) throws -> ArchiveFile {
  try reportingErrors(source) { () throws(RestorationError) in
    if let error = source.linkError { throw error }
    return try ArchiveFile(readingFrom: source.path)
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
    throw ExitCode(report(error, at: source).status)
  }
}

/// Prints the one line for an error at `source`; returns the error as explained and the exit
/// status ``ToolExitStatus`` maps its code to.
func report(
  _ error: RestorationError, at source: ArchiveSource
) -> (error: RestorationError, status: Int32) {
  let error = source.explained(error)
  printError(ToolExitStatus.message(for: error))
  return (error, ToolExitStatus(for: error.code).rawValue)
}

/// Writes `restoration-archive-tool: <message>` on standard error.
func printError(_ message: String) {
  FileHandle.standardError.write(Data("restoration-archive-tool: \(message)\n".utf8))
}

/// Writes text on standard output as is.
func write(_ text: String) {
  print(text, terminator: "")
}

/// One archive of those a subcommand reads.
struct ArchiveTarget {
  /// Which part of an app with scenes an archive is.
  enum Section {
    /// The app's own archive, beside its sessions'.
    case app
    /// A scene session's archive.
    case session(String)
  }

  /// Its part of an app with scenes; nil for a file or the one archive of an app without them.
  let section: Section?
  /// Where it is.
  let source: ArchiveSource

  /// The scene session's identifier; nil for the app's own archive or a file.
  var session: String? {
    guard case .session(let identifier) = section else { return nil }
    return identifier
  }

  /// The line that heads its section, when it is one.
  var header: String? {
    guard section != nil else { return nil }
    return "==> \(ArchiveSection.title(session: session)): \(source.path) <==\n"
  }
}

extension [ArchiveTarget] {
  /// Whether these are the sections of an app with scenes, which output for programs wraps in
  /// one document (a lone file or an app without scenes prints its archive's as before).
  var areSections: Bool { contains { $0.section != nil } }
}

/// Runs `body` for each archive, under its section header; an archive that fails does not stop
/// the others, and the worst exit status is the command's.
func forEachArchive(_ targets: [ArchiveTarget], _ body: (ArchiveSource) throws -> Void) throws {
  var worst: Int32 = 0
  for (index, target) in targets.enumerated() {
    if let header = target.header { write((index > 0 ? "\n" : "") + header) }
    do {
      try body(target.source)
    } catch let exit as ExitCode {
      worst = max(worst, exit.rawValue)
    }
  }
  if worst != 0 { throw ExitCode(worst) }
}

/// Reads every archive and writes the one document `render` makes of them all, for output
/// that programs parse, where a header between parts would break it.
///
/// An archive that cannot be read is reported on standard error as elsewhere and kept in the
/// document with its error; the worst exit status is the command's.
func writeOneDocument(
  _ targets: [ArchiveTarget], _ render: ([ArchiveSection]) -> String
) throws {
  var worst: Int32 = 0
  let sections = targets.map { target in
    let source = target.source
    let archive: Result<RestorationArchive, RestorationError>
    do throws(RestorationError) {
      if let error = source.linkError { throw error }
      archive = .success(try ArchiveFile.archive(at: source.path))
    } catch {
      let (error, status) = report(error, at: source)
      worst = max(worst, status)
      archive = .failure(error)
    }
    return ArchiveSection(session: target.session, path: source.path, archive: archive)
  }
  write(render(sections))
  if worst != 0 { throw ExitCode(worst) }
}

/// Whether a path is a folder (following a link the user named).
private func isFolder(_ path: String) -> Bool {
  var isDirectory: ObjCBool = false
  return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    && isDirectory.boolValue
}

/// The scene sessions of a `.savedState` folder that have an archive, sorted; a session folder
/// that is a symbolic link is left out, as the library never follows one.
private func sessionIdentifiers(in folder: String) -> [String] {
  let scenes = "\(folder)/Scenes"
  let manager = FileManager.default
  guard (try? manager.destinationOfSymbolicLink(atPath: scenes)) == nil,
    let names = try? manager.contentsOfDirectory(atPath: scenes)
  else { return [] }
  return names.filter { name in
    let path = "\(scenes)/\(name)"
    return (try? ApplicationInfo.validate(sceneIdentifier: name)) != nil
      && (try? manager.destinationOfSymbolicLink(atPath: path)) == nil && isFolder(path)
      && manager.fileExists(atPath: "\(path)/data.data")
  }
  .sorted()
}
