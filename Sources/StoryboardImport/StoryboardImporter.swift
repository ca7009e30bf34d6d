public import StateRestorationUI

/// Builds the headless hierarchy an app gets from a storyboard or XIB at launch.
///
/// A storyboard becomes a `Storyboard`: one scene per view controller, with its storyboard
/// identifier, restoration identifier and "Use Storyboard ID", its relationships (tabs in
/// order, navigation root, split columns, embedded children) and the initial scene. Each scene
/// makes the app's class for the controller's custom class (from a
/// ``ViewControllerClassRegistry``), or the class of the element's kind, and gives it a
/// `ViewController.viewFactory` that builds the scene's view tree: `TableView` for a
/// `tableView`, `WebView` for a `webView` or `wkWebView`, `TextField`, `ScrollView`...,
/// each with its restoration identifier. A XIB becomes an ``ImportedNib``: the view tree it
/// gives its File's Owner.
///
/// ```swift
/// var classes = ViewControllerClassRegistry()
/// classes.register("UYLTableViewController") { CountriesViewController() }
/// let imported = try StoryboardImporter(classes: classes)
///   .importStoryboard(atPath: "MainStoryboard.storyboard", name: "MainStoryboard")
/// for warning in imported.warnings { print(warning) }
/// let application = Application(delegate: delegate, mainStoryboard: imported.storyboard)
/// ```
public struct StoryboardImporter {
  /// The app's controller classes, by custom class name.
  public var classes: ViewControllerClassRegistry

  /// Creates an importer.
  ///
  /// - Parameter classes: The app's controller classes; by default none, so every controller
  ///   gets the class of its element's kind.
  public init(classes: ViewControllerClassRegistry = ViewControllerClassRegistry()) {
    self.classes = classes
  }

  // MARK: Storyboards

  /// Reads a storyboard file and builds its `Storyboard`.
  ///
  /// - Parameters:
  ///   - path: The file's path.
  ///   - name: The storyboard's name, recorded in archives; by default the file's name
  ///     without its folder and extension.
  /// - Returns: The storyboard, the document it came from, and the import's warnings.
  /// - Throws: ``StoryboardImportError`` when the file cannot be read.
  public func importStoryboard(atPath path: String, name: String? = nil)
    throws(StoryboardImportError) -> ImportedStoryboard
  {
    importStoryboard(try InterfaceDocument(contentsOfFile: path), name: name)
  }

  /// Builds the `Storyboard` of a document.
  ///
  /// A XIB's top-level controllers become scenes too, without an initial scene.
  ///
  /// - Parameters:
  ///   - document: The document.
  ///   - name: The storyboard's name; by default the file's name without folder and extension.
  /// - Returns: The storyboard, the document, and the import's warnings.
  public func importStoryboard(_ document: InterfaceDocument, name: String? = nil)
    -> ImportedStoryboard
  {
    var warnings = document.issues.map { ImportWarning($0, file: document.file) }
    let storyboard = Storyboard(name: name ?? Self.baseName(of: document.file))
    let sceneIDs = Self.sceneIDs(for: document.viewControllers)
    let children = Self.keptChildren(in: document, warnings: &warnings)

    for controller in document.viewControllers {
      let make = factory(for: controller, file: document.file, warnings: &warnings)
      storyboard.addScene(
        id: sceneIDs[controller.id],
        storyboardIdentifier: controller.storyboardIdentifier,
        restorationIdentifier: controller.restorationIdentifier,
        usesStoryboardIdentifierAsRestorationIdentifier:
          controller.usesStoryboardIdentifierAsRestorationIdentifier,
        relationships: relationships(
          children[controller.id] ?? [], in: document, sceneIDs: sceneIDs, warnings: &warnings),
        isInitial: controller.id == document.initialViewControllerID,
        make: make
      )
    }
    return ImportedStoryboard(
      storyboard: storyboard, document: document, warnings: warnings, sceneIDs: sceneIDs)
  }

  // MARK: XIBs

  /// Reads a XIB file.
  ///
  /// - Parameter path: The file's path.
  /// - Returns: The nib: File's Owner's class and view tree, and its top-level controllers.
  /// - Throws: ``StoryboardImportError`` when the file cannot be read.
  public func importNib(atPath path: String) throws(StoryboardImportError) -> ImportedNib {
    importNib(try InterfaceDocument(contentsOfFile: path))
  }

