package import Foundation

// The app shape in Foundation's terms, laid out as the linear shape's: a top level, then one
// record per object with its path, kind, class, restoration class and state, references as
// record indices; NSKeyedArchiver follows object references itself.

// MARK: - Codable (PropertyListEncoder, JSONEncoder)

/// The app shape's archive as Codable values.
package struct AppCodableArchive: Codable, Sendable {
  /// One object's record.
  package struct Record: Codable, Sendable {
    var path: String
    var kind: String
    var `class`: String
    var restorationClass: String?
    var state: State
  }

  /// One object's keys: its values and its references, side by side in one keyed container.
  package struct State: Codable, Sendable {
    var values: AppState.Values
    var tabs: [Int]?
    var store: Int?
    var stack: [Int]?
    var top: Int?
    var cells: [Int]?
    var document: Int?
    var previous: Int?
    var related: Int?

    enum ReferenceKeys: String, CodingKey {
      case tabs, store, stack, top, cells, document, previous, related
    }

    init(values: AppState.Values) { self.values = values }

    package init(from decoder: any Decoder) throws {
      // The values' keys and the references' keys share the record's one container.
      values = try AppState.Values(from: decoder)
      let container = try decoder.container(keyedBy: ReferenceKeys.self)
      tabs = try container.decodeIfPresent([Int].self, forKey: .tabs)
      store = try container.decodeIfPresent(Int.self, forKey: .store)
      stack = try container.decodeIfPresent([Int].self, forKey: .stack)
      top = try container.decodeIfPresent(Int.self, forKey: .top)
      cells = try container.decodeIfPresent([Int].self, forKey: .cells)
      document = try container.decodeIfPresent(Int.self, forKey: .document)
      previous = try container.decodeIfPresent(Int.self, forKey: .previous)
      related = try container.decodeIfPresent(Int.self, forKey: .related)
    }

    package func encode(to encoder: any Encoder) throws {
      try values.encode(to: encoder)
      var container = encoder.container(keyedBy: ReferenceKeys.self)
      try container.encodeIfPresent(tabs, forKey: .tabs)
      try container.encodeIfPresent(store, forKey: .store)
      try container.encodeIfPresent(stack, forKey: .stack)
      try container.encodeIfPresent(top, forKey: .top)
      try container.encodeIfPresent(cells, forKey: .cells)
      try container.encodeIfPresent(document, forKey: .document)
      try container.encodeIfPresent(previous, forKey: .previous)
      try container.encodeIfPresent(related, forKey: .related)
    }
  }

  var topLevel: CodableArchive.TopLevel
  var objects: [Record]

  /// The state as Codable values.
  package init(_ state: AppState) {
    topLevel = CodableArchive.TopLevel.current
    objects = state.objects.enumerated().map { index, object in
      var record = State(values: object.values)
      switch object.kind {
      case .tabBar:
        record.tabs = object.children
        record.store = object.store
      case .navigation:
        record.stack = object.children
        record.top = object.children.last
      case .messageList, .resultList:
        record.cells = object.children
      default:
        record.document = object.document
        record.previous = object.previous
      }
      record.related = object.related
      return Record(
        path: state.paths[index], kind: object.kind.isRegistered ? "object" : "viewController",
        class: object.kind.rawValue, restorationClass: object.kind.restorationClass, state: record
      )
    }
  }

  /// The number of records.
  package var count: Int { objects.count }
}

// MARK: - PropertyListSerialization

/// The app shape's archive as property list objects, for `PropertyListSerialization`.
package enum AppPropertyListArchive {
  /// The archive as property list objects.
  package static func make(_ archive: AppCodableArchive) -> [String: Any] {
    func state(_ s: AppCodableArchive.State) -> [String: Any] {
      var d = s.values.propertyList
      if let v = s.tabs { d["tabs"] = v }
      if let v = s.store { d["store"] = v }
      if let v = s.stack { d["stack"] = v }
      if let v = s.top { d["top"] = v }
      if let v = s.cells { d["cells"] = v }
      if let v = s.document { d["document"] = v }
      if let v = s.previous { d["previous"] = v }
      if let v = s.related { d["related"] = v }
      return d
    }
    return [
      "topLevel": archive.topLevel.propertyList,
      "objects": archive.objects.map { record -> [String: Any] in
        var d: [String: Any] = [
          "path": record.path, "kind": record.kind, "class": record.class,
          "state": state(record.state),
        ]
        if let name = record.restorationClass { d["restorationClass"] = name }
        return d
      },
    ]
  }
}

extension AppState.Values {
  /// The values that are present, as property list objects.
  var propertyList: [String: Any] {
    var d: [String: Any] = [:]
    if let v = title { d["title"] = v }
    if let v = subtitle { d["subtitle"] = v }
    if let v = body { d["body"] = v }
    if let v = query { d["query"] = v }
    if let v = caption { d["caption"] = v }
    if let v = draft { d["draft"] = v }
    if let v = label { d["label"] = v }
    if let v = placeholder { d["placeholder"] = v }
    if let v = updatedAt { d["updatedAt"] = v }
    if let v = openedAt { d["openedAt"] = v }
    if let v = token { d["token"] = v }
    if let v = thumbnail { d["thumbnail"] = v }
    if let v = tags { d["tags"] = v }
    if let v = recentSearches { d["recentSearches"] = v }
    if let v = counts { d["counts"] = v }
    return d
  }
}

