#if canImport(FoundationEssentials)
  package import FoundationEssentials
#else
  package import Foundation
#endif

/// The "app" shape: the state of an app with screens that hold child controllers, lists of
/// cells and references to model objects, as every contender saves it.
///
/// A tab bar (a tab per 100 objects) holds navigation stacks; each stack holds screens of five
/// kinds in turn, of 1 to 7 controllers each: a feed alone, a product with a header and a
/// gallery, a thread with a message list of 1 to 4 cells and a composer, a search with a result
/// list of 1 to 3 cells, a profile with a header and a tab container of posts and likes. Cells
/// are re-created at launch by a restoration class of their own and relinked by their list; the
/// other child controllers are created by their screen, and screens by theirs. A document store
/// and its documents are registered objects outside the controller tree: the tab bar references
/// the store, and every screen a document (a new one every third screen).
///
/// Each object has 4 to 10 keys: its structural references (tabs, stack and top, cells,
/// document, previous screen, store) and values drawn from a pool of mostly non-ASCII strings,
/// dates, data, string arrays, string-to-integer dictionaries and an optional reference to an
/// earlier screen, one below the object's own screen on its stack. Every value derives from
/// the object's index alone.
///
/// References never close a cycle: NSKeyedUnarchiver on Linux cannot hand out an object before
/// its `init(coder:)` returns, and recursed until the stack overflowed on a child controller
/// that referenced its own screen.
package struct AppState: Sendable {
  /// What an object is; the raw value is its class name, and its identifier but for documents.
  package enum Kind: String, Sendable, CaseIterable {
    case tabBar = "MainTabBarController"
    case navigation = "MainNavigationController"
    case feed = "FeedScreen"
    case product = "ProductScreen"
    case thread = "ThreadScreen"
    case search = "SearchScreen"
    case profile = "ProfileScreen"
    case header = "HeaderController"
    case gallery = "GalleryController"
    case messageList = "MessageListController"
    case messageCell = "MessageCellController"
    case composer = "ComposerController"
    case resultList = "ResultListController"
    case resultCell = "ResultCellController"
    case profileTabs = "ProfileTabsController"
    case posts = "PostsController"
    case likes = "LikesController"
    case store = "DocumentStore"
    case document = "Document"

    /// The screens, in the order stacks take them.
    static let screens: [Kind] = [.feed, .product, .thread, .search, .profile]

    /// Whether it is a screen, re-created at launch by the screens' restoration class.
    package var isScreen: Bool {
      switch self {
      case .feed, .product, .thread, .search, .profile: true
      default: false
      }
    }
    /// Whether it is a cell, re-created at launch by the cells' restoration class.
    package var isCell: Bool { self == .messageCell || self == .resultCell }
    /// Whether it is a registered object rather than a controller.
    package var isRegistered: Bool { self == .store || self == .document }
    /// Whether it holds cells, which it relinks when it is restored.
    package var holdsCells: Bool { self == .messageList || self == .resultList }

    /// The child controllers it creates itself, in order, whenever it is created.
    package var ownChildren: [Kind] {
      switch self {
      case .product: [.header, .gallery]
      case .thread: [.messageList, .composer]
      case .search: [.resultList]
      case .profile: [.header, .profileTabs]
      case .profileTabs: [.posts, .likes]
      default: []
      }
    }

    /// The kind of cell it holds, if it holds cells.
    var cellKind: Kind? {
      switch self {
      case .messageList: .messageCell
      case .resultList: .resultCell
      default: nil
      }
    }

    /// The name of its restoration class, if it has one.
    package var restorationClass: String? {
      if isScreen { return AppState.screenRestorationName }
      if isCell { return AppState.cellRestorationName }
      return nil
    }
  }

  /// The values an object may hold besides its references; nil keys are not archived.
  package struct Values: Sendable, Hashable, Codable {
    package var title: String?
    package var subtitle: String?
    package var body: String?
    package var query: String?
    package var caption: String?
    package var draft: String?
    package var label: String?
    package var placeholder: String?
    package var updatedAt: Date?
    package var openedAt: Date?
    package var token: Data?
    package var thumbnail: Data?
    package var tags: [String]?
    package var recentSearches: [String]?
    package var counts: [String: Int]?

    package init() {}
  }

  /// One restorable object.
  package struct Object: Sendable {
    /// Its kind, which is its class.
    package var kind: Kind
    /// Its restoration identifier.
    package var identifier: String
    /// Its container, or for a document its restoration parent; nil for the roots.
    package var parent: Int?
    /// Its index among its container's children; nil for registered objects.
    package var indexInParent: Int?
    /// The controllers it contains, in order: tabs, a stack, a screen's children, cells.
    package var children: [Int] = []
    /// Its values.
    package var values = Values()
    /// The tab bar's document store.
    package var store: Int?
    /// A screen's document.
    package var document: Int?
    /// A screen's predecessor on its stack.
    package var previous: Int?
    /// A screen below its own screen on the same stack that it refers to, when it does.
    package var related: Int?
  }

  /// The name screens' restoration class is registered under.
  package static let screenRestorationName = "ScreenRestoration"
  /// The name cells' restoration class is registered under.
  package static let cellRestorationName = "CellRestoration"

  /// The objects, containers and restoration parents before what they hold; the tab bar first.
  package var objects: [Object]
  /// The identifier path of every object, as the engine computes it.
  package var paths: [String]

  /// The number of objects.
  package var count: Int { objects.count }

  /// Builds the state with `count` objects.
  ///
  /// - Parameter count: The number of objects, at least 1.
  package init(count: Int) {
    var builder = Builder(count: max(1, count))
    builder.build()
    objects = builder.objects
    var paths: [String] = []
    paths.reserveCapacity(objects.count)
    for object in objects {
      var path = object.identifier
      if let parent = object.parent {
        path =
          object.indexInParent.map { "\(paths[parent])/:[\($0)]:/\(path)" }
          ?? "\(paths[parent])/\(path)"
      }
      paths.append(path)
    }
    self.paths = paths
  }
}

