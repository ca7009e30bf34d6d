import ArchiveInspection
import ArgumentParser

/// `dump`: the whole archive, as restorationArchiveTool prints it, or as JSON.
struct Dump: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print every object of an archive and its keys.",
    discussion: """
      The text form is restorationArchiveTool's: the restoration class map, the top level, \
      then one section per object in archive order (parents first), keys sorted. Booleans \
      print as Yes/No, references as `Object Identifier Proxy: PATH` (inside arrays, as the \
      quoted path), dates in UTC, arrays and dictionaries as NSArray and NSDictionary describe \
      them. Keys marked sensitive are listed as `(sensitive, not saved)`; their values are \
      never in the archive.

      \(ArchiveDump.jsonSchemaSummary)

      \(ArchiveDump.jsonSectionsSummary)

      Exit status:
      \(ToolExitStatus.helpText(success: "the archive was printed"))
      """
  )

  @OptionGroup var file: ArchiveArgument

  @Flag(help: "Print JSON for scripts instead of text.")
  var json = false

  func run() throws {
    let targets = try file.targets()
    if json, targets.areSections {
      try writeOneDocument(targets, ArchiveDump.json)
      return
    }
    try forEachArchive(targets) { source in
      let archive = try loadArchive(source)
      write(json ? ArchiveDump.json(archive) : ArchiveDump.text(archive))
    }
  }
}

/// `paths`: the identifier paths, as a list, a tree or a Graphviz graph.
struct Paths: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print the objects' identifier paths.",
    discussion: """
      By default, one path a line in archive order, parents first. `--tree` draws them as a \
      tree, index components such as `:[1]:` shown as `[1]` before the identifier they \
      number. `--dot` writes a Graphviz graph: \
      `restoration-archive-tool paths --dot data.data | dot -Tpng -o tree.png`. For the \
      archives of an app with scenes, `--dot` writes one graph with a cluster per archive, \
      labelled `scene session ID` (or `app archive`).

      Exit status:
      \(ToolExitStatus.helpText(success: "the paths were printed"))
      """
  )

  @OptionGroup var file: ArchiveArgument

  @Flag(help: "Draw the paths as an indented tree.")
  var tree = false

  @Flag(help: "Write the hierarchy as a Graphviz (DOT) graph.")
  var dot = false

  func validate() throws {
    if tree && dot { throw ValidationError("Choose one of --tree and --dot.") }
  }

  func run() throws {
    let targets = try file.targets()
    if dot, targets.areSections {
      try writeOneDocument(targets, ArchivePaths.graphviz)
      return
    }
    try forEachArchive(targets) { source in
      let archive = try loadArchive(source)
      if tree {
        write(ArchivePaths.tree(archive))
      } else if dot {
        write(ArchivePaths.graphviz(archive))
      } else {
        write(ArchivePaths.list(archive))
      }
    }
  }
}

/// `diff`: what changed between two archives.
struct Diff: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Compare two archives.",
    discussion: """
      Lists changed top-level keys, then objects removed (-), changed (~) and added (+), \
      matched by identifier path; under a changed object, each field and key that differs, \
      with its old and new value. The order of the objects is not compared.

      With --bundle-id, give one archive, such as a copy kept before using the app: it is \
      compared with the archive the app has saved since.

      Exit status: 0 when the archives are equal, 1 when they differ, 2 or more when an \
      archive cannot be read (see `restoration-archive-tool --help`).
      """
  )

  @Argument(help: "The archive before.")
  var old: String?

  @Argument(help: "The archive after; with --bundle-id, the app's archive is the one after.")
  var new: String?

  @OptionGroup var app: AppArchiveOptions

  @Option(
    name: .customLong("ignore-key"),
    help: ArgumentHelp(
      "Leave a key out of the comparison, at the top level and in every object; repeatable.",
      discussion: "For example `--ignore-key UIApplicationStateRestorationTimestamp`.",
      valueName: "key"
    )
  )
  var ignoredKeys: [String] = []

  func validate() throws {
    switch (old, new, app.isGiven) {
    case (.some, .some, false), (.some, nil, true): break
    case (_, _, true):
      throw ValidationError(
        "With --bundle-id, give one archive: it is compared with the app's archive.")
    default:
      throw ValidationError(
        "Give the two archives to compare, or one and --bundle-id for the app's archive.")
    }
  }

  func run() throws {
    // validate() has checked that these name two archives.
    guard let old, let newSource = try app.source() ?? new.map(ArchiveSource.file) else {
      throw ValidationError("Give the two archives to compare.")
    }
    let before = try loadArchive(.file(old))
    let after = try loadArchive(newSource)
    let diff = ArchiveDiff(from: before, to: after, ignoring: Set(ignoredKeys))
    write(diff.text())
    if !diff.isEmpty { throw ExitCode(ToolExitStatus.differencesFound.rawValue) }
  }
}

