import StateRestoration
import TestSupport
import Testing

/// The analysis of an archive's paths, held to a plain reading of its definitions.
///
/// A restore analyses the records' paths before it locates any object: each record's nearest
/// archived ancestor among the records before it, and each path's first record. These tests compare it with those definitions over many
/// generated archives.
@Suite struct ArchivedPathsTests {

  /// Paths of up to four identifiers, some with index components.
  ///
  /// The names are short, longer than a `String` holds inline, non-ASCII and empty. Many paths
  /// repeat, many share parents.
  private func paths(count: Int, seed: UInt64, parentsFirst: Bool) -> [String] {
    var generator = SeededGenerator(seed: seed)
    let names = ["Tab", "Nav", "A", "AScreenWithAVeryLongIdentifier", "Ünïcode", ""]
    var result: [String] = []
    for _ in 0..<count {
      var path = ""
      for depth in 0..<Int.random(in: 1...4, using: &generator) {
        if depth > 0 {
          path += "/"
          if Bool.random(using: &generator) {
            path += ":[\(Int.random(in: 0...12, using: &generator))]:/"
          }
        }
        path += names[Int.random(in: 0..<names.count, using: &generator)]
      }
      result.append(path)
    }
    if parentsFirst {
      // Sorted, so that parents come first and siblings follow each other.
      result.sort { ($0.split(separator: "/").count, $0) < ($1.split(separator: "/").count, $1) }
    }
    return result
  }

  @Test(arguments: 0..<24)
  func analysisMatchesTheDefinitions(seed: Int) {
    let paths = paths(count: 400, seed: UInt64(seed), parentsFirst: seed % 2 == 0)
    let analysis = ArchivedPaths(paths)
    for (index, path) in paths.enumerated() {
      let first = paths.firstIndex(of: path)
      #expect(analysis.firstRecordOfPath[index] == first, "record \(index) \(path)")
      let earlier = paths[..<index].firstIndex(of: path)
      #expect(analysis.firstRecord(of: path, among: index) == earlier, "record \(index) \(path)")
      // The nearest ancestor path that a record before this one has.
      var expected: Int?
      var candidate = IdentifierPath.parent(of: path)
      while let parent = candidate, expected == nil {
        expected = paths[..<index].firstIndex(of: parent)
        candidate = IdentifierPath.parent(of: parent)
      }
      #expect(analysis.ancestor(ofRecord: index) == expected, "record \(index) \(path)")
    }
  }
}
