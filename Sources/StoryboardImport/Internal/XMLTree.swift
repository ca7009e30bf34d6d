internal import Foundation

#if canImport(FoundationXML)
  internal import FoundationXML
#endif

/// One XML element with its attributes, children, text and source line.
///
/// Interface Builder files are small (kilobytes to a few megabytes), so the whole tree is read
/// first and interpreted afterwards: the interpretation can then look at an element's children
/// (a view's `<rect key="frame">`, a placeholder's outlets) without a streaming state machine.
struct XMLNode: Sendable {
  var name: String
  var attributes: [String: String]
  var children: [XMLNode] = []
  var text = ""
  var line: Int

  /// The value of an attribute.
  subscript(attribute: String) -> String? { attributes[attribute] }

  /// The direct children with a name.
  func children(named name: String) -> [XMLNode] { children.filter { $0.name == name } }

  /// The first direct child with a name.
  func child(named name: String) -> XMLNode? { children.first { $0.name == name } }

  /// The first direct child whose `key` attribute is `key`.
  func child(key: String) -> XMLNode? { children.first { $0["key"] == key } }

  /// Whether an attribute is Interface Builder's `YES`.
  func flag(_ attribute: String) -> Bool { attributes[attribute] == "YES" }
}

/// Why an XML file could not be read into a tree.
enum XMLTreeFailure: Error, Sendable, Hashable {
  /// Not well-formed XML; the line where the parser stopped, and why.
  case malformed(line: Int, reason: String)
  /// The file holds no element at all.
  case empty
  /// Too deep or too many elements for an Interface Builder file.
  case tooLarge(line: Int, reason: String)
}

/// Reads XML into a tree of ``XMLNode`` with `XMLParser`, recording each element's line.
enum XMLTree {
  /// Nesting deeper than this is not an Interface Builder file (real ones stay under 40); the
  /// limit keeps the recursive interpretation far from the stack's end.
  static let maximumDepth = 256
  /// More elements than this is not an Interface Builder file either.
  static let maximumElementCount = 2_000_000

  /// Parses XML bytes.
  ///
  /// - Parameter data: The file's bytes.
  /// - Returns: The root element.
  /// - Throws: ``XMLTreeFailure``.
  static func parse(_ data: Data) throws(XMLTreeFailure) -> XMLNode {
    let parser = XMLParser(data: data)
    // External entities could read other files or the network; Interface Builder never uses them.
    parser.shouldResolveExternalEntities = false
    let builder = TreeBuilder()
    parser.delegate = builder
    let finished = parser.parse()
    if let limit = builder.limitFailure { throw limit }
    // XMLParser can report success and still set an error (a premature end of the document).
    if !finished || parser.parserError != nil {
      let code = (parser.parserError as? NSError)?.code ?? 0
      throw .malformed(line: parser.lineNumber, reason: Self.reason(forCode: code))
    }
    guard let root = builder.root else { throw .empty }
    return root
  }

  /// Words for the parser's error codes that malformed files actually produce.
  private static func reason(forCode code: Int) -> String {
    switch code {
    // libxml2's codes, which XMLParser passes through on Linux.
    case 4: "not XML, or an empty document"
    case 5: "not well-formed XML: a tag left open or mismatched, or content after the root"
    case 9: "an invalid character"
    case 26: "an undeclared entity"
    case 38, 39, 40, 41, 42: "a malformed attribute"
    default: "not well-formed XML (parser error \(code))"
    }
  }
}

/// Builds the tree from the parser's callbacks.
private final class TreeBuilder: NSObject, XMLParserDelegate {
  var stack: [XMLNode] = []
  var root: XMLNode?
  var elementCount = 0
  var limitFailure: XMLTreeFailure?

  func parser(
    _ parser: XMLParser,
    didStartElement elementName: String,
    namespaceURI: String?,
    qualifiedName qName: String?,
    attributes attributeDict: [String: String] = [:]
  ) {
    elementCount += 1
    if stack.count >= XMLTree.maximumDepth || elementCount > XMLTree.maximumElementCount {
      limitFailure = .tooLarge(
        line: parser.lineNumber,
        reason: stack.count >= XMLTree.maximumDepth
          ? "elements nested more than \(XMLTree.maximumDepth) deep"
          : "more than \(XMLTree.maximumElementCount) elements"
      )
      parser.abortParsing()
      return
    }
    stack.append(XMLNode(name: elementName, attributes: attributeDict, line: parser.lineNumber))
  }

  func parser(
    _ parser: XMLParser,
    didEndElement elementName: String,
    namespaceURI: String?,
    qualifiedName qName: String?
  ) {
    guard let node = stack.popLast() else { return }
    if stack.isEmpty {
      root = node
    } else {
      stack[stack.count - 1].children.append(node)
    }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    guard !stack.isEmpty else { return }
    stack[stack.count - 1].text += string
  }
}
