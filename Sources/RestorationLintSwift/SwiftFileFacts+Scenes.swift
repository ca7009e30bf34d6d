internal import SwiftSyntax

/// What the collector reads for the rules on scenes, user activities and SwiftUI: called from
/// its visits, in files that mention them (``FactCollector/readsScenes``).
extension FactCollector {
  /// Words that a file using scenes, activities or SwiftUI's scene restoration contains; a file
  /// without any is not read for them.
  static let sceneMarkers: [[UInt8]] = [
    "serActivit", "UIScene", "stateRestorationActivity", "activityType", "SceneStorage",
    "codable", "becomeCurrent", "userInfo", "delegateClass", "restoreInteractionState",
  ].map { Array($0.utf8) }

  /// The system's activity types: never in an `Info.plist`.
  static let systemActivityTypes: Set<String> = [
    "NSUserActivityTypeBrowsingWeb", "CSSearchableItemActionType", "CSQueryContinuationActionType",
  ]

  /// The session roles, as Swift names them, and their `Info.plist` spellings.
  static let roleNames: [String: String] = [
    "UIWindowSceneSessionRoleApplication": "windowApplication",
    "UIWindowSceneSessionRoleExternalDisplay": "windowExternalDisplay",
    "UIWindowSceneSessionRoleExternalDisplayNonInteractive": "windowExternalDisplayNonInteractive",
    "CPTemplateApplicationSceneSessionRoleApplication": "carTemplateApplication",
  ]

  /// The flow facts of the function being read, when the file is read for scenes.
  private var flow: ActivityFlow? {
    functionStack.isEmpty ? nil : functionStack[functionStack.count - 1].activity
  }

  /// Changes the flow facts of the function being read in place: taken out first, so that the
  /// change does not copy them.
  private func updateFlow(_ change: (inout ActivityFlow) -> Void) {
    let index = functionStack.count - 1
    guard readsScenes, index >= 0, var current = functionStack[index].activity else { return }
    functionStack[index].activity = nil
    change(&current)
    functionStack[index].activity = current
  }

  // MARK: Strings

