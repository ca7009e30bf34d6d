internal import RestorationLint
internal import StateRestoration
internal import StoryboardImport

/// One run of the linter over a document: walks the hierarchy the way preservation does and
/// applies the rules.
struct LintPass {
  typealias Controller = InterfaceDocument.ViewController
  typealias View = InterfaceDocument.View

  let document: InterfaceDocument
  private(set) var paths: [LintReport.PathEntry] = []
  private var findings: [LintFinding] = []
  /// Controllers that some placement reached.
  private var reached: Set<String> = []
  /// Segues waiting to be followed, breadth first, after the launch hierarchy.
  private var pendingSegues: [PendingSegue] = []
  /// Segues already followed from a source placement, so that loops end.
  private var followed: Set<String> = []
  /// Walking stops here, whatever a malformed or cyclic file says.
  private var budget = 10_000
  private var budgetExhausted = false
  /// Containers nest a handful deep in real files; a chain this long is malformed.
  static let maximumNesting = 64
  /// The controllers by object ID.
  private let controllersByID: [String: Controller]
  /// What each controller without identifier breaks, by object ID, in the order first met:
  /// one finding each, at the end, so that one root cause is reported once.
  private var unidentified: [String: Unidentified] = [:]
  private var unidentifiedOrder: [String] = []
  /// The segues that show each controller with an identifier but no Storyboard ID.
  private var withoutStoryboardID: [String: [InterfaceDocument.Segue]] = [:]
  private var withoutStoryboardIDOrder: [String] = []

  /// A controller without restoration identifier, and everything its missing identifier
  /// breaks.
  private struct Unidentified {
    var controller: Controller
    /// Its Storyboard ID, when it is in the chain with "Use Storyboard ID" unchecked.
    var storyboardIDUnchecked: String?
    /// The tab bar it is a tab of.
    var tabOf: Controller?
    var isContainer = false
    var isRoot = false
    /// Another controller in the chain, left out (maybe on purpose).
    var isLeaf = false
    /// The segues that show it from a preserved controller, and whether each pushes it onto a
    /// preserved navigation stack.
    var segues: [(segue: InterfaceDocument.Segue, pushed: Bool, stack: Controller?)] = []
    /// The lines of those segues, so that each is recorded once.
    var segueLines: Set<Int> = []
    /// Controllers with identifiers it contains or presents: never preserved.
    var cutOff: [(controller: Controller, presented: Bool)] = []
    /// Their object IDs, so that each is recorded once.
    var cutOffIDs: Set<String> = []
    /// Its views with identifiers: never preserved.
    var views: [View] = []
  }

  /// The container or presenter a controller is placed under.
  private struct Parent {
    var controller: Controller
    var path: String?
  }

  /// The navigation stack a controller is a member of.
  private struct Stack {
    var navigation: Controller
    var path: String?
    var index: Int
    var members: Set<String>
  }

  private struct PendingSegue {
    var segue: InterfaceDocument.Segue
    var source: Controller
    var sourcePath: String?
    var stack: Stack?
    var listed: Bool
  }

  init(document: InterfaceDocument) {
    self.document = document
    controllersByID = Dictionary(
      document.viewControllers.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
  }

  var sortedFindings: [LintFinding] {
    var seen: Set<String> = []
    return
      findings
      .filter {
        seen.insert("\($0.code)|\($0.objectID ?? "")|\($0.line ?? 0)|\($0.message)").inserted
      }
      .enumerated()
      .sorted { ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset) }
      .map(\.element)
  }

  // MARK: Run

  mutating func run() {
    for issue in document.issues {
      add(.warning, .fileIssue, issue.message, line: issue.line, objectID: issue.objectID)
    }
    if document.isLaunchScreen {
      add(
        .note, .launchScreen,
        "this file is a launch screen: it shows before the app runs, and is never preserved or restored"
      )
      return
    }
    guard document.usesStateRestoration else {
      add(
        .note, .noRestorationIdentifiers,
        "no view controller or view in this file has a restoration identifier: nothing in it is preserved"
      )
      return
    }
    checkEachController()
    checkStoryboardIdentifiers()
    switch document.kind {
    case .storyboard: placeStoryboard()
    case .xib: placeNib()
    }
    reportUnidentified()
    reportWithoutStoryboardID()
  }

