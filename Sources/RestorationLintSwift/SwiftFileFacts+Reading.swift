internal import RestorationLint
internal import SwiftParser
internal import SwiftSyntax

extension SwiftFileFacts {
  /// Swift files larger than this are generated code, not restoration logic; the limit keeps a
  /// stray file from costing gigabytes of syntax tree.
  public static let maximumFileSize = 8 * 1024 * 1024

  /// Parses a Swift file's text and keeps what the rules need.
  ///
  /// The parser reads any text: a file with syntax errors gives a
  /// ``LintFinding/Code/swiftSyntaxError`` note and the facts of what could be read.
  ///
  /// - Parameters:
  ///   - source: The file's bytes, UTF-8.
  ///   - file: The name findings give the file.
  public init(source: [UInt8], file: String) {
    self.init(file: file)
    let tree = source.withUnsafeBufferPointer { buffer in
      // Nesting deeper than this is not hand-written code; the limit keeps the recursive
      // visitor far from the stack's end.
      Parser.parse(source: buffer, maximumNestingLevel: 256)
    }
    let converter = SourceLocationConverter(fileName: file, tree: tree)
    let collector = FactCollector(file: file, converter: converter)
    collector.walk(tree)
    types = collector.types
    functions = collector.functions
    keyUses = collector.keyUses
    stringConstants = collector.stringConstants
    findings = collector.findings
    if tree.hasError {
      hasSyntaxErrors = true
      // Missing tokens are not in the source-accurate walk: look for the first one here.
      let firstMissing = tree.tokens(viewMode: .all).first {
        $0.presence == .missing || $0.parent?.is(UnexpectedNodesSyntax.self) == true
      }
      let errorLine = [
        collector.firstErrorLine, firstMissing.map { converter.location(for: $0.position).line },
      ]
      .compactMap { $0 }.min()
      findings.append(
        LintFinding(
          .note, .swiftSyntaxError,
          "the Swift parser could not read this file completely (a syntax error, or code nested more than 256 levels deep); findings in it may be missing",
          file: file, line: errorLine ?? 1))
    }
    if source.count >= Self.marker.count, Self.contains(source, Self.marker) {
      readSuppressions(tree, converter: converter)
    }
    findings.sort { ($0.line ?? 0) < ($1.line ?? 0) }
  }

  /// Parses a Swift file's text.
  ///
  /// - Parameters:
  ///   - source: The file's text.
  ///   - file: The name findings give the file.
  public init(source: String, file: String) {
    self.init(source: Array(source.utf8), file: file)
  }

  private static let marker = Array("restoration-lint:".utf8)

  private static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
    guard let first = needle.first, bytes.count >= needle.count else { return false }
    var index = 0
    let last = bytes.count - needle.count
    while index <= last {
      if bytes[index] == first, bytes[index..<(index + needle.count)].elementsEqual(needle) {
        return true
      }
      index += 1
    }
    return false
  }

  private mutating func readSuppressions(
    _ tree: SourceFileSyntax, converter: SourceLocationConverter
  ) {
    for token in tree.tokens(viewMode: .sourceAccurate) {
      var offset = token.position
      for piece in token.leadingTrivia {
        read(piece, at: offset, converter: converter)
        offset = offset.advanced(by: piece.sourceLength.utf8Length)
      }
      offset = token.endPositionBeforeTrailingTrivia
      for piece in token.trailingTrivia {
        read(piece, at: offset, converter: converter)
        offset = offset.advanced(by: piece.sourceLength.utf8Length)
      }
    }
  }

  private mutating func read(
    _ piece: TriviaPiece, at offset: AbsolutePosition, converter: SourceLocationConverter
  ) {
    let text: String
    switch piece {
    // Only plain line comments: a documentation comment may mention a directive in prose.
    case .lineComment(let comment): text = comment
    default: return
    }
    let line = converter.location(for: offset).line
    switch SuppressionComment.parse(text) {
    case nil: return
    case .disableNext(let codes)?:
      suppressions[line + 1, default: []].formUnion(codes)
    case .invalid(let message)?:
      findings.append(LintFinding(.error, .unknownRuleInComment, message, file: file, line: line))
    }
  }
}

