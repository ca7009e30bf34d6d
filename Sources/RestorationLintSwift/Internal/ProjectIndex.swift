internal import RestorationLint
internal import StoryboardImport

/// The module's types and functions from every file, and the rules that cross files.
final class ProjectIndex {
  private let files: [SwiftFileFacts]
  private let documents: [InterfaceDocument]
  /// Every function of the module, and the file it is in.
  private var functions: [FunctionFacts] = []
  private var functionFiles: [String] = []
  private var functionsByName: [String: [Int]] = [:]
  private var functionsByOwner: [String: [Int]] = [:]
  /// The first class declaration of each name, and its file.
  private var classes: [String: (declaration: TypeDeclaration, file: String)] = [:]
  /// What each type inherits and adopts, over its declaration and all its extensions.
  private var adopted: [String: Set<String>] = [:]
  /// Stored property types over a type's declaration and extensions.
  private var propertyTypes: [String: [String: String]] = [:]
  /// String constants by name; nil when two constants of that name differ.
  private var constants: [String: String?] = [:]

  /// The kind of each type declared (not extended) in the module, by name.
  private var kinds: [String: TypeDeclaration.Kind] = [:]
  /// The files that import UIKit; all of them when one re-exports it to the module.
  private var uikitFiles: Set<String> = []

  /// UIKit's view controller classes, where a module's superclass chain ends.
  private static let uikitControllers: Set<String> = [
    "UIViewController", "UITableViewController", "UICollectionViewController",
    "UINavigationController", "UITabBarController", "UISplitViewController",
    "UIPageViewController", "UISearchController", "UIHostingController",
  ]

  init(files: [SwiftFileFacts], documents: [InterfaceDocument]) {
    self.files = files
    self.documents = documents
    for file in files {
      for type in file.types {
        if type.kind == .classType, classes[type.name] == nil {
          classes[type.name] = (type, file.file)
        }
        if type.kind != .extensionType, kinds[type.name] == nil { kinds[type.name] = type.kind }
        adopted[type.name, default: []].formUnion(type.inherited)
        propertyTypes[type.name, default: [:]].merge(type.propertyTypes) { first, _ in first }
      }
      for function in file.functions {
        let index = functions.count
        functions.append(function)
        functionFiles.append(file.file)
        functionsByName[function.name, default: []].append(index)
        if let owner = function.owner { functionsByOwner[owner, default: []].append(index) }
      }
      for (name, value) in file.stringConstants {
        if let known = constants[name], known != value {
          constants[name] = .some(nil)
        } else {
          constants[name] = value
        }
      }
    }
    uikitFiles = Set(
      files.contains(where: \.exportsUIKit)
        ? files.map(\.file) : files.filter(\.importsUIKit).map(\.file))
  }

  // MARK: Queries

  /// Whether a name is UIKit's: `UI` and a capital letter (`UIViewController`,
  /// `UIApplicationDelegate`); this package's own types never are.
  private static func isUIKitName(_ name: String) -> Bool {
    let characters = Array(name.prefix(3))
    return characters.count == 3 && characters[0] == "U" && characters[1] == "I"
      && characters[2].isUppercase
  }

  /// Whether a type is UIKit code: its superclass chain ends in a UIKit class, or it or a
  /// superclass adopts a UIKit protocol.
  func isUIKitType(_ name: String) -> Bool {
    let chain = classChain(name)
    if let last = chain.last, Self.isUIKitName(last) { return true }
    return chain.contains { adopted[$0]?.contains(where: Self.isUIKitName) == true }
  }

  /// Whether a function is UIKit code, which UIKit's rules check.
  ///
  /// It is when its file imports UIKit, or its type is UIKit code. Code written for another API
  /// with the same names, such as this package's `ApplicationDelegate`, is not.
  func isUIKitFunction(_ index: Int) -> Bool {
    uikitFunctions[index]
  }

  /// ``isUIKitFunction(_:)`` for every function, worked out once: each rule asks.
  private lazy var uikitFunctions: [Bool] = {
    var typeIsUIKit: [String: Bool] = [:]
    return functions.indices.map { index in
      if uikitFiles.contains(functionFiles[index]) { return true }
      guard let owner = functions[index].owner else { return false }
      if let known = typeIsUIKit[owner] { return known }
      let found = isUIKitType(owner)
      typeIsUIKit[owner] = found
      return found
    }
  }()

