import StateRestoration

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A controller of the app shape, in the engine's terms; each kind has a subclass, so that the
/// archive records the class names the other contenders record.
class AppController: RestorationNode {
  let restorationIdentifier: String?
  let kind: AppState.Kind
  weak var container: AppController?
  var index: Int?
  var children: [AppController] = []
  var values = AppState.Values()
  weak var store: AppModelObject?
  weak var document: AppModelObject?
  weak var previous: AppController?
  weak var related: AppController?

  required init(kind: AppState.Kind) {
    self.kind = kind
    restorationIdentifier = kind.rawValue
  }

  /// A controller of a kind's class; `createsChildren` also creates the child controllers the
  /// kind creates itself, as its initializer does in an app.
  static func make(_ kind: AppState.Kind, createsChildren: Bool) -> AppController {
    let type: AppController.Type =
      switch kind {
      case .tabBar: MainTabBarController.self
      case .navigation: MainNavigationController.self
      case .feed: FeedScreen.self
      case .product: ProductScreen.self
      case .thread: ThreadScreen.self
      case .search: SearchScreen.self
      case .profile: ProfileScreen.self
      case .header: HeaderController.self
      case .gallery: GalleryController.self
      case .messageList: MessageListController.self
      case .messageCell: MessageCellController.self
      case .composer: ComposerController.self
      case .resultList: ResultListController.self
      case .resultCell: ResultCellController.self
      case .profileTabs: ProfileTabsController.self
      case .posts: PostsController.self
      case .likes: LikesController.self
      case .store, .document: AppController.self
      }
    let controller = type.init(kind: kind)
    if createsChildren {
      for child in kind.ownChildren { controller.add(make(child, createsChildren: true)) }
    }
    return controller
  }

  func add(_ child: AppController) {
    child.container = self
    child.index = children.count
    children.append(child)
  }

  var restorationContainer: RestorationParentLink? {
    container.map { RestorationParentLink(parent: $0, index: index) }
  }

  var restorationChildren: [any StateRestoring] { children }

  var objectRestorationClass: (any ObjectRestoration.Type)? {
    if kind.isScreen { return AppScreenRestoration.self }
    if kind.isCell { return AppCellRestoration.self }
    return nil
  }

  func encodeRestorableState(with coder: StateCoder) throws {
    switch kind {
    case .tabBar:
      coder.encode(children, forKey: "tabs")
      if let store { coder.encode(store, forKey: "store") }
    case .navigation:
      coder.encode(children, forKey: "stack")
      if let top = children.last { coder.encode(top, forKey: "top") }
    case .messageList, .resultList:
      coder.encode(children, forKey: "cells")
    case .feed, .product, .thread, .search, .profile:
      if let document { coder.encode(document, forKey: "document") }
      if let previous { coder.encode(previous, forKey: "previous") }
    default:
      break
    }
    if let related { coder.encode(related, forKey: "related") }
    values.encode(into: coder)
  }

  func decodeRestorableState(with coder: StateDecoder) throws {
    switch kind {
    case .tabBar:
      store = coder.decodeObject(of: AppModelObject.self, forKey: "store")
    case .navigation, .messageList, .resultList:
      // Relink the restored screens or cells, as a navigation controller or a list does.
      let references = coder.decodeReferences(forKey: kind == .navigation ? "stack" : "cells")
      children.removeAll(keepingCapacity: true)
      for reference in references ?? [] {
        if let child = reference.object as? AppController { add(child) }
      }
    case .feed, .product, .thread, .search, .profile:
      document = coder.decodeObject(of: AppModelObject.self, forKey: "document")
      previous = coder.decodeObject(of: AppController.self, forKey: "previous")
    default:
      break
    }
    related = coder.decodeObject(of: AppController.self, forKey: "related")
    values = AppState.Values(decodingFrom: coder)
  }
}

final class MainTabBarController: AppController {}
final class MainNavigationController: AppController {}
final class FeedScreen: AppController {}
final class ProductScreen: AppController {}
final class ThreadScreen: AppController {}
final class SearchScreen: AppController {}
final class ProfileScreen: AppController {}
final class HeaderController: AppController {}
final class GalleryController: AppController {}
final class MessageListController: AppController {}
final class MessageCellController: AppController {}
final class ComposerController: AppController {}
final class ResultListController: AppController {}
final class ResultCellController: AppController {}
final class ProfileTabsController: AppController {}
final class PostsController: AppController {}
final class LikesController: AppController {}

/// A registered model object of the app shape: outside the controller tree, its path given by
/// its restoration parent.
class AppModelObject: StateRestoring {
  let restorationIdentifier: String?
  weak var parent: AppModelObject?
  /// A store's documents, which it owns.
  var documents: [AppModelObject] = []
  var values = AppState.Values()

  init(identifier: String) {
    restorationIdentifier = identifier
  }

  var restorationParent: (any StateRestoring)? { parent }

  func encodeRestorableState(with coder: StateCoder) throws {
    values.encode(into: coder)
  }

  func decodeRestorableState(with coder: StateDecoder) throws {
    values = AppState.Values(decodingFrom: coder)
  }
}

final class DocumentStore: AppModelObject {
  func add(_ document: Document) {
    document.parent = self
    documents.append(document)
  }
}

final class Document: AppModelObject {}

