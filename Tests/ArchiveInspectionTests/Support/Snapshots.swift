import Foundation
import Testing

/// Compares text with its golden file, `__Snapshots__/<TestFile>/<testName>.txt` beside the
/// test file; with `RECORD_SNAPSHOTS=1` in the environment, writes the golden file instead and
/// fails, so that a recording run is never mistaken for a passing one.
func assertSnapshot(
  _ actual: String,
  named name: String? = nil,
  testName: String = #function,
  filePath: String = #filePath,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let testFile = URL(fileURLWithPath: filePath)
  let snapshotName =
    name ?? String(testName.prefix { $0 != "(" })
  let golden = testFile.deletingLastPathComponent()
    .appendingPathComponent("__Snapshots__")
    .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent)
    .appendingPathComponent(snapshotName + ".txt")

  if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
    do {
      try FileManager.default.createDirectory(
        at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(actual.utf8).write(to: golden)
      Issue.record(
        "Recorded \(golden.path); run again without RECORD_SNAPSHOTS to compare.",
        sourceLocation: sourceLocation)
    } catch {
      Issue.record("Cannot record \(golden.path): \(error)", sourceLocation: sourceLocation)
    }
    return
  }

  guard let data = FileManager.default.contents(atPath: golden.path) else {
    Issue.record(
      "No golden file at \(golden.path); record it with RECORD_SNAPSHOTS=1 swift test.",
      sourceLocation: sourceLocation)
    return
  }
  let expected = String(decoding: data, as: UTF8.self)
  guard actual != expected else { return }
  let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
  let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
  let line =
    zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    ?? min(actualLines.count, expectedLines.count)
  func at(_ lines: [Substring]) -> String {
    lines.indices.contains(line) ? String(reflecting: String(lines[line])) : "(end of text)"
  }
  Issue.record(
    """
    Output differs from \(golden.path) at line \(line + 1):
      expected: \(at(expectedLines))
      actual:   \(at(actualLines))
    Re-record with RECORD_SNAPSHOTS=1 if the change is intended. Actual output:
    \(actual)
    """,
    sourceLocation: sourceLocation
  )
}
