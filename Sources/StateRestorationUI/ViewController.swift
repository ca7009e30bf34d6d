public import StateRestoration

/// A type that re-creates view controllers at launch (UIKit's `UIViewControllerRestoration`).
///
/// Set it as a controller's ``ViewController/restorationClass`` and register it with
/// ``Application/register(restorationClass:)``; at the next launch the engine calls it to create
/// the controller. Returning nil leaves the controller and everything below it out of the
/// restore, and no other lookup is tried.
public protocol ViewControllerRestoration: ObjectRestoration {
  /// Creates the controller preserved at an identifier path.
  ///
  /// Set the new controller's ``ViewController/restorationIdentifier`` (the last component)
  /// and ``ViewController/restorationClass`` so that it is preserved again next time.
  ///
  /// - Parameters:
  ///   - identifierComponents: The path split at `/`, index components included.
  ///   - coder: The controller's coder, for state needed to create it.
  /// - Returns: The controller, or nil to skip it.
  static func viewController(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> ViewController?
}

extension ViewControllerRestoration {
  /// Bridges to ``viewController(withRestorationIdentifierPath:coder:)``.
  public static func object(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> (any StateRestoring)? {
    viewController(withRestorationIdentifierPath: identifierComponents, coder: coder)
  }
}

/// Where a controller is in its appearance cycle.
public enum AppearanceState: Sendable, Hashable {
  /// Not on screen.
  case disappeared
  /// Between `viewWillAppear` and `viewDidAppear`.
  case appearing
  /// On screen.
  case appeared
  /// Between `viewWillDisappear` and `viewDidDisappear`.
  case disappearing
}

/// A controller of one screen's worth of UI (UIKit's `UIViewController`), without a screen.
///
/// It has UIKit's view lifecycle (``loadView()``, ``viewDidLoad()``, will/did appear and
/// disappear), containment (``addChild(_:)``, ``removeFromParent()``), modal presentation
/// (``present(_:)``, ``dismiss()``), and takes part in state restoration: give it a
/// ``restorationIdentifier`` and override ``encodeRestorableState(with:)`` and
/// ``decodeRestorableState(with:)``, calling `super`.
///
/// Unlike UIKit, a controller's container is already linked when its decode runs: containers
/// decode before their children and relink them, so ``navigationController`` and
/// ``tabBarController`` are set inside ``decodeRestorableState(with:)``.
open class ViewController: RestorationNode {
  /// Archive key: whether the view was loaded at save time (UIKit's own key).
  public static let viewWasLoadedKey = "kViewControllerViewWasLoadedKey"
  /// Archive key: the presented controller.
  public static let presentedViewControllerKey = "kViewControllerPresentedViewControllerKey"

  /// The identifier for restoration; nil means "do not preserve this controller, its children
  /// and what it presents".
  open var restorationIdentifier: String?
  /// The type that re-creates this controller at launch; it must be registered with the
  /// application.
  open var restorationClass: (any ViewControllerRestoration.Type)?
  /// The title, shown by navigation bars and tab bars.
  open var title: String?
  /// The storyboard this controller was instantiated from.
  public internal(set) var storyboard: Storyboard?
  /// The storyboard identifier of the scene it was instantiated from.
  public internal(set) var storyboardIdentifier: String?

  /// The controller that contains this one.
  public private(set) weak var parent: ViewController?
  /// The controllers this one contains.
  public private(set) var children: [ViewController] = []
  /// The controller this one presents modally.
  public private(set) var presentedViewController: ViewController?
  /// The controller that presents this one.
  public private(set) weak var presentingViewController: ViewController?
  /// The window this controller is the root of.
  weak var window: Window?

  /// Where the controller is in its appearance cycle.
  public private(set) var appearanceState: AppearanceState = .disappeared
  /// Whether the controller is on screen.
  public var isVisible: Bool { appearanceState == .appeared || appearanceState == .appearing }

  private var loadedView: View?

  /// Creates a controller.
  ///
  /// - Parameter restorationIdentifier: The identifier for restoration.
  public init(restorationIdentifier: String? = nil) {
    self.restorationIdentifier = restorationIdentifier
  }

  // MARK: - View

  /// The root view, loaded on first access (``loadView()`` then ``viewDidLoad()``).
  public var view: View {
    if let loadedView { return loadedView }
    loadView()
    let view = loadedView ?? View()
    setView(view)
    viewDidLoad()
    return view
  }

  /// Whether the root view has been loaded.
  public var isViewLoaded: Bool { loadedView != nil }

  /// Loads the view if it is not loaded yet.
  public func loadViewIfNeeded() {
    _ = view
  }

  /// Builds the root view tree when the view loads, as a storyboard scene or a nib does; the
  /// default ``loadView()`` uses it.
  public var viewFactory: (() -> View)?

