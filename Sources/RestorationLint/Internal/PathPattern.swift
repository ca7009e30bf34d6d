/// An `excluded` entry: a path prefix, or a glob where `*` matches within a component, `**`
/// across components and `?` one character.
struct PathPattern {
  private let pattern: [Character]
  private let isGlob: Bool
  private let prefix: String

  init(_ text: String) {
    var trimmed = Substring(text)
    while trimmed.hasPrefix("./") { trimmed = trimmed.dropFirst(2) }
    while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    prefix = String(trimmed)
    pattern = Array(trimmed)
    isGlob = trimmed.contains { $0 == "*" || $0 == "?" }
  }

  /// Whether the pattern matches the path or one of the folders above it.
  func matches(_ path: String) -> Bool {
    if !isGlob {
      return path == prefix || path.hasPrefix(prefix + "/")
    }
    let characters = Array(path)
    if glob(pattern[...], characters[...]) { return true }
    // A pattern naming a folder excludes what is in it.
    for (index, character) in characters.enumerated() where character == "/" {
      if glob(pattern[...], characters[..<index]) { return true }
    }
    return false
  }

  /// Iterative glob matching with backtracking to the last star: linear in practice, and
  /// never recursive on hostile patterns.
  private func glob(_ pattern: ArraySlice<Character>, _ text: ArraySlice<Character>) -> Bool {
    var p = pattern.startIndex
    var t = text.startIndex
    var star: (p: Int, t: Int, crossesSlash: Bool)?
    while t < text.endIndex {
      if p < pattern.endIndex, pattern[p] == "*" {
        let double = p + 1 < pattern.endIndex && pattern[p + 1] == "*"
        var next = p + (double ? 2 : 1)
        // `**/` also matches no folder at all.
        if double, next < pattern.endIndex, pattern[next] == "/" { next += 1 }
        star = (next, t, double)
        p = next
      } else if p < pattern.endIndex, pattern[p] == "?" || pattern[p] == text[t],
        pattern[p] != "?" || text[t] != "/"
      {
        p += 1
        t += 1
      } else if let last = star, last.crossesSlash || text[last.t] != "/" {
        star = (last.p, last.t + 1, last.crossesSlash)
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
