public import StateRestoration

/// A rectangular piece of UI with a restoration identifier and subviews (UIKit's `UIView`).
///
/// Views are never created by restoration: they are found inside their controller's view tree by
/// identifier path, which attaches to the owning controller's path (`Countries/CountryTable`),
/// skipping the identifiers of intermediate views. A view without an identifier is never
/// archived, but identified views below it still are.
///
/// Subclasses that keep state override ``encodeRestorableState(with:)`` and
/// ``decodeRestorableState(with:)`` and call `super`.
open class View: RestorationNode {
  /// The view's identifier for restoration; nil means "do not preserve".
  open var restorationIdentifier: String?
  /// The view that contains this one.
  public private(set) weak var superview: View?
  /// The views this one contains, back to front.
  public private(set) var subviews: [View] = []
  /// The controller whose root view this is, if any.
  public internal(set) weak var owningViewController: ViewController?
  /// Whether the view is hidden.
  open var isHidden = false

  /// Creates a view.
  ///
  /// - Parameter restorationIdentifier: The identifier for restoration.
  public init(restorationIdentifier: String? = nil) {
    self.restorationIdentifier = restorationIdentifier
  }

  /// Adds a subview at the front, removing it from its previous superview.
  ///
  /// - Parameter view: The view to add.
  open func addSubview(_ view: View) {
    guard view !== self else { return }
    view.removeFromSuperview()
    view.superview = self
    subviews.append(view)
  }

  /// Removes the view from its superview.
  open func removeFromSuperview() {
    guard let superview else { return }
    superview.subviews.removeAll { $0 === self }
    self.superview = nil
  }

  /// The controller whose view tree holds this view: the owner of this view or of the nearest
  /// superview that is a controller's root view.
  public var viewController: ViewController? {
    var current: View? = self
    while let view = current {
      if let owner = view.owningViewController { return owner }
      current = view.superview
    }
    return nil
  }

  /// The first view in this subtree, this one included, with a restoration identifier.
  ///
  /// - Parameter identifier: The identifier.
  /// - Returns: The view, searched depth first, or nil.
  public func view(withRestorationIdentifier identifier: String) -> View? {
    if restorationIdentifier == identifier { return self }
    for subview in subviews {
      if let found = subview.view(withRestorationIdentifier: identifier) { return found }
    }
    return nil
  }

  // MARK: State restoration

  /// Writes the view's state.
  ///
  /// Subclasses call `super`.
  ///
  /// - Parameter coder: The view's own coder.
  /// - Throws: An error to report.
  open func encodeRestorableState(with coder: StateCoder) throws {}

  /// The version of what the view's class encodes, 0 until a subclass overrides it (see
  /// `ViewController.restorationStateVersion`).
  open var restorationStateVersion: Int { 0 }

  /// Reads the view's state.
  ///
  /// Subclasses call `super`.
  ///
  /// - Parameter coder: The view's own coder.
  /// - Throws: An error that marks the view as not restored.
  open func decodeRestorableState(with coder: StateDecoder) throws {}

  /// Called after all restoration is done.
  open func applicationFinishedRestoringState() {}

  /// Views are the `view` kind.
  public var restorationKind: RestorationKind { .view }

  /// Views take their path from the controller that owns their view tree.
  public var restorationContainer: RestorationParentLink? {
    viewController.map { RestorationParentLink(parent: $0) }
  }

  /// The subviews, for the walk.
  public var restorationChildren: [any StateRestoring] { subviews }

  /// Views have no restoration class.
  public var objectRestorationClass: (any ObjectRestoration.Type)? { nil }

  /// Views have no restoration parent outside the tree.
  public var restorationParent: (any StateRestoring)? { nil }

  /// Views are never instantiated from storyboards by the engine.
  public var restorationStoryboard: StoryboardReference? { nil }

  /// Nothing to prepare for a view.
  open func restorationWillDecode(with coder: StateDecoder) {}

  /// Matches a subview by identifier (views have no index components).
  public func restorationChild(
    withIdentifier identifier: String,
    index: Int?
  ) -> (any StateRestoring)? {
    guard index == nil else { return nil }
    return view(withRestorationIdentifier: identifier)
  }
}