// MARK: - NSKeyedArchiver

/// An object of the app shape in NSKeyedArchiver's terms: an `NSObject` that adopts `NSCoding`;
/// the archiver follows references itself.
///
/// The graph needs every object reachable from the root: containers encode their children
/// (a screen those it creates itself under `children`, which the engine finds by walking the
/// tree instead), and a document its store, whose path it extends.
package final class KeyedAppNode: NSObject, NSCoding {
  var identifier: String
  var kind: AppState.Kind
  var children: [KeyedAppNode] = []
  var values = AppState.Values()
  var parent: KeyedAppNode?
  var store: KeyedAppNode?
  var document: KeyedAppNode?
  var previous: KeyedAppNode?
  var related: KeyedAppNode?

  init(identifier: String, kind: AppState.Kind) {
    self.identifier = identifier
    self.kind = kind
  }

  /// The state as a graph of keyed-archivable objects; the root is the tab bar.
  package static func makeGraph(_ state: AppState) -> KeyedAppNode {
    let nodes = state.objects.map { KeyedAppNode(identifier: $0.identifier, kind: $0.kind) }
    for (node, object) in zip(nodes, state.objects) {
      node.values = object.values
      node.children = object.children.map { nodes[$0] }
      if object.kind == .document { node.parent = object.parent.map { nodes[$0] } }
      node.store = object.store.map { nodes[$0] }
      node.document = object.document.map { nodes[$0] }
      node.previous = object.previous.map { nodes[$0] }
      node.related = object.related.map { nodes[$0] }
    }
    return nodes[0]
  }

  /// The key a container's children are encoded under.
  private var childrenKey: String {
    switch kind {
    case .tabBar: "tabs"
    case .navigation: "stack"
    case .messageList, .resultList: "cells"
    default: "children"
    }
  }

  package func encode(with coder: NSCoder) {
    coder.encode(identifier as NSString, forKey: "identifier")
    coder.encode(kind.rawValue as NSString, forKey: "kind")
    if !children.isEmpty { coder.encode(children as NSArray, forKey: childrenKey) }
    if kind == .navigation, let top = children.last { coder.encode(top, forKey: "top") }
    if let parent { coder.encode(parent, forKey: "parent") }
    if let store { coder.encode(store, forKey: "store") }
    if let document { coder.encode(document, forKey: "document") }
    if let previous { coder.encode(previous, forKey: "previous") }
    if let related { coder.encode(related, forKey: "related") }
    values.encode(with: coder)
  }

  package init?(coder: NSCoder) {
    guard let identifier = coder.decodeObject(forKey: "identifier") as? String,
      let name = coder.decodeObject(forKey: "kind") as? String,
      let kind = AppState.Kind(rawValue: name)
    else { return nil }
    self.identifier = identifier
    self.kind = kind
    super.init()
    children = coder.decodeIfPresent([KeyedAppNode].self, forKey: childrenKey) ?? []
    parent = coder.decodeIfPresent(KeyedAppNode.self, forKey: "parent")
    store = coder.decodeIfPresent(KeyedAppNode.self, forKey: "store")
    document = coder.decodeIfPresent(KeyedAppNode.self, forKey: "document")
    previous = coder.decodeIfPresent(KeyedAppNode.self, forKey: "previous")
    related = coder.decodeIfPresent(KeyedAppNode.self, forKey: "related")
    values = AppState.Values(coder: coder)
  }

  /// Every object of the graph, controllers breadth-first from the root, then the registered
  /// objects they reference, each with its identifier path.
  package func graph() -> [(node: KeyedAppNode, path: String)] {
    var found: [(node: KeyedAppNode, path: String)] = [(self, identifier)]
    var paths: [ObjectIdentifier: String] = [ObjectIdentifier(self): identifier]
    var next = 0
    while next < found.count {
      let (node, path) = found[next]
      next += 1
      for (index, child) in node.children.enumerated()
      where paths[ObjectIdentifier(child)] == nil {
        let childPath = "\(path)/:[\(index)]:/\(child.identifier)"
        paths[ObjectIdentifier(child)] = childPath
        found.append((child, childPath))
      }
    }
    // A registered object's path extends its parent's; the chain is climbed iteratively.
    func registered(_ node: KeyedAppNode) {
      var chain: [KeyedAppNode] = []
      var current: KeyedAppNode? = node
      while let object = current, paths[ObjectIdentifier(object)] == nil,
        !chain.contains(where: { $0 === object })
      {
        chain.append(object)
        current = object.parent
      }
      var prefix = current.flatMap { paths[ObjectIdentifier($0)] }
      for object in chain.reversed() {
        let path = prefix.map { "\($0)/\(object.identifier)" } ?? object.identifier
        paths[ObjectIdentifier(object)] = path
        found.append((object, path))
        prefix = path
      }
    }
    for (node, _) in found where node.kind.isRegistered == false {
      for target in [node.store, node.document].compactMap({ $0 }) { registered(target) }
    }
    return found
  }

  /// The number of objects in the graph: the controllers under this root and the registered
  /// objects they reference, counted without their paths, as a decode's check.
  package var objectCount: Int {
    var count = 0
    var registered: Set<ObjectIdentifier> = []
    var stack = [self]
    while let node = stack.popLast() {
      count += 1
      stack.append(contentsOf: node.children)
      for target in [node.store, node.document] {
        var current = target
        while let object = current, registered.insert(ObjectIdentifier(object)).inserted {
          count += 1
          current = object.parent
        }
      }
    }
    return count
  }

  /// The records of the graph under this root.
  package func comparableRecords() -> [ComparableRecord] {
    let graph = graph()
    let paths = Dictionary(
      graph.map { (ObjectIdentifier($0.node), $0.path) }, uniquingKeysWith: { first, _ in first })
    func reference(_ node: KeyedAppNode?) -> ComparableValue? {
      node.flatMap { paths[ObjectIdentifier($0)] }.map(ComparableValue.reference)
    }
    return graph.map { node, path in
      var state = node.values.comparable
      let children = ComparableValue.references(
        node.children.compactMap { paths[ObjectIdentifier($0)] })
      switch node.kind {
      case .tabBar:
        state["tabs"] = children
        state["store"] = reference(node.store)
      case .navigation:
        state["stack"] = children
        state["top"] = reference(node.children.last)
      case .messageList, .resultList:
        state["cells"] = children
      default:
        state["document"] = reference(node.document)
        state["previous"] = reference(node.previous)
      }
      state["related"] = reference(node.related)
      return ComparableRecord(
        path: path, kind: node.kind.isRegistered ? "object" : "viewController",
        className: node.kind.rawValue, restorationClass: node.kind.restorationClass, state: state)
    }
  }
}

