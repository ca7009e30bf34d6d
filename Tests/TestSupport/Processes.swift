package import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The result of running a program.
package struct ProcessResult: Sendable {
  /// The exit status, or the signal number for a process killed by a signal.
  package var status: Int32
  /// Whether the process was killed by a signal.
  package var wasSignaled: Bool
  /// What it wrote to standard output.
  package var standardOutput: String
  /// What it wrote to standard error.
  package var standardError: String
}

/// Runs a program to completion, feeding it `input`, and captures its output.
///
/// Standard error goes to a temporary file, so a child that writes a lot to both streams can
/// never block on a full pipe while standard output is being read.
///
/// - Parameters:
///   - executable: The program's path.
///   - arguments: Its arguments.
///   - environment: Its environment; by default the test's.
///   - input: Bytes for its standard input; by default none (end of file at once).
///   - discardingOutput: Send its output to `/dev/null` instead of capturing it, for programs
///     that leave a daemon behind holding their output open (a tmux server).
/// - Returns: Its status and output.
/// - Throws: When the program cannot be started.
package func run(
  _ executable: String,
  _ arguments: [String],
  environment: [String: String]? = nil,
  input: Data? = nil,
  discardingOutput: Bool = false
) throws -> ProcessResult {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  if let environment { process.environment = environment }
  if discardingOutput {
    return try spawnAndWait(executable, arguments, environment: environment)
  }
  let output = Pipe()
  let errorURL = FileManager.default.temporaryDirectory
    .appendingPathComponent("stderr-\(UUID().uuidString)")
  _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
  defer { try? FileManager.default.removeItem(at: errorURL) }
  let errorHandle = try FileHandle(forWritingTo: errorURL)
  process.standardOutput = output
  process.standardError = errorHandle
  if let input {
    let standardInput = Pipe()
    process.standardInput = standardInput
    try process.run()
    standardInput.fileHandleForWriting.write(input)
    try standardInput.fileHandleForWriting.close()
  } else {
    process.standardInput = FileHandle.nullDevice
    try process.run()
  }
  let outputData = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  try errorHandle.close()
  let errorData = (try? Data(contentsOf: errorURL)) ?? Data()
  return ProcessResult(
    status: process.terminationStatus,
    wasSignaled: process.terminationReason == .uncaughtSignal,
    standardOutput: String(decoding: outputData, as: UTF8.self),
    standardError: String(decoding: errorData, as: UTF8.self)
  )
}