// MARK: - Building

extension AppState {
  /// Lays the objects out, then gives each its keys.
  private struct Builder {
    let count: Int
    var objects: [Object] = []
    /// The screen each object belongs to: itself for a screen, for a child controller or a cell
    /// the screen it is under.
    var owners: [Int?] = []
    var screens = 0

    init(count: Int) {
      self.count = count
      objects.reserveCapacity(count)
    }

    var room: Int { count - objects.count }

    mutating func add(_ kind: Kind, identifier: String? = nil, parent: Int?, indexed: Bool) -> Int {
      let index = objects.count
      var object = Object(kind: kind, identifier: identifier ?? kind.rawValue)
      if let parent {
        object.parent = parent
        if indexed {
          object.indexInParent = objects[parent].children.count
          objects[parent].children.append(index)
        }
      }
      objects.append(object)
      owners.append(kind.isScreen ? index : parent.flatMap { owners[$0] })
      return index
    }

    mutating func build() {
      let root = add(.tabBar, parent: nil, indexed: false)
      let tabs = max(1, count / 100)
      var navigations: [Int] = []
      for _ in 0..<tabs where room > 0 {
        navigations.append(add(.navigation, parent: root, indexed: true))
      }
      var store: Int?
      if room > 0 {
        store = add(.store, parent: nil, indexed: false)
        objects[root].store = store
      }
      var document: Int?
      var documents = 0
      while room > 0, let store, !navigations.isEmpty {
        let ordinal = screens
        // A new document every third screen, when there is room for it and its screen: a
        // document no screen references would not be archived.
        if ordinal % 3 == 0, room >= 2 {
          document = add(
            .document, identifier: "Document-\(documents)", parent: store, indexed: false)
          documents += 1
        }
        let navigation = navigations[ordinal % navigations.count]
        // The kinds shift by one each round of the stacks, so that every stack holds every kind
        // whatever the number of stacks.
        var kind = Kind.screens[(ordinal + ordinal / navigations.count) % Kind.screens.count]
        if subtreeSize(kind, ordinal) > room { kind = .feed }
        let screen = addSubtree(kind, ordinal, parent: navigation)
        objects[screen].document = document
        objects[screen].previous = objects[navigation].children.dropLast().last
        screens += 1
      }
      for index in objects.indices { assignValues(index) }
    }

    /// How many cells a list of a screen holds.
    func cellCount(_ kind: Kind, _ ordinal: Int) -> Int {
      kind == .messageList ? 1 + ordinal % 4 : 1 + ordinal % 3
    }

