internal import RestorationLint
internal import StoryboardImport

/// The rules on scenes, user activities and SwiftUI, over the module's facts and its targets.
struct SceneRules {
  let files: [SwiftFileFacts]
  let documents: [InterfaceDocument]
  let targets: [LintTarget]
  /// Whether the run found Objective-C files: a class named in an `Info.plist` may be one.
  let hasObjectiveC: Bool
  private let index: ProjectIndex
  private let filesByName: [String: SwiftFileFacts]
  /// The module's UIKit functions by file, so that a target's are found from its files.
  private let functionsByFile: [String: [Int]]
  /// String constants of the module by `Type.name` and name; nil for a name given two values.
  private var namedStrings: [String: StringValue?] = [:]

  private(set) var findings: [LintFinding] = []
  private(set) var undecided: [UndecidedCheck] = []
  /// The findings already made, by file, line and rule: a file in two targets gives one, and
  /// two mistakes on one line give the worse.
  private var reported: [String: Int] = [:]
  private var undecidedKeys: Set<String> = []

  init(
    files: [SwiftFileFacts], documents: [InterfaceDocument], targets: [LintTarget],
    hasObjectiveC: Bool
  ) {
    self.files = files
    self.documents = documents
    self.targets = targets
    self.hasObjectiveC = hasObjectiveC
    index = ProjectIndex(files: files, documents: documents)
    filesByName = Dictionary(files.map { ($0.file, $0) }, uniquingKeysWith: { first, _ in first })
    var functionsByFile: [String: [Int]] = [:]
    for position in index.functions.indices where index.isUIKitFunction(position) {
      functionsByFile[index.functionFiles[position], default: []].append(position)
    }
    self.functionsByFile = functionsByFile
    for file in files {
      for (name, value) in file.namedStrings {
        if let known = namedStrings[name], known != value {
          namedStrings[name] = .some(nil)
        } else {
          namedStrings[name] = value
        }
      }
    }
  }

  mutating func run() {
    activityTypesReadUnsafely()
    activityTypesNotDeclared()
    restoredActivitiesTrusted()
    sceneConfigurationsUnresolved()
    restorationActivitiesMadeCurrent()
    restorationActivitiesNeverRead()
    viewControllerRestorationInSceneApps()
    navigationPathsForced()
    sceneStorageKeyConflicts()
  }

  // MARK: Helpers

  private mutating func report(_ finding: LintFinding) {
    let key = "\(finding.file):\(finding.line ?? 0):\(finding.code.rawValue)"
    if let known = reported[key] {
      if finding.severity > findings[known].severity { findings[known] = finding }
      return
    }
    reported[key] = findings.count
    findings.append(finding)
  }

  private mutating func cannotDecide(
    _ code: LintFinding.Code, file: String, line: Int, _ message: String
  ) {
    guard undecidedKeys.insert("\(file):\(line):\(code.rawValue)").inserted else { return }
    undecided.append(UndecidedCheck(file: file, line: line, code: code, message: message))
  }

  private func isUIKitFile(_ file: String) -> Bool { index.uikitFiles.contains(file) }

  /// The Swift files of a target: UIKit code only, unless `all`.
  private func swiftFiles(of target: LintTarget, all: Bool = false) -> [SwiftFileFacts] {
    target.files.sorted().compactMap { filesByName[$0] }.filter { all || isUIKitFile($0.file) }
  }

  /// The functions of a target's files, UIKit code only.
  private func functions(of target: LintTarget) -> [Int] {
    target.files.flatMap { functionsByFile[$0] ?? [] }.sorted()
  }

  private func describe(_ owner: String?) -> String { index.describe(owner) }

  /// `target 'Notebook'`, `the target of App/Info.plist`, or `this module` for files of no
  /// target.
  private static func name(_ target: LintTarget) -> String {
    if target.projectTarget != nil { return "target '\(target.name)'" }
    if let plist = target.infoPlist { return "the target of \(plist.file)" }
    return "this module"
  }

  /// What a string value is, with the module's constants.
  enum Resolved: Equatable {
    case known(String)
    case runtime(String)
    case system
    case fromInfoPlist
    case unknown
  }

