package import Foundation

// The same state in Foundation's terms. Each contender keeps the archive's layout (a top level,
// then one record per object with its path, kind, class and state keys), with references as
// record indices, since only NSKeyedArchiver tracks object identity itself.

// MARK: - Codable (PropertyListEncoder, JSONEncoder)

/// The archive as Codable values.
package struct CodableArchive: Codable, Sendable {
  /// The top-level keys the engine writes.
  package struct TopLevel: Codable, Sendable {
    var majorVersion: Int
    var minorVersion: Int
    var bundleVersion: String
    var systemVersion: String
    var timestamp: Date
    var idiom: String

    /// The values the engine writes.
    static let current = TopLevel(
      majorVersion: 2, minorVersion: 0, bundleVersion: "1", systemVersion: "1",
      timestamp: Date(timeIntervalSinceReferenceDate: 700_000_000), idiom: "phone")

    /// The values as property list objects.
    var propertyList: [String: Any] {
      [
        "majorVersion": majorVersion, "minorVersion": minorVersion,
        "bundleVersion": bundleVersion, "systemVersion": systemVersion,
        "timestamp": timestamp, "idiom": idiom,
      ]
    }
  }

  /// One object's record.
  package struct Record: Codable, Sendable {
    var path: String
    var kind: String
    var `class`: String
    /// What re-creates the object at launch: the engine's archive records it, so this does too.
    var restorationClass: String?
    var state: State
  }

  /// One object's keys; absent keys are left out of the output, as in the engine's coders.
  package struct State: Codable, Sendable {
    var title: String?
    var selectedIndex: Int?
    var tabOrder: [Int]?
    var badge: String?
    var tabs: [Int]?
    var lastSelected: Date?
    var isCustomizing: Bool?
    var isToolbarHidden: Bool?
    var barOffset: Double?
    var stack: [Int]?
    var top: Int?
    var lastPush: Date?
    var scrollOffset: Double?
    var selectedRow: Int?
    var isEditing: Bool?
    var searchText: String?
    var selection: [Int]?
    var lastOpened: Date?
    var previous: Int?
  }

  var topLevel: TopLevel
  var objects: [Record]

  /// The state as Codable values.
  package init(_ state: UIState) {
    topLevel = TopLevel.current
    objects = state.objects.enumerated().map { index, object in
      var record = State()
      switch object.role {
      case .tabBar:
        record.selectedIndex = object.number
        record.tabOrder = object.list
        record.badge = object.text
        record.tabs = object.children
        record.lastSelected = object.date
        record.isCustomizing = object.flag
      case .navigation:
        record.title = object.title
        record.isToolbarHidden = object.flag
        record.barOffset = object.real
        record.stack = object.children
        record.top = object.children.last
        record.lastPush = object.date
      case .screen:
        record.title = object.title
        record.scrollOffset = object.real
        record.selectedRow = object.number
        record.isEditing = object.flag
        record.searchText = object.text
        record.selection = object.list
        record.lastOpened = object.date
        record.previous = object.previous
      }
      return Record(
        path: state.paths[index], kind: "viewController", class: object.role.className,
        restorationClass: object.role == .screen ? UIState.screenRestorationName : nil,
        state: record)
    }
  }

  /// The number of records.
  package var count: Int { objects.count }
}

// MARK: - PropertyListSerialization