    func subtreeSize(_ kind: Kind, _ ordinal: Int) -> Int {
      1 + kind.ownChildren.reduce(0) { $0 + subtreeSize($1, ordinal) }
        + (kind.holdsCells ? cellCount(kind, ordinal) : 0)
    }

    /// Adds a controller, the children it creates and its cells, depth first.
    mutating func addSubtree(_ kind: Kind, _ ordinal: Int, parent: Int) -> Int {
      let index = add(kind, parent: parent, indexed: true)
      for child in kind.ownChildren { _ = addSubtree(child, ordinal, parent: index) }
      if let cell = kind.cellKind {
        for _ in 0..<cellCount(kind, ordinal) { _ = add(cell, parent: index, indexed: true) }
      }
      return index
    }

    /// The value keys, in the order an object's draw starts from a point of.
    static let pool: [String] = [
      "title", "updatedAt", "subtitle", "token", "body", "tags", "related", "query", "counts",
      "caption", "openedAt", "draft", "recentSearches", "label", "thumbnail", "placeholder",
    ]

    /// Gives an object 4 to 10 keys: its structural references, then values from the pool.
    mutating func assignValues(_ index: Int) {
      var random = Random(index)
      let object = objects[index]
      var structural = 0
      switch object.kind {
      case .tabBar: structural = 1 + (object.store == nil ? 0 : 1)
      case .navigation: structural = 1 + (object.children.isEmpty ? 0 : 1)
      case .messageList, .resultList: structural = 1
      default:
        if object.kind.isScreen {
          structural = (object.document == nil ? 0 : 1) + (object.previous == nil ? 0 : 1)
        }
      }
      // The screens below the object's own on its stack, which `related` may reference.
      var earlier: ArraySlice<Int> = []
      if let screen = owners[index], let stack = objects[screen].parent,
        let position = objects[screen].indexInParent
      {
        earlier = objects[stack].children[..<position]
      }
      let keys = 4 + Int(random.next() % 7)
      var wanted = max(0, keys - structural)
      var position = Int(random.next() % UInt64(Self.pool.count))
      var values = Values()
      while wanted > 0 {
        let key = Self.pool[position % Self.pool.count]
        position += 1
        if key == "related" {
          guard !earlier.isEmpty else { continue }
          objects[index].related =
            earlier[earlier.startIndex + Int(random.next() % UInt64(earlier.count))]
        } else {
          values.set(key, &random)
        }
        wanted -= 1
      }
      objects[index].values = values
    }
  }
}

extension AppState.Values {
  /// Draws the value of a pool key.
  fileprivate mutating func set(_ key: String, _ random: inout Random) {
    switch key {
    case "title": title = random.text(5...40)
    case "subtitle": subtitle = random.text(5...60)
    case "body": body = random.text(20...60)
    case "query": query = random.text(5...30)
    case "caption": caption = random.text(5...60)
    case "draft": draft = random.text(5...60)
    case "label": label = random.text(5...20)
    case "placeholder": placeholder = random.text(5...40)
    case "updatedAt": updatedAt = random.date()
    case "openedAt": openedAt = random.date()
    case "token": token = random.data()
    case "thumbnail": thumbnail = random.data()
    case "tags": tags = (0..<1 + Int(random.next() % 6)).map { _ in random.text(3...20) }
    case "recentSearches":
      recentSearches = (0..<1 + Int(random.next() % 6)).map { _ in random.text(3...20) }
    default:
      var counts: [String: Int] = [:]
      for _ in 0..<1 + Int(random.next() % 6) {
        counts[random.text(3...12)] = Int(random.next() % 100_000) - 50_000
      }
      self.counts = counts
    }
  }
}

/// SplitMix64, seeded with an object's index: the same values on every run and for every
/// contender.
struct Random {
  var state: UInt64

