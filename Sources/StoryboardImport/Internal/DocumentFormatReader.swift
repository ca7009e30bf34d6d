/// Interprets Interface Builder's `<document>` format (storyboards and XIBs, versions 2.0 and
/// 3.0).
///
/// Storyboards hold `<scenes>`, each with one controller in its `<objects>`; relationships and
/// transitions are `<segue>` elements in `<connections>`. XIBs hold top-level `<objects>`:
/// File's Owner, views, and sometimes controllers, whose children are nested in a
/// `<viewControllers>` element instead of segues.
struct DocumentFormatReader {
  let file: String
  private var controllers: [InterfaceDocument.ViewController] = []
  private var references: [InterfaceDocument.StoryboardReference] = []
  private var topLevelViews: [InterfaceDocument.View] = []
  private var owner: InterfaceDocument.Placeholder?
  private var issues: [InterfaceDocument.Issue] = []

  init(file: String) {
    self.file = file
  }

  mutating func read(
    _ root: XMLNode,
    kind: InterfaceDocument.Kind,
    version: String
  ) -> InterfaceDocument {
    if !["2.0", "3.0"].contains(version) {
      issues.append(
        .init(
          "document format \(version) is not one this reader was built for (2.0, 3.0); read as 3.0",
          line: root.line))
    }
    for scene in root.child(named: "scenes")?.children(named: "scene") ?? [] {
      for object in scene.child(named: "objects")?.children ?? [] {
        readObject(object, sceneID: scene["sceneID"])
      }
    }
    for object in root.child(named: "objects")?.children ?? [] {
      readObject(object, sceneID: nil)
    }
    var document = InterfaceDocument(
      file: file,
      kind: kind,
      format: .document(version: version),
      isLaunchScreen: root.flag("launchScreen"),
      initialViewControllerID: root["initialViewController"],
      viewControllers: controllers,
      fileOwner: owner,
      topLevelViews: topLevelViews,
      storyboardReferences: references,
      issues: issues
    )
    document.issues += Self.checkReferences(in: document)
    return document
  }

  // MARK: Objects

  private mutating func readObject(_ node: XMLNode, sceneID: String?) {
    switch node.name {
    case "placeholder":
      if node["placeholderIdentifier"] == "IBFilesOwner" { owner = readOwner(node) }
    case "viewControllerPlaceholder":
      references.append(
        .init(
          id: node["id"] ?? Self.syntheticID(node),
          storyboardName: node["storyboardName"],
          referencedIdentifier: node["referencedIdentifier"],
          line: node.line))
    default:
      if ElementNames.isController(node.name) {
        readController(node, sceneID: sceneID)
      } else if ElementNames.isView(node) {
        topLevelViews.append(readView(node))
      }
    }
  }

  private func readOwner(_ node: XMLNode) -> InterfaceDocument.Placeholder {
    let viewOutlet = node.child(named: "connections")?.children(named: "outlet")
      .first { $0["property"] == "view" }
    return .init(
      id: node["id"] ?? "-1",
      customClass: node["customClass"],
      customModule: node["customModule"],
      viewOutletDestinationID: viewOutlet?["destination"],
      line: node.line
    )
  }

  /// Reads a controller and, in a XIB, the controllers nested in it; returns its ID.
  @discardableResult
  private mutating func readController(_ node: XMLNode, sceneID: String?) -> String {
    let id = node["id"] ?? Self.syntheticID(node)
    let position = controllers.count
    // Reserve the slot first so that nested controllers come after their parent, in document
    // order.
    controllers.append(.init(id: id, elementName: node.name, line: node.line))

    var segues: [InterfaceDocument.Segue] = []
    collectSegues(in: node, sourceElementID: nil, into: &segues)
    let nestedControllers = (node.child(named: "viewControllers")?.children ?? [])
      .filter { ElementNames.isController($0.name) }
    for (index, nested) in nestedControllers.enumerated() {
      let nestedID = readController(nested, sceneID: sceneID)
      if let relationship = relationship(nestingIn: node, index: index, line: nested.line) {
        segues.append(
          .init(
            kind: "relationship", relationship: relationship, destinationID: nestedID,
            line: nested.line))
      }
    }
    for segue in segues where segue.kind == "relationship" {
      let known = [
        "viewControllers", "rootViewController", "masterViewController", "detailViewController",
        "primaryViewController", "secondaryViewController",
      ]
      if !known.contains(segue.relationship ?? "") {
        issues.append(
          .init(
            "relationship '\(segue.relationship ?? "")' is not one of a tab bar, navigation or split view controller's; it is not imported",
            line: segue.line, objectID: segue.id))
      }
    }

    let rootView = node.children.first { $0["key"] == "view" && ElementNames.isView($0) }
    let navigationItem = node.child(key: "navigationItem")
    let tabBarItem = node.child(key: "tabBarItem")
    controllers[position] = .init(
      id: id,
      elementName: node.name,
      customClass: node["customClass"],
      customModule: node["customModule"],
      sceneID: sceneID,
      storyboardIdentifier: node["storyboardIdentifier"],
      restorationIdentifier: node["restorationIdentifier"],
      usesStoryboardIdentifierAsRestorationIdentifier: node.flag(
        "useStoryboardIdentifierAsRestorationIdentifier"),
      title: node["title"] ?? navigationItem?["title"] ?? tabBarItem?["title"],
      view: rootView.map { readView($0) },
      relationships: segues.filter { $0.kind == "relationship" },
      segues: segues.filter { $0.kind != "relationship" },
      line: node.line
    )
    return id
  }

