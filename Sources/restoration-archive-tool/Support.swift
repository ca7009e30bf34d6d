import ArchiveInspection
import ArgumentParser
import Foundation
import StateRestoration

/// The archive file a subcommand reads.
struct ArchiveArgument: ParsableArguments {
  @Argument(help: "The archive file (a `data.data`).")
  var archive: String
}

/// Reads and decodes an archive, or prints the one-line error and exits with its status.
func loadArchive(_ path: String) throws -> RestorationArchive {
  try reportingErrors { () throws(RestorationError) in try ArchiveFile.archive(at: path) }
}

/// Decodes a file read before, or prints the one-line error and exits with its status.
func decode(_ file: ArchiveFile) throws -> RestorationArchive {
  try reportingErrors { () throws(RestorationError) in try file.decoded() }
}

/// Reads a file, or prints the one-line error and exits with its status.
func readFile(_ path: String) throws -> ArchiveFile {
  try reportingErrors { () throws(RestorationError) in try ArchiveFile(readingFrom: path) }
}

/// Runs `body`; a ``RestorationError`` becomes one line on standard error and the exit status
/// ``ToolExitStatus`` maps its code to.
func reportingErrors<T>(_ body: () throws(RestorationError) -> T) throws -> T {
  do {
    return try body()
  } catch {
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