  /// Seeded with the index mixed, not multiplied: seeds a step of the sequence apart would give
  /// neighbouring objects the same values, one draw apart.
  init(_ index: Int) { state = Self.mix(UInt64(truncatingIfNeeded: index) ^ 0x5EED) }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    return Self.mix(state)
  }

  static func mix(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Words of several scripts, accented Latin, CJK, Hangul, Cyrillic, Greek, Hebrew, Arabic
  /// and emoji (flags and joined sequences among them), each with its length in characters.
  static let words: [(word: String, length: Int)] = [
    "café", "naïve", "Größe", "façade", "smörgåsbord", "crème brûlée", "señorita", "Ærøskøbing",
    "Zürich", "déjà vu", "東京", "日本語の文章", "漢字", "北京市", "서울", "안녕하세요", "привет",
    "Ελλάδα", "שלום", "مرحبا", "🍣", "🚀", "👩‍💻", "🇫🇷", "❤️", "🎉", "São Paulo", "Ångström",
  ].map { ($0, $0.count) }

  /// Plain words, for the strings that are ASCII.
  static let asciiWords: [(word: String, length: Int)] = [
    "inbox", "draft", "photo", "report", "summary", "item", "list", "settings",
  ].map { ($0, $0.count) }

  /// A string of a length in characters drawn from `lengths`; one in six is ASCII.
  mutating func text(_ lengths: ClosedRange<Int>) -> String {
    let length = lengths.lowerBound + Int(next() % UInt64(lengths.count))
    let words = next() % 6 == 0 ? Self.asciiWords : Self.words
    var text = ""
    var characters = 0
    while characters < length {
      let (word, count) = words[Int(next() % UInt64(words.count))]
      if characters > 0 {
        text += " "
        characters += 1
      }
      text += word
      characters += count
    }
    return String(text.prefix(length))
  }

  /// A date with milliseconds, in the ten days after the reference date plus 700,000,000 s.
  mutating func date() -> Date {
    Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(next() % 1_000_000_000) / 1000)
  }

  /// 16 to 256 bytes.
  mutating func data() -> Data {
    let count = 16 + Int(next() % 241)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count + 7)
    while bytes.count < count {
      withUnsafeBytes(of: next().littleEndian) { bytes.append(contentsOf: $0) }
    }
    return Data(bytes.prefix(count))
  }
}

// MARK: - What every contender must give back

extension AppState {
  /// The type of every state key, to read property lists back.
  static let schema: [String: ValueType] = [
    "title": .string, "subtitle": .string, "body": .string, "query": .string, "caption": .string,
    "draft": .string, "label": .string, "placeholder": .string, "updatedAt": .date,
    "openedAt": .date, "token": .data, "thumbnail": .data, "tags": .strings,
    "recentSearches": .strings, "counts": .counts, "related": .reference, "tabs": .references,
    "store": .reference, "stack": .references, "top": .reference, "cells": .references,
    "document": .reference, "previous": .reference,
  ]

  /// The records every contender must give back.
  var expectedRecords: [ComparableRecord] {
    objects.enumerated().map { index, object in
      var state = object.values.comparable
      let reference = { (target: Int?) in target.map { ComparableValue.reference(self.paths[$0]) } }
      let children = ComparableValue.references(object.children.map { paths[$0] })
      switch object.kind {
      case .tabBar:
        state["tabs"] = children
        state["store"] = reference(object.store)
      case .navigation:
        state["stack"] = children
        state["top"] = reference(object.children.last)
      case .messageList, .resultList:
        state["cells"] = children
      default:
        state["document"] = reference(object.document)
        state["previous"] = reference(object.previous)
      }
      state["related"] = reference(object.related)
      return ComparableRecord(
        path: paths[index], kind: object.kind.isRegistered ? "object" : "viewController",
        className: object.kind.rawValue, restorationClass: object.kind.restorationClass,
        state: state)
    }
  }
}

extension AppState.Values {
  /// The values that are present.
  var comparable: [String: ComparableValue] {
    var state: [String: ComparableValue] = [:]
    state["title"] = title.map(ComparableValue.string)
    state["subtitle"] = subtitle.map(ComparableValue.string)
    state["body"] = body.map(ComparableValue.string)
    state["query"] = query.map(ComparableValue.string)
    state["caption"] = caption.map(ComparableValue.string)
    state["draft"] = draft.map(ComparableValue.string)
    state["label"] = label.map(ComparableValue.string)
    state["placeholder"] = placeholder.map(ComparableValue.string)
    state["updatedAt"] = updatedAt.map(ComparableValue.date)
    state["openedAt"] = openedAt.map(ComparableValue.date)
    state["token"] = token.map(ComparableValue.data)
    state["thumbnail"] = thumbnail.map(ComparableValue.data)
    state["tags"] = tags.map { .array($0.map(ComparableValue.string)) }
    state["recentSearches"] = recentSearches.map { .array($0.map(ComparableValue.string)) }
    state["counts"] = counts.map { .dictionary($0.mapValues(ComparableValue.integer)) }
    return state
  }
}
