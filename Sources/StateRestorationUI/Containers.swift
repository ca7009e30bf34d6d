public import StateRestoration

/// A stack of controllers, one on screen at a time (UIKit's `UINavigationController`).
///
/// Preservation saves the stack bottom to top as references to the children that have a
/// restoration identifier (`kUIViewControllerChildrenKey`); children may share identifiers,
/// since each gets its index in the path. Restoration rebuilds the stack in the same order and
/// cuts it at the first child that could not be re-created, logging UIKit's line
/// ("Can't find Child View Controller at index 1 with identifier ..., truncating child array")
/// and marking the children dropped as truncated in the restoration report.
open class NavigationController: ViewController {
  /// Archive key: the stack, as references (UIKit's own key).
  public static let childrenKey = "kUIViewControllerChildrenKey"

  /// Creates a navigation controller.
  ///
  /// - Parameters:
  ///   - rootViewController: The bottom of the stack.
  ///   - restorationIdentifier: The identifier for restoration.
  public init(rootViewController: ViewController? = nil, restorationIdentifier: String? = nil) {
    super.init(restorationIdentifier: restorationIdentifier)
    if let rootViewController { addChild(rootViewController) }
  }

  /// The stack, bottom first.
  public var viewControllers: [ViewController] { children }

  /// The controller at the top of the stack.
  public var topViewController: ViewController? { children.last }

  /// The controller on screen: what the top presents, or the top.
  public var visibleViewController: ViewController? {
    topViewController?.presentedViewController ?? topViewController
  }

  /// Only the top controller is on screen.
  open override var visibleChildren: [ViewController] { topViewController.map { [$0] } ?? [] }

  /// Replaces the whole stack.
  ///
  /// - Parameter controllers: The new stack, bottom first.
  open func setViewControllers(_ controllers: [ViewController]) {
    let oldTop = topViewController
    replaceChildren(with: controllers)
    transition(from: oldTop, to: topViewController)
  }

  /// Pushes a controller on top of the stack.
  ///
  /// - Parameter controller: The controller to show.
  open func pushViewController(_ controller: ViewController) {
    let oldTop = topViewController
    addChild(controller)
    transition(from: oldTop, to: controller)
  }

  /// Pops the top controller, unless it is the root.
  ///
  /// - Returns: The controller popped, or nil at the root.
  @discardableResult
  open func popViewController() -> ViewController? {
    guard children.count > 1, let top = topViewController else { return nil }
    top.removeFromParent()
    transition(from: top, to: topViewController)
    return top
  }

  /// Pops every controller above the root.
  ///
  /// - Returns: The controllers popped, bottom first.
  @discardableResult
  open func popToRootViewController() -> [ViewController] {
    guard children.count > 1 else { return [] }
    let popped = Array(children.dropFirst())
    let oldTop = topViewController
    replaceChildren(with: [children[0]])
    transition(from: oldTop, to: topViewController)
    return popped
  }

  /// Writes the stack, bottom to top, keeping only children with an identifier.
  open override func encodeRestorableState(with coder: StateCoder) throws {
    try super.encodeRestorableState(with: coder)
    coder.encode(children.filter { $0.restorationIdentifier != nil }, forKey: Self.childrenKey)
  }

  /// Rebuilds the stack, cut at the first child that was not restored.
  open override func decodeRestorableState(with coder: StateDecoder) throws {
    try super.decodeRestorableState(with: coder)
    guard let references = coder.decodeReferences(forKey: Self.childrenKey) else { return }
    let (restored, truncated) = Self.restoredChildren(from: references, coder: coder)
    // With nothing restorable, keep the stack the app built at launch rather than an empty one.
    if !restored.isEmpty || truncated == nil { setViewControllers(restored) }
  }

  /// Says that the stack has no such child: the stack is archived, so the child existed at save
  /// time and nothing re-created it at launch.
  open override func restorationMissingChildReason(identifier: String, index: Int?) -> String? {
    let position = index.map { " at index \($0)" } ?? ""
    return
      "is a navigation controller whose stack has no child '\(identifier)'\(position); the stack is archived, but nothing re-created this child (give it a restoration class or a storyboard, or create it in the app delegate)"
  }