/// Re-creates screens, with the child controllers they create, from their identifier.
enum AppScreenRestoration: ObjectRestoration {
  static func object(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> (any StateRestoring)? {
    guard let identifier = identifierComponents.last,
      let kind = AppState.Kind(rawValue: identifier), kind.isScreen
    else { return nil }
    return AppController.make(kind, createsChildren: true)
  }
}

/// Re-creates cells from their identifier; their list relinks them.
enum AppCellRestoration: ObjectRestoration {
  static func object(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> (any StateRestoring)? {
    guard let identifier = identifierComponents.last,
      let kind = AppState.Kind(rawValue: identifier), kind.isCell
    else { return nil }
    return AppController.make(kind, createsChildren: false)
  }
}

extension AppState.Values {
  /// Writes the values that are present.
  func encode(into coder: StateCoder) {
    if let title { coder.encode(title, forKey: "title") }
    if let subtitle { coder.encode(subtitle, forKey: "subtitle") }
    if let body { coder.encode(body, forKey: "body") }
    if let query { coder.encode(query, forKey: "query") }
    if let caption { coder.encode(caption, forKey: "caption") }
    if let draft { coder.encode(draft, forKey: "draft") }
    if let label { coder.encode(label, forKey: "label") }
    if let placeholder { coder.encode(placeholder, forKey: "placeholder") }
    if let updatedAt { coder.encode(updatedAt, forKey: "updatedAt") }
    if let openedAt { coder.encode(openedAt, forKey: "openedAt") }
    if let token { coder.encode(token, forKey: "token") }
    if let thumbnail { coder.encode(thumbnail, forKey: "thumbnail") }
    if let tags { coder.encode(tags, forKey: "tags") }
    if let recentSearches { coder.encode(recentSearches, forKey: "recentSearches") }
    if let counts { coder.encode(counts, forKey: "counts") }
  }

  /// Reads every value the type knows; absent keys stay nil.
  init(decodingFrom coder: StateDecoder) {
    self.init()
    title = coder.decode(String.self, forKey: "title")
    subtitle = coder.decode(String.self, forKey: "subtitle")
    body = coder.decode(String.self, forKey: "body")
    query = coder.decode(String.self, forKey: "query")
    caption = coder.decode(String.self, forKey: "caption")
    draft = coder.decode(String.self, forKey: "draft")
    label = coder.decode(String.self, forKey: "label")
    placeholder = coder.decode(String.self, forKey: "placeholder")
    updatedAt = coder.decode(Date.self, forKey: "updatedAt")
    openedAt = coder.decode(Date.self, forKey: "openedAt")
    token = coder.decode(Data.self, forKey: "token")
    thumbnail = coder.decode(Data.self, forKey: "thumbnail")
    tags = coder.decode([String].self, forKey: "tags")
    recentSearches = coder.decode([String].self, forKey: "recentSearches")
    counts = coder.decode([String: Int].self, forKey: "counts")
  }
}

/// The app shape's live controllers and model objects.
final class AppEngineModel: EngineModel {
  let state: AppState
  let root: AppController
  /// The live model objects, which the registry holds weakly.
  let store: DocumentStore?
  let registry: RestorationRegistry

  init(state: AppState) {
    self.state = state
    let (controllers, store) = Self.makeObjects(state, launch: false)
    root = controllers[0] ?? AppController.make(.tabBar, createsChildren: false)
    self.store = store
    registry = Self.makeRegistry(store)
  }

  var objectCount: Int { state.count }
  var roots: [any StateRestoring] { [root] }

  /// A registry with the restoration classes and a store's objects, as an app registers them
  /// when it creates them.
  static func makeRegistry(_ store: DocumentStore?) -> RestorationRegistry {
    let registry = RestorationRegistry()
    registry.register(AppScreenRestoration.self, named: AppState.screenRestorationName)
    registry.register(AppCellRestoration.self, named: AppState.cellRestorationName)
    if let store {
      registry.registerObject(store)
      for document in store.documents { registry.registerObject(document) }
    }
    return registry
  }

  /// The tab bar, its tabs and the model objects, which the app creates at launch; the
  /// screens and their cells are re-created by their restoration classes.
  func makeLaunch() -> EngineLaunch {
    let (controllers, store) = Self.makeObjects(state, launch: true)
    let root = controllers[0] ?? AppController.make(.tabBar, createsChildren: false)
    return EngineLaunch(
      roots: [root], registry: Self.makeRegistry(store), retained: store.map { [$0] } ?? [])
  }

  /// The objects of the state, indexed as it indexes them; at launch only the tab bar, its tabs
  /// and the model objects, without values.
  static func makeObjects(
    _ state: AppState, launch: Bool
  ) -> (controllers: [AppController?], store: DocumentStore?) {
    var controllers: [AppController?] = Array(repeating: nil, count: state.count)
    var models: [AppModelObject?] = Array(repeating: nil, count: state.count)
    var store: DocumentStore?
    for (index, object) in state.objects.enumerated() {
      switch object.kind {
      case .store:
        let made = DocumentStore(identifier: object.identifier)
        store = made
        models[index] = made
      case .document:
        let document = Document(identifier: object.identifier)
        if let parent = object.parent, let owner = models[parent] as? DocumentStore {
          owner.add(document)
        }
        models[index] = document
      case .tabBar, .navigation:
        let controller = AppController.make(object.kind, createsChildren: false)
        if let parent = object.parent { controllers[parent]?.add(controller) }
        controllers[index] = controller
      default:
        guard !launch else { continue }
        let controller = AppController.make(object.kind, createsChildren: false)
        if let parent = object.parent { controllers[parent]?.add(controller) }
        controllers[index] = controller
      }
      guard !launch else { continue }
      controllers[index]?.values = object.values
      models[index]?.values = object.values
    }
    guard !launch else { return (controllers, store) }
    for (index, object) in state.objects.enumerated() {
      guard let controller = controllers[index] else { continue }
      controller.store = object.store.flatMap { models[$0] }
      controller.document = object.document.flatMap { models[$0] }
      controller.previous = object.previous.flatMap { controllers[$0] }
      controller.related = object.related.flatMap { controllers[$0] }
    }
    return (controllers, store)
  }
}