  /// Builds the nib of a document.
  ///
  /// - Parameter document: The document.
  /// - Returns: The nib: File's Owner's class and view tree, and its top-level controllers.
  public func importNib(_ document: InterfaceDocument) -> ImportedNib {
    let imported = importStoryboard(document)
    var warnings = imported.warnings
    var ownerFactory: () -> ViewController = { ViewController() }
    if let owner = document.fileOwner, let className = owner.customClass {
      if let factory = classes.factory(forClassName: className, module: owner.customModule) {
        ownerFactory = factory
      } else {
        warnings.append(
          ImportWarning(
            "File's Owner's class '\(className)' is not registered; ViewController is used",
            file: document.file, line: owner.line, objectID: owner.id))
      }
    }
    return ImportedNib(
      document: document,
      warnings: warnings,
      storyboard: imported.storyboard,
      ownerFactory: ownerFactory
    )
  }

  // MARK: Views

  /// Builds a headless view tree from a document's view: the view class for the element's
  /// kind, its restoration identifier, text and hidden state, and its subviews.
  ///
  /// Table and collection view cells are left out: they are templates the table dequeues, not
  /// views of the tree, and restoration never finds them.
  ///
  /// - Parameter view: The document's view.
  /// - Returns: The new view tree.
  public static func makeView(_ view: InterfaceDocument.View) -> View {
    let made: View
    switch view.elementName {
    case "tableView": made = TableView()
    case "collectionView": made = CollectionView()
    case "scrollView": made = ScrollView()
    case "textView":
      let textView = TextView()
      textView.text = view.text ?? ""
      made = textView
    case "textField":
      let field = TextField()
      field.text = view.text ?? ""
      made = field
    case "webView", "wkWebView": made = WebView()
    case "label": made = Label(view.text ?? "")
    case "button": made = Button(view.text ?? "")
    case "switch": made = Switch()
    case "slider": made = Slider()
    default: made = View()
    }
    made.restorationIdentifier = view.restorationIdentifier
    made.isHidden = view.isHidden
    for subview in view.subviews where !subview.isCell {
      made.addSubview(makeView(subview))
    }
    return made
  }

  // MARK: Internals

  /// Element kinds with a headless counterpart (`ViewController` or a container).
  private static let modeledElements: Set<String> = [
    "viewController", "tableViewController", "collectionViewController", "navigationController",
    "tabBarController", "splitViewController",
  ]

  private func factory(
    for controller: InterfaceDocument.ViewController,
    file: String,
    warnings: inout [ImportWarning]
  ) -> () -> ViewController {
    var base: () -> ViewController
    let baseName: String
    switch controller.elementName {
    case "navigationController":
      (baseName, base) = ("NavigationController", { NavigationController() })
    case "tabBarController": (baseName, base) = ("TabBarController", { TabBarController() })
    case "splitViewController":
      (baseName, base) = ("SplitViewController", { SplitViewController() })
    default: (baseName, base) = ("ViewController", { ViewController() })
    }
    if let className = controller.customClass {
      if let registered = classes.factory(forClassName: className, module: controller.customModule)
      {
        base = registered
      } else {
        warnings.append(
          ImportWarning(
            "custom class '\(className)' is not registered; the scene uses \(baseName) (from <\(controller.elementName)>)",
            file: file, line: controller.line, objectID: controller.id))
      }
    } else if !Self.modeledElements.contains(controller.elementName) {
      warnings.append(
        ImportWarning(
          "<\(controller.elementName)> has no headless counterpart; imported as ViewController",
          file: file, line: controller.line, objectID: controller.id))
    }
    let make = base
    let title = controller.title
    let view = controller.view
    return {
      let made = make()
      if made.title == nil { made.title = title }
      if let view { made.viewFactory = { StoryboardImporter.makeView(view) } }
      return made
    }
  }

  private func relationships(
    _ children: [InterfaceDocument.ViewController.Child],
    in document: InterfaceDocument,
    sceneIDs: [String: String],
    warnings: inout [ImportWarning]
  ) -> [Storyboard.Relationship] {
    var tabs: [String] = []
    var root: String?
    var primary: String?
    var secondary: String?
    var embedded: [String] = []
    for child in children {
      guard let sceneID = sceneIDs[child.destinationID] else {
        let target =
          document.storyboardReference(withID: child.destinationID).map {
            "storyboard '\($0.storyboardName ?? "(this one)")'"
          } ?? "'\(child.destinationID)', which is not in the file"
        warnings.append(
          ImportWarning(
            "a \(child.role.rawValue) child leads to \(target); it is not imported",
            file: document.file, line: child.segue.line, objectID: child.segue.id))
        continue
      }
      switch child.role {
      case .tab: tabs.append(sceneID)
      case .navigationRoot: root = sceneID
      case .primary: primary = sceneID
      case .secondary: secondary = sceneID
      case .embedded: embedded.append(sceneID)
      }
    }
    var result: [Storyboard.Relationship] = []
    if !tabs.isEmpty { result.append(.viewControllers(tabs)) }
    if let root { result.append(.rootViewController(root)) }
    if let first = primary ?? secondary {
      result.append(
        .splitViewControllers(primary: first, secondary: primary == nil ? nil : secondary))
    }
    if !embedded.isEmpty { result.append(.viewControllers(embedded)) }
    return result
  }