  private mutating func placeStoryboard() {
    if let initial = document.initialViewController {
      visit(initial, parent: nil, index: nil, role: nil, listed: true, origin: .launch)
    } else {
      add(
        .note, .noInitialViewController,
        "the storyboard has no initial view controller: each scene that is no other scene's child is taken as a window's root"
      )
      for root in topLevelControllers() {
        visit(root, parent: nil, index: nil, role: nil, listed: true, origin: .launch)
      }
    }
    followPendingSegues()
    for controller in topLevelControllers() where !reached.contains(controller.id) {
      if subtreeHasIdentifier(controller) {
        add(
          .note, .unreachableScene,
          "is reached by no relationship or segue from the initial view controller: the app instantiates it in code, so its identifier path depends on where the app puts it (not listed)",
          controller: controller)
      }
      visit(controller, parent: nil, index: nil, role: nil, listed: false, origin: .launch)
      followPendingSegues()
    }
  }

  private mutating func placeNib() {
    for controller in topLevelControllers() {
      if let identifier = controller.effectiveRestorationIdentifier {
        add(
          .warning, .nibControllerNeedsRestorationClass,
          "\(Self.hasIdentifier(identifier, controller)), but a XIB cannot re-create it at launch: give its class a restoration class, or re-create it in the app delegate's viewControllerWithRestorationIdentifierPath",
          controller: controller)
      }
      visit(controller, parent: nil, index: nil, role: nil, listed: false, origin: .launch)
    }
    guard let ownerView = document.fileOwnerView else { return }
    let identified = Self.identifiedViews(in: ownerView)
    guard !identified.isEmpty else { return }
    let owner = document.fileOwner?.customClass.map { "File's Owner (\($0))" } ?? "File's Owner"
    for view in identified {
      paths.append(
        .init(
          path: "(File's Owner)/\(view.restorationIdentifier ?? "")",
          object: Self.describe(view), className: view.className, line: view.line,
          origin: .launch))
    }
    let names = identified.compactMap(\.restorationIdentifier).map { "'\($0)'" }
    add(
      .note, .nibOwnerNeedsIdentifier,
      "views with restoration identifiers (\(names.joined(separator: ", "))) are preserved only when \(owner) gets a restoration identifier in code, and a restoration class or the app delegate re-creates it at launch",
      line: document.fileOwner?.line ?? ownerView.line, object: owner,
      objectID: document.fileOwner?.id)
  }

  // MARK: Placement

  /// Places a controller under a parent, lists its path and its views' paths when it is
  /// preserved, checks the chain, and goes on to its children; segues are queued.
  private mutating func visit(
    _ controller: Controller,
    parent: Parent?,
    index: Int?,
    role: Controller.Child.Role?,
    listed: Bool,
    origin: LintReport.PathEntry.Origin,
    segueLine: Int? = nil,
    stack: Stack? = nil,
    ancestors: Set<String> = []
  ) {
    guard budget > 0 else {
      if !budgetExhausted {
        budgetExhausted = true
        add(
          .warning, .fileIssue,
          "the file's relationships and segues reach more than 10,000 placements; the rest is not checked"
        )
      }
      return
    }
    budget -= 1
    guard ancestors.count < Self.maximumNesting else {
      add(
        .warning, .fileIssue,
        "is nested more than \(Self.maximumNesting) deep in relationships; the controllers below it are not checked",
        controller: controller)
      return
    }
    guard !ancestors.contains(controller.id) else {
      add(
        .warning, .fileIssue,
        "is reached again through its own relationships: they form a cycle, which is not followed",
        controller: controller)
      return
    }
    reached.insert(controller.id)
    let identifier = controller.effectiveRestorationIdentifier
    let parentPreserved = parent.map { $0.path != nil } ?? true
    let path = identifier.flatMap { parentPreserved ? Self.join(parent?.path, index, $0) : nil }

    if listed, let path {
      paths.append(
        .init(
          path: path, object: Self.describe(controller), className: controller.className,
          line: controller.line, origin: origin, segueLine: segueLine))
      for view in controller.view.map(Self.identifiedViews) ?? [] {
        paths.append(
          .init(
            path: Self.join(path, nil, view.restorationIdentifier ?? ""),
            object: Self.describe(view), className: view.className, line: view.line,
            origin: origin, segueLine: segueLine))
      }
    }
    checkChain(controller, parent: parent, role: role, viaSegue: segueLine != nil, listed: listed)

    let parentHere = Parent(controller: controller, path: path)
    for (position, child) in controller.children.enumerated() {
      guard let destination = lookUp(child.destinationID) else {
        noteReference(child.segue)
        continue
      }
      let childStack =
        child.role == .navigationRoot
        ? Stack(navigation: controller, path: path, index: 0, members: [destination.id]) : nil
      visit(
        destination, parent: parentHere, index: position, role: child.role, listed: listed,
        origin: origin, segueLine: segueLine, stack: childStack,
        ancestors: ancestors.union([controller.id]))
    }
    for segue in controller.segues where !["embed", "unwind"].contains(segue.kind) {
      pendingSegues.append(
        .init(segue: segue, source: controller, sourcePath: path, stack: stack, listed: listed))
    }
  }