  /// Creates the root view.
  ///
  /// Override to build the view tree and call ``setView(_:)``; the default uses
  /// ``viewFactory``, or makes an empty view.
  open func loadView() {
    setView(viewFactory?() ?? View())
  }

  /// Installs the root view; call it from ``loadView()``.
  ///
  /// - Parameter view: The root view.
  public func setView(_ view: View) {
    loadedView?.owningViewController = nil
    view.owningViewController = self
    loadedView = view
  }

  /// Called once the root view is loaded.
  open func viewDidLoad() {}

  /// Called before the controller appears.
  open func viewWillAppear() {}

  /// Called after the controller appeared.
  open func viewDidAppear() {}

  /// Called before the controller disappears.
  open func viewWillDisappear() {}

  /// Called after the controller disappeared.
  open func viewDidDisappear() {}

  // MARK: - Appearance

  /// The children that are on screen when this controller is: all children by default; a
  /// navigation controller shows its top, a tab bar controller its selected tab.
  open var visibleChildren: [ViewController] { children }

  /// Runs the appearance callbacks down the visible tree: will-appear, then did-appear.
  public func appear() {
    guard appearanceState != .appeared else { return }
    beginAppearance(appearing: true)
    endAppearance(appearing: true)
  }

  /// Runs the disappearance callbacks down the visible tree.
  public func disappear() {
    guard appearanceState != .disappeared else { return }
    beginAppearance(appearing: false)
    endAppearance(appearing: false)
  }

  private func beginAppearance(appearing: Bool) {
    if appearing {
      loadViewIfNeeded()
      appearanceState = .appearing
      viewWillAppear()
    } else {
      appearanceState = .disappearing
      viewWillDisappear()
    }
    for child in visibleChildren { child.beginAppearance(appearing: appearing) }
    if let presentedViewController { presentedViewController.beginAppearance(appearing: appearing) }
  }

  private func endAppearance(appearing: Bool) {
    for child in visibleChildren { child.endAppearance(appearing: appearing) }
    if let presentedViewController { presentedViewController.endAppearance(appearing: appearing) }
    if appearing {
      appearanceState = .appeared
      viewDidAppear()
    } else {
      appearanceState = .disappeared
      viewDidDisappear()
    }
  }

  /// Moves appearance from one child to another when a container switches what it shows.
  func transition(from old: ViewController?, to new: ViewController?) {
    guard isVisible, old !== new else { return }
    old?.disappear()
    new?.appear()
  }

  // MARK: - Containment

  /// Adds a child controller (UIKit's containment).
  ///
  /// - Parameter child: The controller to contain; it is removed from its previous parent.
  open func addChild(_ child: ViewController) {
    guard child !== self else { return }
    child.removeFromParent()
    child.parent = self
    children.append(child)
  }

  /// Removes this controller from its parent.
  open func removeFromParent() {
    guard let parent else { return }
    parent.children.removeAll { $0 === self }
    self.parent = nil
  }

  /// Replaces all children at once.
  func replaceChildren(with newChildren: [ViewController]) {
    for child in children where !newChildren.contains(where: { $0 === child }) {
      child.parent = nil
    }
    for child in newChildren where child.parent !== self {
      child.removeFromParent()
      child.parent = self
    }
    children = newChildren
  }

  /// The nearest navigation controller above this controller.
  public var navigationController: NavigationController? {
    ancestor(of: NavigationController.self)
  }

  /// The nearest tab bar controller above this controller.
  public var tabBarController: TabBarController? {
    ancestor(of: TabBarController.self)
  }

  /// The nearest split view controller above this controller.
  public var splitViewController: SplitViewController? {
    ancestor(of: SplitViewController.self)
  }

  /// The window whose root is this controller or the controller it sits under.
  public var viewWindow: Window? {
    var current: ViewController? = self
    while let controller = current {
      if let window = controller.window { return window }
      current = controller.parent ?? controller.presentingViewController
    }
    return nil
  }

  /// The scene that shows this controller, in an app that uses scenes.
  public var windowScene: Scene? { viewWindow?.windowScene }

  private func ancestor<T: ViewController>(of type: T.Type) -> T? {
    var current = parent ?? presentingViewController
    while let controller = current {
      if let match = controller as? T { return match }
      current = controller.parent ?? controller.presentingViewController
    }
    return nil
  }

  /// The index a container gives a child in identifier paths (`:[i]:`); by default the child's
  /// position in ``children``.
  ///
  /// - Parameter child: A child of this controller.
  /// - Returns: The index, or nil for no index component.
  open func restorationIndex(ofChild child: ViewController) -> Int? {
    children.firstIndex { $0 === child }
  }

  // MARK: - Presentation

  /// Presents a controller modally over this one.
  ///
  /// - Parameter controller: The controller to present.
  open func present(_ controller: ViewController) {
    guard presentedViewController == nil, controller !== self else { return }
    controller.removeFromParent()
    controller.presentingViewController = self
    presentedViewController = controller
    if isVisible { controller.appear() }
  }

