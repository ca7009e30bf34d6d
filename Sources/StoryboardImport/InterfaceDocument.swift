/// An Interface Builder file, storyboard or XIB, read for what state restoration needs.
///
/// It holds the view controllers with their class, storyboard identifier, restoration
/// identifier and "Use Storyboard ID"; the relationships between them (a tab bar's tabs in
/// order, a navigation controller's root, a split view's columns, embedded children); the other
/// segues with their kind and identifier; and each controller's view tree with the restoration
/// identifiers of its views. Every element keeps the line it starts on, so tools can point at
/// it.
///
/// Both of Interface Builder's XML formats are read: the document format (`<document>`, version
/// 2.0 from 2012 and 3.0 since Xcode 8) of storyboards and XIBs, and the older archive format
/// (`<archive>`) of XIBs, for views, File's Owner and simple view controllers. Only iOS (Cocoa
/// Touch) files are read.
///
/// ```swift
/// let document = try InterfaceDocument(contentsOfFile: "Main.storyboard")
/// for controller in document.viewControllers {
///   print(controller.line, controller.className, controller.effectiveRestorationIdentifier ?? "-")
/// }
/// ```
public struct InterfaceDocument: Sendable, Hashable {
  /// Storyboard or XIB.
  public enum Kind: String, Sendable, Hashable, Codable {
    /// A storyboard: scenes of view controllers connected by segues.
    case storyboard
    /// A XIB (a nib): top-level objects, usually views owned by File's Owner.
    case xib
  }

  /// Which of Interface Builder's XML formats the file uses.
  public enum Format: Sendable, Hashable, CustomStringConvertible {
    /// The `<document>` format, with its version (`3.0` since Xcode 8, `2.0` before).
    case document(version: String)
    /// The older `<archive>` format of XIBs, with its version (such as `8.00`).
    case archive(version: String)

    /// Such as `document format 3.0`.
    public var description: String {
      switch self {
      case .document(let version): "document format \(version)"
      case .archive(let version): "archive format \(version)"
      }
    }
  }

  /// A problem found while reading that did not stop the reading, such as a segue to an object
  /// that is not in the file.
  public struct Issue: Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in words.
    public var message: String
    /// The line of the element involved.
    public var line: Int?
    /// The Interface Builder object ID of the element involved.
    public var objectID: String?

    /// Creates an issue.
    ///
    /// - Parameters:
    ///   - message: What is wrong.
    ///   - line: The line of the element involved.
    ///   - objectID: The object ID of the element involved.
    public init(_ message: String, line: Int? = nil, objectID: String? = nil) {
      self.message = message
      self.line = line
      self.objectID = objectID
    }

    /// Such as `line 12: a segue without destination`.
    public var description: String {
      line.map { "line \($0): \(message)" } ?? message
    }
  }

  /// The file, as the caller named it.
  public var file: String
  /// Storyboard or XIB.
  public var kind: Kind
  /// The XML format and its version.
  public var format: Format
  /// Whether the file is a launch screen, which is never restored.
  public var isLaunchScreen: Bool
  /// The object ID of the initial view controller (a storyboard's entry point).
  public var initialViewControllerID: String?
  /// Every view controller, in document order.
  public var viewControllers: [ViewController]
  /// A XIB's File's Owner, when the file declares one.
  public var fileOwner: Placeholder?
  /// A XIB's top-level views, in document order.
  public var topLevelViews: [View]
  /// Storyboard references (scenes in other storyboards) that segues may lead to.
  public var storyboardReferences: [StoryboardReference]
  /// Problems found while reading that did not stop it.
  public var issues: [Issue]

  /// Creates a document from its parts.
  ///
  /// - Parameters:
  ///   - file: The file, as the caller named it.
  ///   - kind: Storyboard or XIB.
  ///   - format: The XML format.
  ///   - isLaunchScreen: Whether the file is a launch screen.
  ///   - initialViewControllerID: The initial view controller's object ID.
  ///   - viewControllers: The view controllers, in document order.
  ///   - fileOwner: A XIB's File's Owner.
  ///   - topLevelViews: A XIB's top-level views.
  ///   - storyboardReferences: References to other storyboards.
  ///   - issues: Problems found while reading.
  public init(
    file: String,
    kind: Kind,
    format: Format,
    isLaunchScreen: Bool = false,
    initialViewControllerID: String? = nil,
    viewControllers: [ViewController] = [],
    fileOwner: Placeholder? = nil,
    topLevelViews: [View] = [],
    storyboardReferences: [StoryboardReference] = [],
    issues: [Issue] = []
  ) {
    self.file = file
    self.kind = kind
    self.format = format
    self.isLaunchScreen = isLaunchScreen
    self.initialViewControllerID = initialViewControllerID
    self.viewControllers = viewControllers
    self.fileOwner = fileOwner
    self.topLevelViews = topLevelViews
    self.storyboardReferences = storyboardReferences
    self.issues = issues
  }

  /// The view controller with an object ID.
  ///
  /// - Parameter id: The Interface Builder object ID.
  /// - Returns: The controller, or nil.
  public func viewController(withID id: String) -> ViewController? {
    viewControllers.first { $0.id == id }
  }

  /// The storyboard reference with an object ID.
  ///
  /// - Parameter id: The Interface Builder object ID.
  /// - Returns: The reference, or nil.
  public func storyboardReference(withID id: String) -> StoryboardReference? {
    storyboardReferences.first { $0.id == id }
  }

  /// The initial view controller, if the file names one that exists.
  public var initialViewController: ViewController? {
    initialViewControllerID.flatMap(viewController(withID:))
  }

  /// The view a XIB gives its File's Owner: the top-level view its `view` outlet points to, or
  /// else the first top-level view.
  public var fileOwnerView: View? {
    if let id = fileOwner?.viewOutletDestinationID,
      let view = topLevelViews.first(where: { $0.id == id })
    {
      return view
    }
    return topLevelViews.first
  }

  /// Whether any controller or view in the file has a restoration identifier.
  public var usesStateRestoration: Bool {
    viewControllers.contains {
      $0.effectiveRestorationIdentifier != nil || $0.view?.hasIdentifier == true
    }
      || topLevelViews.contains { $0.hasIdentifier }
  }
}

