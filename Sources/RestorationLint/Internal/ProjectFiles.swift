internal import Foundation

/// A file the run will read, and the configuration of the folder it was found in.
struct LintJob: Sendable {
  var source: LintSourceFile
  var configuration: Int?
}

/// Finds the files to lint below a folder, without following links.
enum ProjectFiles {
  /// Folders of build products and dependencies, never the project's own files.
  static let skippedFolders: Set<String> = [
    ".build", "DerivedData", "Pods", "Carthage", ".git", ".swiftpm",
  ]
  /// Deeper than this is a loop of bind mounts or a hostile tree, not a project.
  static let maximumDepth = 64
  /// More files than this in one folder linted is not an app project.
  static let maximumFileCount = 500_000

  /// The display name of a file below a folder given as `root`.
  static func display(root: String, relative: String) -> String {
    if root == "." { return relative }
    return root.hasSuffix("/") ? root + relative : root + "/" + relative
  }

  /// Walks a folder: the files whose kind the lint knows, skipping build products,
  /// dependencies, excluded paths and every symbolic link.
  ///
  /// - Returns: The jobs, sorted by path, and the folders that could not be read.
  static func walk(
    root: String, configuration: LintConfiguration, configurationIndex: Int?
  ) -> (jobs: [LintJob], unreadable: [UnreadableFile]) {
    var jobs: [(relative: String, job: LintJob)] = []
    var unreadable: [UnreadableFile] = []
    var stack: [(relative: String, depth: Int)] = [("", 0)]
    let manager = FileManager.default
    while let (relative, depth) = stack.popLast() {
      let folder = relative.isEmpty ? root : root + "/" + relative
      guard let names = try? manager.contentsOfDirectory(atPath: folder) else {
        unreadable.append(
          UnreadableFile(
            file: display(root: root, relative: relative), code: "unreadable",
            message: "is a folder that cannot be read (check its permissions); not checked"))
        continue
      }
      for name in names {
        let path = relative.isEmpty ? name : relative + "/" + name
        guard !configuration.excludes(path),
          // attributesOfItem does not follow links: a link is seen as a link, and skipped, so
          // the walk never leaves the folder.
          let type = (try? manager.attributesOfItem(atPath: root + "/" + path))?[.type]
            as? FileAttributeType
        else { continue }
        if type == .typeDirectory {
          guard !skippedFolders.contains(name) else { continue }
          guard depth + 1 < maximumDepth else {
            unreadable.append(
              UnreadableFile(
                file: display(root: root, relative: path), code: "limitExceeded",
                message: "is nested more than \(maximumDepth) folders deep; not checked"))
            continue
          }
          stack.append((path, depth + 1))
        } else if type == .typeRegular, let kind = LintedFileKind.of(fileNamed: name),
          configuration.includes(path)
        {
          guard jobs.count < maximumFileCount else {
            unreadable.append(
              UnreadableFile(
                file: display(root: root, relative: ""), code: "limitExceeded",
                message: "holds more than \(maximumFileCount) files to check; the rest are not"))
            return (jobs.map(\.job), unreadable)
          }
          jobs.append(
            (
              path,
              LintJob(
                source: LintSourceFile(
                  display: display(root: root, relative: path), path: root + "/" + path,
                  kind: kind),
                configuration: configurationIndex)
            ))
        }
      }
    }
    jobs.sort { $0.relative < $1.relative }
    return (jobs.map(\.job), unreadable)
  }

  /// Reads at most `limit` bytes of a regular file; nil when it cannot be read, and the size
  /// when it is larger.
  static func read(_ path: String, limit: Int) -> LintSourceFile.Contents {
    guard let handle = FileHandle(forReadingAtPath: path) else { return .unreadable }
    defer { try? handle.close() }
    guard let data = try? handle.read(upToCount: limit + 1) else { return .bytes([]) }
    if data.count > limit { return .tooLarge }
    return .bytes([UInt8](data))
  }
}