  /// Dismisses the controller this one presents, or, when called on a presented controller,
  /// dismisses it; controllers the dismissed one presents go with it.
  open func dismiss() {
    if presentedViewController != nil {
      dismissPresentedChain()
    } else if let presentingViewController {
      presentingViewController.dismissPresentedChain()
    }
  }

  /// Removes the presented controller and whatever it presents, top first, each disappearing.
  ///
  /// Kept apart from ``dismiss()``: a presented controller's `dismiss()` goes back up to its
  /// presenter, so calling it on the way down would never end.
  private func dismissPresentedChain() {
    guard let presented = presentedViewController else { return }
    presented.dismissPresentedChain()
    presented.disappear()
    presented.presentingViewController = nil
    presentedViewController = nil
  }

  // MARK: - State restoration

  /// Writes the controller's state.
  ///
  /// Subclasses call `super` (it records whether the view was
  /// loaded and which controller is presented).
  ///
  /// Encode runs even for controllers whose view never loaded (an unvisited tab): do not
  /// assume views exist here.
  ///
  /// - Parameter coder: The controller's own coder.
  /// - Throws: An error to report.
  open func encodeRestorableState(with coder: StateCoder) throws {
    coder.encode(isViewLoaded, forKey: Self.viewWasLoadedKey)
    if let presentedViewController, presentedViewController.restorationIdentifier != nil {
      coder.encode(presentedViewController, forKey: Self.presentedViewControllerKey)
    }
  }

  /// The version of what the controller's class encodes, 0 until a subclass overrides it: raise
  /// it when the keys change, and read the version an archive was written with from the
  /// coder's `stateVersion`.
  open var restorationStateVersion: Int { 0 }

  /// Reads the controller's state.
  ///
  /// Subclasses call `super` (it presents the restored
  /// presented controller again).
  ///
  /// The view is loaded before this runs if it was loaded at save time.
  ///
  /// - Parameter coder: The controller's own coder.
  /// - Throws: An error that marks the controller as not restored.
  open func decodeRestorableState(with coder: StateDecoder) throws {
    if let presented = coder.decodeObject(
      of: ViewController.self, forKey: Self.presentedViewControllerKey),
      presented !== presentedViewController
    {
      if presentedViewController != nil { dismiss() }
      present(presented)
    }
  }

  /// Called after all restoration is done, the delegate's decode included.
  open func applicationFinishedRestoringState() {}

  /// View controllers are the `viewController` kind.
  public var restorationKind: RestorationKind { .viewController }

  /// The restoration class, for the engine.
  public var objectRestorationClass: (any ObjectRestoration.Type)? { restorationClass }

  /// View controllers take their path from the tree, not from a restoration parent.
  public var restorationParent: (any StateRestoring)? { nil }

  /// The container (with this controller's index) or the presenting controller.
  public var restorationContainer: RestorationParentLink? {
    if let parent {
      return RestorationParentLink(parent: parent, index: parent.restorationIndex(ofChild: self))
    }
    if let presentingViewController {
      return RestorationParentLink(parent: presentingViewController)
    }
    return nil
  }

  /// Children, and the root view when loaded.
  public var restorationChildren: [any StateRestoring] {
    var result: [any StateRestoring] = children
    if let loadedView { result.append(loadedView) }
    return result
  }

  /// The presented controller.
  public var restorationPresentedNode: (any StateRestoring)? { presentedViewController }

  /// The storyboard scene this controller came from.
  public var restorationStoryboard: StoryboardReference? {
    storyboard.map { StoryboardReference(name: $0.name, identifier: storyboardIdentifier) }
  }

  /// Loads the view before decode when it was loaded at save time, so decode runs after
  /// ``viewDidLoad()`` as in UIKit.
  open func restorationWillDecode(with coder: StateDecoder) {
    if coder.decode(Bool.self, forKey: Self.viewWasLoadedKey) ?? true {
      loadViewIfNeeded()
    }
  }

  /// Finds a child by identifier and index, the presented controller, or a view in the view
  /// tree (loading the view if needed).
  open func restorationChild(
    withIdentifier identifier: String,
    index: Int?
  ) -> (any StateRestoring)? {
    if let index {
      return children.first {
        $0.restorationIdentifier == identifier && restorationIndex(ofChild: $0) == index
      }
    }
    if let presentedViewController, presentedViewController.restorationIdentifier == identifier {
      return presentedViewController
    }
    // An archived view means the view was loaded at save time; load it now to find the view,
    // which runs viewDidLoad before any decode, as UIKit does.
    return view.view(withRestorationIdentifier: identifier)
  }

  /// No specific reason for a plain controller, so the report gives the generic one.
  ///
  /// Containers override it to say what they lack.
  open func restorationMissingChildReason(identifier: String, index: Int?) -> String? { nil }
}
