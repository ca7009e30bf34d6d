#if canImport(FoundationEssentials)
  package import FoundationEssentials
#else
  package import Foundation
#endif

/// The UI state every contender saves: a tab bar controller whose tabs are navigation
/// controllers, each with a stack of screens, as a real app's controller tree is.
///
/// Each object has 6 to 8 keys of mixed types (strings, integers, reals, Booleans, dates, integer
/// arrays) and some references: a tab bar references its tabs, a navigation controller its stack
/// and its top screen, and a screen the one below it. Values are derived from the object's index,
/// so every contender encodes the same values.
package struct UIState: Sendable {
  /// What an object is.
  package enum Role: Sendable {
    case tabBar, navigation, screen
  }

  /// One restorable object.
  package struct Object: Sendable {
    /// Its restoration identifier.
    package var identifier: String
    /// Its role, which decides its keys.
    package var role: Role
    /// Its index among its parent's children; nil for the root.
    package var indexInParent: Int?
    /// Its parent's index in ``UIState/objects``.
    package var parent: Int?
    /// Its children's indices.
    package var children: [Int] = []
    /// A screen's predecessor on its stack.
    package var previous: Int?

    // The saved values.
    package var title: String
    package var number: Int
    package var real: Double
    package var flag: Bool
    package var date: Date
    package var list: [Int]
    package var text: String
  }

  /// How the screens' selections vary from screen to screen.
  package enum Selections: String, Sendable, CaseIterable {
    /// Each selection is one of 130 pairs of row numbers (`[i % 10, i % 13]`), so most screens
    /// share theirs with others.
    case repeated
    /// Each screen's selection holds its own items (`[1_000_000 + i, i % 13]`), as selections
    /// archived as model identifiers of the items each screen shows do. The identifiers start at
    /// a million so that they do not coincide with the record indices the Codable contenders
    /// store (a property list writes each distinct integer once). NSKeyedArchiver on Linux
    /// hashes an array by its count, so distinct arrays of one length make its encode quadratic.
    case distinct
  }

  /// The objects, parents before children; the root is at index 0.
  package var objects: [Object]

  /// The identifier path of every object, as the engine computes it.
  package var paths: [String]

  /// Builds the state with `count` objects: one tab bar, a tab per 100 objects, and screens.
  ///
  /// - Parameters:
  ///   - count: The number of objects, at least 2.
  ///   - selections: How the screens' selections vary.
  package init(count: Int, selections: Selections = .repeated) {
    let tabs = max(1, count / 100)
    var objects: [Object] = []
    objects.reserveCapacity(count)
    func values(_ seed: Int) -> (String, Int, Double, Bool, Date, [Int], String) {
      (
        "Title \(seed)", seed % 50, Double(seed % 977) * 1.5, seed % 7 == 0,
        Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(seed)),
        selections == .repeated ? [seed % 10, seed % 13] : [1_000_000 + seed, seed % 13],
        seed % 3 == 0 ? "query \(seed % 100)" : ""
      )
    }
    let root = values(0)
    objects.append(
      Object(
        identifier: "TabBarController", role: .tabBar, title: root.0, number: 0, real: root.2,
        flag: false, date: root.4, list: Array(0..<tabs), text: "3"))
    for tab in 0..<tabs {
      let v = values(objects.count)
      objects[0].children.append(objects.count)
      objects.append(
        Object(
          identifier: "NavigationController", role: .navigation, indexInParent: tab, parent: 0,
          title: v.0, number: v.1, real: v.2, flag: v.3, date: v.4, list: v.5, text: v.6))
    }
    var tab = 0
    while objects.count < count {
      let navigation = 1 + tab
      let v = values(objects.count)
      let stack = objects[navigation].children
      objects[navigation].children.append(objects.count)
      objects.append(
        Object(
          identifier: "ScreenController", role: .screen, indexInParent: stack.count,
          parent: navigation, previous: stack.last, title: v.0, number: v.1, real: v.2,
          flag: v.3, date: v.4, list: v.5, text: v.6))
      tab = (tab + 1) % tabs
    }
    self.objects = objects
    var paths: [String] = []
    paths.reserveCapacity(objects.count)
    for object in objects {
      if let parent = object.parent, let index = object.indexInParent {
        paths.append("\(paths[parent])/:[\(index)]:/\(object.identifier)")
      } else {
        paths.append(object.identifier)
      }
    }
    self.paths = paths
  }

  /// The number of objects.
  package var count: Int { objects.count }
}

extension UIState.Role {
  /// The class name every contender records for an object of this role.
  var className: String {
    switch self {
    case .tabBar: "TabBarController"
    case .navigation: "NavigationController"
    case .screen: "ScreenController"
    }
  }
}

extension UIState {
  /// The name screens' restoration class is registered under.
  static let screenRestorationName = "ScreenRestoration"

  /// The type of every state key, to read property lists back.
  static let schema: [String: ValueType] = [
    "selectedIndex": .integer, "tabOrder": .integers, "badge": .string, "tabs": .references,
    "lastSelected": .date, "isCustomizing": .bool, "title": .string, "isToolbarHidden": .bool,
    "barOffset": .real, "stack": .references, "top": .reference, "lastPush": .date,
    "scrollOffset": .real, "selectedRow": .integer, "isEditing": .bool, "searchText": .string,
    "selection": .integers, "lastOpened": .date, "previous": .reference,
  ]

  /// The records every contender must give back.
  var expectedRecords: [ComparableRecord] {
    objects.enumerated().map { index, object in
      var state: [String: ComparableValue] = [:]
      let list = ComparableValue.array(object.list.map(ComparableValue.integer))
      let children = ComparableValue.references(object.children.map { paths[$0] })
      switch object.role {
      case .tabBar:
        state["selectedIndex"] = .integer(object.number)
        state["tabOrder"] = list
        state["badge"] = .string(object.text)
        state["tabs"] = children
        state["lastSelected"] = .date(object.date)
        state["isCustomizing"] = .bool(object.flag)
      case .navigation:
        state["title"] = .string(object.title)
        state["isToolbarHidden"] = .bool(object.flag)
        state["barOffset"] = .real(object.real)
        state["stack"] = children
        state["top"] = object.children.last.map { .reference(paths[$0]) }
        state["lastPush"] = .date(object.date)
      case .screen:
        state["title"] = .string(object.title)
        state["scrollOffset"] = .real(object.real)
        state["selectedRow"] = .integer(object.number)
        state["isEditing"] = .bool(object.flag)
        state["searchText"] = .string(object.text)
        state["selection"] = list
        state["lastOpened"] = .date(object.date)
        state["previous"] = object.previous.map { .reference(paths[$0]) }
      }
      return ComparableRecord(
        path: paths[index], kind: "viewController", className: object.role.className,
        restorationClass: object.role == .screen ? Self.screenRestorationName : nil, state: state)
    }
  }
}