  /// Follows the queued segues: a push onto a navigation stack gets a listed path; other
  /// transitions present the destination, whose presenter UIKit chooses at run time (often the
  /// window's root rather than the segue's source), so their paths are not listed.
  private mutating func followPendingSegues() {
    var head = 0
    defer { pendingSegues.removeAll() }
    while head < pendingSegues.count, budget > 0 {
      let pending = pendingSegues[head]
      head += 1
      let segue = pending.segue
      let key = "\(segue.id ?? "")@\(segue.line)|\(pending.sourcePath ?? "-")|\(pending.source.id)"
      guard followed.insert(key).inserted else { continue }
      guard let destination = lookUp(segue.destinationID) else {
        noteReference(segue)
        continue
      }
      let pushes = ["show", "push", "showDetail"].contains(segue.kind)
      let stack = pushes ? pending.stack : nil
      checkSegueDestination(destination, of: segue, from: pending, pushedOnto: stack)
      if let stack {
        // A controller already in this stack is not pushed again: the loop would never end.
        guard !stack.members.contains(destination.id) else { continue }
        let next = Stack(
          navigation: stack.navigation, path: stack.path, index: stack.index + 1,
          members: stack.members.union([destination.id]))
        visit(
          destination, parent: Parent(controller: stack.navigation, path: stack.path),
          index: next.index, role: nil, listed: pending.listed, origin: .segue,
          segueLine: segue.line,
          stack: next)
      } else {
        visit(
          destination, parent: Parent(controller: pending.source, path: pending.sourcePath),
          index: nil, role: nil, listed: false, origin: .segue, segueLine: segue.line)
      }
    }
  }

  // MARK: Rules on the chain

  private mutating func checkChain(
    _ controller: Controller,
    parent: Parent?,
    role: Controller.Child.Role?,
    viaSegue: Bool,
    listed: Bool
  ) {
    if controller.effectiveRestorationIdentifier != nil {
      if let parent, parent.controller.effectiveRestorationIdentifier == nil {
        let presented = viaSegue && role == nil
        update(parent.controller) { record in
          if record.cutOffIDs.insert(controller.id).inserted {
            record.cutOff.append((controller, presented))
          }
        }
      }
      return
    }
    // A controller without identifier under a preserved parent (or at the root); under an
    // unpreserved parent the parent's own finding says it all. Segue destinations have their
    // own rule.
    guard parent.map({ $0.path != nil }) ?? true, !(viaSegue && role == nil) else { return }
    // A scene the app instantiates in code, or a XIB's controller, is no window's root: where
    // it goes, and whether it gets an identifier there, is up to the code.
    guard parent != nil || listed else { return }
    update(controller) { record in
      if let storyboardIdentifier = controller.storyboardIdentifier {
        record.storyboardIDUnchecked = storyboardIdentifier
      } else if role == .tab, let parent {
        record.tabOf = parent.controller
      } else if !controller.children.isEmpty {
        record.isContainer = true
      } else if parent == nil {
        record.isRoot = true
      } else {
        record.isLeaf = true
      }
    }
  }