/// Walks a file's syntax tree once and records the facts.
private final class FactCollector: SyntaxVisitor {
  let file: String
  let converter: SourceLocationConverter
  var types: [TypeDeclaration] = []
  var functions: [FunctionFacts] = []
  var keyUses: [KeyUse] = []
  var stringConstants: [String: String] = [:]
  var findings: [LintFinding] = []
  var firstErrorLine: Int?

  /// The types being declared, innermost last: indexes into `types`, and how many functions
  /// were open when each began (more open now means code inside a function of the type).
  private var typeStack: [(index: Int, depth: Int)] = []
  /// The functions being read, innermost last; closures belong to their function.
  private var functionStack: [FunctionFacts] = []
  /// Calls whose result a local variable is bound to (`let map = Map()`), by the call's node.
  private var boundCalls: [SyntaxIdentifier: String] = [:]

  init(file: String, converter: SourceLocationConverter) {
    self.file = file
    self.converter = converter
    super.init(viewMode: .sourceAccurate)
  }

  private func line(_ node: some SyntaxProtocol) -> Int {
    node.startLocation(converter: converter).line
  }

  private var currentOwner: String? { typeStack.last.map { types[$0.index].name } }

  /// Whether the code being read is in a function (or top-level code), not directly in a type.
  private var isInFunction: Bool { functionStack.count > (typeStack.last?.depth ?? 0) }

  // MARK: Types

  private func enterType(
    _ kind: TypeDeclaration.Kind, name: String, inheritance: InheritanceClauseSyntax?,
    attributes: AttributeListSyntax, node: some SyntaxProtocol
  ) {
    let inherited = inheritance?.inheritedTypes.map { Self.typeName($0.type) } ?? []
    let attributeNames = attributes.compactMap {
      $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription
    }
    types.append(
      TypeDeclaration(
        kind: kind, name: name, inherited: inherited, attributes: attributeNames,
        propertyTypes: [:], line: line(node)))
    typeStack.append((types.count - 1, functionStack.count))
  }

