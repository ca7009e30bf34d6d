internal import Foundation
internal import RestorationLint

#if canImport(FoundationXML)
  internal import FoundationXML
#endif

/// The `restoration-lint:` comments of an Interface Builder file, read with `XMLParser`.
enum XMLComments {
  /// The rules turned off by line, and the comments that name no rule or an unknown one.
  static func suppressions(in data: Data, file: String)
    -> (suppressions: [Int: Set<LintFinding.Code>], findings: [LintFinding])
  {
    // Most files have no such comment: skip the second parse for them.
    guard data.range(of: Data(SuppressionComment.marker.utf8)) != nil else { return ([:], []) }
    let parser = XMLParser(data: data)
    parser.shouldResolveExternalEntities = false
    let collector = CommentCollector()
    parser.delegate = collector
    _ = parser.parse()
    var suppressions: [Int: Set<LintFinding.Code>] = [:]
    var findings: [LintFinding] = []
    for (line, text) in collector.comments {
      switch SuppressionComment.parse(text) {
      case nil: continue
      case .disableNext(let codes)?: suppressions[line + 1, default: []].formUnion(codes)
      case .invalid(let message)?:
        findings.append(LintFinding(.error, .unknownRuleInComment, message, file: file, line: line))
      }
    }
    return (suppressions, findings)
  }
}

private final class CommentCollector: NSObject, XMLParserDelegate {
  var comments: [(line: Int, text: String)] = []

  func parser(_ parser: XMLParser, foundComment comment: String) {
    // The parser reports the line where the comment ends; a directive is one line.
    let lines = comment.reduce(0) { $0 + ($1 == "\n" ? 1 : 0) }
    comments.append((parser.lineNumber - lines, comment))
  }
}