  private mutating func checkSegueDestination(
    _ destination: Controller,
    of segue: InterfaceDocument.Segue,
    from pending: PendingSegue,
    pushedOnto stack: Stack?
  ) {
    guard destination.effectiveRestorationIdentifier == nil, pending.sourcePath != nil else {
      return
    }
    let pushed = stack.map { $0.path != nil } ?? false
    update(destination) { record in
      guard record.segueLines.insert(segue.line).inserted else { return }
      record.segues.append((segue, pushed, pushed ? stack?.navigation : nil))
    }
  }

  private mutating func noteReference(_ segue: InterfaceDocument.Segue) {
    guard let reference = document.storyboardReference(withID: segue.destinationID) else {
      return  // A missing destination is already a file issue.
    }
    let scene = reference.referencedIdentifier.map { "scene '\($0)'" } ?? "its initial scene"
    add(
      .note, .storyboardReference,
      "\(Self.describe(segue)) leads to \(scene) of storyboard '\(reference.storyboardName ?? "(this one)")', which is not checked here",
      line: segue.line, objectID: segue.id)
  }

  // MARK: Rules on each controller

  private mutating func checkEachController() {
    for controller in document.viewControllers {
      if let view = controller.view { checkViews(of: controller, root: view) }
      checkTabIdentifiers(of: controller)
      for segue in controller.segues where !["embed", "unwind"].contains(segue.kind) {
        guard document.kind == .storyboard,
          let destination = lookUp(segue.destinationID),
          destination.effectiveRestorationIdentifier != nil,
          destination.storyboardIdentifier == nil
        else { continue }
        if withoutStoryboardID[destination.id] == nil {
          withoutStoryboardIDOrder.append(destination.id)
        }
        withoutStoryboardID[destination.id, default: []].append(segue)
      }
    }
    for view in document.topLevelViews {
      var seen: [String: View] = [:]
      checkViews(view, of: nil, cell: nil, list: nil, seen: &seen)
    }
  }

  private mutating func checkViews(of controller: Controller, root: View) {
    var seen: [String: View] = [:]
    checkViews(root, of: controller, cell: nil, list: nil, seen: &seen)
  }

  /// Checks a view tree: identifiers on cells, views in controllers without identifier, and
  /// duplicate identifiers (which give duplicate paths, since views attach to their controller).
  private mutating func checkViews(
    _ view: View,
    of controller: Controller?,
    cell: View?,
    list: View?,
    seen: inout [String: View]
  ) {
    let cell = view.isCell ? view : cell
    if let identifier = view.restorationIdentifier {
      if let cell {
        let listName = list.map(Self.describe) ?? "the table or collection view"
        let tableHasIdentifier = list?.restorationIdentifier != nil
        let inside = cell.line == view.line ? "" : "is inside \(Self.describe(cell)) and "
        add(
          tableHasIdentifier ? .warning : .error, .identifierOnCell,
          "\(inside)\(Self.hasIdentifier(identifier, view)), but cells are reused, and restoration never finds them; "
            + (tableHasIdentifier
              ? "remove it (\(listName) has its own identifier)"
              : "set it on \(listName)\(list.map { " at line \($0.line)" } ?? "") instead, which has none"),
          view: view)
      } else {
        if let controller, controller.effectiveRestorationIdentifier == nil {
          update(controller) { $0.views.append(view) }
        }
        if let first = seen[identifier] {
          add(
            .error, .duplicatePath,
            "has the same restoration identifier as \(Self.describe(first)) at line \(first.line), in the same view tree: views attach to their controller's path, so both get the same identifier path and only one is preserved",
            view: view)
        } else {
          seen[identifier] = view
        }
      }
    }
    let isList = ["tableView", "collectionView"].contains(view.elementName)
    for subview in view.subviews {
      checkViews(subview, of: controller, cell: cell, list: isList ? view : list, seen: &seen)
    }
  }

  private mutating func checkTabIdentifiers(of controller: Controller) {
    var seen: [String: Controller] = [:]
    for child in controller.children where child.role == .tab {
      guard let tab = lookUp(child.destinationID),
        let identifier = tab.effectiveRestorationIdentifier
      else { continue }
      if let first = seen[identifier] {
        add(
          .error, .duplicateSiblingIdentifier,
          "is a tab of \(Self.describe(controller)) with the same restoration identifier as \(Self.describe(first)) at line \(first.line): the tab bar matches the restored selection by identifier, so the wrong tab can come back selected",
          controller: tab)
      } else {
        seen[identifier] = tab
      }
    }
  }