  /// The class and its superclasses declared in the module, nearest first.
  func classChain(_ name: String) -> [String] {
    var chain: [String] = []
    var current: String? = name
    while let type = current, !chain.contains(type), chain.count < 64 {
      chain.append(type)
      current = classes[type]?.declaration.inherited.first
    }
    return chain
  }

  /// Whether a class is a view controller: its superclass chain reaches one of UIKit's, or
  /// ends outside the module in a class whose name says it is one.
  func isController(_ name: String) -> Bool {
    let chain = classChain(name)
    guard let last = chain.last else { return false }
    if chain.contains(where: Self.uikitControllers.contains) { return true }
    guard classes[name] != nil else { return false }
    let end = classes[last]?.declaration.inherited.first ?? last
    return end.hasSuffix("Controller")
  }

  /// Whether a type or one of its superclasses adopts a protocol, in any declaration or
  /// extension.
  func adopts(_ name: String, _ proto: String) -> Bool {
    classChain(name).contains { adopted[$0]?.contains(proto) == true }
      || adopted[name]?.contains(proto) == true
  }

  private func functions(of type: String) -> [Int] {
    classChain(type).flatMap { functionsByOwner[$0] ?? [] }
  }

  /// Whether the class (or a superclass) assigns its own restoration identifier, not nil,
  /// anywhere.
  func setsOwnIdentifier(_ type: String) -> Bool {
    functions(of: type).contains {
      functions[$0].identifierAssignments.contains { $0.target == .ownObject && !$0.isNil }
    }
  }

  /// Whether the class (or a superclass) assigns its own restoration class anywhere.
  func setsOwnRestorationClass(_ type: String) -> Bool {
    functions(of: type).contains {
      functions[$0].classAssignments.contains { $0.target == .ownObject }
    }
  }

  func hasFactory(_ type: String) -> Bool {
    functions(of: type).contains { functions[$0].isRestorationFactory }
  }

  /// The app delegate's `application(_:viewControllerWithRestorationIdentifierPath:coder:)`
  /// methods, in UIKit code.
  private lazy var hooks: [Int] = functions.indices.filter {
    functions[$0].isApplicationMethod("viewControllerWithRestorationIdentifierPath")
      && isUIKitFunction($0)
  }

  lazy var hasAppDelegateHook: Bool = !hooks.isEmpty

  private lazy var optsIn: Bool = functions.indices.contains { index in
    [
      "shouldSaveApplicationState", "shouldRestoreApplicationState",
      "shouldSaveSecureApplicationState", "shouldRestoreSecureApplicationState",
    ].contains { functions[index].isApplicationMethod($0) } && isUIKitFunction(index)
  }

  /// Which controllers the app delegate's hook re-creates at launch.
  enum HookCoverage: Equatable {
    /// It never creates a controller: it returns one that exists, or nil.
    case none
    /// It creates controllers only for these identifiers, which it compares the path with.
    case only(Set<String>)
    /// It may create a controller for any identifier, as far as the lint can tell.
    case any
  }

  /// What the hook re-creates, from the controllers it creates (in code, from a storyboard,
  /// through a restoration factory or a function of the module) and the identifiers the
  /// `switch`, `if` and `guard` around each compare the path with; nil without a hook.
  private lazy var hookCoverage: HookCoverage? = {
    guard !hooks.isEmpty else { return nil }
    var literals: Set<String> = []
    var creates = false
    for hook in hooks {
      let facts = functions[hook]
      var guards: [Set<String>?] = facts.constructions.filter { isControllerLike($0.type) }
        .map(\.guardLiterals)
      for call in facts.callSites where createsController(call, in: hook) {
        guards.append(call.guardLiterals)
      }
      for guarded in guards {
        creates = true
        guard let guarded else { return .any }
        literals.formUnion(guarded)
      }
    }
    return creates ? .only(literals) : HookCoverage.none
  }()

  /// Whether a type is a view controller, of the module or not (`SFSafariViewController`).
  private func isControllerLike(_ type: String) -> Bool {
    classes[type] != nil ? isController(type) : isSystemController(type)
  }

  /// Whether a type outside the module is a view controller, by its name.
  private func isSystemController(_ type: String) -> Bool {
    classes[type] == nil && type.first?.isUppercase == true
      && (Self.uikitControllers.contains(type) || type.hasSuffix("Controller"))
  }