  private func resolve(_ value: StringValue, depth: Int = 0) -> Resolved {
    guard depth < 8 else { return .unknown }
    switch value {
    case .literal(let text): return .known(text)
    case .runtime(let text): return .runtime(text)
    case .system: return .system
    case .fromInfoPlist: return .fromInfoPlist
    case .constant(let name, let qualifier):
      if let qualifier, let found = namedStrings["\(qualifier).\(name)"] {
        return found.map { resolve($0, depth: depth + 1) } ?? .unknown
      }
      if case .some(.some(let literal)) = index.constants[name] { return .known(literal) }
      if let found = namedStrings[name] {
        return found.map { resolve($0, depth: depth + 1) } ?? .unknown
      }
      return .unknown
    }
  }

  /// What a target's `Info.plist` declares in `NSUserActivityTypes`.
  enum Declared {
    /// No `Info.plist` found: nothing can be said.
    case unknown
    /// The key is missing.
    case missing
    /// The entries, each expanded (nil where a build setting is unknown) with its raw text.
    case entries([(raw: String, values: [String?])])
  }

  private func declared(_ target: LintTarget) -> Declared {
    if let plist = target.infoPlist {
      guard let types = plist.activityTypes else { return .missing }
      return .entries(types.map { ($0, target.expand($0)) })
    }
    // A generated Info.plist has only what build settings give.
    let generated =
      target.projectTarget?.configurations.contains {
        $0.buildSettings["GENERATE_INFOPLIST_FILE"] == "YES"
      } ?? false
    guard generated else { return .unknown }
    let listed = target.projectTarget?.configurations.compactMap {
      $0.buildSettings["INFOPLIST_KEY_NSUserActivityTypes"]
    }.first
    guard let listed else { return .missing }
    return .entries(
      listed.split(separator: " ").map { String($0) }.map { ($0, target.expand($0)) })
  }

  /// Whether an entry of `NSUserActivityTypes` declares a type: equal once expanded, or, where
  /// a build setting is unknown, equal around it.
  private static func matches(_ type: String, raw: String, values: [String?]) -> Bool {
    if values.contains(where: { $0 == type }) { return true }
    guard values.contains(where: { $0 == nil }) else { return false }
    return pattern(raw).matches(type)
  }

  /// The literal parts of a text around its build settings, which match any text.
  private struct SettingPattern {
    var parts: [String]
    var anchoredStart: Bool
    var anchoredEnd: Bool

    func matches(_ text: String) -> Bool {
      var rest = Substring(text)
      for (index, part) in parts.enumerated() {
        if index == 0, anchoredStart {
          guard rest.hasPrefix(part) else { return false }
          rest = rest.dropFirst(part.count)
          continue
        }
        if index == parts.count - 1, anchoredEnd {
          return rest.hasSuffix(part)
        }
        guard let end = Self.end(of: part, in: rest) else { return false }
        rest = rest[end...]
      }
      return !anchoredEnd || rest.isEmpty || parts.isEmpty
    }

    /// Where the first occurrence of a part in a text ends.
    private static func end(of part: String, in text: Substring) -> Substring.Index? {
      var start = text.startIndex
      while start <= text.endIndex {
        if text[start...].hasPrefix(part) { return text.index(start, offsetBy: part.count) }
        guard start < text.endIndex else { return nil }
        start = text.index(after: start)
      }
      return nil
    }
  }

  private static func pattern(_ raw: String) -> SettingPattern {
    var parts: [String] = []
    var current = ""
    var depth = 0
    var startsWithSetting = false
    var index = raw.startIndex
    while index < raw.endIndex {
      let character = raw[index]
      let next = raw.index(after: index)
      if depth == 0, character == "$", next < raw.endIndex, raw[next] == "(" || raw[next] == "{" {
        if parts.isEmpty, current.isEmpty { startsWithSetting = true }
        parts.append(current)
        current = ""
        depth = 1
        index = raw.index(after: next)
        continue
      }
      if depth > 0 {
        if character == "(" || character == "{" { depth += 1 }
        if character == ")" || character == "}" { depth -= 1 }
      } else {
        current.append(character)
      }
      index = next
    }
    let endsWithSetting = current.isEmpty
    parts.append(current)
    return SettingPattern(
      parts: parts.filter { !$0.isEmpty }, anchoredStart: !startsWithSetting,
      anchoredEnd: !endsWithSetting)
  }