  private mutating func checkStoryboardIdentifiers() {
    var seen: [String: Controller] = [:]
    for controller in document.viewControllers {
      guard let identifier = controller.storyboardIdentifier else { continue }
      if let first = seen[identifier] {
        add(
          .error, .duplicateStoryboardIdentifier,
          "has the same Storyboard ID as \(Self.describe(first)) at line \(first.line): instantiating or re-creating it by identifier gets the other one",
          controller: controller)
      } else {
        seen[identifier] = controller
      }
    }
  }

  // MARK: One finding per root cause

  /// Records what a controller without identifier breaks.
  private mutating func update(_ controller: Controller, _ change: (inout Unidentified) -> Void) {
    if unidentified[controller.id] == nil { unidentifiedOrder.append(controller.id) }
    // In place: a copy of the record would copy its lists at every change.
    change(&unidentified[controller.id, default: Unidentified(controller: controller)])
  }

  /// One finding per controller without identifier: the worst of what its missing identifier
  /// breaks, naming the rest, so that one root cause is reported once.
  private mutating func reportUnidentified() {
    for id in unidentifiedOrder {
      guard let record = unidentified[id] else { continue }
      let controller = record.controller
      let pushed = record.segues.filter(\.pushed)
      let fix =
        record.storyboardIDUnchecked != nil
        ? "check 'Use Storyboard ID' in the identity inspector" : "give it a restoration identifier"
      let severity: LintFinding.Severity
      let code: LintFinding.Code
      var predicate: String
      if !record.cutOff.isEmpty {
        (severity, code) = (.error, .gapInChain)
        let presented = record.cutOff.allSatisfy(\.presented)
        let contained = !record.cutOff.contains(where: \.presented)
        let names = Self.list(
          record.cutOff.map { "\(Self.describe($0.controller)) at line \($0.controller.line)" })
        let one = record.cutOff.count == 1
        let subject =
          contained
          ? "its \(one ? "child" : "children") \(names)"
          : "\(names), which it \(presented ? "presents" : "contains or presents"),"
        predicate =
          "has no restoration identifier, but \(subject) \(one ? "has" : "have") one: the chain from the root is broken there, so \(one ? "that controller" : "those controllers") and everything below \(one ? "it" : "them") are never preserved"
        if !record.views.isEmpty { predicate += "; " + Self.viewsClause(record.views) }
      } else if !record.views.isEmpty {
        (severity, code) = (.error, .viewInUnidentifiedController)
        let one = record.views.count == 1
        predicate =
          "has no restoration identifier, but its \(one ? "view" : "views") \(Self.list(record.views.map { "\(Self.describe($0)) at line \($0.line)" })) \(one ? "has" : "have") one: views are preserved only inside preserved controllers"
      } else if let storyboardIdentifier = record.storyboardIDUnchecked {
        (severity, code) = (.warning, .useStoryboardIdentifierUnchecked)
        // The description shows the Storyboard ID when there is one: not said twice.
        let hasID =
          Self.describe(controller).contains("'\(storyboardIdentifier)'")
          ? "a Storyboard ID" : "Storyboard ID '\(storyboardIdentifier)'"
        predicate =
          "has \(hasID) but no restoration identifier, so it is not preserved, nor anything below it: check 'Use Storyboard ID' in the identity inspector"
      } else if let tabBar = record.tabOf {
        (severity, code) = (.warning, .tabWithoutIdentifier)
        predicate =
          "is a tab of \(Self.describe(tabBar)) without a restoration identifier: tab bars match tabs by identifier, so it comes back in its default state, and the selection is lost when it was the selected tab"
          + (controller.children.isEmpty ? "" : "; none of its children are preserved either")
      } else if let first = pushed.first {
        (severity, code) = (.warning, .segueDestinationWithoutIdentifier)
        let navigation = first.stack.map { Self.describe($0) } ?? "its navigation controller"
        predicate =
          "is pushed by \(Self.describe(pushed.map(\.segue))) onto \(navigation), which is preserved, but has no restoration identifier: it is left out of the restored navigation stack, with anything it shows"
      } else if record.isContainer {
        (severity, code) = (.warning, .containerWithoutIdentifier)
        predicate =
          "is a container without a restoration identifier: none of its children are preserved"
      } else if record.isRoot {
        (severity, code) = (.warning, .rootWithoutIdentifier)
        predicate =
          "is the root view controller and has no restoration identifier: nothing in its window is preserved"
      } else if !record.segues.isEmpty {
        (severity, code) = (.note, .segueDestinationWithoutIdentifier)
        predicate =
          "is shown by \(Self.describe(record.segues.map(\.segue))) from a preserved controller but has no restoration identifier: it is not restored"
      } else if record.isLeaf {
        (severity, code) = (.note, .controllerWithoutIdentifier)
        predicate =
          "has no restoration identifier, so it is left out of the archive (fine when on purpose)"
      } else {
        continue
      }
      // What else the same missing identifier breaks, when the finding is about something
      // worse.
      if code == .gapInChain || code == .viewInUnidentifiedController {
        var also: [String] = []
        if let tabBar = record.tabOf { also.append("a tab of \(Self.describe(tabBar))") }
        if !record.segues.isEmpty {
          also.append(
            "shown by \(Self.describe(record.segues.map(\.segue))) from a preserved controller")
        }
        if record.isRoot { also.append("the root view controller") }
        if !also.isEmpty { predicate += "; it is also \(Self.list(also))" }
        predicate += "; \(fix)"
      }
      add(severity, code, predicate, controller: controller)
    }
  }

