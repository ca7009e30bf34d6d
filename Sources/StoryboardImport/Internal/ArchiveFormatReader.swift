/// Interprets the `<archive>` format of XIBs (Interface Builder 3 and Xcode 4, up to 2013).
///
/// The archive is a keyed object graph: `IBDocument.RootObjects` lists the top-level objects
/// (File's Owner as an `IBProxyObject`, views as `IBUI…` classes), each object is written in
/// full once, where first met, and as `<reference ref="…">` elsewhere. Custom classes live in
/// `flattenedProperties` under the object's record ID (`-1.CustomClassName` for File's Owner),
/// and outlets in `connectionRecords`. Views, their restoration identifiers and subviews, File's
/// Owner with its `view` outlet, and top-level controllers with their restoration identifier are
/// read.
struct ArchiveFormatReader {
  let root: XMLNode
  let file: String
  /// Every element with an `id`, for resolving references.
  private let objectsByID: [String: XMLNode]

  init(root: XMLNode, file: String) {
    self.root = root
    self.file = file
    var index: [String: XMLNode] = [:]
    var stack = [root]
    while let node = stack.popLast() {
      if node.name != "reference", let id = node["id"], index[id] == nil { index[id] = node }
      stack.append(contentsOf: node.children)
    }
    objectsByID = index
  }

  func read(version: String) -> InterfaceDocument {
    let data = root.child(named: "data")
    let container = data?.child(key: "IBDocument.Objects")
    let recordIDs = Self.recordIDs(in: container)
    var customClasses: [String: String] = [:]
    for entry in container?.child(key: "flattenedProperties")?.children ?? [] {
      guard let key = entry["key"], key.hasSuffix(".CustomClassName") else { continue }
      customClasses[String(key.dropLast(".CustomClassName".count))] = entry.text
    }
    func customClass(of object: XMLNode) -> String? {
      object["id"].flatMap { recordIDs[$0] }.flatMap { customClasses[$0] }
    }

    var owner: InterfaceDocument.Placeholder?
    var views: [InterfaceDocument.View] = []
    var controllers: [InterfaceDocument.ViewController] = []
    var issues: [InterfaceDocument.Issue] = []
    for item in data?.child(key: "IBDocument.RootObjects")?.children ?? [] {
      guard let object = resolve(item), let className = object["class"] else { continue }
      if className == "IBProxyObject" {
        if object.child(key: "IBProxiedObjectIdentifier")?.text == "IBFilesOwner" {
          owner = .init(
            id: "-1",
            customClass: customClass(of: object),
            viewOutletDestinationID: viewOutlet(of: object, in: container),
            line: object.line)
        }
      } else if let element = Self.elementName(forClass: className) {
        if ElementNames.isController(element) {
          controllers.append(
            .init(
              id: object["id"] ?? DocumentFormatReader.syntheticID(object),
              elementName: element,
              customClass: customClass(of: object),
              restorationIdentifier: object.child(key: "IBUIRestorationIdentifier")?.text,
              line: object.line))
          issues.append(
            .init(
              "view controllers in the archive format are read without their views and children",
              line: object.line, objectID: object["id"]))
        } else {
          var visited: Set<String> = []
          views.append(
            readView(
              object, element: element, customClass: customClass, depth: 0, visited: &visited,
              issues: &issues))
        }
      }
    }
    return InterfaceDocument(
      file: file,
      kind: .xib,
      format: .archive(version: version),
      viewControllers: controllers,
      fileOwner: owner,
      topLevelViews: views,
      issues: issues
    )
  }

  /// The element a `<reference>` points to, or the element itself.
  private func resolve(_ node: XMLNode) -> XMLNode? {
    guard node.name == "reference" else { return node }
    return node["ref"].flatMap { objectsByID[$0] }
  }

  private func readView(
    _ object: XMLNode,
    element: String,
    customClass: (XMLNode) -> String?,
    depth: Int,
    visited: inout Set<String>,
    issues: inout [InterfaceDocument.Issue]
  ) -> InterfaceDocument.View {
    if let id = object["id"] { visited.insert(id) }
    var subviews: [InterfaceDocument.View] = []
    // References let subviews nest deeper than the XML does; a chain that long is not a real
    // XIB, and following it could exhaust the stack.
    let items = object.child(key: "NSSubviews")?.children ?? []
    if depth >= XMLTree.maximumDepth, !items.isEmpty {
      issues.append(
        .init(
          "subviews nest more than \(XMLTree.maximumDepth) deep; the deeper ones are not read",
          line: object.line, objectID: object["id"]))
      return .init(id: object["id"], elementName: element, line: object.line)
    }
    for item in items {
      // A subview list that loops back (never written by Interface Builder) is cut there.
      guard let subview = resolve(item), let className = subview["class"],
        let subviewElement = Self.elementName(forClass: className),
        !ElementNames.isController(subviewElement),
        !visited.contains(subview["id"] ?? "")
      else { continue }
      subviews.append(
        readView(
          subview, element: subviewElement, customClass: customClass, depth: depth + 1,
          visited: &visited, issues: &issues))
    }
    return .init(
      id: object["id"],
      elementName: element,
      customClass: customClass(object),
      restorationIdentifier: object.child(key: "IBUIRestorationIdentifier")?.text,
      text: object.child(key: "IBUIText")?.text ?? object.child(key: "IBUINormalTitle")?.text,
      subviews: subviews,
      line: object.line
    )
  }

  /// The object its `view` outlet points to, from the connection records.
  private func viewOutlet(of owner: XMLNode, in container: XMLNode?) -> String? {
    for record in container?.child(key: "connectionRecords")?.children ?? [] {
      guard let connection = record.child(key: "connection"),
        connection.child(key: "label")?.text == "view",
        connection.child(key: "source")?["ref"] == owner["id"]
      else { continue }
      return connection.child(key: "destination")?["ref"]
    }
    return nil
  }

  /// Object element ID → the record ID that keys its flattened properties.
  private static func recordIDs(in container: XMLNode?) -> [String: String] {
    var result: [String: String] = [:]
    let records = container?.child(key: "objectRecords")?.child(key: "orderedObjects")
    for record in records?.children ?? [] {
      guard let objectID = record.child(key: "objectID")?.text,
        let reference = record.child(key: "object")?["ref"]
      else { continue }
      result[reference] = objectID
    }
    return result
  }

  /// The document format's element name for an archive class: `webView` for `IBUIWebView`,
  /// nil for classes that are neither views nor controllers.
  static func elementName(forClass className: String) -> String? {
    guard className.hasPrefix("IBUI") else { return nil }
    let name = className.dropFirst(4)
    guard let first = name.first,
      !name.hasSuffix("Item"), !name.hasSuffix("Recognizer"), !name.hasSuffix("Metrics")
    else { return nil }
    return first.lowercased() + name.dropFirst()
  }
}