  /// Whether a call creates a controller: a storyboard's `instantiate...ViewController`, a
  /// restoration factory, or a function of the module that creates one.
  private func createsController(_ call: CallSite, in function: Int) -> Bool {
    if call.name.hasPrefix("instantiate") && call.name.hasSuffix("ViewController") {
      return true
    }
    if call.name == "viewController" && call.labels.first == "withRestorationIdentifierPath" {
      return true
    }
    let callees: [Int]
    switch call.receiver {
    case .ownObject: callees = functionsByName[call.name] ?? []
    case .type(let type): callees = functions(of: type)
    case .variable, .superObject, .other: callees = []
    }
    return callees.contains {
      functions[$0].name == call.name && functions[$0].accepts(call.labels)
        && !createdControllers(in: $0).isEmpty
    }
  }

  /// The nearest initializers in a class's chain that a call with these labels calls.
  ///
  /// UIKit's `init()`, which a controller inherits when it overrides `init(nibName:bundle:)`,
  /// calls that override: a call without arguments that no initializer of the module accepts
  /// is followed there.
  private func initializers(of type: String, accepting labels: [String]) -> [Int] {
    for candidates in [labels, labels.isEmpty ? ["nibName", "bundle"] : nil].compactMap({ $0 }) {
      for owner in classChain(type) {
        let found = (functionsByOwner[owner] ?? []).filter {
          functions[$0].isInitializer && functions[$0].accepts(candidates)
        }
        if !found.isEmpty { return found }
      }
    }
    return []
  }

  /// The subject of a finding about a type's code: `class 'Map'`, or top-level code.
  private func describe(_ owner: String?) -> String {
    guard let owner else { return "top-level code" }
    return "\(kinds[owner].map(TypeDeclaration.describe) ?? "type") '\(owner)'"
  }

  // MARK: Following a new object

  /// What is set on one new controller: a restoration identifier (not nil) and a class.
  struct Identity {
    var identifier = false
    var restorationClass = false
    /// The identifiers set, when each is a string literal or a constant.
    var identifiers: Set<String> = []
    /// Whether an identifier was set to something else (`identifierComponents.last`).
    var hasOtherIdentifier = false

    var isComplete: Bool { identifier && restorationClass }

    mutating func formUnion(_ other: Identity) {
      identifier = identifier || other.identifier
      restorationClass = restorationClass || other.restorationClass
      identifiers.formUnion(other.identifiers)
      hasOtherIdentifier = hasOtherIdentifier || other.hasOtherIdentifier
    }
  }

  /// How a function names the object followed: `self`, or a variable or parameter.
  private enum Subject: Hashable {
    case ownObject
    case variable(String)
  }

  private struct Visit: Hashable {
    var function: Int
    var subject: Subject
  }

  /// What one function sets on the object it names `subject`.
  ///
  /// The methods called on the object (`self.init` and `super.init` too) and the functions it
  /// is passed to are followed within the module; assignments to other objects do not count.
  private func identity(
    in function: Int, of subject: Subject, type: String, visited: inout Set<Visit>,
    depth: Int = 0
  ) -> Identity {
    // The depth keeps a long chain of calls from exhausting a worker thread's stack.
    guard depth < Self.maximumCallDepth,
      visited.insert(Visit(function: function, subject: subject)).inserted
    else {
      return Identity()
    }
    let facts = functions[function]
    let target: AssignmentTarget
    let passed: String
    switch subject {
    case .ownObject: (target, passed) = (.ownObject, "self")
    case .variable(let name): (target, passed) = (.variable(name), name)
    }
    var identity = Identity(
      identifier: facts.identifierAssignments.contains { $0.target == target && !$0.isNil },
      restorationClass: facts.classAssignments.contains { $0.target == target })
    for assignment in facts.identifierAssignments where assignment.target == target {
      guard !assignment.isNil else { continue }
      if let key = assignment.key, let value = resolvedValue(key) {
        identity.identifiers.insert(value)
      } else {
        identity.hasOtherIdentifier = true
      }
    }
    for call in facts.callSites where !identity.isComplete {
      var methods: [Int] = []
      switch (call.receiver, subject) {
      case (.ownObject, .ownObject):
        methods = functions(of: type)
      case (.superObject, .ownObject):
        methods = classChain(facts.owner ?? type).dropFirst().flatMap {
          functionsByOwner[$0] ?? []
        }
      case (.variable(let name), .variable(let followed)) where name == followed:
        methods = functions(of: type)
      default:
        break
      }
      var called = methods.filter {
        functions[$0].name == call.name && !functions[$0].isStatic
          && functions[$0].accepts(call.labels)
      }
      if call.name == "init", call.labels.isEmpty, case .ownObject = call.receiver,
        case .ownObject = subject
      {
        // `self.init()`: the class's own, or UIKit's, which calls `init(nibName:bundle:)`.
        called = initializers(of: type, accepting: [])
      }
      for method in called {
        identity.formUnion(
          self.identity(
            in: method, of: .ownObject, type: type, visited: &visited, depth: depth + 1))
      }
      for (argument, name) in call.arguments.enumerated() where name == passed {
        for callee in functionsByName[call.name] ?? [] {
          guard let positions = functions[callee].parameterPositions(call.labels),
            argument < positions.count
          else { continue }
          let parameter = functions[callee].parameterNames[positions[argument]]
          identity.formUnion(
            self.identity(
              in: callee, of: .variable(parameter), type: type, visited: &visited,
              depth: depth + 1))
        }
      }
    }
    return identity
  }