extension InterfaceDocument {
  /// A view controller: a storyboard scene's controller, or a controller in a XIB.
  public struct ViewController: Sendable, Hashable, Identifiable {
    /// The Interface Builder object ID, unique in the file.
    public var id: String
    /// The XML element's name, which says the UIKit class: `tabBarController`,
    /// `navigationController`, `tableViewController`, `viewController`...
    public var elementName: String
    /// The custom class set in the identity inspector.
    public var customClass: String?
    /// The custom class's module.
    public var customModule: String?
    /// The ID of the storyboard scene holding it.
    public var sceneID: String?
    /// The storyboard identifier ("Storyboard ID").
    public var storyboardIdentifier: String?
    /// The restoration identifier typed in the identity inspector.
    public var restorationIdentifier: String?
    /// Whether "Use Storyboard ID" is checked: the storyboard identifier is also the
    /// restoration identifier.
    public var usesStoryboardIdentifierAsRestorationIdentifier: Bool
    /// The title, from the controller or its navigation or tab bar item.
    public var title: String?
    /// The root view with its subviews, when the file gives one.
    public var view: View?
    /// Relationship segues, in document order (a tab bar's tabs in tab order).
    public var relationships: [Segue]
    /// The other segues that start in this controller or its views: `show`, `push`, `embed`,
    /// `presentation`...
    public var segues: [Segue]
    /// The line the element starts on.
    public var line: Int

    /// Creates a view controller.
    ///
    /// - Parameters:
    ///   - id: The object ID.
    ///   - elementName: The XML element's name, such as `viewController`.
    ///   - customClass: The custom class.
    ///   - customModule: The custom class's module.
    ///   - sceneID: The storyboard scene's ID.
    ///   - storyboardIdentifier: The storyboard identifier.
    ///   - restorationIdentifier: The restoration identifier.
    ///   - usesStoryboardIdentifierAsRestorationIdentifier: "Use Storyboard ID".
    ///   - title: The title.
    ///   - view: The root view.
    ///   - relationships: Relationship segues.
    ///   - segues: Other segues.
    ///   - line: The line the element starts on.
    public init(
      id: String,
      elementName: String,
      customClass: String? = nil,
      customModule: String? = nil,
      sceneID: String? = nil,
      storyboardIdentifier: String? = nil,
      restorationIdentifier: String? = nil,
      usesStoryboardIdentifierAsRestorationIdentifier: Bool = false,
      title: String? = nil,
      view: View? = nil,
      relationships: [Segue] = [],
      segues: [Segue] = [],
      line: Int
    ) {
      self.id = id
      self.elementName = elementName
      self.customClass = customClass
      self.customModule = customModule
      self.sceneID = sceneID
      self.storyboardIdentifier = storyboardIdentifier
      self.restorationIdentifier = restorationIdentifier
      self.usesStoryboardIdentifierAsRestorationIdentifier =
        usesStoryboardIdentifierAsRestorationIdentifier
      self.title = title
      self.view = view
      self.relationships = relationships
      self.segues = segues
      self.line = line
    }

