import StateRestoration
import Testing

/// The cache of what was last worked out for a string, found by the bits of its `String` value.
@Suite struct RecentStringsTests {
  /// A string made at run time, so that each call has storage of its own.
  private func madeString(_ text: String) -> String {
    String(decoding: Array(text.utf8), as: UTF8.self)
  }

  @Test func aStringMetAgainIsNotWorkedOutAgain() {
    var cache = RecentStrings<Int>()
    var computed: [String] = []
    let key = madeString("NavigationController")
    for _ in 0..<3 {
      #expect(
        cache.value(for: key) {
          computed.append($0)
          return $0.utf8.count
        } == 20)
    }
    #expect(computed == ["NavigationController"])
  }

  @Test func absentResultsAreCachedToo() {
    var cache = RecentStrings<Int32?>()
    var calls = 0
    for _ in 0..<3 {
      #expect(
        cache.value(for: "missing") { _ in
          calls += 1
          return nil
        } == nil)
    }
    #expect(calls == 1)
  }

  /// Equal strings in separate storage differ in their bits: each is worked out, each gets its
  /// own answer, and no string is ever answered for another.
  @Test func everyStringGetsItsOwnValueWhateverItsStorage() {
    var cache = RecentStrings<String>()
    // Far more strings than slots, long (in storage) and short (inline), many colliding.
    let strings =
      (0..<2_000).map { madeString("Identifier number \($0)") }
      + (0..<200).map { "k\($0)" }
    for round in 0..<3 {
      for string in strings.shuffled() {
        #expect(cache.value(for: string) { $0 } == string, "round \(round)")
      }
    }
    let first = madeString("ScreenController")
    let second = madeString("ScreenController")
    var computed = 0
    _ = cache.value(for: first) {
      computed += 1
      return $0
    }
    #expect(
      cache.value(for: second) {
        computed += 1
        return $0
      } == "ScreenController")
    #expect(computed == 2)
  }
}