  /// What is set on a controller created in a function: by the initializer its labels call
  /// (the nearest class in the chain declaring one), by the properties' initial values, and
  /// on the variable the function binds it to.
  private func identity(of construction: Construction, in function: Int) -> Identity {
    var visited: Set<Visit> = []
    var identity = Identity()
    for initializer in initializers(of: construction.type, accepting: construction.labels) {
      identity.formUnion(
        self.identity(in: initializer, of: .ownObject, type: construction.type, visited: &visited))
    }
    for property in functions(of: construction.type)
    where functions[property].labels == ["(property)"] && !functions[property].isStatic {
      identity.formUnion(
        self.identity(in: property, of: .ownObject, type: construction.type, visited: &visited))
    }
    if let variable = construction.variable {
      identity.formUnion(
        self.identity(
          in: function, of: .variable(variable), type: construction.type, visited: &visited))
    }
    return identity
  }

  /// How deep calls are followed from a new controller or a factory.
  private static let maximumCallDepth = 32

  /// What ``createdControllers(in:depth:)`` found for each function, so that helpers shared by
  /// many factories are read once.
  private var createdByFunction: [Int: [(type: String, identity: Identity)]] = [:]

  /// The module's controllers a function creates, each with what is set on it: created there,
  /// or else by the functions it calls (then what it sets on their result counts too).
  private func createdControllers(
    in function: Int, depth: Int = 0
  ) -> [(type: String, identity: Identity)] {
    if let known = createdByFunction[function] { return known }
    let facts = functions[function]
    let created = facts.constructions.filter { classes[$0.type] != nil && isController($0.type) }
    if !created.isEmpty || depth >= Self.maximumCallDepth {
      let found = created.map { ($0.type, identity(of: $0, in: function)) }
      createdByFunction[function] = found
      return found
    }
    // A function that calls itself back creates nothing more along that path.
    createdByFunction[function] = []
    var found: [(type: String, identity: Identity)] = []
    for call in facts.callSites {
      let callees: [Int]
      switch call.receiver {
      case .ownObject: callees = functionsByName[call.name] ?? []
      case .type(let type): callees = functions(of: type)
      // A method of another object, or of super, does not create this controller.
      case .variable, .superObject, .other: callees = []
      }
      for callee in callees
      where functions[callee].name == call.name && functions[callee].accepts(call.labels) {
        for (type, created) in createdControllers(in: callee, depth: depth + 1) {
          var identity = created
          if let variable = call.resultVariable {
            var visited: Set<Visit> = []
            identity.formUnion(
              self.identity(in: function, of: .variable(variable), type: type, visited: &visited))
          }
          found.append((type, identity))
        }
      }
    }
    createdByFunction[function] = found
    return found
  }

  /// A key's text: the literal, or the constant's value; nil for a name that is no constant
  /// (a variable or a parameter, which could hold anything).
  private func resolvedValue(_ key: KeyUse.Key) -> String? {
    switch key {
    case .literal(let text): return text
    case .constant(let name): return constants[name] ?? nil
    }
  }

  private func resolve(_ key: KeyUse.Key) -> String {
    switch key {
    case .literal(let text): return "\"\(text)\""
    case .constant(let name):
      if let value = constants[name], let value { return "\"\(value)\"" }
      return name
    }
  }

  // MARK: Rules

