/// An `excluded` or `included` entry: a path prefix, or a glob where `*` matches within a
/// component, `**` any number of components and `?` one character.
struct PathPattern {
  private let components: [[Character]]
  private let isGlob: Bool
  private let prefix: String

  init(_ text: String) {
    var trimmed = Substring(text)
    while trimmed.hasPrefix("./") { trimmed = trimmed.dropFirst(2) }
    while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    prefix = String(trimmed)
    components = trimmed.split(separator: "/", omittingEmptySubsequences: true).map(Array.init)
    isGlob = trimmed.contains { $0 == "*" || $0 == "?" }
  }

  /// Whether the pattern matches the path or one of the folders above it.
  func matches(_ path: String) -> Bool {
    if !isGlob {
      return path == prefix || path.hasPrefix(prefix + "/")
    }
    let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(Array.init)
    // matched[j]: the pattern's components so far match the path's first j components. One
    // row per pattern component: linear in the product of the two lengths, never recursive.
    var matched = [Bool](repeating: false, count: parts.count + 1)
    matched[0] = true
    for component in components {
      var next = [Bool](repeating: false, count: parts.count + 1)
      if component == ["*", "*"] {
        // `**`: any number of components, none included.
        var reachable = false
        for index in 0...parts.count {
          reachable = reachable || matched[index]
          next[index] = reachable
        }
      } else {
        for index in 1...max(parts.count, 1) where index <= parts.count {
          next[index] = matched[index - 1] && Self.glob(component[...], parts[index - 1][...])
        }
      }
      matched = next
    }
    // A pattern naming a folder matches what is in it.
    return matched.dropFirst().contains(true)
  }

  /// One component against a glob of `*` and `?`, with backtracking to the last star: linear
  /// in practice, and never recursive on hostile patterns.
  private static func glob(_ pattern: ArraySlice<Character>, _ text: ArraySlice<Character>) -> Bool
  {
    var p = pattern.startIndex
    var t = text.startIndex
    var star: (p: Int, t: Int)?
    while t < text.endIndex {
      if p < pattern.endIndex, pattern[p] == "*" {
        while p < pattern.endIndex, pattern[p] == "*" { p += 1 }
        star = (p, t)
      } else if p < pattern.endIndex, pattern[p] == "?" || pattern[p] == text[t] {
        p += 1
        t += 1
      } else if let last = star {
        star = (last.p, last.t + 1)
        p = last.p
        t = last.t + 1
      } else {
        return false
      }
    }
    while p < pattern.endIndex, pattern[p] == "*" { p += 1 }
    return p == pattern.endIndex
  }
}
