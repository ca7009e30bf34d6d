import Foundation
import RestorationComparison
import Testing

/// The comparison's table, from measurements as the command records them.
@Suite struct ComparisonTableTests {
  static func measurement(_ json: String) throws -> RestorationComparison.Measurement {
    try JSONDecoder().decode(RestorationComparison.Measurement.self, from: Data(json.utf8))
  }

  static func timed(_ contender: String, _ runs: [(encode: Double, decode: Double)]) throws
    -> RestorationComparison.Measurement
  {
    let list = runs.enumerated().map { index, run in
      #"{"startedAt": \#(index), "encode": \#(run.encode), "decode": \#(run.decode)}"#
    }
    let encodes = runs.map(\.encode).sorted()
    let decodes = runs.map(\.decode).sorted()
    return try measurement(
      #"""
      {"contender": "\#(contender)", "objects": 100, "runs": \#(runs.count),
       "encode": \#(encodes[encodes.count / 2]), "decode": \#(decodes[decodes.count / 2]),
       "bytes": 1000, "timedRuns": [\#(list.joined(separator: ", "))]}
      """#)
  }

  @Test func ratiosOfRunsTimedInRoundsAreTheMedianOfEachRoundsRatio() throws {
    // Round by round the encoder is 10, 15 and 10 times the engine: ×10.0. The ratio of the
    // medians, 30 ms to 2 ms, would say ×15.0.
    let engine = try Self.timed("engine", [(1, 1), (2, 2), (4, 4)])
    let encoder = try Self.timed("plist-encoder", [(10, 20), (30, 40), (40, 80)])
    #expect(pairedRatio(encoder, engine, \.encode) == 10)
    #expect(pairedRatio(encoder, engine, \.decode) == 20)
    let row = try #require(
      comparisonTable([engine, encoder]).split(separator: "\n").last)
    #expect(row.contains("30.0 ms (×10.0)"))
    #expect(row.contains("40.0 ms (×20.0)"))
  }

  @Test func aContenderTimedOnceIsComparedByTheMedians() throws {
    let engine = try Self.timed("engine", [(1, 1), (2, 2), (4, 4)])
    let archiver = try Self.timed("keyed-archiver", [(3000, 100)])
    #expect(pairedRatio(archiver, engine, \.encode) == nil)
    let row = try #require(comparisonTable([engine, archiver]).split(separator: "\n").last)
    #expect(row.contains("3000 ms (×1500)"))
    #expect(row.contains("100 ms (×50.0)"))
  }
}