  func crossFileFindings() -> [LintFinding] {
    var findings: [LintFinding] = []
    findings += restorationClassesWithoutFactory()
    findings += controllersNotRecreatable()
    findings += factoriesWithoutIdentity()
    findings += identitiesSetLate()
    findings += dataSourcesWithoutModelAssociation()
    findings += rootsBuiltInDidFinishLaunching()
    findings += deprecatedOptIns()
    findings += restorableStateWithoutSuper()
    findings += decodedKeysNeverEncoded()
    findings += forceCastsOfHelpers()
    return findings
  }

  private func restorationClassesWithoutFactory() -> [LintFinding] {
    var findings: [LintFinding] = []
    for (index, function) in functions.enumerated() where isUIKitFunction(index) {
      for assignment in function.classAssignments {
        guard var type = assignment.valueType else { continue }
        if type == "Self", let owner = function.owner { type = owner }
        guard classes[type] != nil, !hasFactory(type) else { continue }
        findings.append(
          LintFinding(
            .error, .restorationClassWithoutFactory,
            "\(describe(function.owner)) sets restorationClass to \(type), which declares no 'static func viewController(withRestorationIdentifierPath:coder:)' in this module: UIKit logs a warning at launch and the controller never comes back; declare the factory in \(type) or an extension, adopting UIViewControllerRestoration",
            file: functionFiles[index], line: assignment.line, object: type))
      }
    }
    return findings
  }

  private func controllersNotRecreatable() -> [LintFinding] {
    if hookCoverage == .any { return [] }
    var findings: [LintFinding] = []
    for (index, function) in functions.enumerated()
    where !function.shown.isEmpty && isUIKitFunction(index) {
      for shown in function.shown {
        let construction: Construction
        if let constructed = shown.constructedType {
          construction = Construction(
            type: constructed, labels: shown.labels, variable: nil, line: shown.line)
        } else if let variable = shown.variable, let local = function.locals[variable],
          local.isConstructed
        {
          construction =
            function.constructions.last { $0.variable == variable }
            ?? Construction(type: local.type, labels: [], variable: variable, line: shown.line)
        } else {
          continue
        }
        let type = construction.type
        let isSystem = isSystemController(type)
        guard isSystem || (classes[type] != nil && isController(type)) else { continue }
        let identity = identity(of: construction, in: index)
        guard identity.identifier, !identity.restorationClass,
          let why = notRecreatedReason(identity)
        else { continue }
        let subject =
          "\(describe(function.owner)) shows \(Self.article(type)) \(type) created in code with \(Self.identifierPhrase(identity))"
        let message: String
        if isSystem {
          message =
            "\(subject), but \(type) is a system class that no restoration class of this module re-creates, and \(why): it is preserved, but nothing re-creates it at launch and the user lands on the screen below; create it in that method for its identifier (with what it needs, saved in the coder), or leave its restoration identifier nil"
        } else {
          message =
            "\(subject), but \(type) gets no restoration class and \(why): it is preserved, but nothing re-creates it at launch and the user lands on the screen below; set restorationClass = \(type).self and implement its viewController(withRestorationIdentifierPath:coder:)"
        }
        findings.append(
          LintFinding(
            .warning, .controllerNotRecreatable, message, file: functionFiles[index],
            line: shown.line, object: type))
      }
    }
    return findings
  }

  /// Why the app delegate does not re-create a controller with this identity, or nil when it
  /// may.
  private func notRecreatedReason(_ identity: Identity) -> String? {
    let hook = "application(_:viewControllerWithRestorationIdentifierPath:coder:)"
    switch hookCoverage {
    case nil:
      return "the app delegate has no \(hook)"
    case .none?:
      return
        "the app delegate's \(hook) never creates a controller (it returns one that exists, or nil)"
    case .only(let handled)?:
      // Only an identifier the lint knows, and that the hook never compares with, is missed.
      guard !identity.hasOtherIdentifier, !identity.identifiers.isEmpty,
        identity.identifiers.isDisjoint(with: handled)
      else { return nil }
      let names = handled.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
      return "the app delegate's \(hook) creates controllers only for \(names)"
    case .any?:
      return nil
    }
  }

  /// `a` or `an`, as the type's name is read.
  private static func article(_ type: String) -> String {
    guard let first = type.first else { return "a" }
    // Acronyms read letter by letter: an SFSafariViewController, a UINavigationController.
    let spelled = type.count > 1 && type.dropFirst().first?.isUppercase == true
    let vowelSound = spelled ? "AEFHILMNORSX".contains(first) : "AEIOU".contains(first)
    return vowelSound ? "an" : "a"
  }