/// The archive as property list objects (`[String: Any]`), for `PropertyListSerialization`.
package enum PropertyListArchive {
  /// The state as property list objects.
  package static func make(_ archive: CodableArchive) -> [String: Any] {
    func state(_ s: CodableArchive.State) -> [String: Any] {
      var d: [String: Any] = [:]
      if let v = s.title { d["title"] = v }
      if let v = s.selectedIndex { d["selectedIndex"] = v }
      if let v = s.tabOrder { d["tabOrder"] = v }
      if let v = s.badge { d["badge"] = v }
      if let v = s.tabs { d["tabs"] = v }
      if let v = s.lastSelected { d["lastSelected"] = v }
      if let v = s.isCustomizing { d["isCustomizing"] = v }
      if let v = s.isToolbarHidden { d["isToolbarHidden"] = v }
      if let v = s.barOffset { d["barOffset"] = v }
      if let v = s.stack { d["stack"] = v }
      if let v = s.top { d["top"] = v }
      if let v = s.lastPush { d["lastPush"] = v }
      if let v = s.scrollOffset { d["scrollOffset"] = v }
      if let v = s.selectedRow { d["selectedRow"] = v }
      if let v = s.isEditing { d["isEditing"] = v }
      if let v = s.searchText { d["searchText"] = v }
      if let v = s.selection { d["selection"] = v }
      if let v = s.lastOpened { d["lastOpened"] = v }
      if let v = s.previous { d["previous"] = v }
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

// MARK: - NSKeyedArchiver

/// A controller in NSKeyedArchiver's terms: an `NSObject` that adopts `NSCoding`; the archiver
/// follows references itself.
package final class KeyedNode: NSObject, NSCoding {
  var identifier: String
  var role: Int
  var children: [KeyedNode] = []
  var previous: KeyedNode?
  var title = ""
  var number = 0
  var real = 0.0
  var flag = false
  var date = Date(timeIntervalSinceReferenceDate: 0)
  var list: [Int] = []
  var text = ""

  init(identifier: String, role: Int) {
    self.identifier = identifier
    self.role = role
  }

  /// The state as a graph of keyed-archivable objects.
  package static func makeTree(_ state: UIState) -> KeyedNode {
    var nodes: [KeyedNode] = []
    nodes.reserveCapacity(state.count)
    for object in state.objects {
      let role =
        switch object.role {
        case .tabBar: 0
        case .navigation: 1
        case .screen: 2
        }
      let node = KeyedNode(identifier: object.identifier, role: role)
      node.title = object.title
      node.number = object.number
      node.real = object.real
      node.flag = object.flag
      node.date = object.date
      node.list = object.list
      node.text = object.text
      if let parent = object.parent { nodes[parent].children.append(node) }
      if let previous = object.previous { node.previous = nodes[previous] }
      nodes.append(node)
    }
    return nodes[0]
  }

  package func encode(with coder: NSCoder) {
    coder.encode(identifier as NSString, forKey: "identifier")
    coder.encode(role, forKey: "role")
    switch role {
    case 0:
      coder.encode(number, forKey: "selectedIndex")
      coder.encode(list.map { NSNumber(value: $0) } as NSArray, forKey: "tabOrder")
      coder.encode(text as NSString, forKey: "badge")
      coder.encode(children as NSArray, forKey: "tabs")
      coder.encode(date as NSDate, forKey: "lastSelected")
      coder.encode(flag, forKey: "isCustomizing")
    case 1:
      coder.encode(title as NSString, forKey: "title")
      coder.encode(flag, forKey: "isToolbarHidden")
      coder.encode(real, forKey: "barOffset")
      coder.encode(children as NSArray, forKey: "stack")
      coder.encode(children.last, forKey: "top")
      coder.encode(date as NSDate, forKey: "lastPush")
    default:
      coder.encode(title as NSString, forKey: "title")
      coder.encode(real, forKey: "scrollOffset")
      coder.encode(number, forKey: "selectedRow")
      coder.encode(flag, forKey: "isEditing")
      coder.encode(text as NSString, forKey: "searchText")
      coder.encode(list.map { NSNumber(value: $0) } as NSArray, forKey: "selection")
      coder.encode(date as NSDate, forKey: "lastOpened")
      if let previous { coder.encode(previous, forKey: "previous") }
    }
  }

  package init?(coder: NSCoder) {
    guard let identifier = coder.decodeObject(forKey: "identifier") as? String else { return nil }
    self.identifier = identifier
    role = coder.decodeInteger(forKey: "role")
    super.init()
    switch role {
    case 0:
      number = coder.decodeInteger(forKey: "selectedIndex")
      list = (coder.decodeObject(forKey: "tabOrder") as? [NSNumber])?.map(\.intValue) ?? []
      text = coder.decodeObject(forKey: "badge") as? String ?? ""
      children = coder.decodeObject(forKey: "tabs") as? [KeyedNode] ?? []
      date = coder.decodeObject(forKey: "lastSelected") as? Date ?? date
      flag = coder.decodeBool(forKey: "isCustomizing")
    case 1:
      title = coder.decodeObject(forKey: "title") as? String ?? ""
      flag = coder.decodeBool(forKey: "isToolbarHidden")
      real = coder.decodeDouble(forKey: "barOffset")
      children = coder.decodeObject(forKey: "stack") as? [KeyedNode] ?? []
      date = coder.decodeObject(forKey: "lastPush") as? Date ?? date
    default:
      title = coder.decodeObject(forKey: "title") as? String ?? ""
      real = coder.decodeDouble(forKey: "scrollOffset")
      number = coder.decodeInteger(forKey: "selectedRow")
      flag = coder.decodeBool(forKey: "isEditing")
      text = coder.decodeObject(forKey: "searchText") as? String ?? ""
      list = (coder.decodeObject(forKey: "selection") as? [NSNumber])?.map(\.intValue) ?? []
      date = coder.decodeObject(forKey: "lastOpened") as? Date ?? date
      if coder.containsValue(forKey: "previous") {
        previous = coder.decodeObject(forKey: "previous") as? KeyedNode
      }
    }
  }

  /// The number of nodes in the tree below and including this one.
  package var treeCount: Int { 1 + children.reduce(0) { $0 + $1.treeCount } }

  /// The records of the tree under this root, with paths from its structure.
  package func comparableRecords() -> [ComparableRecord] {
    var found: [(node: KeyedNode, path: String)] = [(self, identifier)]
    var paths: [ObjectIdentifier: String] = [ObjectIdentifier(self): identifier]
    var next = 0
    while next < found.count {
      let (node, path) = found[next]
      next += 1
      for (index, child) in node.children.enumerated() {
        let childPath = "\(path)/:[\(index)]:/\(child.identifier)"
        paths[ObjectIdentifier(child)] = childPath
        found.append((child, childPath))
      }
    }
    func reference(_ node: KeyedNode?) -> ComparableValue? {
      node.flatMap { paths[ObjectIdentifier($0)] }.map(ComparableValue.reference)
    }
    return found.map { node, path in
      var state: [String: ComparableValue] = [:]
      let list = ComparableValue.array(node.list.map(ComparableValue.integer))
      let children = ComparableValue.references(
        node.children.compactMap { paths[ObjectIdentifier($0)] })
      let role: UIState.Role
      switch node.role {
      case 0:
        role = .tabBar
        state["selectedIndex"] = .integer(node.number)
        state["tabOrder"] = list
        state["badge"] = .string(node.text)
        state["tabs"] = children
        state["lastSelected"] = .date(node.date)
        state["isCustomizing"] = .bool(node.flag)
      case 1:
        role = .navigation
        state["title"] = .string(node.title)
        state["isToolbarHidden"] = .bool(node.flag)
        state["barOffset"] = .real(node.real)
        state["stack"] = children
        state["top"] = reference(node.children.last)
        state["lastPush"] = .date(node.date)
      default:
        role = .screen
        state["title"] = .string(node.title)
        state["scrollOffset"] = .real(node.real)
        state["selectedRow"] = .integer(node.number)
        state["isEditing"] = .bool(node.flag)
        state["searchText"] = .string(node.text)
        state["selection"] = list
        state["lastOpened"] = .date(node.date)
        state["previous"] = reference(node.previous)
      }
      return ComparableRecord(
        path: path, kind: "viewController", className: role.className,
        restorationClass: role == .screen ? UIState.screenRestorationName : nil, state: state)
    }
  }
}
