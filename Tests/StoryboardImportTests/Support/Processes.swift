import Foundation

/// The result of running a program.
struct ProcessResult {
  var status: Int32
  var standardOutput: String
  var standardError: String
}

/// The folder holding the built products, the test bundle's and the executables'.
var productsFolder: URL? {
  #if os(macOS)
    Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.bundleURL
      .deletingLastPathComponent()
  #else
    Bundle.main.bundleURL
  #endif
}

/// Runs a built executable of the package to completion and captures its output.
///
/// Standard error goes to a temporary file, so a child that writes a lot to both streams can
/// never block on a full pipe while standard output is being read.
func runProduct(_ name: String, _ arguments: [String]) throws -> ProcessResult {
  guard let folder = productsFolder else {
    throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "no products folder"])
  }
  let process = Process()
  process.executableURL = folder.appendingPathComponent(name)
  process.arguments = arguments
  let output = Pipe()
  let errorURL = FileManager.default.temporaryDirectory
    .appendingPathComponent("stderr-\(UUID().uuidString)")
  _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
  defer { try? FileManager.default.removeItem(at: errorURL) }
  let errorHandle = try FileHandle(forWritingTo: errorURL)
  process.standardOutput = output
  process.standardError = errorHandle
  process.standardInput = FileHandle.nullDevice
  try process.run()
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