  /// `restoration identifier "Safari"` when the lint knows it, else `a restoration identifier`.
  private static func identifierPhrase(_ identity: Identity) -> String {
    guard !identity.hasOtherIdentifier, identity.identifiers.count == 1,
      let identifier = identity.identifiers.first
    else { return "a restoration identifier" }
    return "restoration identifier \"\(identifier)\""
  }

  /// Force casts of what a function of the module decodes from the coder it is given:
  /// `Store.object(decodedFrom: coder, key: "item") as! Item`.
  private func forceCastsOfHelpers() -> [LintFinding] {
    var findings: [LintFinding] = []
    for file in files {
      for cast in file.forceCastCalls {
        let call = cast.call
        let candidates: [Int]
        switch call.receiver {
        case .type(let type): candidates = functions(of: type)
        case .ownObject: candidates = functionsByName[call.name] ?? []
        case .variable, .superObject, .other: candidates = []
        }
        let helpers = candidates.filter { index in
          let helper = functions[index]
          guard helper.name == call.name, helper.returnsDecoded,
            let positions = helper.parameterPositions(call.labels),
            cast.coderArgument < positions.count
          else { return false }
          let parameter = helper.parameterNames[positions[cast.coderArgument]]
          return helper.coderParameters.contains(parameter)
        }
        guard let helper = helpers.first else { continue }
        let receiver = {
          if case .type(let type) = call.receiver { return "\(type)." }
          return ""
        }()
        let name = "\(receiver)\(functions[helper].signature)"
        let what =
          "the value \(name) decodes" + (cast.key.map { " for key \($0)" } ?? "")
        findings.append(
          ForceCast.finding(
            subject: describe(cast.owner), what: what, type: cast.type, wrapped: cast.wrapped,
            file: file.file, line: call.line, owner: cast.owner))
      }
    }
    return findings
  }

  private func factoriesWithoutIdentity() -> [LintFinding] {
    var findings: [LintFinding] = []
    for (index, function) in functions.enumerated()
    where function.isRestorationFactory && function.isStatic && isUIKitFunction(index) {
      guard let (type, identity) = createdControllers(in: index).first else { continue }
      let identified = identity.identifier
      let classed = identity.restorationClass
      let missing: String
      switch (identified, classed) {
      case (true, true): continue
      case (false, false): missing = "its restoration identifier or its restoration class"
      case (false, true): missing = "its restoration identifier"
      case (true, false): missing = "its restoration class"
      }
      let consequence =
        identified
        ? "it is preserved again, but nothing re-creates it the next time"
        : "it comes back this time, but is not preserved the next time"
      findings.append(
        LintFinding(
          .warning, .factoryWithoutRestorationIdentity,
          "the restoration factory of \(describe(function.owner)) creates a \(type), but neither it, the initializer it calls nor the functions they call set \(missing) again: \(consequence); set restorationIdentifier = identifierComponents.last and restorationClass = \(type).self on the new controller (or in its initializer)",
          file: functionFiles[index], line: function.line, object: type))
    }
    return findings
  }

  private static let lateMethods: Set<String> = ["viewDidLoad", "viewWillAppear", "viewDidAppear"]

  private func identitiesSetLate() -> [LintFinding] {
    var findings: [LintFinding] = []
    let storyboardIdentified = Set(
      documents.flatMap(\.viewControllers).filter { $0.effectiveRestorationIdentifier != nil }
        .compactMap(\.customClass))
    for (index, function) in functions.enumerated()
    where Self.lateMethods.contains(function.name) && !function.isStatic
      && isUIKitFunction(index)
    {
      guard let owner = function.owner, isController(owner) else { continue }
      let ownIdentifier = function.identifierAssignments.filter { $0.target == .ownObject }
      let ownClass = function.classAssignments.filter { $0.target == .ownObject }
      guard !ownIdentifier.isEmpty || !ownClass.isEmpty else { continue }
      let others = functions(of: owner).filter { !Self.lateMethods.contains(functions[$0].name) }
      let identifiedElsewhere =
        storyboardIdentified.contains(owner)
        || others.contains {
          functions[$0].identifierAssignments.contains { $0.target == .ownObject }
        }
        || typesGivenIdentifierFromOutside.contains(owner)
      let classedElsewhere =
        others.contains { functions[$0].classAssignments.contains { $0.target == .ownObject } }
        || typesGivenClassFromOutside.contains(owner)
      var late: [(line: Int, what: String)] = []
      if !identifiedElsewhere, let first = ownIdentifier.first {
        late.append((first.line, "restoration identifier"))
      }
      if !classedElsewhere, let first = ownClass.first {
        late.append((first.line, "restoration class"))
      }
      for (line, what) in late {
        findings.append(
          LintFinding(
            .warning, .restorationIdentitySetLate,
            "\(describe(owner)) sets its \(what) only in \(function.name): a controller whose view has not loaded (a tab not yet shown, a controller below the top of a stack) is not preserved, and at launch restoration looks the controller up before its view loads; set it in init or awakeFromNib",
            file: functionFiles[index], line: line, object: owner))
      }
    }
    return findings
  }

