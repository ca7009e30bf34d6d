internal import Foundation

/// A `restoration-lint:` comment, in a Swift file (`// restoration-lint:disable:next RULE`) or
/// an Interface Builder file (`<!-- restoration-lint:disable:next RULE -->`): the rules it turns
/// off for the line after it.
///
/// Rule names are separated by spaces or commas; `--` (in Swift) or ` - ` (in either kind of
/// file, since XML comments cannot hold `--`) ends them, and what follows is a reason for the
/// reader. A name that is not a rule, or another directive, is an error, so that a typo
/// cannot silently leave a finding on.
public enum SuppressionComment: Sendable, Hashable {
  /// `disable:next` with the rules it names.
  case disableNext(Set<LintFinding.Code>)
  /// A `restoration-lint:` comment that names no rule, an unknown rule or an unknown
  /// directive; the message says which.
  case invalid(String)

  /// The marker that starts every directive.
  public static let marker = "restoration-lint:"

  /// Reads a comment's text (with or without its `//`, `<!--` and `-->`).
  ///
  /// - Parameter comment: The comment.
  /// - Returns: The directive, or nil when the comment does not start with
  ///   `restoration-lint:`.
  public static func parse(_ comment: String) -> SuppressionComment? {
    // The directive starts the comment, as in `// restoration-lint:...`; a comment that only
    // mentions it in prose is not one.
    var text = Substring(comment)
    for opening in ["//", "<!--"] where text.hasPrefix(opening) {
      text = text.dropFirst(opening.count)
    }
    text = text.drop { $0 == " " || $0 == "\t" }
    guard text.hasPrefix(marker) else { return nil }
    var rest = text.dropFirst(marker.count)
    if let end = rest.range(of: "-->") { rest = rest[..<end.lowerBound] }
    // XML comments cannot hold `--`: there, ` - ` starts the reason.
    for separator in ["--", " - "] {
      if let reason = rest.range(of: separator) { rest = rest[..<reason.lowerBound] }
    }
    let words = rest.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
    guard let directive = words.first else {
      return .invalid("'\(marker)' without a directive: write '\(marker)disable:next RULE'")
    }
    guard directive == "disable:next" else {
      return .invalid(
        "unknown directive '\(marker)\(directive)': the lint knows 'disable:next RULE' only")
    }
    let names = words.dropFirst().map(String.init)
    guard !names.isEmpty else {
      return .invalid("'\(marker)disable:next' names no rule: add the rule's name")
    }
    var codes: Set<LintFinding.Code> = []
    for name in names {
      guard let code = LintFinding.Code(rawValue: name) else {
        return .invalid(
          "'\(marker)disable:next' names '\(name)', which is not a rule: the comment disables nothing (the rules are listed in docs/Lint.md)"
        )
      }
      codes.insert(code)
    }
    return .disableNext(codes)
  }
}