  /// One finding per controller shown by segues with an identifier but no Storyboard ID.
  private mutating func reportWithoutStoryboardID() {
    for id in withoutStoryboardIDOrder {
      guard let segues = withoutStoryboardID[id], let destination = lookUp(id),
        let identifier = destination.effectiveRestorationIdentifier
      else { continue }
      add(
        .warning, .segueDestinationWithoutStoryboardIdentifier,
        "is shown by \(Self.describe(segues)) and \(Self.hasIdentifier(identifier, destination)) but no Storyboard ID: at launch the storyboard cannot re-create it, nor can the app delegate instantiate it by identifier; give it a Storyboard ID (and check 'Use Storyboard ID'), or a restoration class in code",
        controller: destination)
    }
  }

  private static func viewsClause(_ views: [View]) -> String {
    let one = views.count == 1
    return
      "its \(one ? "view" : "views") \(list(views.map { "\(describe($0)) at line \($0.line)" })) \(one ? "has" : "have") one too, never preserved"
  }

  /// `a`, `a and b`, `a, b and c`; beyond `limit` items, the first ones and how many more.
  static func list(_ items: [String], limit: Int = 4) -> String {
    let shown = items.count > limit ? Array(items.prefix(limit - 1)) : items
    let rest = items.count - shown.count
    var parts = shown
    if rest > 0 { parts.append("\(rest) more") }
    guard parts.count > 1, let last = parts.last else { return parts.first ?? "" }
    return parts.dropLast().joined(separator: ", ") + " and " + last
  }

  /// One segue, described alone, or several by their lines: `3 segues (lines 20, 31 and 40)`.
  static func describe(_ segues: [InterfaceDocument.Segue]) -> String {
    guard segues.count > 1 else { return segues.first.map { describe($0) } ?? "a segue" }
    return "\(segues.count) segues (lines \(list(segues.map { String($0.line) }, limit: 8)))"
  }

  // MARK: Helpers

  private func lookUp(_ id: String) -> Controller? { controllersByID[id] }

  /// Controllers that are no other controller's child.
  private func topLevelControllers() -> [Controller] {
    let children = Set(document.viewControllers.flatMap { $0.children.map(\.destinationID) })
    let segueDestinations = Set(document.viewControllers.flatMap { $0.segues.map(\.destinationID) })
    return document.viewControllers.filter {
      !children.contains($0.id)
        && (document.kind == .xib || document.initialViewController != nil
          || !segueDestinations.contains($0.id))
    }
  }