  /// The children that were restored, in order, stopping at the first missing one; reports
  /// the cut.
  static func restoredChildren(
    from references: [DecodedReference],
    coder: StateDecoder
  ) -> (children: [ViewController], truncatedAt: Int?) {
    var restored: [ViewController] = []
    for (index, reference) in references.enumerated() {
      guard let child = reference.object as? ViewController else {
        coder.reportTruncation(
          of: references[index...].map(\.identifierPath),
          reason:
            "Can't find Child View Controller at index \(index) with identifier \(reference.identifierPath), truncating child array"
        )
        return (restored, index)
      }
      restored.append(child)
    }
    return (restored, nil)
  }
}

/// Tabs of controllers, one selected (UIKit's `UITabBarController`).
///
/// As in UIKit, preservation saves only a reference to the selected tab
/// (`kTabBarSelectedViewControllerKey`), not the list of tabs: the app creates the tabs before
/// restoration (in its storyboard or in will-finish-launching). Tabs are matched by identifier,
/// not position, so an app may reorder its tabs between launches. A tab bar controller
/// re-created without its tabs comes back empty; the restoration report says why.
open class TabBarController: ViewController {
  /// Archive key: the selected tab (UIKit's own key).
  public static let selectedViewControllerKey = "kTabBarSelectedViewControllerKey"

  private var selectedPosition = 0

  /// Creates a tab bar controller.
  ///
  /// - Parameters:
  ///   - viewControllers: The tabs, in order.
  ///   - restorationIdentifier: The identifier for restoration.
  public init(viewControllers: [ViewController] = [], restorationIdentifier: String? = nil) {
    super.init(restorationIdentifier: restorationIdentifier)
    for controller in viewControllers { addChild(controller) }
  }

  /// The tabs, in order.
  public var viewControllers: [ViewController] { children }

  /// Replaces the tabs; the selection moves to the first tab if the selected one is gone.
  ///
  /// - Parameter controllers: The tabs, in order.
  open func setViewControllers(_ controllers: [ViewController]) {
    let old = selectedViewController
    replaceChildren(with: controllers)
    if let old, let position = children.firstIndex(where: { $0 === old }) {
      selectedPosition = position
    } else {
      selectedPosition = 0
    }
    transition(from: old, to: selectedViewController)
  }

  /// The position of the selected tab.
  public var selectedIndex: Int {
    get { children.isEmpty ? 0 : min(selectedPosition, children.count - 1) }
    set {
      guard children.indices.contains(newValue) else { return }
      let old = selectedViewController
      selectedPosition = newValue
      transition(from: old, to: selectedViewController)
    }
  }

  /// The selected tab.
  public var selectedViewController: ViewController? {
    get { children.isEmpty ? nil : children[selectedIndex] }
    set {
      guard let newValue, let position = children.firstIndex(where: { $0 === newValue }) else {
        return
      }
      selectedIndex = position
    }
  }

  /// Only the selected tab is on screen.
  open override var visibleChildren: [ViewController] { selectedViewController.map { [$0] } ?? [] }

  /// Writes a reference to the selected tab only.
  open override func encodeRestorableState(with coder: StateCoder) throws {
    try super.encodeRestorableState(with: coder)
    if let selectedViewController, selectedViewController.restorationIdentifier != nil {
      coder.encode(selectedViewController, forKey: Self.selectedViewControllerKey)
    }
  }

  /// Selects the tab that was selected, matched by identity or else by identifier.
  open override func decodeRestorableState(with coder: StateDecoder) throws {
    try super.decodeRestorableState(with: coder)
    guard
      let references = coder.decodeValue(forKey: Self.selectedViewControllerKey),
      case .reference(let path) = references
    else { return }
    if let selected = coder.decodeObject(
      of: ViewController.self, forKey: Self.selectedViewControllerKey),
      children.contains(where: { $0 === selected })
    {
      selectedViewController = selected
    } else if let identifier = IdentifierPath.components(of: path).last,
      let match = children.first(where: { $0.restorationIdentifier == identifier })
    {
      selectedViewController = match
    } else {
      coder.debugLog("Selected tab \(path) is not among the tabs; keeping the current selection")
    }
  }

  /// Tabs are matched by identifier alone, so reordered tabs are still found.
  open override func restorationChild(
    withIdentifier identifier: String,
    index: Int?
  ) -> (any StateRestoring)? {
    if let exact = super.restorationChild(withIdentifier: identifier, index: index) { return exact }
    return children.first { $0.restorationIdentifier == identifier }
  }

