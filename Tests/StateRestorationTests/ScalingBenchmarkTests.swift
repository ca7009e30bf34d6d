import Foundation
import TestSupport
import Testing

/// The scaling check, `restoration-benchmark`, run as a user runs it.
@Suite struct ScalingBenchmarkTests {
  private func benchmark(_ arguments: [String]) throws -> ProcessResult {
    try run(BuiltExecutable.path(named: "restoration-benchmark"), arguments)
  }

  /// One row per size, in order, with the size ratio after the first.
  @Test func printsARowPerSize() throws {
    let result = try benchmark(["300", "600", "--repetitions", "1"])
    #expect(result.status == 0, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    let rows = lines.filter { $0.first == " " }
    #expect(rows.count == 2)
    #expect(rows.first?.split(separator: " ").first == "300")
    #expect(rows.last?.split(separator: " ").first == "600")
    #expect(rows.last?.hasSuffix("(size ratio 2.0)") == true)
  }

  @Test func refusesSizesItCannotBuild() throws {
    let result = try benchmark(["1000", "1"])
    #expect(result.status == 64)
    #expect(result.standardError.contains("sizes must be above 1, got 1000 1"))
    #expect(result.standardOutput.isEmpty)
  }
}