  /// A string as the expression gives it, or nil for no string the rules can follow.
  func stringValue(_ expression: ExprSyntax, depth: Int = 0) -> StringValue? {
    guard depth < 8 else { return nil }
    let value = Self.unwrapped(expression)
    if let literal = value.as(StringLiteralExprSyntax.self) {
      if let text = Self.stringLiteral(value) { return .literal(text) }
      // `"\(OrderIntent.self)"`: an intent's class name.
      if literal.segments.count == 1,
        let segment = literal.segments.first?.as(ExpressionSegmentSyntax.self),
        segment.expressions.count == 1,
        segment.expressions.first?.expression.as(MemberAccessExprSyntax.self)?.declName.baseName
          .text == "self"
      {
        return .system
      }
      return .runtime(Self.quoted(value))
    }
    if mentionsActivityTypesKey(value) { return .fromInfoPlist }
    if let reference = value.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      if Self.systemActivityTypes.contains(name) { return .system }
      return .constant(name, qualifier: nil)
    }
    if let member = value.as(MemberAccessExprSyntax.self) {
      let name = member.declName.baseName.text
      guard let base = member.base else { return .constant(name, qualifier: nil) }
      if name == "rawValue", let inner = base.as(MemberAccessExprSyntax.self) {
        return .constant(inner.declName.baseName.text, qualifier: inner.base.flatMap(qualifier))
      }
      if let qualifier = qualifier(base) { return .constant(name, qualifier: qualifier) }
      return .runtime(Self.quoted(value))
    }
    if let call = value.as(FunctionCallExprSyntax.self) {
      let called = Self.calledName(call)
      if called == "NSStringFromClass"
        || (called == "String" && call.arguments.first?.label?.text == "describing")
      {
        return .system
      }
      return .runtime(Self.quoted(value))
    }
    if let sequence = value.as(SequenceExprSyntax.self) {
      var text = ""
      for (index, element) in sequence.elements.enumerated() {
        if index % 2 == 1 {
          guard element.as(BinaryOperatorExprSyntax.self)?.operator.text == "+" else {
            return .runtime(Self.quoted(value))
          }
        } else {
          guard case .literal(let part)? = stringValue(element, depth: depth + 1) else {
            return .runtime(Self.quoted(value))
          }
          text += part
        }
      }
      return .literal(text)
    }
    return .runtime(Self.quoted(value))
  }

  /// A type's name as written before `.name`: `ActivityType` in `ActivityType.editing`.
  private func qualifier(_ base: ExprSyntax) -> String? {
    if let reference = base.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      if name == "Self" { return currentOwner }
      return name.first?.isUppercase == true ? name : nil
    }
    if let member = base.as(MemberAccessExprSyntax.self) {
      let name = member.declName.baseName.text
      return name.first?.isUppercase == true ? name : nil
    }
    if let type = base.as(TypeExprSyntax.self) { return Self.typeName(type.type) }
    return nil
  }

  /// An expression's text for a message: at most 80 characters, on one line.
  private static func quoted(_ expression: some SyntaxProtocol) -> String {
    let text = expression.trimmedDescription.split(whereSeparator: \.isNewline)
      .map { $0.drop { $0 == " " || $0 == "\t" } }.joined(separator: " ")
    return text.count > 80 ? String(text.prefix(77)) + "..." : text
  }

  /// Whether an expression reads `NSUserActivityTypes`: the key spelled out, or a name bound
  /// to what was read.
  func mentionsActivityTypesKey(_ node: some SyntaxProtocol) -> Bool {
    let locals = flow?.activityTypesNames ?? []
    for token in node.tokens(viewMode: .sourceAccurate) {
      switch token.tokenKind {
      case .stringSegment(let text) where text == "NSUserActivityTypes": return true
      case .identifier(let name)
      where locals.contains(name) || activityTypesProperties.contains(name):
        return true
      default: continue
      }
    }
    return false
  }

  /// Records a string constant of a type or of the file.
  ///
  /// `static let editing = "..."`, or one built at run time. Literals are always kept; values
  /// built from more than a literal only in files read for scenes.
  func recordNamedString(_ name: String, value: ExprSyntax) {
    let unwrapped = Self.unwrapped(value)
    let isStringLike =
      unwrapped.is(StringLiteralExprSyntax.self)
      || (unwrapped.as(SequenceExprSyntax.self)?.elements.contains {
        $0.is(StringLiteralExprSyntax.self)
      } ?? false)
      || (readsScenes
        && unwrapped.tokens(viewMode: .sourceAccurate).contains {
          $0.tokenKind == .stringSegment("NSUserActivityTypes")
            || $0.tokenKind == .identifier("bundleIdentifier")
        })
    guard isStringLike, let string = stringValue(value) else { return }
    let key = currentOwner.map { "\($0).\(name)" } ?? name
    for key in Set([key, name]) {
      if let known = namedStrings[key], known != string {
        namedStrings[key] = .some(nil)
      } else {
        namedStrings[key] = string
      }
    }
  }

  /// An enum case's raw value, as a constant of the enum: `case editing = "..."`, or the case's
  /// name in an enum of strings.
  func recordEnumCases(_ node: EnumCaseDeclSyntax) {
    guard let owner = typeStack.last.map({ types[$0.index] }), owner.kind == .enumType else {
      return
    }
    for element in node.elements {
      let name = element.name.text
      if let raw = element.rawValue?.value, let text = Self.stringLiteral(raw) {
        namedStrings["\(owner.name).\(name)"] = .literal(text)
      } else if element.rawValue == nil, owner.inherited.first == "String" {
        namedStrings["\(owner.name).\(name)"] = .literal(name)
      }
    }
  }

  // MARK: NSUserActivityTypes read unsafely

  /// A string literal `"NSUserActivityTypes"` given to a call or subscript: how what it reads is
  /// used, and the name it is bound to.
  func recordActivityTypesRead(_ literal: StringLiteralExprSyntax) {
    guard let argument = literal.parent?.as(LabeledExprSyntax.self),
      let read = argument.parent?.parent,
      read.is(FunctionCallExprSyntax.self) || read.is(SubscriptCallExprSyntax.self)
    else { return }
    var current = Syntax(read)
    var kinds: [ActivityTypesRead.Kind] = []
    walk: for _ in 0..<32 {
      guard let parent = current.parent else { break }
      if parent.is(ForceUnwrapExprSyntax.self) {
        kinds.append(.forced)
      } else if parent.is(OptionalChainingExprSyntax.self) || parent.is(TryExprSyntax.self)
        || parent.is(AwaitExprSyntax.self)
      {
        // The same value.
      } else if let element = parent.as(LabeledExprSyntax.self),
        let tuple = element.parent?.parent?.as(TupleExprSyntax.self), tuple.elements.count == 1
      {
        current = Syntax(tuple)
        continue
      } else if let member = parent.as(MemberAccessExprSyntax.self), member.base?.id == current.id {
        // `.first`, `.count`: `.first!` is forced by the parent.
      } else if let subscriptCall = parent.as(SubscriptCallExprSyntax.self),
        subscriptCall.calledExpression.id == current.id
      {
        if let index = Self.integerArgument(subscriptCall) { kinds.append(.positional(index)) }
      } else if let list = parent.as(ExprListSyntax.self),
        let sequence = list.parent?.as(SequenceExprSyntax.self)
      {
        let elements = Array(list)
        guard let position = elements.firstIndex(where: { $0.id == current.id }) else { break }
        if position + 1 < elements.count,
          let cast = elements[position + 1].as(UnresolvedAsExprSyntax.self)
        {
          if cast.questionOrExclamationMark?.tokenKind == .exclamationMark {
            kinds.append(.forced)
          }
          // `... as? [String] ?? []`: a fallback; what follows is safe.
          if position + 3 < elements.count,
            elements[position + 3].as(BinaryOperatorExprSyntax.self)?.operator.text == "??"
          {
            break walk
          }
        } else if position + 1 < elements.count {
          break walk
        }
        current = Syntax(sequence)
        continue
      } else {
        bindActivityTypes(at: current)
        break
      }
      current = parent
    }
    for kind in kinds.prefix(1) {
      scene.activityTypesReads.append(
        ActivityTypesRead(kind: kind, line: line(read), owner: functionOwner))
    }
  }

  /// Binds the name a read of `NSUserActivityTypes` is given: a local variable, a property, or
  /// a computed property that returns it.
  private func bindActivityTypes(at node: Syntax) {
    var current = node
    for _ in 0..<8 {
      guard let parent = current.parent else { return }
      if let binding = parent.as(PatternBindingSyntax.self) {
        guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else {
          return
        }
        if isInFunction, binding.accessorBlock == nil {
          updateFlow { $0.activityTypesNames.insert(name) }
        } else {
          activityTypesProperties.insert(name)
        }
        return
      }
      if let condition = parent.as(OptionalBindingConditionSyntax.self) {
        if let name = condition.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
          updateFlow { $0.activityTypesNames.insert(name) }
        }
        return
      }
      // Up from an initializer, a getter's only statement or its `return`.
      guard
        parent.is(InitializerClauseSyntax.self) || parent.is(CodeBlockItemSyntax.self)
          || parent.is(CodeBlockItemListSyntax.self) || parent.is(AccessorBlockSyntax.self)
          || parent.is(ReturnStmtSyntax.self)
      else { return }
      current = parent
    }
  }

  /// `types[0]`, `types!`, `types as! [String]` on a name bound to `NSUserActivityTypes`.
  private func isActivityTypesName(_ expression: ExprSyntax) -> Bool {
    let value = Self.unwrapped(expression)
    let name: String
    if let reference = value.as(DeclReferenceExprSyntax.self) {
      name = reference.baseName.text
    } else if let member = value.as(MemberAccessExprSyntax.self), member.base != nil {
      name = member.declName.baseName.text
      return activityTypesProperties.contains(name)
    } else {
      return false
    }
    return flow?.activityTypesNames.contains(name) == true
      || activityTypesProperties.contains(name)
  }

  private static func integerArgument(_ call: SubscriptCallExprSyntax) -> Int? {
    guard call.arguments.count == 1, let argument = call.arguments.first, argument.label == nil,
      let literal = argument.expression.as(IntegerLiteralExprSyntax.self)
    else { return nil }
    return Int(literal.literal.text.filter { $0 != "_" })
  }

  /// The line where a block's own statements call `fatalError` or `preconditionFailure`.
  private func crashLine(_ statements: CodeBlockItemListSyntax) -> Int? {
    for item in statements {
      let call =
        item.item.as(FunctionCallExprSyntax.self)
        ?? item.item.as(ExpressionStmtSyntax.self)?.expression.as(FunctionCallExprSyntax.self)
      if let call, ["fatalError", "preconditionFailure"].contains(Self.calledName(call)) {
        return line(call)
      }
    }
    return nil
  }

  // MARK: Conditions

  /// A `guard`: a crash when `NSUserActivityTypes` or an activity's type is not as expected.
  func readGuard(_ node: GuardStmtSyntax) {
    guard readsScenes, let crash = crashLine(node.body.statements) else {
      recordBoundsChecks(node.conditions)
      return
    }
    recordBoundsChecks(node.conditions)
    if mentionsActivityTypesKey(node.conditions) {
      scene.activityTypesReads.append(
        ActivityTypesRead(kind: .fatal, line: crash, owner: functionOwner))
    }
    for reference in activityTypeBases(node.conditions) {
      updateFlow {
        $0.events.append(TrustEvent(kind: .fatalOnType("guard"), value: reference, line: crash))
      }
    }
  }

  /// An `if`: the same, with the crash in its body or its `else`.
  func readIf(_ node: IfExprSyntax) {
    guard readsScenes else { return }
    recordBoundsChecks(node.conditions)
    var crash = crashLine(node.body.statements)
    if crash == nil, case .codeBlock(let block)? = node.elseBody {
      crash = crashLine(block.statements)
    }
    guard let crash else { return }
    if mentionsActivityTypesKey(node.conditions) {
      scene.activityTypesReads.append(
        ActivityTypesRead(kind: .fatal, line: crash, owner: functionOwner))
    }
    for reference in activityTypeBases(node.conditions) {
      updateFlow {
        $0.events.append(TrustEvent(kind: .fatalOnType("if"), value: reference, line: crash))
      }
    }
  }

  /// A `switch`: on an activity's type, a crash in a case; on a session's role, the roles its
  /// cases guard.
  func readSwitch(_ node: SwitchExprSyntax) {
    guard readsScenes else { return }
    let subject = Self.unwrapped(node.subject)
    guard let member = subject.as(MemberAccessExprSyntax.self), let base = member.base,
      member.declName.baseName.text == "activityType", let reference = valueReference(base)
    else { return }
    for element in node.cases {
      guard let switchCase = element.as(SwitchCaseSyntax.self) else { continue }
      if case .case(let label) = switchCase.label {
        for item in label.caseItems {
          if let pattern = item.pattern.as(ExpressionPatternSyntax.self),
            let value = stringValue(pattern.expression)
          {
            scene.activityTypeUses.append(
              ActivityTypeUse(
                value: value, purpose: .compared, line: line(pattern), owner: functionOwner))
          }
        }
      }
      if let crash = crashLine(switchCase.statements) {
        updateFlow {
          $0.events.append(TrustEvent(kind: .fatalOnType("switch"), value: reference, line: crash))
        }
      }
    }
  }

  /// The values whose `activityType` a condition reads.
  private func activityTypeBases(_ conditions: ConditionElementListSyntax) -> [ValueReference] {
    var found: [ValueReference] = []
    for token in conditions.tokens(viewMode: .sourceAccurate)
    where token.tokenKind == .identifier("activityType") {
      guard let member = token.parent?.parent?.as(MemberAccessExprSyntax.self),
        let base = member.base, let reference = valueReference(base)
      else { continue }
      found.append(reference)
    }
    return found
  }

  /// Names that a condition compares with a count, a range or indices: an index checked there.
  private func recordBoundsChecks(_ conditions: ConditionElementListSyntax) {
    guard readsScenes else { return }
    var names: Set<String> = []
    var checksBounds = false
    for token in conditions.tokens(viewMode: .sourceAccurate) {
      switch token.tokenKind {
      case .identifier(let name):
        if ["count", "indices", "endIndex", "isEmpty", "contains"].contains(name) {
          checksBounds = true
        }
        names.insert(name)
      case .binaryOperator(let operation)
      where ["<", ">", "<=", ">=", "..<", "..."].contains(operation):
        checksBounds = true
      default: continue
      }
    }
    if checksBounds { updateFlow { $0.boundsChecked.formUnion(names) } }
  }

  /// The session roles that conditions compare a session's `role` with; with `requiresRole`
  /// false, the roles named anywhere (a `case` of a `switch` on the role).
  func comparedRoles(_ node: some SyntaxProtocol, requiresRole: Bool = true) -> Set<String> {
    guard readsScenes else { return [] }
    var roles: Set<String> = []
    var mentionsRole = !requiresRole
    for token in node.tokens(viewMode: .sourceAccurate) {
      guard case .identifier(let name) = token.tokenKind else { continue }
      if name == "role" { mentionsRole = true }
      if let swiftName = Self.roleNames[name] {
        roles.insert(swiftName)
      } else if Self.roleNames.values.contains(name) {
        roles.insert(name)
      }
    }
    return mentionsRole ? roles : []
  }

  /// Whether a `switch` is on a session's role.
  func isRoleSubject(_ subject: ExprSyntax) -> Bool {
    readsScenes
      && Self.unwrapped(subject).as(MemberAccessExprSyntax.self)?.declName.baseName.text == "role"
  }

  // MARK: Values that may be restored

  /// What an expression reaches from a named root: the root, its `userInfo`, a value read from
  /// that; nil for anything else.
  func valueReference(_ expression: ExprSyntax, depth: Int = 0) -> ValueReference? {
    guard depth < 16 else { return nil }
    let value = Self.unwrapped(expression)
    if let reference = value.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      if let alias = flow?.aliases[name] { return alias }
      return ValueReference(root: name, level: 0)
    }
    if let member = value.as(MemberAccessExprSyntax.self), let base = member.base {
      switch member.declName.baseName.text {
      case "stateRestorationActivity":
        return ValueReference(root: ValueReference.restored, level: 0)
      case "userActivities":
        return ValueReference(root: ValueReference.restoredList, level: 0)
      case "first", "last":
        guard valueReference(base, depth: depth + 1)?.root == ValueReference.restoredList else {
          return nil
        }
        return ValueReference(root: ValueReference.restored, level: 0)
      case "userInfo":
        guard let inner = valueReference(base, depth: depth + 1), inner.level == 0 else {
          return nil
        }
        return ValueReference(root: inner.root, level: 1)
      default:
        return nil
      }
    }
    if let subscriptCall = value.as(SubscriptCallExprSyntax.self),
      let inner = valueReference(subscriptCall.calledExpression, depth: depth + 1),
      inner.level < 2, inner.root != ValueReference.restoredList
    {
      return ValueReference(root: inner.root, level: inner.level + 1)
    }
    if let sequence = value.as(SequenceExprSyntax.self) {
      let elements = Array(sequence.elements)
      guard let first = elements.first,
        var reference = valueReference(first, depth: depth + 1)
      else { return nil }
      if elements.count >= 3, elements[1].is(UnresolvedAsExprSyntax.self),
        let type = elements[2].as(TypeExprSyntax.self)
      {
        reference.isIndex = Self.typeName(type.type) == "Int"
      }
      return reference
    }
    return nil
  }

  /// Whether a value is worth an event: reached through a `userInfo`, restored, or a parameter
  /// of the function, which a caller may give a restored value.
  private func isTracked(_ reference: ValueReference) -> Bool {
    reference.level >= 1 || reference.root == ValueReference.restored
      || (!functionStack.isEmpty
        && functionStack[functionStack.count - 1].parameterNames.contains(reference.root))
  }

  /// `let info = activity.userInfo`, `if let row = info["row"] as? Int`: the name stands for
  /// the value.
  func recordAlias(_ name: String, value: ExprSyntax) {
    guard readsScenes, flow != nil, let reference = valueReference(value),
      reference.root != name || reference.level > 0
    else { return }
    updateFlow { $0.aliases[name] = reference }
  }

  /// `for activity in connectionOptions.userActivities`.
  func readFor(_ node: ForStmtSyntax) {
    guard readsScenes, let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
      valueReference(node.sequence)?.root == ValueReference.restoredList
    else { return }
    updateFlow { $0.aliases[name] = ValueReference(root: ValueReference.restored, level: 0) }
  }

  /// `x!`: on a restored value; or `path.codable!`.
  func readForceUnwrap(_ node: ForceUnwrapExprSyntax) {
    guard readsScenes else { return }
    if let member = node.expression.as(MemberAccessExprSyntax.self),
      member.declName.baseName.text == "codable", let base = member.base
    {
      let name: String?
      if let reference = base.as(DeclReferenceExprSyntax.self) {
        name = reference.baseName.text
      } else if let inner = base.as(MemberAccessExprSyntax.self),
        inner.base.map(Self.isSelf) == true
      {
        name = inner.declName.baseName.text
      } else {
        name = nil
      }
      if let name {
        let local = functionStack.reversed().lazy.compactMap { $0.locals[name]?.type }.first
        scene.forcedCodables.append(
          ForcedCodable(name: name, localType: local, line: line(node), owner: functionOwner))
      }
    }
    if isActivityTypesName(node.expression) {
      scene.activityTypesReads.append(
        ActivityTypesRead(kind: .forced, line: line(node), owner: functionOwner))
    }
    guard let reference = valueReference(node.expression), isTracked(reference) else { return }
    updateFlow {
      $0.events.append(TrustEvent(kind: .forceUnwrap, value: reference, line: line(node)))
    }
  }

  /// `value as! Type`.
  func readForceCast(of operand: ExprSyntax, to typeElement: ExprSyntax) {
    guard readsScenes else { return }
    if isActivityTypesName(operand) {
      scene.activityTypesReads.append(
        ActivityTypesRead(kind: .forced, line: line(operand), owner: functionOwner))
    }
    guard let reference = valueReference(operand), isTracked(reference) else { return }
    let type = typeElement.trimmedDescription
    updateFlow {
      $0.events.append(TrustEvent(kind: .forceCast(type), value: reference, line: line(operand)))
    }
  }

  /// `items[index]`, with an index that may come from a `userInfo`; `types[0]`.
  func readSubscript(_ node: SubscriptCallExprSyntax) {
    guard readsScenes else { return }
    if let index = Self.integerArgument(node), isActivityTypesName(node.calledExpression) {
      scene.activityTypesReads.append(
        ActivityTypesRead(kind: .positional(index), line: line(node), owner: functionOwner))
    }
    guard node.arguments.count == 1, let argument = node.arguments.first, argument.label == nil,
      let reference = valueReference(argument.expression), reference.isIndex,
      isTracked(reference)
    else { return }
    let name = Self.unwrapped(argument.expression).as(DeclReferenceExprSyntax.self)?.baseName.text
    updateFlow {
      $0.events.append(TrustEvent(kind: .index(name), value: reference, line: line(node)))
    }
  }

  /// `a.activityType == "..."`.
  func readComparison(_ left: ExprSyntax, _ right: ExprSyntax) {
    guard readsScenes else { return }
    for (side, other) in [(left, right), (right, left)] {
      guard let member = Self.unwrapped(side).as(MemberAccessExprSyntax.self),
        member.base != nil, member.declName.baseName.text == "activityType",
        let value = stringValue(other)
      else { continue }
      scene.activityTypeUses.append(
        ActivityTypeUse(value: value, purpose: .compared, line: line(other), owner: functionOwner))
    }
  }

  /// `session.stateRestorationActivity`, `connectionOptions.userActivities`: restored state
  /// read.
  func readMemberAccess(_ node: MemberAccessExprSyntax) {
    guard readsScenes, node.base != nil else { return }
    let name = node.declName.baseName.text
    if name == "stateRestorationActivity" || name == "userActivities" {
      scene.restorationReads.append(line(node))
    }
  }

  // MARK: Calls

  /// A call the scene rules read: `NSUserActivity(activityType:)`, `UISceneConfiguration(...)`,
  /// SwiftUI's activity modifiers, `becomeCurrent()`.
  func readSceneCall(_ node: FunctionCallExprSyntax) {
    guard readsScenes else { return }
    let name = Self.constructedType(node) ?? Self.calledName(node)
    let first = node.arguments.first
    switch name {
    case "NSUserActivity":
      guard let first, first.label?.text == "activityType",
        let value = stringValue(first.expression)
      else { return }
      scene.activityTypeUses.append(
        ActivityTypeUse(value: value, purpose: .created, line: line(node), owner: functionOwner))
    case "userActivity", "onContinueUserActivity":
      guard let first, first.label == nil, let value = stringValue(first.expression) else {
        return
      }
      let continued = name == "onContinueUserActivity"
      scene.activityTypeUses.append(
        ActivityTypeUse(
          value: value, purpose: continued ? .continued : .advertised, line: line(first),
          owner: functionOwner))
      guard continued else { return }
      var names: Set<String> = []
      let closures =
        [node.trailingClosure]
        + node.arguments.map { $0.expression.as(ClosureExprSyntax.self) }
      for closure in closures.compactMap({ $0 }) {
        names.formUnion(Self.closureParameters(closure))
      }
      for argument in node.arguments where argument.label?.text == "perform" {
        if let handler = argument.expression.as(DeclReferenceExprSyntax.self) {
          scene.continuedHandlers.insert(handler.baseName.text)
        }
      }
      updateFlow { $0.continuedActivities.formUnion(names) }
    case "UISceneConfiguration":
      readSceneConfiguration(node)
    case "becomeCurrent":
      guard
        let base = node.calledExpression.as(MemberAccessExprSyntax.self)?.base.map(Self.unwrapped),
        let receiver = base.as(DeclReferenceExprSyntax.self)?.baseName.text
      else { return }
      updateFlow { $0.madeCurrent.append((receiver, line(node))) }
    default:
      return
    }
  }

  private static func closureParameters(_ closure: ClosureExprSyntax) -> [String] {
    switch closure.signature?.parameterClause {
    case .simpleInput(let list)?: return list.map(\.name.text)
    case .parameterClause(let clause)?:
      return clause.parameters.map { ($0.secondName ?? $0.firstName).text }
    case nil: return []
    }
  }

  private func readSceneConfiguration(_ node: FunctionCallExprSyntax) {
    let arguments = Array(node.arguments)
    guard let roleArgument = arguments.first(where: { $0.label?.text == "sessionRole" }) else {
      return
    }
    let nameArgument = arguments.first { $0.label?.text == "name" }
    var name: StringValue?
    if let expression = nameArgument?.expression, !expression.is(NilLiteralExprSyntax.self) {
      guard let value = stringValue(expression) else { return }
      name = value
    }
    let role: SessionRole
    let roleExpression = Self.unwrapped(roleArgument.expression)
    if let member = roleExpression.as(MemberAccessExprSyntax.self) {
      let text = member.declName.baseName.text
      role = text == "role" ? .sessionRole : .named(text)
    } else if let reference = roleExpression.as(DeclReferenceExprSyntax.self),
      let swiftName = Self.roleNames[reference.baseName.text]
    {
      role = .named(swiftName)
    } else {
      role = .unknown
    }
    let inFunction = functionStack.last?.isApplicationMethod("configurationForConnecting") == true
    scene.configurations.append(
      SceneConfigurationUse(
        name: name, role: role, guardedRoles: activeRoles(at: node.position),
        setsDelegateClass: false, inConfigurationForConnecting: inFunction,
        variable: boundCalls[node.id], line: line(node), owner: functionOwner))
    let index = scene.configurations.count - 1
    updateFlow { $0.configurationUses.append(index) }
  }

  /// The roles of the frames around a position.
  private func activeRoles(at position: AbsolutePosition) -> Set<String> {
    while let last = roleFrames.last, let end = last.end, end <= position {
      roleFrames.removeLast()
    }
    return roleFrames.reduce(into: []) { $0.formUnion($1.roles) }
  }

  /// What a call's arguments reach, so that the rules can follow a restored value into the
  /// function called.
  func readArguments(_ node: FunctionCallExprSyntax, call: Int) {
    guard readsScenes, flow != nil else { return }
    let references = node.arguments.map { valueReference($0.expression) }
    guard references.contains(where: { $0 != nil }) else { return }
    let returned = returnedCallNodes.contains(node.id)
    updateFlow {
      $0.arguments[call] = references
      if returned { $0.returnedCalls.append(call) }
    }
  }

  /// What the arguments of an object's creation reach, to follow a restored value into the
  /// initializer.
  func readConstructionArguments(_ node: FunctionCallExprSyntax, construction: Int) {
    guard readsScenes, flow != nil else { return }
    let references = node.arguments.map { valueReference($0.expression) }
    guard references.contains(where: { $0 != nil }) else { return }
    updateFlow { $0.constructionArguments[construction] = references }
  }

  /// A call whose result is returned, with no argument to follow.
  func readReturnedCall(_ node: FunctionCallExprSyntax, call: Int) {
    guard readsScenes, returnedCallNodes.contains(node.id) else { return }
    updateFlow {
      if !$0.returnedCalls.contains(call) { $0.returnedCalls.append(call) }
    }
  }

  /// `return activity`, `return makeActivity()`; a body of one expression returns it too.
  func readReturned(_ expression: ExprSyntax) {
    guard readsScenes else { return }
    let value = Self.unwrapped(expression)
    if let reference = value.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      updateFlow { $0.returnedNames.insert(name) }
    } else if let call = value.as(FunctionCallExprSyntax.self) {
      returnedCallNodes.insert(call.id)
    }
  }

  /// `configuration.delegateClass = SceneDelegate.self`.
  func readDelegateClassAssignment(_ target: AssignmentTarget) {
    guard readsScenes else { return }
    scene.setsDelegateClass = true
    if case .variable(let name) = target {
      updateFlow { $0.delegateClassTargets.insert(name) }
    }
  }

  /// When a function ends: the scene configurations it set a delegate class on.
  func finishSceneFunction(_ facts: FunctionFacts) {
    guard let flow = facts.activity else { return }
    for index in flow.configurationUses where index < scene.configurations.count {
      if let variable = scene.configurations[index].variable,
        flow.delegateClassTargets.contains(variable)
      {
        scene.configurations[index].setsDelegateClass = true
      }
    }
  }

  // MARK: SwiftUI

  /// `@SceneStorage("key") var value: Type = ...`.
  func readSceneStorage(_ node: VariableDeclSyntax) {
    guard readsScenes else { return }
    for attribute in node.attributes {
      guard let attribute = attribute.as(AttributeSyntax.self),
        Self.typeName(attribute.attributeName) == "SceneStorage",
        case .argumentList(let arguments)? = attribute.arguments,
        let keyExpression = arguments.first?.expression, let key = stringValue(keyExpression)
      else { continue }
      for binding in node.bindings {
        var type = binding.typeAnnotation.map { Self.typeName($0.type) }
        if type == nil, let value = binding.initializer?.value {
          type = Self.literalType(value)
        }
        scene.sceneStorage.append(
          SceneStorageUse(key: key, type: type, line: line(binding), owner: currentOwner))
      }
    }
  }

  /// The type of a literal initial value, or of `Type.member` and `Type(...)`.
  private static func literalType(_ value: ExprSyntax) -> String? {
    if value.is(IntegerLiteralExprSyntax.self) { return "Int" }
    if value.is(FloatLiteralExprSyntax.self) { return "Double" }
    if value.is(BooleanLiteralExprSyntax.self) { return "Bool" }
    if value.is(StringLiteralExprSyntax.self) { return "String" }
    if let call = value.as(FunctionCallExprSyntax.self) { return constructedType(call) }
    if let member = value.as(MemberAccessExprSyntax.self),
      let base = member.base?.as(DeclReferenceExprSyntax.self),
      base.baseName.text.first?.isUppercase == true
    {
      return base.baseName.text
    }
    return nil
  }
}