/// `sizes`: bytes per object and per key, with a budget.
struct Sizes: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Show how many bytes each object and key takes.",
    discussion: """
      Objects are listed largest first, each followed by its keys largest first, then the \
      total, then a warning line for every object above the budget.

      How sizes are measured: \(ArchiveSizes.methodSummary)

      Exit status (objects above the budget are warnings, not failures):
      \(ToolExitStatus.helpText(success: "the sizes were printed"))
      """
  )

  @OptionGroup var file: ArchiveArgument

  @Option(
    help: ArgumentHelp(
      "Warn about objects above this size.",
      discussion:
        "A number of bytes with an optional unit: 100000, 512k, 64KiB, 2MiB (k, M, G are 1024-based).",
      valueName: "size"
    )
  )
  var budget = "64KiB"

  @Option(help: ArgumentHelp("List only the largest objects.", valueName: "count"))
  var top: Int?

  func validate() throws {
    guard ByteCount(parsing: budget) != nil else {
      throw ValidationError("'\(budget)' is not a size; write it like 100000, 512k or 64KiB.")
    }
    if let top, top < 0 { throw ValidationError("--top must not be negative.") }
  }

  func run() throws {
    try forEachArchive(try file.targets()) { source in
      let data = try readFile(source)
      let archive = try decode(data)
      let limit = ByteCount(parsing: budget) ?? ByteCount(64 << 10)
      write(ArchiveSizes(archive).text(budget: limit, limit: top, fileSize: data.bytes.count))
    }
  }
}

/// `validate`: what is wrong with an archive, and where.
struct Validate: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Check an archive and report every problem found.",
    discussion: """
      Checks that the file is a well-formed binary property list, that its checksum matches, \
      that it has the archive layout and a known format version, that every reference points \
      at an archived object, that parents come before their children, that no two objects \
      share an identifier path, and that sensitive keys have no stored value; warns about a newer \
      minor version, unusual identifier paths and missing engine keys.

      An archive that decodes is checked whole: each problem is a line on standard output, \
      `FILE: error: record N (PATH), key 'K', byte B: WHAT [check]`, then a summary line, \
      `FILE: valid (...)` or `FILE: invalid (...)`; the status is 0 or 1. A file that cannot \
      be decoded at all (missing, not an archive, damaged, an unknown version, too large) \
      has nothing more to check: as with every subcommand, it is one line on standard \
      error, `restoration-archive-tool: FILE: WHAT`, nothing on standard output, and a \
      status of 2 or more.

      Exit status:
      \(ToolExitStatus.helpText)
      """
  )

  @OptionGroup var file: ArchiveArgument

  func run() throws {
    try forEachArchive(try file.targets()) { source in
      let data = try readFile(source)
      let validation = ArchiveValidation(bytes: data.bytes)
      // The reader stops at the first problem of a file it cannot decode, so there is no list
      // of findings to print: report it as `dump` and the others do, so scripts can treat
      // every status of 2 or more alike (one line on standard error, standard output empty).
      if let error = validation.readError {
        printError(ToolExitStatus.message(for: error, file: source.path))
        throw ExitCode(validation.exitStatus.rawValue)
      }
      write(validation.text(file: source.path))
      let status = validation.exitStatus
      if status != .success { throw ExitCode(status.rawValue) }
    }
  }
}