  /// Names the tab bar and what it lacks: its tabs are not archived, so they must exist before
  /// restoration, as in UIKit.
  open override func restorationMissingChildReason(identifier: String, index: Int?) -> String? {
    if children.isEmpty {
      return
        "is a tab bar controller with no tabs; a tab bar controller does not archive its tabs, so they must exist before restoration (create them with the tab bar controller, in its restoration class, storyboard or init)"
    }
    return
      "is a tab bar controller with no tab '\(identifier)'; a tab bar controller does not archive its tabs, so every tab must exist before restoration"
  }
}

/// A primary and a secondary controller side by side, or collapsed into one column (UIKit's
/// `UISplitViewController`).
///
/// Preservation saves both children (`kUIViewControllerChildrenKey`) and whether the split was
/// collapsed. Unlike UIKit, where collapsing moves the secondary controller under the primary
/// and so changes its identifier path, the children keep their paths (`:[0]:` and `:[1]:`) in
/// both layouts, so a state saved in one layout restores in the other.
open class SplitViewController: ViewController {
  /// Archive key: whether the split was collapsed.
  public static let collapsedKey = "kSplitViewControllerCollapsedKey"

  /// Whether only one column is shown (the primary, with the secondary on top when present).
  open var isCollapsed = false {
    didSet {
      guard oldValue != isCollapsed, isVisible, let secondary = secondaryViewController else {
        return
      }
      if isCollapsed { secondary.disappear() } else { secondary.appear() }
    }
  }

  /// Creates a split view controller.
  ///
  /// - Parameters:
  ///   - primary: The primary (master) controller.
  ///   - secondary: The secondary (detail) controller.
  ///   - restorationIdentifier: The identifier for restoration.
  public init(
    primary: ViewController? = nil,
    secondary: ViewController? = nil,
    restorationIdentifier: String? = nil
  ) {
    super.init(restorationIdentifier: restorationIdentifier)
    setViewControllers([primary, secondary].compactMap { $0 })
  }

  /// The primary and secondary controllers.
  public var viewControllers: [ViewController] { children }

  /// The primary (master) controller.
  public var primaryViewController: ViewController? { children.first }

  /// The secondary (detail) controller.
  public var secondaryViewController: ViewController? { children.count > 1 ? children[1] : nil }

  /// Replaces the children: the first is the primary, the second the secondary.
  ///
  /// - Parameter controllers: At most two controllers.
  open func setViewControllers(_ controllers: [ViewController]) {
    let oldVisible = visibleChildren
    replaceChildren(with: Array(controllers.prefix(2)))
    guard isVisible else { return }
    for old in oldVisible where !visibleChildren.contains(where: { $0 === old }) { old.disappear() }
    for new in visibleChildren { new.appear() }
  }

  /// Shows a controller as the secondary.
  ///
  /// - Parameter controller: The new secondary controller.
  open func showDetailViewController(_ controller: ViewController) {
    setViewControllers([primaryViewController, controller].compactMap { $0 })
  }

  /// Both columns when expanded; collapsed, the secondary when present (it sits on top),
  /// else the primary.
  open override var visibleChildren: [ViewController] {
    guard isCollapsed else { return children }
    return [secondaryViewController ?? primaryViewController].compactMap { $0 }
  }

  /// Writes both children and the collapse state.
  open override func encodeRestorableState(with coder: StateCoder) throws {
    try super.encodeRestorableState(with: coder)
    coder.encode(
      children.filter { $0.restorationIdentifier != nil }, forKey: NavigationController.childrenKey)
    coder.encode(isCollapsed, forKey: Self.collapsedKey)
  }

  /// Relinks the children and the collapse state.
  open override func decodeRestorableState(with coder: StateDecoder) throws {
    try super.decodeRestorableState(with: coder)
    if let collapsed = coder.decode(Bool.self, forKey: Self.collapsedKey) {
      isCollapsed = collapsed
    }
    guard let references = coder.decodeReferences(forKey: NavigationController.childrenKey) else {
      return
    }
    let (restored, _) = NavigationController.restoredChildren(from: references, coder: coder)
    if !restored.isEmpty { setViewControllers(restored) }
  }
}
