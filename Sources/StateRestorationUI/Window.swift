public import StateRestoration

/// How much room there is in one direction (UIKit's `UIUserInterfaceSizeClass`).
public enum UserInterfaceSizeClass: String, Sendable, Hashable, CaseIterable {
  /// Not known.
  case unspecified
  /// Little room: a phone's width in portrait, a narrow terminal.
  case compact
  /// Plenty of room.
  case regular
}

/// The environment a window's content is laid out for (UIKit's `UITraitCollection`).
public struct TraitCollection: Sendable, Hashable {
  /// The horizontal size class.
  public var horizontalSizeClass: UserInterfaceSizeClass
  /// The vertical size class.
  public var verticalSizeClass: UserInterfaceSizeClass

  /// Creates a trait collection.
  ///
  /// - Parameters:
  ///   - horizontalSizeClass: The horizontal size class.
  ///   - verticalSizeClass: The vertical size class.
  public init(
    horizontalSizeClass: UserInterfaceSizeClass = .unspecified,
    verticalSizeClass: UserInterfaceSizeClass = .unspecified
  ) {
    self.horizontalSizeClass = horizontalSizeClass
    self.verticalSizeClass = verticalSizeClass
  }
}

/// The top of a view-controller hierarchy (UIKit's `UIWindow`).
///
/// A window is preserved only when it has a restoration identifier; it then records the size
/// classes it had, which come back as ``restoredTraitCollection`` so the app can tell whether
/// the layout changed while it was away. Its root view controller is preserved either way, with
/// a path that does not include the window's identifier, as in UIKit.
public final class Window: RestorationNode {
  /// Archive key: the horizontal size class at save time.
  public static let horizontalSizeClassKey = "kUIWindowHorizontalSizeClassKey"
  /// Archive key: the vertical size class at save time.
  public static let verticalSizeClassKey = "kUIWindowVerticalSizeClassKey"

  /// The identifier for restoration; nil means the window itself is not archived.
  public var restorationIdentifier: String?
  /// The controller whose view fills the window.
  public var rootViewController: ViewController? {
    didSet {
      if oldValue !== rootViewController { oldValue?.window = nil }
      rootViewController?.window = self
      guard oldValue !== rootViewController, isVisible else { return }
      oldValue?.disappear()
      rootViewController?.appear()
    }
  }
  /// The current size classes.
  public var traitCollection: TraitCollection
  /// The size classes recorded in the archive at the last restoration, if the window was
  /// archived.
  public private(set) var restoredTraitCollection: TraitCollection?
  /// Whether the window is shown.
  public private(set) var isVisible = false
  /// The scene the window belongs to, in an app that uses scenes.
  public internal(set) weak var windowScene: Scene?

  /// Creates a window.
  ///
  /// - Parameters:
  ///   - rootViewController: The root controller.
  ///   - restorationIdentifier: The identifier for restoration.
  ///   - traitCollection: The size classes.
  public init(
    rootViewController: ViewController? = nil,
    restorationIdentifier: String? = nil,
    traitCollection: TraitCollection = TraitCollection()
  ) {
    self.rootViewController = rootViewController
    self.restorationIdentifier = restorationIdentifier
    self.traitCollection = traitCollection
    rootViewController?.window = self
  }

  /// Shows the window: its root controller appears.
  public func makeKeyAndVisible() {
    guard !isVisible else { return }
    isVisible = true
    rootViewController?.appear()
  }

  /// Hides the window: its root controller disappears.
  public func hide() {
    guard isVisible else { return }
    isVisible = false
    rootViewController?.disappear()
  }

  /// Writes the size classes.
  public func encodeRestorableState(with coder: StateCoder) throws {
    coder.encode(traitCollection.horizontalSizeClass.rawValue, forKey: Self.horizontalSizeClassKey)
    coder.encode(traitCollection.verticalSizeClass.rawValue, forKey: Self.verticalSizeClassKey)
  }

  /// Reads the size classes into ``restoredTraitCollection``.
  public func decodeRestorableState(with coder: StateDecoder) throws {
    let horizontal = coder.decode(String.self, forKey: Self.horizontalSizeClassKey)
      .flatMap(UserInterfaceSizeClass.init(rawValue:))
    let vertical = coder.decode(String.self, forKey: Self.verticalSizeClassKey)
      .flatMap(UserInterfaceSizeClass.init(rawValue:))
    restoredTraitCollection = TraitCollection(
      horizontalSizeClass: horizontal ?? .unspecified,
      verticalSizeClass: vertical ?? .unspecified
    )
  }

  /// Windows are views.
  public var restorationKind: RestorationKind { .view }

  /// The root controller, for the walk.
  public var restorationChildren: [any StateRestoring] {
    rootViewController.map { [$0] } ?? []
  }
}