  /// The types whose instances get the property from code elsewhere: assignments to a local
  /// variable of that type.
  private func typesAssignedFromOutside(
    _ assignments: KeyPath<FunctionFacts, [Assignment]>
  ) -> Set<String> {
    var types: Set<String> = []
    for function in functions {
      for assignment in function[keyPath: assignments] {
        if case .variable(let name) = assignment.target, let type = function.locals[name]?.type {
          types.insert(type)
        }
      }
    }
    return types
  }

  private lazy var typesGivenIdentifierFromOutside = typesAssignedFromOutside(
    \.identifierAssignments)
  private lazy var typesGivenClassFromOutside = typesAssignedFromOutside(\.classAssignments)

  private func dataSourcesWithoutModelAssociation() -> [LintFinding] {
    // The restorable table and collection views: in storyboards and XIBs, inside scenes of a
    // custom class; in code, those whose identifier a class assigns.
    var views: [(owner: String, description: String)] = []
    for document in documents {
      for controller in document.viewControllers {
        guard let owner = controller.customClass, let root = controller.view else { continue }
        for view in Self.restorableListViews(root) {
          views.append(
            (
              owner,
              "the \(view.elementName) '\(view.restorationIdentifier ?? "")' (\(document.file):\(view.line))"
            ))
        }
      }
    }
    for (index, function) in functions.enumerated() {
      guard let owner = function.owner else { continue }
      for assignment in function.identifierAssignments {
        let name: String
        switch assignment.target {
        case .ownObject: continue
        case .variable(let variable): name = variable
        case .other(let text): name = text
        }
        guard isUIKitFunction(index), isListView(name, in: function, owner: owner) else {
          continue
        }
        views.append((owner, "the view '\(name)' (\(functionFiles[index]):\(assignment.line))"))
      }
    }
    var reported: Set<String> = []
    var findings: [LintFinding] = []
    for (owner, description) in views {
      guard let source = dataSource(of: owner), !reported.contains(source),
        let declaration = classes[source], !adopts(source, "UIDataSourceModelAssociation")
      else { continue }
      reported.insert(source)
      findings.append(
        LintFinding(
          .warning, .dataSourceWithoutModelAssociation,
          "\(describe(source)) is the data source of \(description), which is restorable, but does not adopt UIDataSourceModelAssociation: its selection and scroll position come back by index, on the wrong row once the data has changed; adopt it (modelIdentifierForElement(at:in:) and indexPathForElement(withModelIdentifier:in:)), in an extension if you like",
          file: declaration.file, line: declaration.declaration.line, object: source))
    }
    return findings
  }

  /// Whether what code names (`table`, `self.photosView`, `tableView`) is a table or collection
  /// view: by its type, as a local variable or a property declares it, or else by its name.
  private func isListView(_ name: String, in function: FunctionFacts, owner: String) -> Bool {
    var plain = Substring(name)
    if plain.hasPrefix("self.") { plain = plain.dropFirst(5) }
    let variable = String(plain)
    let type = function.locals[variable]?.type ?? propertyTypes[owner]?[variable]
    return [type, variable].contains { name in
      let lowered = name?.lowercased() ?? ""
      return lowered.hasSuffix("tableview") || lowered.hasSuffix("collectionview")
    }
  }

  /// The class that is a controller's table or collection view's data source: the one its
  /// code assigns, else the controller itself.
  private func dataSource(of owner: String) -> String? {
    for index in functions(of: owner) {
      for assignment in functions[index].dataSourceAssignments {
        if assignment.valueType == "Self" { return owner }
        if let type = assignment.valueType { return type }
        if let name = assignment.valueName {
          return functions[index].locals[name]?.type ?? propertyTypes[owner]?[name]
        }
      }
    }
    return owner
  }