  /// The Levenshtein distance of two strings, or nil when it is above `limit` (or either is
  /// too long to compare).
  static func distance(_ a: String, _ b: String, limit: Int) -> Int? {
    let a = Array(a.unicodeScalars)
    let b = Array(b.unicodeScalars)
    guard a.count <= 256, b.count <= 256, abs(a.count - b.count) <= limit else { return nil }
    var previous = Array(0...b.count)
    var current = Array(repeating: 0, count: b.count + 1)
    for i in 1...max(a.count, 1) where !a.isEmpty {
      current[0] = i
      var rowMinimum = current[0]
      for j in 1...max(b.count, 1) where !b.isEmpty {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        rowMinimum = min(rowMinimum, current[j])
      }
      if rowMinimum > limit { return nil }
      swap(&previous, &current)
    }
    let result = a.isEmpty ? b.count : b.isEmpty ? a.count : previous[b.count]
    return result <= limit ? result : nil
  }

  // MARK: NSUserActivityTypes read unsafely

  private mutating func activityTypesReadUnsafely() {
    // Not UIKit's alone: the key is read with Foundation, often in code an extension shares.
    for file in files {
      var lines: Set<Int> = []
      for read in file.scene.activityTypesReads where lines.insert(read.line).inserted {
        let subject = describe(read.owner)
        var lacking: [String] = []
        for target in targets where target.files.contains(file.file) {
          switch (declared(target), read.kind) {
          case (.missing, _):
            lacking.append(
              "\(Self.name(target)), whose Info.plist has no NSUserActivityTypes")
          case (.entries(let entries), .positional(let position)) where entries.count <= position:
            lacking.append(
              "\(Self.name(target)), whose NSUserActivityTypes has \(entries.count) entr\(entries.count == 1 ? "y" : "ies")"
            )
          default: continue
          }
        }
        let here = lacking.isEmpty ? "" : " (here: \(lacking.joined(separator: "; ")))"
        let message: String
        switch read.kind {
        case .forced:
          message =
            "\(subject) reads NSUserActivityTypes from the Info.plist with a forced cast or unwrap: in any target whose Info.plist lacks the key (an app extension, a widget, a test host that compiles this file) the app crashes at launch\(here); read it with 'as? [String]' and a fallback, or name the activity type in code"
        case .positional(let position):
          message =
            "\(subject) takes entry [\(position)] of NSUserActivityTypes by position: in any target whose Info.plist lacks the key or lists fewer types, the app crashes at launch\(here); name the activity type in code, or use '.first' with a fallback"
        case .fatal:
          message =
            "\(subject) stops the app with fatalError when NSUserActivityTypes is missing: in any target whose Info.plist lacks the key (an app extension, a widget) the app crashes at launch\(here); fall back to a type named in code"
        }
        report(
          LintFinding(
            .error, .activityTypesReadUnsafely, message, file: file.file, line: read.line,
            object: read.owner))
      }
    }
  }

  // MARK: Activity types not declared

  private mutating func activityTypesNotDeclared() {
    // Every type any target declares, expanded: a type another target declares is no typo.
    var declaredAnywhere: Set<String> = []
    for target in targets {
      if case .entries(let entries) = declared(target) {
        for entry in entries { declaredAnywhere.formUnion(entry.values.compactMap { $0 }) }
      }
    }
    for target in targets where target.kind == .application {
      let declared = declared(target)
      if case .unknown = declared { continue }
      for file in swiftFiles(of: target, all: true) {
        for use in file.scene.activityTypeUses {
          check(use, in: file.file, target: target, declared: declared, anywhere: declaredAnywhere)
        }
      }
    }
  }