    /// The restoration identifier the controller gets at run time: the storyboard identifier
    /// when "Use Storyboard ID" is checked, else the typed restoration identifier.
    public var effectiveRestorationIdentifier: String? {
      usesStoryboardIdentifierAsRestorationIdentifier
        ? (storyboardIdentifier ?? restorationIdentifier) : restorationIdentifier
    }

    /// The class name: the custom class, or UIKit's class for the element
    /// (`UITabBarController` for `tabBarController`).
    public var className: String {
      customClass ?? InterfaceDocument.uikitClassName(forElement: elementName)
    }

    /// The controllers it contains, in the order UIKit gives them as children (and so the
    /// order of their `:[i]:` index components): tabs, the navigation root, the split view's
    /// primary then secondary column, then embedded children.
    public var children: [Child] {
      var tabs: [Child] = []
      var roots: [Child] = []
      var primaries: [Child] = []
      var secondaries: [Child] = []
      for segue in relationships {
        switch segue.relationship {
        case "viewControllers": tabs.append(Child(role: .tab, segue: segue))
        case "rootViewController": roots.append(Child(role: .navigationRoot, segue: segue))
        case "masterViewController", "primaryViewController":
          primaries.append(Child(role: .primary, segue: segue))
        case "detailViewController", "secondaryViewController":
          secondaries.append(Child(role: .secondary, segue: segue))
        default: continue
        }
      }
      let embedded = segues.filter { $0.kind == "embed" }.map { Child(role: .embedded, segue: $0) }
      return tabs + roots.prefix(1) + primaries.prefix(1) + secondaries.prefix(1) + embedded
    }

    /// One contained controller and how it is contained.
    public struct Child: Sendable, Hashable {
      /// How a child is contained.
      public enum Role: String, Sendable, Hashable, Codable {
        /// A tab of a tab bar controller.
        case tab
        /// The root of a navigation controller.
        case navigationRoot
        /// A split view controller's primary (master) column.
        case primary
        /// A split view controller's secondary (detail) column.
        case secondary
        /// A child embedded through a container view.
        case embedded
      }

      /// How it is contained.
      public var role: Role
      /// The segue that makes it a child.
      public var segue: Segue

      /// The child's object ID.
      public var destinationID: String { segue.destinationID }
    }
  }

  /// A view and its subviews.
  public struct View: Sendable, Hashable {
    /// The Interface Builder object ID (some older elements have none).
    public var id: String?
    /// The XML element's name: `view`, `tableView`, `webView`, `wkWebView`, `label`...
    public var elementName: String
    /// The custom class set in the identity inspector.
    public var customClass: String?
    /// The restoration identifier.
    public var restorationIdentifier: String?
    /// The element's `key` (such as `view` for a controller's root view, `contentView` for a
    /// cell's content).
    public var key: String?
    /// A label's, text field's or text view's text, or a button's title.
    public var text: String?
    /// Whether the view is hidden.
    public var isHidden: Bool
    /// The subviews, back to front; a table's prototype and static cells are included.
    public var subviews: [View]
    /// The line the element starts on.
    public var line: Int

    /// Creates a view.
    ///
    /// - Parameters:
    ///   - id: The object ID.
    ///   - elementName: The XML element's name, such as `tableView`.
    ///   - customClass: The custom class.
    ///   - restorationIdentifier: The restoration identifier.
    ///   - key: The element's key.
    ///   - text: The text or title.
    ///   - isHidden: Whether the view is hidden.
    ///   - subviews: The subviews.
    ///   - line: The line the element starts on.
    public init(
      id: String? = nil,
      elementName: String,
      customClass: String? = nil,
      restorationIdentifier: String? = nil,
      key: String? = nil,
      text: String? = nil,
      isHidden: Bool = false,
      subviews: [View] = [],
      line: Int
    ) {
      self.id = id
      self.elementName = elementName
      self.customClass = customClass
      self.restorationIdentifier = restorationIdentifier
      self.key = key
      self.text = text
      self.isHidden = isHidden
      self.subviews = subviews
      self.line = line
    }

    /// The class name: the custom class, or UIKit's class for the element.
    public var className: String {
      customClass ?? InterfaceDocument.uikitClassName(forElement: elementName)
    }

