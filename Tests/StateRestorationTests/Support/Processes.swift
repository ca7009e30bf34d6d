import Foundation

/// The result of running a program.
struct ProcessResult {
  var status: Int32
  var standardOutput: String
  var standardError: String
}

/// Runs a program to completion, feeding it `input`, and captures its output.
///
/// Standard error goes to a temporary file, so a child that writes a lot to both streams can
/// never block on a full pipe while standard output is being read.
func run(_ executable: String, _ arguments: [String], input: Data? = nil) throws -> ProcessResult {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  let output = Pipe()
  let errorURL = FileManager.default.temporaryDirectory
    .appendingPathComponent("stderr-\(UUID().uuidString)")
  _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
  defer { try? FileManager.default.removeItem(at: errorURL) }
  let errorHandle = try FileHandle(forWritingTo: errorURL)
  let standardInput = Pipe()
  process.standardOutput = output
  process.standardError = errorHandle
  process.standardInput = standardInput
  try process.run()
  if let input { standardInput.fileHandleForWriting.write(input) }
  try standardInput.fileHandleForWriting.close()
  let outputData = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  try errorHandle.close()
  let errorData = (try? Data(contentsOf: errorURL)) ?? Data()
  return ProcessResult(
    status: process.terminationStatus,
    standardOutput: String(decoding: outputData, as: UTF8.self),
    standardError: String(decoding: errorData, as: UTF8.self)
  )
}

/// Runs a Python 3 script with arguments.
func python(_ script: String, _ arguments: [String] = []) throws -> ProcessResult {
  try run("/usr/bin/env", ["python3", "-c", script] + arguments)
}

/// A fresh temporary folder; the caller removes it.
func makeTemporaryFolder() throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("state-restoration-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}
