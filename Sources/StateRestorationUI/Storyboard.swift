public import StateRestoration

/// Scenes of view controllers, instantiated by identifier (UIKit's `UIStoryboard`), built in
/// code or imported from an Xcode storyboard.
///
/// Each scene makes one controller; relationships connect scenes the way Interface Builder's
/// relationship segues do (a tab bar's tabs, a navigation controller's root, a split view's
/// columns), and are instantiated together with the scene. A scene can use its storyboard
/// identifier as its restoration identifier ("Use Storyboard ID"). Every controller made here
/// remembers the storyboard and scene it came from; the archive records them, so the engine can
/// re-create a controller from its storyboard when nothing else does.
public final class Storyboard: RestorationStoryboard {
  /// How one scene connects to others.
  public enum Relationship: Sendable, Hashable {
    /// A tab bar controller's tabs, in order (scene IDs).
    case viewControllers([String])
    /// A navigation controller's root (scene ID).
    case rootViewController(String)
    /// A split view controller's primary and secondary columns (scene IDs).
    case splitViewControllers(primary: String, secondary: String?)
  }

  /// One scene.
  public struct Scene {
    /// The scene's unique ID within the storyboard.
    public var id: String
    /// The storyboard identifier, used by ``Storyboard/instantiateViewController(withIdentifier:)``.
    public var storyboardIdentifier: String?
    /// An explicit restoration identifier.
    public var restorationIdentifier: String?
    /// Whether the storyboard identifier is also the restoration identifier ("Use Storyboard ID").
    public var usesStoryboardIdentifierAsRestorationIdentifier: Bool
    /// The scene's relationships.
    public var relationships: [Relationship]
    /// Makes the scene's controller, before relationships are connected.
    public var make: () -> ViewController

    /// The restoration identifier the scene's controller gets.
    public var effectiveRestorationIdentifier: String? {
      usesStoryboardIdentifierAsRestorationIdentifier
        ? (storyboardIdentifier ?? restorationIdentifier) : restorationIdentifier
    }
  }

  /// The name recorded in archives.
  public let name: String
  /// The scene instantiated by ``instantiateInitialViewController()``.
  public var initialSceneID: String?
  /// The scenes, by ID.
  public private(set) var scenes: [String: Scene] = [:]
  /// Scene IDs in the order they were added.
  public private(set) var sceneOrder: [String] = []

  /// Creates an empty storyboard.
  ///
  /// - Parameter name: The storyboard's name, such as `Main`.
  public init(name: String) {
    self.name = name
  }

  /// Adds a scene.
  ///
  /// - Parameters:
  ///   - id: A unique ID; by default the storyboard identifier.
  ///   - storyboardIdentifier: The storyboard identifier.
  ///   - restorationIdentifier: An explicit restoration identifier.
  ///   - usesStoryboardIdentifierAsRestorationIdentifier: "Use Storyboard ID".
  ///   - relationships: Relationship segues to other scenes.
  ///   - isInitial: Whether this is the initial scene.
  ///   - make: Makes the scene's controller.
  public func addScene(
    id: String? = nil,
    storyboardIdentifier: String?,
    restorationIdentifier: String? = nil,
    usesStoryboardIdentifierAsRestorationIdentifier: Bool = false,
    relationships: [Relationship] = [],
    isInitial: Bool = false,
    make: @escaping () -> ViewController
  ) {
    let sceneID = id ?? storyboardIdentifier ?? "scene-\(sceneOrder.count)"
    if scenes[sceneID] == nil { sceneOrder.append(sceneID) }
    scenes[sceneID] = Scene(
      id: sceneID,
      storyboardIdentifier: storyboardIdentifier,
      restorationIdentifier: restorationIdentifier,
      usesStoryboardIdentifierAsRestorationIdentifier:
        usesStoryboardIdentifierAsRestorationIdentifier,
      relationships: relationships,
      make: make
    )
    if isInitial { initialSceneID = sceneID }
  }

  /// Instantiates the initial scene with its relationships.
  ///
  /// - Returns: The controller, or nil when there is no initial scene.
  public func instantiateInitialViewController() -> ViewController? {
    guard let initialSceneID else { return nil }
    return instantiateScene(initialSceneID)
  }

  /// Instantiates the scene with a storyboard identifier, with its relationships.
  ///
  /// - Parameter identifier: The storyboard identifier.
  /// - Returns: The controller, or nil when no scene has that identifier.
  public func instantiateViewController(withIdentifier identifier: String) -> ViewController? {
    guard
      let scene = sceneOrder.lazy.compactMap({ self.scenes[$0] })
        .first(where: { $0.storyboardIdentifier == identifier })
    else { return nil }
    return instantiateScene(scene.id)
  }

  /// Instantiates a scene by ID, with its relationships.
  ///
  /// - Parameter sceneID: The scene's ID.
  /// - Returns: The controller, or nil for an unknown ID.
  public func instantiateScene(_ sceneID: String) -> ViewController? {
    var visiting: Set<String> = []
    return instantiate(sceneID, visiting: &visiting)
  }

  private func instantiate(_ sceneID: String, visiting: inout Set<String>) -> ViewController? {
    // A relationship cycle would instantiate forever; a scene is never its own ancestor.
    guard let scene = scenes[sceneID], visiting.insert(sceneID).inserted else { return nil }
    defer { visiting.remove(sceneID) }
    let controller = scene.make()
    controller.storyboard = self
    controller.storyboardIdentifier = scene.storyboardIdentifier
    if let identifier = scene.effectiveRestorationIdentifier {
      controller.restorationIdentifier = identifier
    }
    for relationship in scene.relationships {
      switch relationship {
      case .viewControllers(let ids):
        let tabs = ids.compactMap { instantiate($0, visiting: &visiting) }
        if let tabBar = controller as? TabBarController {
          tabBar.setViewControllers(tabs)
        } else {
          for tab in tabs { controller.addChild(tab) }
        }
      case .rootViewController(let id):
        guard let root = instantiate(id, visiting: &visiting) else { continue }
        if let navigation = controller as? NavigationController {
          navigation.setViewControllers([root])
        } else {
          controller.addChild(root)
        }
      case .splitViewControllers(let primaryID, let secondaryID):
        let columns = [primaryID, secondaryID].compactMap { $0 }
          .compactMap { instantiate($0, visiting: &visiting) }
        if let split = controller as? SplitViewController {
          split.setViewControllers(columns)
        } else {
          for column in columns { controller.addChild(column) }
        }
      }
    }
    return controller
  }

  /// Instantiates a scene for the engine, by storyboard identifier.
  public func instantiateForRestoration(withIdentifier identifier: String) -> (any StateRestoring)?
  {
    instantiateViewController(withIdentifier: identifier)
  }
}