    /// Whether it is a table or collection view cell (or reusable view): a template that the
    /// table dequeues, not a view of the controller's tree.
    public var isCell: Bool {
      ["tableViewCell", "collectionViewCell", "collectionReusableView"].contains(elementName)
    }

    /// Whether it or a view below it has a restoration identifier.
    public var hasIdentifier: Bool {
      restorationIdentifier != nil || subviews.contains { $0.hasIdentifier }
    }
  }

  /// A segue: a relationship between containers and children, or a transition.
  public struct Segue: Sendable, Hashable {
    /// The Interface Builder object ID (absent for relationships implied by nesting in a XIB).
    public var id: String?
    /// The kind: `relationship`, `show`, `push`, `showDetail`, `presentation`, `modal`,
    /// `embed`, `popoverPresentation`, `unwind`, `custom`...
    public var kind: String
    /// For a relationship: `viewControllers`, `rootViewController`, `masterViewController`,
    /// `detailViewController`...
    public var relationship: String?
    /// The segue's identifier, used by `performSegue(withIdentifier:)`.
    public var identifier: String?
    /// The object ID of the destination view controller (or storyboard reference).
    public var destinationID: String
    /// The object ID of the element the segue starts from (a cell, a button, a container
    /// view), or nil when it starts from the controller itself.
    public var sourceElementID: String?
    /// The line the element starts on.
    public var line: Int

    /// Creates a segue.
    ///
    /// - Parameters:
    ///   - id: The object ID.
    ///   - kind: The kind, such as `show`.
    ///   - relationship: For a relationship, its name.
    ///   - identifier: The segue's identifier.
    ///   - destinationID: The destination's object ID.
    ///   - sourceElementID: The element it starts from.
    ///   - line: The line the element starts on.
    public init(
      id: String? = nil,
      kind: String,
      relationship: String? = nil,
      identifier: String? = nil,
      destinationID: String,
      sourceElementID: String? = nil,
      line: Int
    ) {
      self.id = id
      self.kind = kind
      self.relationship = relationship
      self.identifier = identifier
      self.destinationID = destinationID
      self.sourceElementID = sourceElementID
      self.line = line
    }
  }

  /// A XIB's File's Owner: the object, created in code, that loads the nib.
  public struct Placeholder: Sendable, Hashable {
    /// The Interface Builder object ID (`-1` for File's Owner).
    public var id: String
    /// The owner's class, such as `UYLWebViewController`.
    public var customClass: String?
    /// The class's module.
    public var customModule: String?
    /// The object ID of the view its `view` outlet points to.
    public var viewOutletDestinationID: String?
    /// The line the element starts on.
    public var line: Int

    /// Creates a placeholder.
    ///
    /// - Parameters:
    ///   - id: The object ID.
    ///   - customClass: The owner's class.
    ///   - customModule: The class's module.
    ///   - viewOutletDestinationID: Where its `view` outlet points.
    ///   - line: The line the element starts on.
    public init(
      id: String,
      customClass: String? = nil,
      customModule: String? = nil,
      viewOutletDestinationID: String? = nil,
      line: Int
    ) {
      self.id = id
      self.customClass = customClass
      self.customModule = customModule
      self.viewOutletDestinationID = viewOutletDestinationID
      self.line = line
    }
  }

  /// A storyboard reference: a scene in another storyboard that segues can lead to.
  public struct StoryboardReference: Sendable, Hashable {
    /// The Interface Builder object ID.
    public var id: String
    /// The other storyboard's name, or nil for this one.
    public var storyboardName: String?
    /// The storyboard identifier of the scene referred to, or nil for its initial scene.
    public var referencedIdentifier: String?
    /// The line the element starts on.
    public var line: Int

    /// Creates a reference.
    ///
    /// - Parameters:
    ///   - id: The object ID.
    ///   - storyboardName: The other storyboard's name.
    ///   - referencedIdentifier: The referenced scene's storyboard identifier.
    ///   - line: The line the element starts on.
    public init(id: String, storyboardName: String?, referencedIdentifier: String?, line: Int) {
      self.id = id
      self.storyboardName = storyboardName
      self.referencedIdentifier = referencedIdentifier
      self.line = line
    }
  }

  /// UIKit's class for an Interface Builder element name: `UITableViewController` for
  /// `tableViewController`, `WKWebView` for `wkWebView`.
  ///
  /// - Parameter element: The element's name.
  /// - Returns: The class name.
  public static func uikitClassName(forElement element: String) -> String {
    if element == "wkWebView" { return "WKWebView" }
    guard let first = element.first else { return "UIView" }
    return "UI" + first.uppercased() + element.dropFirst()
  }
}