  /// The relationship a controller nested in a XIB container has, as a storyboard would say it.
  private mutating func relationship(nestingIn container: XMLNode, index: Int, line: Int)
    -> String?
  {
    switch container.name {
    case "tabBarController": return "viewControllers"
    case "navigationController":
      if index == 0 { return "rootViewController" }
      issues.append(
        .init(
          "only the root of a navigation stack nested in a XIB is imported", line: line))
      return nil
    case "splitViewController":
      return index == 0 ? "masterViewController" : "detailViewController"
    default:
      issues.append(
        .init(
          "a controller nested in a <\(container.name)> is not imported as its child", line: line))
      return nil
    }
  }

  /// Collects the segues that start in a controller or in its views, without entering nested
  /// controllers (they have their own).
  private func collectSegues(
    in node: XMLNode,
    sourceElementID: String?,
    into segues: inout [InterfaceDocument.Segue]
  ) {
    for child in node.children {
      if child.name == "segue" {
        guard let destination = child["destination"] else { continue }
        segues.append(
          .init(
            id: child["id"],
            kind: child["kind"] ?? "custom",
            relationship: child["relationship"],
            identifier: child["identifier"],
            destinationID: destination,
            sourceElementID: sourceElementID,
            line: child.line))
      } else if ElementNames.isController(child.name) {
        continue
      } else if child.name == "connections" {
        collectSegues(in: child, sourceElementID: sourceElementID, into: &segues)
      } else {
        collectSegues(in: child, sourceElementID: child["id"] ?? sourceElementID, into: &segues)
      }
    }
  }

  // MARK: Views

  private func readView(_ node: XMLNode) -> InterfaceDocument.View {
    var text = node["text"]
    if node.name == "button" { text = node.child(key: "normal")?["title"] }
    return .init(
      id: node["id"],
      elementName: node.name,
      customClass: node["customClass"],
      restorationIdentifier: node["restorationIdentifier"],
      key: node["key"],
      text: text,
      isHidden: node.flag("hidden"),
      subviews: subviews(of: node),
      line: node.line
    )
  }

  /// The views below an element, found through `<subviews>`, `<prototypes>`, `<cells>`,
  /// sections and keyed children such as a cell's `contentView`.
  private func subviews(of node: XMLNode) -> [InterfaceDocument.View] {
    var result: [InterfaceDocument.View] = []
    for child in node.children {
      if ElementNames.isController(child.name)
        || ElementNames.skippedContainers.contains(child.name)
      {
        continue
      }
      if ElementNames.isView(child) {
        result.append(readView(child))
      } else {
        result += subviews(of: child)
      }
    }
    return result
  }

  // MARK: Checks

  /// Issues for the initial controller and segue destinations that are not in the file.
  private static func checkReferences(in document: InterfaceDocument) -> [InterfaceDocument.Issue] {
    var issues: [InterfaceDocument.Issue] = []
    let known = Set(document.viewControllers.map(\.id))
      .union(document.storyboardReferences.map(\.id))
    if let initial = document.initialViewControllerID, !known.contains(initial) {
      issues.append(.init("the initial view controller '\(initial)' is not in the file"))
    }
    for controller in document.viewControllers {
      for segue in controller.relationships + controller.segues
      where !known.contains(segue.destinationID) && segue.kind != "unwind" {
        issues.append(
          .init(
            "a '\(segue.kind)' segue leads to '\(segue.destinationID)', which is not in the file",
            line: segue.line, objectID: segue.id))
      }
    }
    return issues
  }

  /// An ID for an element that has none, unique in the file.
  static func syntheticID(_ node: XMLNode) -> String { "line-\(node.line)" }
}

/// Which Interface Builder elements are controllers and views.
enum ElementNames {
  /// Elements that hold no views, skipped when looking for subviews.
  static let skippedContainers: Set<String> = [
    "connections", "constraints", "rect", "color", "fontDescription", "state",
    "userDefinedRuntimeAttributes",
    "segments", "inset", "size", "point", "accessibility", "variation", "mask",
  ]

  /// View elements that may lack a frame (cell content views of the 2.0 format, stack views
  /// sized by constraints).
  private static let viewNames: Set<String> = [
    "view", "tableView", "collectionView", "scrollView", "textView", "textField", "webView",
    "wkWebView", "label", "button", "switch", "slider", "imageView", "stackView",
    "segmentedControl", "tableViewCell", "tableViewCellContentView", "collectionViewCell",
    "collectionReusableView", "containerView", "mapView", "pickerView", "datePicker",
    "progressView", "activityIndicatorView", "pageControl", "stepper", "searchBar",
    "visualEffectView", "toolbar", "navigationBar", "tabBar", "window",
  ]

  /// Elements that are not views although they sit among them.
  private static let nonViewNames: Set<String> = [
    "navigationItem", "tabBarItem", "barButtonItem", "viewLayoutGuide", "layoutGuides",
    "viewControllerLayoutGuide", "placeholder", "segue", "outlet", "action",
  ]

  /// Whether an element is a view controller.
  static func isController(_ name: String) -> Bool {
    name.hasSuffix("Controller") && name != "searchDisplayController"
  }

  /// Whether an element is a view: a known view element, or any element with a frame or a
  /// restoration identifier (custom and newer view kinds).
  static func isView(_ node: XMLNode) -> Bool {
    if isController(node.name) || nonViewNames.contains(node.name) { return false }
    if viewNames.contains(node.name) || node["restorationIdentifier"] != nil { return true }
    return node.children.contains { $0.name == "rect" && $0["key"] == "frame" }
  }
}