  /// Relationships nest at most this deep in an import; real storyboards nest a handful.
  public static let maximumNesting = 64

  /// The children each controller keeps in the storyboard.
  ///
  /// As in Interface Builder, a controller is the child of one parent at most and relationships
  /// form no cycle; they also nest at most ``maximumNesting`` deep. So instantiating a scene is
  /// linear in its size and its recursion shallow, whatever the file says.
  private static func keptChildren(
    in document: InterfaceDocument,
    warnings: inout [ImportWarning]
  ) -> [String: [InterfaceDocument.ViewController.Child]] {
    let controllers = document.viewControllers
    let known = Set(controllers.map(\.id))
    func warn(_ message: String, _ child: InterfaceDocument.ViewController.Child) {
      warnings.append(
        ImportWarning(
          message, file: document.file, line: child.segue.line, objectID: child.segue.id))
    }
    var parentOf: [String: String] = [:]
    var kept: [String: [InterfaceDocument.ViewController.Child]] = [:]
    for controller in controllers {
      for child in controller.children {
        if known.contains(child.destinationID) {
          guard child.destinationID != controller.id, parentOf[child.destinationID] == nil else {
            warn(
              "'\(child.destinationID)' is already a child of another controller (or of itself); this relationship is not imported",
              child)
            continue
          }
          parentOf[child.destinationID] = controller.id
        }
        kept[controller.id, default: []].append(child)
      }
    }
    // Depths from the roots, breadth first; what no root reaches hangs on a cycle.
    var depth: [String: Int] = [:]
    var queue = controllers.map(\.id).filter { parentOf[$0] == nil }
    for id in queue { depth[id] = 0 }
    var head = 0
    while head < queue.count {
      let id = queue[head]
      head += 1
      let level = depth[id] ?? 0
      var children: [InterfaceDocument.ViewController.Child] = []
      for child in kept[id] ?? [] {
        if known.contains(child.destinationID) {
          guard level < maximumNesting else {
            warn(
              "relationships nest more than \(maximumNesting) deep; this one is not imported, and '\(child.destinationID)' starts a tree of its own",
              child)
            depth[child.destinationID] = 0
            queue.append(child.destinationID)
            continue
          }
          depth[child.destinationID] = level + 1
          queue.append(child.destinationID)
        }
        children.append(child)
      }
      kept[id] = children
    }
    for controller in controllers where depth[controller.id] == nil {
      for child in kept[controller.id] ?? [] where known.contains(child.destinationID) {
        warn("relationships form a cycle; this one is not imported", child)
      }
      kept[controller.id]?.removeAll { known.contains($0.destinationID) }
    }
    return kept
  }

  /// Scene IDs: the storyboard identifier where it is unique in the file (so a scene is named as
  /// the app names it), else the object ID.
  private static func sceneIDs(for controllers: [InterfaceDocument.ViewController]) -> [String:
    String]
  {
    var counts: [String: Int] = [:]
    for identifier in controllers.compactMap(\.storyboardIdentifier) {
      counts[identifier, default: 0] += 1
    }
    var result: [String: String] = [:]
    var used: Set<String> = []
    for controller in controllers {
      if let identifier = controller.storyboardIdentifier, counts[identifier] == 1,
        used.insert(identifier).inserted
      {
        result[controller.id] = identifier
      }
    }
    for controller in controllers where result[controller.id] == nil {
      var candidate = controller.id
      while !used.insert(candidate).inserted { candidate = "object-" + candidate }
      result[controller.id] = candidate
    }
    return result
  }

  /// `MainStoryboard` for `Base.lproj/MainStoryboard.storyboard`.
  static func baseName(of file: String) -> String {
    let name = file.split(separator: "/").last.map(String.init) ?? file
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
    return String(name[..<dot])
  }
}
