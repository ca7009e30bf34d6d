import Foundation
import Synchronization
import TestSupport
import Testing

/// Two processes of the Restorer app saving their windows at the same instant, as two terminals
/// going home together: every window that said it was saved is there at the next launch.
@Suite(.serialized) struct ConcurrentWindowsTests {
  /// Runs `restorer --new-window --keys KEYS` in two processes at once, the second `delay`
  /// after the first; the first with `environment` added to its own.
  ///
  /// - Returns: The sessions of the windows that said "Home: state preserved" and exited 0.
  private func saveTwoWindows(
    _ folder: URL, keys: (String, String), delay: Duration = .zero,
    environment: [String: String] = [:]
  ) throws -> [String] {
    let path = try RestorerProcess.path()
    let saved = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      var variables = ProcessInfo.processInfo.environment
      if index == 0 {
        variables.merge(environment) { $1 }
      } else if delay > .zero {
        Thread.sleep(forTimeInterval: Double(delay.components.attoseconds) / 1e18)
      }
      let arguments = [
        "--state-dir", folder.path, "--new-window", "--keys", index == 0 ? keys.0 : keys.1,
      ]
      guard let result = try? TestSupport.run(path, arguments, environment: variables),
        result.status == 0, result.standardOutput.contains("Home: state preserved"),
        let line = result.standardOutput.split(separator: "\n").first(where: {
          $0.hasSuffix("/data.data")
        })
      else { return }
      let session = String(line.split(separator: "/").dropLast().last ?? "")
      saved.withLock { $0.append(session) }
    }
    return saved.withLock { $0 }
  }

  /// The sessions `restorer --windows` lists.
  private func windows(_ folder: URL) throws -> Set<String> {
    let result = try TestSupport.run(
      RestorerProcess.path(), ["--state-dir", folder.path, "--windows"])
    #expect(result.status == 0, "\(result.standardError)")
    return Set(
      result.standardOutput.split(separator: "\n").dropFirst().dropLast().compactMap {
        $0.split(separator: " ").first.map(String.init)
      })
  }

  private func archiveExists(_ folder: URL, _ session: String) -> Bool {
    FileManager.default.fileExists(
      atPath: folder.appendingPathComponent(
        "Saved Application State/com.example.Restorer.savedState/Scenes/\(session)/data.data"
      ).path)
  }

  @Test func twoWindowsSavedAtOnceAreBothKept() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var saved: [String] = []
    for round in 1...40 {
      saved += try saveTwoWindows(
        folder, keys: ("down*\(round) enter h", "2 down*\(round % 2 + 1) h"))
      // Each launch reads the index and removes the folders it provably left over.
      let listed = try windows(folder)
      let lost = saved.filter { !listed.contains($0) || !archiveExists(folder, $0) }
      #expect(lost.isEmpty, "round \(round): lost \(lost.count) of \(saved.count) windows")
      if !lost.isEmpty { break }
    }
    #expect(saved.count == 80)
  }

  /// The first process is slow to rename its index into place, and the second saves meanwhile.
  ///
  /// A test hook holds each rename of the first process's index 0.4 s; the second starts 0.1 s
  /// after it. Neither loses the other's window.
  @Test func aSlowIndexWriteDoesNotLoseTheOtherWindow() throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var saved: [String] = []
    for round in 1...3 {
      saved += try saveTwoWindows(
        folder, keys: ("down enter h", "2 h"), delay: .milliseconds(100),
        environment: ["RESTORER_TEST_INDEX_RENAME_DELAY_MS": "400"])
      #expect(saved.count == 2 * round)
      let listed = try windows(folder)
      let lost = saved.filter { !listed.contains($0) || !archiveExists(folder, $0) }
      #expect(lost.isEmpty, "round \(round): lost \(lost) of \(saved)")
    }
  }
}