  override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
    enterType(
      .classType, name: node.name.text, inheritance: node.inheritanceClause,
      attributes: node.attributes, node: node)
    return .visitChildren
  }
  override func visitPost(_ node: ClassDeclSyntax) { typeStack.removeLast() }

  override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
    enterType(
      .structType, name: node.name.text, inheritance: node.inheritanceClause,
      attributes: node.attributes, node: node)
    return .visitChildren
  }
  override func visitPost(_ node: StructDeclSyntax) { typeStack.removeLast() }

  override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
    enterType(
      .enumType, name: node.name.text, inheritance: node.inheritanceClause,
      attributes: node.attributes, node: node)
    return .visitChildren
  }
  override func visitPost(_ node: EnumDeclSyntax) { typeStack.removeLast() }

  override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
    enterType(
      .actorType, name: node.name.text, inheritance: node.inheritanceClause,
      attributes: node.attributes, node: node)
    return .visitChildren
  }
  override func visitPost(_ node: ActorDeclSyntax) { typeStack.removeLast() }

  override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
    enterType(
      .protocolType, name: node.name.text, inheritance: node.inheritanceClause,
      attributes: node.attributes, node: node)
    return .visitChildren
  }
  override func visitPost(_ node: ProtocolDeclSyntax) { typeStack.removeLast() }

  override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
    enterType(
      .extensionType, name: Self.typeName(node.extendedType), inheritance: node.inheritanceClause,
      attributes: node.attributes, node: node)
    return .visitChildren
  }
  override func visitPost(_ node: ExtensionDeclSyntax) { typeStack.removeLast() }

  // MARK: Functions

  private func enter(_ facts: FunctionFacts) { functionStack.append(facts) }

  private func leave() {
    guard let facts = functionStack.popLast() else { return }
    functions.append(facts)
  }

  private static func flags(_ modifiers: DeclModifierListSyntax) -> (
    isStatic: Bool, isOverride: Bool
  ) {
    let names = Set(modifiers.map(\.name.text))
    return (names.contains("static") || names.contains("class"), names.contains("override"))
  }

  override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
    let flags = Self.flags(node.modifiers)
    var facts = FunctionFacts(
      owner: isInFunction ? functionStack.last?.owner : currentOwner,
      name: node.name.text,
      labels: node.signature.parameterClause.parameters.map(\.firstName.text),
      line: line(node.name))
    Self.readParameters(node.signature.parameterClause, into: &facts)
    facts.isStatic = flags.isStatic
    facts.isOverride = flags.isOverride
    enter(facts)
    return .visitChildren
  }
  override func visitPost(_ node: FunctionDeclSyntax) { leave() }

  private static func readParameters(
    _ clause: FunctionParameterClauseSyntax, into facts: inout FunctionFacts
  ) {
    facts.parameterNames = clause.parameters.map { ($0.secondName ?? $0.firstName).text }
    facts.defaulted = clause.parameters.map { $0.defaultValue != nil }
  }

  override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
    var facts = FunctionFacts(
      owner: currentOwner, name: "init",
      labels: node.signature.parameterClause.parameters.map(\.firstName.text),
      line: line(node.initKeyword))
    Self.readParameters(node.signature.parameterClause, into: &facts)
    facts.isInitializer = true
    facts.isOverride = Self.flags(node.modifiers).isOverride
    enter(facts)
    return .visitChildren
  }
  override func visitPost(_ node: InitializerDeclSyntax) { leave() }

  override func visit(_ node: DeinitializerDeclSyntax) -> SyntaxVisitorContinueKind {
    enter(FunctionFacts(owner: currentOwner, name: "deinit", labels: [], line: line(node)))
    return .visitChildren
  }
  override func visitPost(_ node: DeinitializerDeclSyntax) { leave() }

  /// Code outside any function (a property's initial value, top-level code) is read as an
  /// initializer of its type: it runs when an instance is made.
  private var synthesizedContexts: [Bool] = []

  override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
    let synthesized = !isInFunction
    synthesizedContexts.append(synthesized)
    if synthesized {
      var facts = FunctionFacts(
        owner: currentOwner, name: "init", labels: ["(property)"], line: line(node))
      facts.isInitializer = true
      facts.isStatic = Self.flags(node.modifiers).isStatic
      enter(facts)
    }
    for binding in node.bindings {
      guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else {
        continue
      }
      let value = binding.initializer?.value
      if let value, let literal = Self.stringLiteral(value) {
        stringConstants[name] = literal
      }
      if !synthesized, let value, let call = Self.unwrapped(value).as(FunctionCallExprSyntax.self) {
        boundCalls[call.id] = name
      }
      guard let binding = Self.binding(type: binding.typeAnnotation?.type, value: value) else {
        continue
      }
      if synthesized, let index = typeStack.last?.index {
        types[index].propertyTypes[name] = binding.type
      } else if !synthesized {
        functionStack[functionStack.count - 1].locals[name] = binding
      }
    }
    return .visitChildren
  }

  override func visitPost(_ node: VariableDeclSyntax) {
    if synthesizedContexts.popLast() == true { leave() }
  }

  override func visit(_ node: OptionalBindingConditionSyntax) -> SyntaxVisitorContinueKind {
    if !functionStack.isEmpty,
      let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
    {
      if let value = node.initializer?.value,
        let call = Self.unwrapped(value).as(FunctionCallExprSyntax.self)
      {
        boundCalls[call.id] = name
      }
      if let binding = Self.binding(
        type: node.typeAnnotation?.type, value: node.initializer?.value)
      {
        functionStack[functionStack.count - 1].locals[name] = binding
      }
    }
    return .visitChildren
  }

  /// Top-level code (a `main.swift`) gets a context of its own.
  override func visit(_ node: SourceFileSyntax) -> SyntaxVisitorContinueKind {
    enter(FunctionFacts(owner: nil, name: "(top level)", labels: [], line: 1))
    return .visitChildren
  }
  override func visitPost(_ node: SourceFileSyntax) { leave() }

  // MARK: Expressions

  override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
    let elements = Array(node.elements)
    for (index, element) in elements.enumerated() {
      if let cast = element.as(UnresolvedAsExprSyntax.self), index > 0,
        cast.questionOrExclamationMark?.tokenKind == .exclamationMark,
        index + 1 < elements.count
      {
        checkForceCast(of: elements[index - 1], to: elements[index + 1])
      }
      if element.is(AssignmentExprSyntax.self), index == 1, elements.count >= 3 {
        recordAssignment(to: elements[0], value: elements[2])
      }
    }
    return .visitChildren
  }

  private func checkForceCast(of operand: ExprSyntax, to typeElement: ExprSyntax) {
    guard let call = Self.unwrapped(operand).as(FunctionCallExprSyntax.self),
      let name = Self.calledName(call), name.hasPrefix("decode"),
      call.arguments.contains(where: { $0.label?.text == "forKey" })
        || name == "decodeObject" || name == "decodeTopLevelObject"
    else { return }
    let type = typeElement.as(TypeExprSyntax.self)?.type
    let typeText = type?.trimmedDescription ?? typeElement.trimmedDescription
    let key = call.arguments.first { $0.label?.text == "forKey" }?.expression.trimmedDescription
    let what = key.map { "the value decoded for key \($0)" } ?? "the decoded value"
    let subject = ownerDescription
    if let type, let wrapped = Self.optionalWrapped(type) {
      findings.append(
        LintFinding(
          .warning, .forceCastDecodedOptional,
          "\(subject) force-casts \(what) to the optional \(typeText): a missing key gives nil, but a value of another type (an archive from an older version of the app) crashes at launch; use 'as? \(wrapped.trimmedDescription)'",
          file: file, line: line(call), object: functionStack.last?.owner))
    } else {
      findings.append(
        LintFinding(
          .error, .forceCastDecodedValue,
          "\(subject) force-casts \(what) to \(typeText): an archive without the key (saved before the key existed, or on a path that never writes it) crashes the app at launch; use 'as? \(typeText)' with a fallback, such as 'guard let value = ... as? \(typeText) else { return }'",
          file: file, line: line(call), object: functionStack.last?.owner))
    }
  }

  /// The subject of a finding in the code being read: its type, by kind (`class 'Map'`), or
  /// the file's top-level code.
  private var ownerDescription: String {
    guard let owner = functionStack.last?.owner else { return "top-level code" }
    let kind = types.first { $0.name == owner && $0.kind != .extensionType }?.kind
    return "\(kind.map(TypeDeclaration.describe) ?? "type") '\(owner)'"
  }

  private func recordAssignment(to target: ExprSyntax, value: ExprSyntax) {
    guard !functionStack.isEmpty else { return }
    let property: String
    let base: ExprSyntax?
    if let member = target.as(MemberAccessExprSyntax.self) {
      property = member.declName.baseName.text
      base = member.base
    } else if let reference = target.as(DeclReferenceExprSyntax.self) {
      property = reference.baseName.text
      base = nil
    } else {
      return
    }
    let at = line(target)
    let assignmentTarget = Self.target(base)
    let index = functionStack.count - 1
    switch property {
    case "restorationIdentifier":
      functionStack[index].identifierAssignments.append(
        Assignment(
          target: assignmentTarget, isNil: Self.unwrapped(value).is(NilLiteralExprSyntax.self),
          line: at))
    case "restorationClass":
      functionStack[index].classAssignments.append(
        Assignment(target: assignmentTarget, valueType: Self.classValue(value), line: at))
    case "dataSource":
      let unwrapped = Self.unwrapped(value)
      var assignment = Assignment(target: assignmentTarget, line: at)
      if unwrapped.is(DeclReferenceExprSyntax.self),
        unwrapped.as(DeclReferenceExprSyntax.self)?.baseName.text == "self"
      {
        assignment.valueType = "Self"
      } else if let call = unwrapped.as(FunctionCallExprSyntax.self),
        let type = Self.constructedType(call)
      {
        assignment.valueType = type
      } else if let reference = unwrapped.as(DeclReferenceExprSyntax.self) {
        assignment.valueName = reference.baseName.text
      } else if let member = unwrapped.as(MemberAccessExprSyntax.self),
        member.base.map(Self.isSelf) ?? false
      {
        assignment.valueName = member.declName.baseName.text
      }
      functionStack[index].dataSourceAssignments.append(assignment)
    case "rootViewController":
      functionStack[index].windowAssignments.append(at)
    case "window" where base == nil || base.map(Self.isSelf) == true:
      functionStack[index].windowAssignments.append(at)
    case "viewControllers":
      recordShown(value, line: at)
    default:
      return
    }
  }

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    guard !functionStack.isEmpty else { return .visitChildren }
    let index = functionStack.count - 1
    let at = line(node)
    let labels = Self.labels(node)
    // Read the flags alone: a copy of the function's facts would make each append copy them.
    let (isInitializer, isStatic, owner) = (
      functionStack[index].isInitializer, functionStack[index].isStatic, functionStack[index].owner
    )
    let member = node.calledExpression.as(MemberAccessExprSyntax.self)
    let delegates =
      isInitializer && !isStatic && member?.declName.baseName.text == "init"
      && member?.base.map(Self.isSelf) == true
    if !delegates, let type = Self.constructedType(node) {
      let resolved = type == "Self" ? (owner ?? type) : type
      var construction = Construction(
        type: resolved, labels: labels, variable: boundCalls[node.id], line: at)
      for argument in node.arguments where argument.label?.text == "rootViewController" {
        construction.wrapped += shownControllers(argument.expression, line: at)
      }
      functionStack[index].constructions.append(construction)
      return .visitChildren
    }
    guard let name = Self.calledName(node) else { return .visitChildren }
    if member?.base?.is(SuperExprSyntax.self) == true {
      functionStack[index].superCalls.insert(name)
    }
    functionStack[index].callSites.append(
      CallSite(
        name: name, labels: labels, receiver: Self.receiver(member?.base),
        arguments: node.arguments.map {
          Self.unwrapped($0.expression).as(DeclReferenceExprSyntax.self)?.baseName.text
        },
        resultVariable: boundCalls[node.id], line: at))
    let forKey = node.arguments.first { $0.label?.text == "forKey" }?.expression
    if let forKey, name.hasPrefix("decode") || name.hasPrefix("encode"),
      !name.hasSuffix("IfPresent"), let key = Self.key(forKey)
    {
      keyUses.append(
        KeyUse(
          key: key, isDecode: name.hasPrefix("decode"), method: name, owner: owner,
          line: at))
    }
    if Self.showingMethods.contains(name), let first = node.arguments.first?.expression {
      recordShown(first, line: at)
    }
    return .visitChildren
  }

  private static let showingMethods: Set<String> = [
    "pushViewController", "present", "presentViewController", "show", "showDetailViewController",
    "setViewControllers", "addChild", "addChildViewController",
  ]

  private func recordShown(_ expression: ExprSyntax, line at: Int) {
    functionStack[functionStack.count - 1].shown += shownControllers(expression, line: at)
  }

  /// The controllers an expression shows: itself, the elements of an array, and the
  /// controllers a navigation controller wraps (`rootViewController:`), inline or bound to a
  /// variable earlier in the function.
  private func shownControllers(_ expression: ExprSyntax, line at: Int) -> [ShownController] {
    let unwrapped = Self.unwrapped(expression)
    if let array = unwrapped.as(ArrayExprSyntax.self) {
      return array.elements.flatMap { shownControllers($0.expression, line: at) }
    }
    if let reference = unwrapped.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      let wrapped =
        functionStack.last?.constructions.last { $0.variable == name }?.wrapped ?? []
      return [ShownController(variable: name, line: at)]
        + wrapped.map { wrapped in
          var shown = wrapped
          shown.line = at
          return shown
        }
    }
    if let call = unwrapped.as(FunctionCallExprSyntax.self), let type = Self.constructedType(call) {
      let wrapped = call.arguments.filter { $0.label?.text == "rootViewController" }
        .flatMap { shownControllers($0.expression, line: at) }
      return [ShownController(constructedType: type, labels: Self.labels(call), line: at)] + wrapped
    }
    return []
  }

  override func visit(_ node: UnexpectedNodesSyntax) -> SyntaxVisitorContinueKind {
    if firstErrorLine == nil { firstErrorLine = line(node) }
    return .skipChildren
  }

  // MARK: Helpers

  /// The last component of a type's name, without optionals or generic arguments.
  static func typeName(_ type: TypeSyntax) -> String {
    if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text }
    if let member = type.as(MemberTypeSyntax.self) { return member.name.text }
    if let optional = type.as(OptionalTypeSyntax.self) { return typeName(optional.wrappedType) }
    if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
      return typeName(unwrapped.wrappedType)
    }
    if let attributed = type.as(AttributedTypeSyntax.self) { return typeName(attributed.baseType) }
    return type.trimmedDescription
  }

  /// The type an optional wraps (`String` for `String?`, `String!` and `Optional<String>`),
  /// nil for a type that is not optional.
  static func optionalWrapped(_ type: TypeSyntax) -> (any SyntaxProtocol)? {
    if let optional = type.as(OptionalTypeSyntax.self) { return optional.wrappedType }
    if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
      return unwrapped.wrappedType
    }
    if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
      let argument = identifier.genericArgumentClause?.arguments.first
    {
      return argument.argument
    }
    return nil
  }

  /// A call's argument labels, `_` for none and `*` for a trailing closure.
  static func labels(_ call: FunctionCallExprSyntax) -> [String] {
    call.arguments.map { $0.label?.text ?? "_" }
      + (call.trailingClosure == nil ? [] : ["*"])
      + call.additionalTrailingClosures.map(\.label.text)
  }

  static func receiver(_ base: ExprSyntax?) -> CallSite.Receiver {
    guard let base else { return .ownObject }
    if base.is(SuperExprSyntax.self) { return .superObject }
    if isSelf(base) { return .ownObject }
    if let reference = unwrapped(base).as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      return name.first?.isUppercase == true ? .type(name) : .variable(name)
    }
    return .other
  }

  /// The expression inside parentheses, `try`, `await`, `?` and `!`.
  static func unwrapped(_ expression: ExprSyntax) -> ExprSyntax {
    var current = expression
    for _ in 0..<16 {
      if let tuple = current.as(TupleExprSyntax.self), tuple.elements.count == 1,
        let only = tuple.elements.first, only.label == nil
      {
        current = only.expression
      } else if let attempt = current.as(TryExprSyntax.self) {
        current = attempt.expression
      } else if let wait = current.as(AwaitExprSyntax.self) {
        current = wait.expression
      } else if let chain = current.as(OptionalChainingExprSyntax.self) {
        current = chain.expression
      } else if let force = current.as(ForceUnwrapExprSyntax.self) {
        current = force.expression
      } else {
        break
      }
    }
    return current
  }

  static func isSelf(_ expression: ExprSyntax) -> Bool {
    unwrapped(expression).as(DeclReferenceExprSyntax.self)?.baseName.text == "self"
  }

  static func target(_ base: ExprSyntax?) -> AssignmentTarget {
    guard let base else { return .ownObject }
    let unwrapped = unwrapped(base)
    if let reference = unwrapped.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      return name == "self" ? .ownObject : .variable(name)
    }
    return .other(base.trimmedDescription)
  }

  /// `X.self` as `X`; `type(of: self)` and `Self.self` as `Self`.
  static func classValue(_ value: ExprSyntax) -> String? {
    let value = unwrapped(value)
    if let member = value.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "self",
      let base = member.base
    {
      if let reference = base.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
      if let type = base.as(TypeExprSyntax.self) { return typeName(type.type) }
      if let inner = base.as(MemberAccessExprSyntax.self) { return inner.declName.baseName.text }
    }
    if let call = value.as(FunctionCallExprSyntax.self),
      call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "type",
      call.arguments.first?.label?.text == "of"
    {
      return "Self"
    }
    return nil
  }

  /// The type a call creates: `Type(...)`, `Type.init(...)`, `Self()`, `self.init(...)`.
  static func constructedType(_ call: FunctionCallExprSyntax) -> String? {
    let called = call.calledExpression
    if let reference = called.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      return name.first?.isUppercase == true ? name : nil
    }
    if let member = called.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "init",
      let base = member.base
    {
      if let reference = base.as(DeclReferenceExprSyntax.self) {
        let name = reference.baseName.text
        if name == "self" || name == "Self" { return "Self" }
        return name.first?.isUppercase == true ? name : nil
      }
      if let inner = base.as(MemberAccessExprSyntax.self) { return inner.declName.baseName.text }
    }
    if let specialized = called.as(GenericSpecializationExprSyntax.self),
      let reference = specialized.expression.as(DeclReferenceExprSyntax.self)
    {
      return reference.baseName.text
    }
    return nil
  }

  /// The base name of the function or method a call calls.
  static func calledName(_ call: FunctionCallExprSyntax) -> String? {
    let called = call.calledExpression
    if let reference = called.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
    if let member = called.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
    return nil
  }

  static func stringLiteral(_ expression: ExprSyntax) -> String? {
    guard let literal = expression.as(StringLiteralExprSyntax.self) else { return nil }
    var text = ""
    for segment in literal.segments {
      guard let plain = segment.as(StringSegmentSyntax.self) else { return nil }
      text += plain.content.text
    }
    return text
  }

  /// A coder key: a string literal, or a constant named by an identifier or `Type.name`.
  ///
  /// Keys of `Codable` containers (`.name`, a `CodingKey` case) are not coder keys.
  static func key(_ expression: ExprSyntax) -> KeyUse.Key? {
    if let literal = stringLiteral(expression) { return .literal(literal) }
    if let reference = expression.as(DeclReferenceExprSyntax.self) {
      return .constant(reference.baseName.text)
    }
    if let member = expression.as(MemberAccessExprSyntax.self), member.base != nil {
      return .constant(member.declName.baseName.text)
    }
    return nil
  }

  /// The type of a variable from its annotation or its initial value.
  static func binding(type: TypeSyntax?, value: ExprSyntax?) -> LocalBinding? {
    var constructed: String?
    var cast: String?
    if let value {
      let unwrapped = unwrapped(value)
      if let call = unwrapped.as(FunctionCallExprSyntax.self) {
        constructed = constructedType(call)
      } else if let sequence = unwrapped.as(SequenceExprSyntax.self) {
        let elements = Array(sequence.elements)
        if elements.count == 3, elements[1].is(UnresolvedAsExprSyntax.self),
          let castType = elements[2].as(TypeExprSyntax.self)
        {
          cast = typeName(castType.type)
        }
      }
    }
    if let constructed { return LocalBinding(type: constructed, isConstructed: true) }
    if let type { return LocalBinding(type: typeName(type), isConstructed: false) }
    if let cast { return LocalBinding(type: cast, isConstructed: false) }
    return nil
  }
}