  private mutating func check(
    _ use: ActivityTypeUse, in file: String, target: LintTarget, declared: Declared,
    anywhere: Set<String>
  ) {
    let type: String
    switch resolve(use.value) {
    case .system, .fromInfoPlist, .unknown: return
    case .runtime(let text):
      cannotDecide(
        .activityTypeNotDeclared, file: file, line: use.line,
        "the activity type '\(text)' is built at run time: whether NSUserActivityTypes declares it is not checked"
      )
      return
    case .known(let text):
      // An intent's class name (`OrderSoupIntent`), which the system hands over: no dots.
      if !text.contains("."), text.hasSuffix("Intent") { return }
      type = text
    }
    var entries: [(raw: String, values: [String?])] = []
    if case .entries(let listed) = declared { entries = listed }
    if entries.contains(where: { Self.matches(type, raw: $0.raw, values: $0.values) }) { return }
    let subject = describe(use.owner)
    let plist = target.infoPlist?.file ?? "the Info.plist Xcode generates for \(Self.name(target))"
    if !anywhere.contains(type) {
      let near = entries.flatMap { $0.values.compactMap { $0 } }.compactMap {
        candidate -> (String, Int)? in
        guard let distance = Self.distance(type, candidate, limit: 2), distance > 0,
          max(type.count, candidate.count) >= 8 * distance
        else { return nil }
        return (candidate, distance)
      }.min { $0.1 < $1.1 }
      if let (candidate, distance) = near {
        report(
          LintFinding(
            .error, .activityTypeMisspelled,
            "\(subject) uses the activity type \"\(type)\", which NSUserActivityTypes in \(plist) does not list; it lists \"\(candidate)\", \(distance == 1 ? "one character" : "two characters") away: the activity is not the declared one, so restoration, Handoff or onContinueUserActivity miss it; spell it \"\(candidate)\" (a constant for both keeps them together)",
            file: file, line: use.line, object: use.owner))
        return
      }
    }
    let verb: String
    switch use.purpose {
    case .created: verb = "creates an activity of type"
    case .advertised: verb = "advertises the activity type"
    case .continued: verb = "continues the activity type"
    case .compared: return
    }
    let lacks =
      entries.isEmpty
      ? "\(plist) has no NSUserActivityTypes"
      : "NSUserActivityTypes in \(plist) does not list it"
    report(
      LintFinding(
        .warning, .activityTypeNotDeclared,
        "\(subject) \(verb) \"\(type)\", but \(lacks): Handoff and onContinueUserActivity need every type the app continues declared there, as Apple's documentation says; field reports disagree on whether same-device scene restoration still works without it; add \"\(type)\" to NSUserActivityTypes",
        file: file, line: use.line, object: use.owner))
  }

  // MARK: Restored activities trusted

  private struct Reach: Hashable {
    var function: Int
    var root: String
    var level: Int
  }

  /// The functions that receive a restored or continued activity from UIKit or SwiftUI, with
  /// the parameter (or closure parameter) that holds it and how the lint names the entry.
  private func entries() -> [(function: Int, roots: [String], entry: String)] {
    var found: [(Int, [String], String)] = []
    let handlers = Set(files.flatMap(\.scene.continuedHandlers))
    for (position, function) in index.functions.enumerated() where index.isUIKitFunction(position) {
      if function.name == "scene", function.labels.count == 3, function.labels[1] == "willConnectTo"
      {
        found.append((position, [], "the activity scene(_:willConnectTo:options:) restores"))
      } else if function.name == "scene", function.labels.count == 2,
        ["restoreInteractionStateWith", "continue"].contains(function.labels[1]),
        function.parameterNames.count == 2
      {
        found.append(
          (
            position, [function.parameterNames[1]],
            "the activity scene(_:\(function.labels[1]):) receives"
          ))
      }
      if let continued = function.activity?.continuedActivities, !continued.isEmpty {
        found.append(
          (position, continued.sorted(), "the activity onContinueUserActivity receives"))
      }
      if handlers.contains(function.name), function.parameterNames.count == 1 {
        found.append(
          (position, function.parameterNames, "the activity onContinueUserActivity receives"))
      }
    }
    return found
  }

  private mutating func restoredActivitiesTrusted() {
    // What each function reached gets, and from which entry; restored values count anywhere.
    var queue: [(reach: Reach, entry: String, depth: Int)] = []
    for (function, roots, entry) in entries() {
      for root in roots {
        queue.append((Reach(function: function, root: root, level: 0), entry, 0))
      }
    }
    for position in index.functions.indices
    where index.functions[position].activity != nil && index.isUIKitFunction(position) {
      queue.append(
        (
          Reach(function: position, root: ValueReference.restored, level: 0),
          "the restored activity (session.stateRestorationActivity)", 0
        ))
    }
    var visited: Set<Reach> = []
    var cursor = 0
    while cursor < queue.count {
      let (reach, entry, depth) = queue[cursor]
      cursor += 1
      guard visited.insert(reach).inserted, let flow = index.functions[reach.function].activity
      else { continue }
      let facts = index.functions[reach.function]
      let file = index.functionFiles[reach.function]
      for event in flow.events where event.value.root == reach.root {
        trust(
          event, level: reach.level + event.value.level, flow: flow, facts: facts, file: file,
          entry: entry)
      }
      guard depth < 16 else { continue }
      // Calls, and objects created: the value goes into the function or initializer called.
      var passed: [(labels: [String], callees: [Int], references: [ValueReference?])] = []
      for (call, references) in flow.arguments where call < facts.callSites.count {
        let site = facts.callSites[call]
        passed.append((site.labels, callees(of: site), references))
      }
      for (construction, references) in flow.constructionArguments
      where construction < facts.constructions.count {
        let created = facts.constructions[construction]
        let initializers = index.functions(of: created.type).filter {
          index.functions[$0].name == "init" && index.functions[$0].accepts(created.labels)
        }
        passed.append((created.labels, initializers, references))
      }
      for (labels, called, references) in passed {
        for (argument, reference) in references.enumerated() {
          guard let reference, reference.root == reach.root else { continue }
          let level = reach.level + reference.level
          guard level <= 2 else { continue }
          for callee in called.prefix(8) {
            guard let positions = index.functions[callee].parameterPositions(labels),
              argument < positions.count
            else { continue }
            let parameter = index.functions[callee].parameterNames[positions[argument]]
            queue.append(
              (Reach(function: callee, root: parameter, level: level), entry, depth + 1))
          }
        }
      }
    }
  }