  private func subtreeHasIdentifier(_ controller: Controller) -> Bool {
    var stack = [controller]
    var seen: Set<String> = []
    while let next = stack.popLast() {
      guard seen.insert(next.id).inserted else { continue }
      if next.effectiveRestorationIdentifier != nil || next.view?.hasIdentifier == true {
        return true
      }
      stack += next.children.compactMap { lookUp($0.destinationID) }
    }
    return false
  }

  /// The views with identifiers that restoration can find: cells and what they hold are left
  /// out.
  static func identifiedViews(in view: View) -> [View] {
    guard !view.isCell else { return [] }
    return (view.restorationIdentifier != nil ? [view] : [])
      + view.subviews.flatMap(identifiedViews)
  }

  /// Joins a parent path, an index component and an identifier, as UIKit does.
  static func join(_ prefix: String?, _ index: Int?, _ identifier: String) -> String {
    var components: [String] = []
    if let prefix, !prefix.isEmpty { components.append(prefix) }
    if let index { components.append(IdentifierPath.indexComponent(index)) }
    components.append(identifier)
    return components.joined(separator: String(IdentifierPath.separator))
  }

  /// Such as `tableViewController UYLTableViewController 'CountryTVCID'`.
  static func describe(_ controller: Controller) -> String {
    let name = controller.storyboardIdentifier ?? controller.restorationIdentifier
    let custom = controller.customClass.map { " \($0)" } ?? ""
    if let name { return "\(controller.elementName)\(custom) '\(name)'" }
    if let title = controller.title { return "\(controller.elementName)\(custom) \"\(title)\"" }
    return "\(controller.elementName)\(custom) (id \(controller.id))"
  }

  /// Such as `tableView 'CountryTVID'`.
  static func describe(_ view: View) -> String {
    let custom = view.customClass.map { " \($0)" } ?? ""
    if let identifier = view.restorationIdentifier {
      return "\(view.elementName)\(custom) '\(identifier)'"
    }
    return "\(view.elementName)\(custom)\(view.id.map { " (id \($0))" } ?? "")"
  }

  /// Such as `the 'show' segue 'UYLSegueShowCountry' (line 59)`.
  static func describe(_ segue: InterfaceDocument.Segue) -> String {
    let identifier = segue.identifier.map { " '\($0)'" } ?? ""
    return "the '\(segue.kind)' segue\(identifier) (line \(segue.line))"
  }

  /// `has restoration identifier 'X'`, or `has a restoration identifier` when the object's
  /// description already shows it, so that the line does not say it twice.
  static func hasIdentifier(_ identifier: String, _ controller: Controller) -> String {
    hasIdentifier(identifier, shownIn: describe(controller))
  }

  /// The same for a view.
  static func hasIdentifier(_ identifier: String, _ view: View) -> String {
    hasIdentifier(identifier, shownIn: describe(view))
  }

  private static func hasIdentifier(_ identifier: String, shownIn description: String) -> String {
    description.contains("'\(identifier)'")
      ? "has a restoration identifier" : "has restoration identifier '\(identifier)'"
  }

  /// Adds a finding about a controller; `predicate` goes on from its description, the subject
  /// of the sentence.
  private mutating func add(
    _ severity: LintFinding.Severity,
    _ code: LintFinding.Code,
    _ predicate: String,
    controller: Controller
  ) {
    let subject = Self.describe(controller)
    add(
      severity, code, "\(subject) \(predicate)", line: controller.line, object: subject,
      objectID: controller.id)
  }

  /// Adds a finding about a view; `predicate` goes on from its description.
  private mutating func add(
    _ severity: LintFinding.Severity,
    _ code: LintFinding.Code,
    _ predicate: String,
    view: View
  ) {
    let subject = Self.describe(view)
    add(
      severity, code, "\(subject) \(predicate)", line: view.line, object: subject,
      objectID: view.id)
  }

  private mutating func add(
    _ severity: LintFinding.Severity,
    _ code: LintFinding.Code,
    _ message: String,
    line: Int? = nil,
    object: String? = nil,
    objectID: String? = nil
  ) {
    findings.append(
      LintFinding(
        severity, code, message, file: document.file, line: line, object: object,
        objectID: objectID))
  }
}