  private static func restorableListViews(_ view: InterfaceDocument.View) -> [InterfaceDocument
    .View]
  {
    var found: [InterfaceDocument.View] = []
    var stack = [view]
    while let next = stack.popLast() {
      if next.isCell { continue }
      if next.elementName == "tableView" || next.elementName == "collectionView",
        next.restorationIdentifier != nil
      {
        found.append(next)
      }
      stack.append(contentsOf: next.subviews.reversed())
    }
    return found
  }

  private func rootsBuiltInDidFinishLaunching() -> [LintFinding] {
    guard optsIn else { return [] }
    var findings: [LintFinding] = []
    for (index, function) in functions.enumerated()
    where function.isApplicationMethod("didFinishLaunchingWithOptions") && isUIKitFunction(index) {
      // One finding for the method: its first assignment shows where the building starts.
      for line in function.windowAssignments.prefix(1) {
        findings.append(
          LintFinding(
            .error, .rootBuiltInDidFinishLaunching,
            "\(describe(function.owner)) builds the window or its root view controller in application(_:didFinishLaunchingWithOptions:), but the app restores state, and restoration runs before this method: the new hierarchy replaces the restored one, and the user's place is lost at every launch; build them in application(_:willFinishLaunchingWithOptions:)",
            file: functionFiles[index], line: line))
      }
    }
    return findings
  }

  private func deprecatedOptIns() -> [LintFinding] {
    var findings: [LintFinding] = []
    let pairs = [
      ("shouldSaveApplicationState", "shouldSaveSecureApplicationState"),
      ("shouldRestoreApplicationState", "shouldRestoreSecureApplicationState"),
    ]
    for (index, function) in functions.enumerated() where isUIKitFunction(index) {
      for (old, secure) in pairs where function.isApplicationMethod(old) {
        let hasSecure = (function.owner.map { functions(of: $0) } ?? []).contains {
          functions[$0].isApplicationMethod(secure)
        }
        guard !hasSecure else { continue }
        findings.append(
          LintFinding(
            .warning, .deprecatedRestorationOptIn,
            "\(describe(function.owner)) opts in with the deprecated application(_:\(old):): the archive is then read without secure coding, and the method is deprecated since iOS 13.2; implement application(_:\(secure):) instead",
            file: functionFiles[index], line: function.line))
      }
    }
    return findings
  }

  private func restorableStateWithoutSuper() -> [LintFinding] {
    var findings: [LintFinding] = []
    for (index, function) in functions.enumerated()
    where function.isOverride
      && ["encodeRestorableState", "decodeRestorableState"].contains(function.name)
      && !function.superCalls.contains(function.name) && isUIKitFunction(index)
    {
      findings.append(
        LintFinding(
          .warning, .restorableStateWithoutSuper,
          "\(describe(function.owner)) overrides \(function.name)(with:) without calling super.\(function.name)(with:): what UIKit itself saves for the object (a table view controller's selection and scroll position, a presented controller's presenter) is lost; call super first",
          file: functionFiles[index], line: function.line, object: function.owner))
    }
    return findings
  }

  private func decodedKeysNeverEncoded() -> [LintFinding] {
    var encoded: Set<String> = []
    for file in files {
      for use in file.keyUses where !use.isDecode {
        // A key that is a variable (a helper's parameter) could be any key: then nothing can
        // be said of the keys decoded.
        if case .constant(let name) = use.key, constants[name] == nil { return [] }
        encoded.insert(resolve(use.key))
      }
    }
    var findings: [LintFinding] = []
    for file in files {
      for use in file.keyUses where use.isDecode {
        // A key held in a variable (a helper's parameter) is no spelling to check.
        guard resolvedValue(use.key) != nil else { continue }
        let key = resolve(use.key)
        guard !encoded.contains(key) else { continue }
        findings.append(
          LintFinding(
            .warning, .decodedKeyNeverEncoded,
            "\(describe(use.owner)) decodes key \(key) with \(use.method), but nothing in this module encodes it: the value is always missing at restore (nil, 0 or false); encode it in encodeRestorableState(with:), or fix the key's spelling",
            file: file.file, line: use.line))
      }
    }
    return findings
  }
}