  /// The functions of the module a call may call, by name and labels.
  private func callees(of call: CallSite) -> [Int] {
    let candidates: [Int]
    switch call.receiver {
    case .type(let type): candidates = index.functions(of: type)
    case .ownObject, .variable, .other: candidates = index.functionsByName[call.name] ?? []
    case .superObject: candidates = []
    }
    return candidates.filter {
      index.functions[$0].name == call.name && index.functions[$0].accepts(call.labels)
    }
  }

  private mutating func trust(
    _ event: TrustEvent, level: Int, flow: ActivityFlow, facts: FunctionFacts, file: String,
    entry: String
  ) {
    let subject = describe(facts.owner)
    let place = "in \(facts.place)"
    let again =
      "UIKit keeps a restored activity across a force quit, so the crash repeats at every launch"
    switch event.kind {
    case .fatalOnType(let statement) where level == 0:
      report(
        LintFinding(
          .error, .restoredActivityTrusted,
          "\(subject) stops the app with fatalError \(place) (in the \(statement)) when \(entry) has a type it does not handle: an activity saved by another version of the app, or handed over from another device, has another type, and \(again); ignore the activity and show the default window",
          file: file, line: event.line, object: facts.owner))
    case .forceUnwrap where level == 1:
      report(
        LintFinding(
          .error, .restoredActivityTrusted,
          "\(subject) force-unwraps the userInfo of \(entry), \(place): an activity without userInfo (saved by another version of the app, or handed over from another device) crashes the app at launch, and \(again); unwrap it with 'guard let' and fall back to the default window",
          file: file, line: event.line, object: facts.owner))
    case .forceUnwrap where level == 2:
      report(
        LintFinding(
          .error, .restoredActivityTrusted,
          "\(subject) force-unwraps a value of the userInfo of \(entry), \(place): an activity without that key crashes the app at launch, and \(again); unwrap it with 'guard let' and fall back to the default window",
          file: file, line: event.line, object: facts.owner))
    case .forceCast(let type) where level >= 1:
      report(
        LintFinding(
          .warning, .restoredActivityTrusted,
          "\(subject) force-casts a value of the userInfo of \(entry) to \(type), \(place): a value of another type (saved by another version of the app) crashes the app at launch, and \(again); cast with 'as?' and fall back",
          file: file, line: event.line, object: facts.owner))
    case .index(let name) where level == 2 && event.value.isIndex:
      if let name, flow.boundsChecked.contains(name) { return }
      let what = name.map { "the index '\($0)'" } ?? "an index"
      report(
        LintFinding(
          .warning, .restoredActivityTrusted,
          "\(subject) uses \(what), read from the userInfo of \(entry), as a subscript \(place) without checking it: once the data has fewer elements than when the activity was saved, the app crashes at launch, and \(again); check it first, with 'indices.contains'",
          file: file, line: event.line, object: facts.owner))
    default:
      return
    }
  }

  // MARK: Scene configurations

  /// The `Info.plist` key of a session role.
  private static let roleKeys: [String: String] = [
    "windowApplication": "UIWindowSceneSessionRoleApplication",
    "windowExternalDisplay": "UIWindowSceneSessionRoleExternalDisplay",
    "windowExternalDisplayNonInteractive": "UIWindowSceneSessionRoleExternalDisplayNonInteractive",
    "carTemplateApplication": "CPTemplateApplicationSceneSessionRoleApplication",
  ]

  /// The roles whose scenes are windows: their delegate adopts `UIWindowSceneDelegate`.
  private static let windowRoles: Set<String> = [
    "UIWindowSceneSessionRoleApplication", "UIWindowSceneSessionRoleExternalDisplay",
    "UIWindowSceneSessionRoleExternalDisplayNonInteractive",
  ]