/// Runs a program with its standard streams on `/dev/null` and waits for it with `waitpid`.
///
/// Foundation's `Process` does not notice a child that exits after forking a daemon (a tmux
/// client starting its server), so such programs are spawned and reaped directly.
private func spawnAndWait(
  _ executable: String,
  _ arguments: [String],
  environment: [String: String]?
) throws -> ProcessResult {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  for descriptor: Int32 in [0, 1, 2] {
    posix_spawn_file_actions_addopen(
      &actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
  }
  let argv = ([executable] + arguments).map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  let environmentStrings = (environment ?? ProcessInfo.processInfo.environment).map {
    "\($0)=\($1)"
  }
  let envp = environmentStrings.map { strdup($0) } + [nil]
  defer { for pointer in envp { free(pointer) } }
  // Start with no blocked signals and default actions, whatever the test runner's threads use.
  var attributes = posix_spawnattr_t()
  posix_spawnattr_init(&attributes)
  defer { posix_spawnattr_destroy(&attributes) }
  var empty = sigset_t()
  sigemptyset(&empty)
  var all = sigset_t()
  sigfillset(&all)
  posix_spawnattr_setsigmask(&attributes, &empty)
  posix_spawnattr_setsigdefault(&attributes, &all)
  posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
  var pid: pid_t = 0
  let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
  guard result == 0 else {
    throw MissingExecutable(name: executable, searched: ["posix_spawn failed with \(result)"])
  }
  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0, errno == EINTR {}
  let signaled = (status & 0x7F) != 0 && (status & 0x7F) != 0x7F
  return ProcessResult(
    status: signaled ? status & 0x7F : (status >> 8) & 0xFF,
    wasSignaled: signaled,
    standardOutput: "",
    standardError: ""
  )
}

/// Finds a program as a shell's `command -v` does: the first executable file of that name in a
/// folder of `PATH`.
///
/// - Parameters:
///   - name: The program's name.
///   - path: The search path; by default the environment's `PATH`, or the usual folders.
/// - Returns: Its path, or nil when no folder of the path has it.
package func executableInPath(
  named name: String,
  path: String? = ProcessInfo.processInfo.environment["PATH"]
) -> String? {
  let folders = (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
  for folder in folders where !folder.isEmpty {
    let candidate = URL(fileURLWithPath: folder).appendingPathComponent(name).path
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory),
      !isDirectory.boolValue, FileManager.default.isExecutableFile(atPath: candidate)
    {
      return candidate
    }
  }
  return nil
}

/// Runs a Python 3 script with arguments.
///
/// - Parameters:
///   - script: The script's text.
///   - arguments: Its arguments.
/// - Returns: Its status and output.
/// - Throws: When Python cannot be started.
package func python(_ script: String, _ arguments: [String] = []) throws -> ProcessResult {
  try run("/usr/bin/env", ["python3", "-c", script] + arguments)
}

/// A fresh temporary folder; the caller removes it.
///
/// - Returns: Its URL.
/// - Throws: When it cannot be created.
package func makeTemporaryFolder() throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("state-restoration-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// Puts a saved archive where an app run will find it, at `path`, making its folders.
package func placeArchive(_ archive: URL, at path: String) throws {
  let destination = URL(fileURLWithPath: path)
  try FileManager.default.createDirectory(
    at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
  try FileManager.default.copyItem(at: archive, to: destination)
}

/// Finds the package's built executables from a test.
package enum BuiltExecutable {
  /// The package's root folder.
  package static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // TestSupport
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()

  /// Where to look for an executable, most specific first: the environment variable
  /// `variable`, the folders around the running test binary (SwiftPM builds executables beside
  /// it), and the package's `.build/debug`.
  ///
  /// - Parameters:
  ///   - name: The executable's name.
  ///   - variable: An environment variable that may name its path.
  /// - Returns: The candidate paths.
  package static func candidates(named name: String, variable: String? = nil) -> [URL] {
    var folders: [URL] = []
    let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    // Linux: `.build/debug/<package>PackageTests.xctest` is the binary itself; macOS: the binary
    // is inside `.build/debug/<package>PackageTests.xctest/Contents/MacOS/`.
    var folder = testBinary.deletingLastPathComponent()
    for _ in 0..<4 {
      folders.append(folder)
      folder = folder.deletingLastPathComponent()
    }
    folders.append(Bundle.main.bundleURL)
    folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
    folders.append(packageRoot.appendingPathComponent(".build/debug"))
    var urls = folders.map { $0.appendingPathComponent(name) }
    if let variable, let explicit = ProcessInfo.processInfo.environment[variable] {
      urls.insert(URL(fileURLWithPath: explicit), at: 0)
    }
    return urls
  }

  /// The path of a built executable.
  ///
  /// - Parameters:
  ///   - name: The executable's name.
  ///   - variable: An environment variable that may name its path.
  /// - Returns: The path.
  /// - Throws: ``MissingExecutable`` when it was not built.
  package static func path(named name: String, variable: String? = nil) throws -> String {
    let candidates = candidates(named: name, variable: variable)
    guard
      let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
    else { throw MissingExecutable(name: name, searched: candidates.map(\.path)) }
    return found.path
  }
}

/// A built executable a test needs was not found.
package struct MissingExecutable: Error, CustomStringConvertible {
  /// The executable's name.
  package var name: String
  /// Where it was looked for.
  package var searched: [String]
  /// Creates the error.
  ///
  /// - Parameters:
  ///   - name: The executable's name.
  ///   - searched: Where it was looked for.
  package init(name: String, searched: [String]) {
    self.name = name
    self.searched = searched
  }

  /// One line.
  package var description: String {
    "\(name) was not built; looked in \(searched). Build it with `swift build`."
  }
}