extension AppState.Values {
  /// Writes the values that are present into a keyed archiver.
  func encode(with coder: NSCoder) {
    if let title { coder.encode(title as NSString, forKey: "title") }
    if let subtitle { coder.encode(subtitle as NSString, forKey: "subtitle") }
    if let body { coder.encode(body as NSString, forKey: "body") }
    if let query { coder.encode(query as NSString, forKey: "query") }
    if let caption { coder.encode(caption as NSString, forKey: "caption") }
    if let draft { coder.encode(draft as NSString, forKey: "draft") }
    if let label { coder.encode(label as NSString, forKey: "label") }
    if let placeholder { coder.encode(placeholder as NSString, forKey: "placeholder") }
    if let updatedAt { coder.encode(updatedAt as NSDate, forKey: "updatedAt") }
    if let openedAt { coder.encode(openedAt as NSDate, forKey: "openedAt") }
    if let token { coder.encode(token as NSData, forKey: "token") }
    if let thumbnail { coder.encode(thumbnail as NSData, forKey: "thumbnail") }
    if let tags { coder.encode(tags as NSArray, forKey: "tags") }
    if let recentSearches { coder.encode(recentSearches as NSArray, forKey: "recentSearches") }
    if let counts { coder.encode(counts as NSDictionary, forKey: "counts") }
  }

  /// Reads every value the type knows from a keyed unarchiver; absent keys stay nil.
  init(coder: NSCoder) {
    self.init()
    title = coder.decodeIfPresent(String.self, forKey: "title")
    subtitle = coder.decodeIfPresent(String.self, forKey: "subtitle")
    body = coder.decodeIfPresent(String.self, forKey: "body")
    query = coder.decodeIfPresent(String.self, forKey: "query")
    caption = coder.decodeIfPresent(String.self, forKey: "caption")
    draft = coder.decodeIfPresent(String.self, forKey: "draft")
    label = coder.decodeIfPresent(String.self, forKey: "label")
    placeholder = coder.decodeIfPresent(String.self, forKey: "placeholder")
    updatedAt = coder.decodeIfPresent(Date.self, forKey: "updatedAt")
    openedAt = coder.decodeIfPresent(Date.self, forKey: "openedAt")
    token = coder.decodeIfPresent(Data.self, forKey: "token")
    thumbnail = coder.decodeIfPresent(Data.self, forKey: "thumbnail")
    tags = coder.decodeIfPresent([String].self, forKey: "tags")
    recentSearches = coder.decodeIfPresent([String].self, forKey: "recentSearches")
    counts = coder.decodeIfPresent([String: Int].self, forKey: "counts")
  }
}

extension NSCoder {
  /// The object archived under a key, or nil when the key is absent: Foundation on Linux
  /// treats decoding an absent key as a corrupt archive and stops the process.
  fileprivate func decodeIfPresent<T>(_ type: T.Type, forKey key: String) -> T? {
    containsValue(forKey: key) ? decodeObject(forKey: key) as? T : nil
  }
}