  private mutating func sceneConfigurationsUnresolved() {
    // A hard-coded role where UIKit gives the connecting session's: code alone decides.
    for file in files where isUIKitFile(file.file) {
      for use in file.scene.configurations where use.inConfigurationForConnecting {
        guard case .named(let role) = use.role, !use.guardedRoles.contains(role) else { continue }
        report(
          LintFinding(
            .error, .sceneConfigurationUnresolved,
            "\(describe(use.owner)) returns a scene configuration with the hard-coded sessionRole .\(role) from application(_:configurationForConnecting:options:): when UIKit connects a session of another role (an external display, CarPlay), the roles do not match and UIKit asserts; pass connectingSceneSession.role, or check the session's role before returning this configuration",
            file: file.file, line: use.line, object: use.owner))
      }
    }
    for target in targets where target.kind == .application {
      configurationNames(in: target)
      delegateClassNames(in: target)
    }
  }

  /// `UISceneConfiguration(name:sessionRole:)` with a name the manifest lacks.
  private mutating func configurationNames(in target: LintTarget) {
    guard let plist = target.infoPlist, !target.hasGeneratedSceneManifest else { return }
    let configurations = plist.sceneManifest?.configurations ?? [:]
    for file in swiftFiles(of: target) {
      for use in file.scene.configurations where !use.setsDelegateClass {
        guard let nameValue = use.name else { continue }
        let name: String
        switch resolve(nameValue) {
        case .known(let text): name = text
        case .runtime(let text):
          cannotDecide(
            .sceneConfigurationUnresolved, file: file.file, line: use.line,
            "the scene configuration's name '\(text)' is built at run time: whether the scene manifest has it is not checked"
          )
          continue
        case .system, .fromInfoPlist, .unknown: continue
        }
        let roleKey: String?
        switch use.role {
        case .named(let role):
          guard let key = Self.roleKeys[role] else { continue }
          roleKey = key
        case .sessionRole, .unknown: roleKey = nil
        }
        let candidates =
          roleKey.map { configurations[$0] ?? [] } ?? configurations.values.flatMap { $0 }
        if candidates.contains(where: { $0.name == name }) { continue }
        let known = candidates.compactMap(\.name).map { "\"\($0)\"" }
        let has =
          plist.sceneManifest == nil
          ? "\(plist.file) has no UIApplicationSceneManifest"
          : known.isEmpty
            ? "the scene manifest of \(plist.file) has no configuration\(roleKey.map { " for \($0)" } ?? "")"
            : "the scene manifest of \(plist.file) names only \(known.joined(separator: ", "))\(roleKey.map { " for \($0)" } ?? "")"
        report(
          LintFinding(
            .error, .sceneConfigurationUnresolved,
            "\(describe(use.owner)) makes UISceneConfiguration(name: \"\(name)\"), but \(has), and no delegateClass is set in code: UIKit finds no scene delegate or storyboard for the scene, and the window stays black at launch; add the configuration to the manifest (UISceneConfigurationName \"\(name)\"), or set delegateClass",
            file: file.file, line: use.line, object: use.owner))
      }
    }
  }

