import StateRestoration

/// A view-controller-like node that writes UIKit's own keys, so that archives made from it read
/// like the ones restorationArchiveTool printed.
class DemoController: RestorationNode {
  var restorationIdentifier: String?
  var objectRestorationClass: (any ObjectRestoration.Type)?
  var restorationStoryboard: StoryboardReference?
  weak var parent: DemoController?
  private(set) var children: [DemoController] = []
  private(set) var views: [DemoView] = []
  /// Whether children get `:[i]:` components, as a container's do.
  var indexesChildren = true
  /// Extra state, written as is.
  var values: [(String, StateValue)] = []
  /// Keys written as sensitive, with the values that must never reach the archive.
  var sensitiveValues: [(String, String)] = []
  /// References to other restorable objects.
  var references: [(String, any StateRestoring)] = []

  init(_ identifier: String?) {
    restorationIdentifier = identifier
  }

  func addChild(_ child: DemoController) {
    child.parent = self
    children.append(child)
  }

  func addView(_ view: DemoView) {
    view.owner = self
    views.append(view)
  }

  var restorationKind: RestorationKind { .viewController }

  var restorationContainer: RestorationParentLink? {
    guard let parent else { return nil }
    let index = parent.indexesChildren ? parent.children.firstIndex { $0 === self } : nil
    return RestorationParentLink(parent: parent, index: index)
  }

  var restorationChildren: [any StateRestoring] { children + views }

  func encodeRestorableState(with coder: StateCoder) throws {
    coder.encode(true, forKey: "kViewControllerViewWasLoadedKey")
    for (key, value) in values { coder.encodeValue(value, forKey: key) }
    for (key, value) in sensitiveValues { coder.encode(value, forKey: key, sensitive: true) }
    for (key, object) in references { coder.encode(object, forKey: key) }
  }
}

/// A tab bar controller: its selected tab is a reference.
final class TabBarController: DemoController {
  var selectedIndex = 0

  override func encodeRestorableState(with coder: StateCoder) throws {
    try super.encodeRestorableState(with: coder)
    if children.indices.contains(selectedIndex) {
      coder.encode(children[selectedIndex], forKey: "kTabBarSelectedViewControllerKey")
    }
  }
}

/// A navigation controller: its stack is an array of references.
final class NavigationController: DemoController {
  override func encodeRestorableState(with coder: StateCoder) throws {
    try super.encodeRestorableState(with: coder)
    coder.encode(children, forKey: "kUIViewControllerChildrenKey")
  }
}

/// The talk demo's first tab, with its slider.
final class FirstViewController: DemoController {
  var sliderValue: Float = 0.892_605_7

  override func encodeRestorableState(with coder: StateCoder) throws {
    try super.encodeRestorableState(with: coder)
    coder.encode(sliderValue, forKey: "encodingKeySliderValue")
  }
}

/// The talk demo's navigation root.
final class SecondViewController: DemoController {}

/// The talk demo's pushed controller, which is its own restoration class.
final class CityViewController: DemoController, ObjectRestoration {
  var cityName = "Zürich"

  override init(_ identifier: String?) {
    super.init(identifier)
    objectRestorationClass = CityViewController.self
  }

  override func encodeRestorableState(with coder: StateCoder) throws {
    try super.encodeRestorableState(with: coder)
    coder.encode(cityName, forKey: "cityName")
  }

  static func object(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> (any StateRestoring)? {
    CityViewController(identifierComponents.last)
  }
}

/// A view-like node, attached to the controller that owns it.
final class DemoView: RestorationNode {
  var restorationIdentifier: String?
  weak var owner: DemoController?
  var contentOffset = 0.0

  init(_ identifier: String?) {
    restorationIdentifier = identifier
  }

  var restorationKind: RestorationKind { .view }
  var restorationContainer: RestorationParentLink? {
    owner.map { RestorationParentLink(parent: $0) }
  }

  func encodeRestorableState(with coder: StateCoder) throws {
    coder.encode(contentOffset, forKey: "contentOffset")
  }
}

/// An object outside the tree, placed by its restoration parent.
final class DemoModel: StateRestoring {
  var restorationIdentifier: String?
  var restorationParent: (any StateRestoring)?
  var draft = ""

  init(_ identifier: String?, parent: (any StateRestoring)?) {
    restorationIdentifier = identifier
    restorationParent = parent
  }

  func encodeRestorableState(with coder: StateCoder) throws {
    coder.encode(draft, forKey: "draft")
  }
}

/// A delegate that opts in and writes the app's own top-level keys.
final class DemoDelegate: RestorationDelegate {
  var willEncode: ((StateCoder) -> Void)?

  init(willEncode: ((StateCoder) -> Void)? = nil) {
    self.willEncode = willEncode
  }

  func shouldSaveApplicationState(with coder: StateCoder) -> Bool { true }
  func shouldRestoreApplicationState(with coder: StateDecoder) -> Bool { true }
  func willEncodeRestorableState(with coder: StateCoder) { willEncode?(coder) }
}