  /// `UISceneDelegateClassName` naming no scene delegate of the target.
  private mutating func delegateClassNames(in target: LintTarget) {
    guard let plist = target.infoPlist, let manifest = plist.sceneManifest else { return }
    let swift = swiftFiles(of: target, all: true)
    // Code that sets a delegate class may replace the manifest's; a target without Swift has
    // its classes elsewhere.
    guard !swift.isEmpty, !swift.contains(where: \.scene.setsDelegateClass) else { return }
    var classes: [String: TypeDeclaration] = [:]
    var objcNames: [String: String] = [:]
    for file in swift {
      for type in file.types where type.kind == .classType {
        if classes[type.name] == nil { classes[type.name] = type }
        if let objc = type.objcName { objcNames[objc] = type.name }
      }
    }
    let modules = Set(target.moduleNames.compactMap { $0 })
    for (role, configurations) in manifest.configurations.sorted(by: { $0.key < $1.key }) {
      for configuration in configurations {
        guard let raw = configuration.delegateClassName else { continue }
        let expanded = target.expand(raw)
        let text = expanded.count == 1 ? (expanded[0] ?? raw) : raw
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let className = String(parts.last ?? "")
        let module = parts.count > 1 ? parts.dropLast().joined(separator: ".") : nil
        let location = "\(plist.file)'s scene manifest (\(role))"
        var problem: String?
        if module == nil {
          if objcNames[className] != nil || hasObjectiveC { continue }
          problem =
            classes[className] != nil
            ? "names '\(className)' without its module, but it is a Swift class, which UIKit looks up as 'Module.\(className)'; write $(PRODUCT_MODULE_NAME).\(className)"
            : "names the class '\(className)', which no Swift class of \(Self.name(target)) is; name the target's scene delegate, as $(PRODUCT_MODULE_NAME).SceneDelegate"
        } else if let module, !module.contains("$"), !modules.isEmpty, !modules.contains(module) {
          problem =
            "names the module '\(module)', but the module of \(Self.name(target)) is '\(modules.sorted().joined(separator: "', '"))'; write $(PRODUCT_MODULE_NAME).\(className)"
        } else if classes[className] == nil {
          problem =
            "names the class '\(className)', which no Swift class of \(Self.name(target)) is; name the target's scene delegate"
        } else if Self.windowRoles.contains(role),
          !index.adopts(className, "UIWindowSceneDelegate"),
          !inheritsFromOutside(className)
        {
          problem =
            "names '\(className)', which does not adopt UIWindowSceneDelegate, as a window scene's delegate must; adopt it"
        }
        guard let problem else { continue }
        report(
          LintFinding(
            .error, .sceneConfigurationUnresolved,
            "UISceneDelegateClassName '\(raw)' in \(location) \(problem): UIKit creates no scene delegate at launch, and the window stays black",
            file: plist.file, line: configuration.delegateClassLine ?? manifest.line,
            object: className))
      }
    }
  }

  /// Whether a class's chain ends in a superclass outside the module that is not UIKit's or
  /// Foundation's root: it may adopt the protocol there.
  private func inheritsFromOutside(_ name: String) -> Bool {
    guard let last = index.classChain(name).last,
      let superclass = index.classes[last]?.declaration.inherited.first
    else { return false }
    return index.classes[superclass] == nil && !["UIResponder", "NSObject"].contains(superclass)
      && !superclass.hasSuffix("Delegate")
  }

  // MARK: The restoration activity made current

  private mutating func restorationActivitiesMadeCurrent() {
    for (position, function) in index.functions.enumerated()
    where function.name == "stateRestorationActivity" && function.labels == ["for"]
      && index.isUIKitFunction(position)
    {
      var queue = [position]
      var seen: Set<Int> = []
      while let next = queue.popLast(), seen.count < 16 {
        guard seen.insert(next).inserted, let flow = index.functions[next].activity else {
          continue
        }
        let facts = index.functions[next]
        for (name, line) in flow.madeCurrent {
          let created = facts.locals[name].map { $0.type == "NSUserActivity" && $0.isConstructed }
          guard flow.returnedNames.contains(name) || created == true else { continue }
          report(
            LintFinding(
              .warning, .restorationActivityMadeCurrent,
              "\(describe(facts.owner)) calls becomeCurrent() on the activity it returns for stateRestorationActivity(for:): UIKit only saves that activity, but making it current advertises the bare restoration activity to Handoff and Spotlight in place of the screen's real one; return it without calling becomeCurrent()",
              file: index.functionFiles[next], line: line, object: facts.owner))
        }
        for call in flow.returnedCalls where call < facts.callSites.count {
          queue += callees(of: facts.callSites[call])
        }
      }
    }
  }

  // MARK: Restoration never read

  private mutating func restorationActivitiesNeverRead() {
    for target in targets {
      let functions = functions(of: target)
      let providers = functions.filter {
        index.functions[$0].name == "stateRestorationActivity"
          && index.functions[$0].labels == ["for"]
      }
      guard !providers.isEmpty else { continue }
      let reads =
        swiftFiles(of: target).contains { !$0.scene.restorationReads.isEmpty }
        || functions.contains {
          index.functions[$0].name == "scene"
            && index.functions[$0].labels.dropFirst().first == "restoreInteractionStateWith"
        }
      guard !reads else { continue }
      for provider in providers {
        let facts = index.functions[provider]
        report(
          LintFinding(
            .warning, .restorationActivityNeverRead,
            "\(describe(facts.owner)) implements stateRestorationActivity(for:), but nothing in \(Self.name(target)) reads the activity back: no code reads session.stateRestorationActivity or connectionOptions.userActivities, and no scene(_:restoreInteractionStateWith:) exists; the state is saved at every backgrounding and never restored; read session.stateRestorationActivity in scene(_:willConnectTo:options:)",
            file: index.functionFiles[provider], line: facts.line, object: facts.owner))
      }
    }
  }

  // MARK: View-controller restoration in an app with scenes only

  private static let optIns = [
    "shouldSaveApplicationState", "shouldRestoreApplicationState",
    "shouldSaveSecureApplicationState", "shouldRestoreSecureApplicationState",
  ]

  private mutating func viewControllerRestorationInSceneApps() {
    for target in targets where target.hasSceneManifest {
      let deployments = target.deploymentTargets
      guard !deployments.isEmpty,
        let lowest = deployments.map({ $0.flatMap(Self.majorVersion) }).reduce(
          Int?.some(.max),
          {
            guard let lowest = $0, let next = $1 else { return nil }
            return min(lowest, next)
          }), lowest >= 13
      else { continue }
      let why =
        "but \(Self.name(target)) has a scene manifest and deploys to iOS \(lowest) or later: Apple's sample labels these methods for versions of an app without scenes, and maintainers of a large framework report that UIKit no longer calls them once an app adopts scenes (Apple does not document it); restore each scene from the activity of stateRestorationActivity(for:)"
      // One note per type, at its first use of view-controller restoration: the cause is the
      // app's, not each method's.
      var noted: Set<String> = []
      for position in functions(of: target) {
        let function = index.functions[position]
        let file = index.functionFiles[position]
        let what: String?
        var line = function.line
        if let optIn = Self.optIns.first(where: { function.isApplicationMethod($0) }) {
          what = "implements application(_:\(optIn):)"
        } else if function.isOverride,
          function.name == "encodeRestorableState" || function.name == "decodeRestorableState"
        {
          what = "overrides \(function.name)(with:)"
        } else if let assignment = function.identifierAssignments.first(where: { !$0.isNil }) {
          what = "sets a restoration identifier"
          line = assignment.line
        } else {
          what = nil
        }
        guard let what, noted.insert(function.owner ?? file).inserted else { continue }
        note(
          "\(describe(function.owner)) \(what), \(why)", file: file, line: line,
          owner: function.owner)
      }
      for document in documents where target.files.contains(document.file) {
        guard
          let controller = document.viewControllers.first(where: {
            $0.effectiveRestorationIdentifier != nil
          })
        else { continue }
        note(
          "this storyboard gives restoration identifiers (the first: '\(controller.effectiveRestorationIdentifier ?? "")'), \(why)",
          file: document.file, line: controller.line, owner: nil)
      }
    }
  }

  private mutating func note(_ message: String, file: String, line: Int, owner: String?) {
    report(
      LintFinding(
        .note, .viewControllerRestorationInSceneApp, message, file: file, line: line,
        object: owner))
  }

  private static func majorVersion(_ text: String) -> Int? {
    Int(text.prefix { $0.isNumber })
  }

  // MARK: SwiftUI

  private mutating func navigationPathsForced() {
    for file in files where isUIKitFile(file.file) {
      for forced in file.scene.forcedCodables {
        let type =
          forced.localType ?? forced.owner.flatMap { index.propertyTypes[$0]?[forced.name] }
        guard type == "NavigationPath" else { continue }
        report(
          LintFinding(
            .warning, .navigationPathCodableForced,
            "\(describe(forced.owner)) force-unwraps \(forced.name).codable: a NavigationPath's codable is nil as soon as a value that is not Codable is pushed, and the app crashes while it saves its state; unwrap it with 'if let' and save nothing (or the last Codable state) when it is nil",
            file: file.file, line: forced.line, object: forced.owner))
      }
    }
  }

  private mutating func sceneStorageKeyConflicts() {
    for target in targets {
      var first: [String: (type: String, file: String, line: Int, owner: String?)] = [:]
      for file in swiftFiles(of: target) {
        for use in file.scene.sceneStorage {
          guard case .known(let key) = resolve(use.key), let type = use.type else { continue }
          guard let earlier = first[key] else {
            first[key] = (type, file.file, use.line, use.owner)
            continue
          }
          guard earlier.type != type else { continue }
          report(
            LintFinding(
              .warning, .sceneStorageKeyTypeConflict,
              "\(describe(use.owner)) stores @SceneStorage(\"\(key)\") as \(type), but \(describe(earlier.owner)) (\(earlier.file):\(earlier.line)) stores the same key as \(earlier.type): scene storage is shared per scene by key, so one reads what the other wrote, or falls back to its default; give each its own key",
              file: file.file, line: use.line, object: use.owner))
        }
      }
    }
  }
}
