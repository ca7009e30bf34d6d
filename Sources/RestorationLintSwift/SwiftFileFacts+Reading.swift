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
  /// `swift-syntax-error` note and the facts of what could be read.
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
    let readsScenes = Self.containsAny(source, FactCollector.sceneMarkers)
    let collector = FactCollector(file: file, converter: converter, readsScenes: readsScenes)
    collector.walk(tree)
    types = collector.types
    functions = collector.functions
    keyUses = collector.keyUses
    forceCastCalls = collector.forceCastCalls
    stringConstants = collector.stringConstants
    namedStrings = collector.namedStrings
    scene = collector.scene
    importsUIKit = collector.importsUIKit
    exportsUIKit = collector.exportsUIKit
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

  /// Whether a type is a coder that restoration decodes from or encodes to.
  static func isCoderType(_ type: String) -> Bool {
    ["NSCoder", "NSKeyedUnarchiver", "NSKeyedArchiver"].contains(type)
  }

  /// Whether any of the needles (each at least two bytes long) is in the bytes, in one pass
  /// that compares only where a needle's first two bytes are: a file without any is read
  /// once, not once per needle.
  private static func containsAny(_ bytes: [UInt8], _ needles: [[UInt8]]) -> Bool {
    var starts = [Bool](repeating: false, count: 65_536)
    for needle in needles where needle.count >= 2 {
      starts[Int(needle[0]) << 8 | Int(needle[1])] = true
    }
    return bytes.withUnsafeBufferPointer { buffer in
      starts.withUnsafeBufferPointer { starts in
        guard buffer.count >= 2 else { return false }
        for index in 0..<(buffer.count - 1)
        where starts[Int(buffer[index]) << 8 | Int(buffer[index + 1])] {
          for needle in needles where index + needle.count <= buffer.count {
            if buffer[index..<(index + needle.count)].elementsEqual(needle) { return true }
          }
        }
        return false
      }
    }
  }

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
final class FactCollector: SyntaxVisitor {
  let file: String
  let converter: SourceLocationConverter
  var types: [TypeDeclaration] = []
  var functions: [FunctionFacts] = []
  var keyUses: [KeyUse] = []
  var forceCastCalls: [ForceCastCall] = []
  var stringConstants: [String: String] = [:]
  var findings: [LintFinding] = []
  var firstErrorLine: Int?
  var importsUIKit = false
  var exportsUIKit = false
  /// Whether the file mentions scenes, user activities or SwiftUI's scene storage: only then
  /// are they read.
  let readsScenes: Bool
  var scene = SceneFileFacts()
  var namedStrings: [String: StringValue?] = [:]
  /// Properties bound to what was read from `NSUserActivityTypes`.
  var activityTypesProperties: Set<String> = []
  /// The session roles that the `if`, `guard` and `switch` statements around the code being
  /// read compare a session's role with.
  var roleFrames: [(roles: Set<String>, end: AbsolutePosition?)] = []
  /// Calls whose result is returned.
  var returnedCallNodes: Set<SyntaxIdentifier> = []

  /// The types being declared, innermost last: indexes into `types`, and how many functions
  /// were open when each began (more open now means code inside a function of the type).
  var typeStack: [(index: Int, depth: Int)] = []
  /// The functions being read, innermost last; closures belong to their function.
  var functionStack: [FunctionFacts] = []
  /// Calls whose result a local variable is bound to (`let map = Map()`), by the call's node.
  var boundCalls: [SyntaxIdentifier: String] = [:]
  /// The identifiers that the `switch`, `if` and `guard` statements around the code being read
  /// compare the restoration identifier path with, innermost last.
  private var literalFrames: [(literals: Set<String>, end: AbsolutePosition?)] = []

  /// The literals of the innermost frame around a position: a `guard`'s frame lasts to the end
  /// of its block, and is dropped once the walk has passed it.
  private func guardLiterals(at position: AbsolutePosition) -> Set<String>? {
    while let last = literalFrames.last, let end = last.end, end <= position {
      literalFrames.removeLast()
    }
    return literalFrames.last?.literals
  }

  init(file: String, converter: SourceLocationConverter, readsScenes: Bool) {
    self.file = file
    self.converter = converter
    self.readsScenes = readsScenes
    super.init(viewMode: .sourceAccurate)
  }

  func line(_ node: some SyntaxProtocol) -> Int {
    node.startLocation(converter: converter).line
  }

  var currentOwner: String? { typeStack.last.map { types[$0.index].name } }

  /// The names bound to the identifier path in the function being read.
  ///
  /// Read through the index: `functionStack.last` would copy the whole facts.
  private var identifierPathNames: Set<String> {
    // Most functions have none: the count answers without reading the facts.
    guard functionsWithIdentifierPath > 0, !functionStack.isEmpty else { return [] }
    return functionStack[functionStack.count - 1].identifierPathNames
  }

  /// How many functions being read have names bound to the identifier path.
  private var functionsWithIdentifierPath = 0

  /// The owner of the function being read, without copying its facts.
  var functionOwner: String? {
    functionStack.isEmpty ? nil : functionStack[functionStack.count - 1].owner
  }

  /// Whether the code being read is in a function (or top-level code), not directly in a type.
  var isInFunction: Bool { functionStack.count > (typeStack.last?.depth ?? 0) }

  // MARK: Imports and conditional compilation

  override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
    let module = node.path.first?.name.text
    // SwiftUI brings UIKit with it on iOS.
    if module == "UIKit" || module == "SwiftUI" { importsUIKit = true }
    let exported = node.attributes.contains {
      $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "_exported"
    }
    if module == "UIKit", exported { exportsUIKit = true }
    return .skipChildren
  }

  /// Reads the branches of an `#if` that an iOS build may compile: a branch whose condition is
  /// false on iOS (`#if false`, `os(macOS)`, `!canImport(UIKit)`) or that follows one that is
  /// true is skipped; a condition the lint cannot decide (`DEBUG`, `targetEnvironment(...)`)
  /// keeps its branch and those after it.
  override func visit(_ node: IfConfigDeclSyntax) -> SyntaxVisitorContinueKind {
    var decided = false
    for clause in node.clauses {
      guard !decided else { break }
      let value = clause.condition.map(IOSConditions.evaluate) ?? .yes
      if value == .no { continue }
      if value == .yes { decided = true }
      switch clause.elements {
      case .statements(let items)?: walk(items)
      case .switchCases(let cases)?: walk(cases)
      case .decls(let members)?: walk(members)
      case .postfixExpression(let expression)?: walk(expression)
      case .attributes(let attributes)?: walk(attributes)
      case nil: break
      }
    }
    return .skipChildren
  }

  // MARK: Types

  private func enterType(
    _ kind: TypeDeclaration.Kind, _ node: some DeclGroupSyntax, name: String
  ) -> SyntaxVisitorContinueKind {
    let attributes = node.attributes
    let inherited = node.inheritanceClause?.inheritedTypes.map { Self.typeName($0.type) } ?? []
    let attributeNames = attributes.compactMap {
      $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription
    }
    let objcName = attributes.lazy.compactMap { $0.as(AttributeSyntax.self) }
      .first { $0.attributeName.trimmedDescription == "objc" }?.arguments?.trimmedDescription
    types.append(
      TypeDeclaration(
        kind: kind, name: name, inherited: inherited, attributes: attributeNames,
        objcName: objcName, propertyTypes: [:], line: line(node)))
    typeStack.append((types.count - 1, functionStack.count))
    return .visitChildren
  }

  override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
    enterType(.classType, node, name: node.name.text)
  }
  override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
    enterType(.structType, node, name: node.name.text)
  }
  override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
    enterType(.enumType, node, name: node.name.text)
  }
  override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
    enterType(.actorType, node, name: node.name.text)
  }
  override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
    enterType(.protocolType, node, name: node.name.text)
  }
  override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
    enterType(.extensionType, node, name: Self.typeName(node.extendedType))
  }
  override func visitPost(_ node: ClassDeclSyntax) { typeStack.removeLast() }
  override func visitPost(_ node: StructDeclSyntax) { typeStack.removeLast() }
  override func visitPost(_ node: EnumDeclSyntax) { typeStack.removeLast() }
  override func visitPost(_ node: ActorDeclSyntax) { typeStack.removeLast() }
  override func visitPost(_ node: ProtocolDeclSyntax) { typeStack.removeLast() }
  override func visitPost(_ node: ExtensionDeclSyntax) { typeStack.removeLast() }

  // MARK: Functions

  private func enter(_ facts: FunctionFacts) {
    if !facts.identifierPathNames.isEmpty { functionsWithIdentifierPath += 1 }
    var facts = facts
    if readsScenes { facts.activity = ActivityFlow() }
    functionStack.append(facts)
  }

  private func leave() {
    guard let facts = functionStack.popLast() else { return }
    if !facts.identifierPathNames.isEmpty { functionsWithIdentifierPath -= 1 }
    finishSceneFunction(facts)
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
      owner: isInFunction ? functionOwner : currentOwner,
      name: node.name.text,
      labels: node.signature.parameterClause.parameters.map(\.firstName.text),
      line: line(node.name))
    Self.readParameters(node.signature.parameterClause, into: &facts)
    facts.isStatic = flags.isStatic
    facts.isOverride = flags.isOverride
    // A body of one expression returns it.
    let single: ExprSyntax? = {
      guard let statements = node.body?.statements, statements.count == 1 else { return nil }
      return statements.first?.item.as(ExprSyntax.self)
    }()
    if let expression = single {
      facts.returnsDecoded = isDecodedValue(expression, coders: facts.coderParameters)
    }
    enter(facts)
    if let expression = single { readReturned(expression) }
    return .visitChildren
  }

  override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind {
    if let expression = node.expression { readReturned(expression) }
    if let expression = node.expression, !functionStack.isEmpty,
      isDecodedValue(expression, coders: functionStack[functionStack.count - 1].coderParameters)
    {
      functionStack[functionStack.count - 1].returnsDecoded = true
    }
    return .visitChildren
  }
  override func visitPost(_ node: FunctionDeclSyntax) { leave() }

  private static func readParameters(
    _ clause: FunctionParameterClauseSyntax, into facts: inout FunctionFacts
  ) {
    facts.parameterNames = clause.parameters.map { ($0.secondName ?? $0.firstName).text }
    facts.defaulted = clause.parameters.map { $0.defaultValue != nil }
    for parameter in clause.parameters {
      let name = (parameter.secondName ?? parameter.firstName).text
      if let type = simpleTypeName(parameter.type), SwiftFileFacts.isCoderType(type) {
        facts.coderParameters.insert(name)
      }
      let label = parameter.firstName.text
      if label == "withRestorationIdentifierPath"
        || label == "viewControllerWithRestorationIdentifierPath"
      {
        facts.identifierPathNames.insert(name)
      }
    }
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
    if synthesized { readSceneStorage(node) }
    if synthesized {
      var facts = FunctionFacts(
        owner: currentOwner, name: "init", labels: ["(property)"], line: line(node))
      facts.propertyName =
        node.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?
        .identifier.text
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
      if let value {
        if synthesized {
          recordNamedString(name, value: value)
        } else {
          recordAlias(name, value: value)
        }
      }
      if !synthesized, let value, let call = Self.unwrapped(value).as(FunctionCallExprSyntax.self) {
        boundCalls[call.id] = name
      }
      if !synthesized, let value { trackIdentifierPath(name, value) }
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

  /// A variable read from the restoration identifier path (`let last = identifierComponents.last`)
  /// is compared as the path is.
  private func trackIdentifierPath(_ name: String, _ value: ExprSyntax) {
    let names = identifierPathNames
    guard !names.isEmpty,
      mentions(value, names)
    else { return }
    functionStack[functionStack.count - 1].identifierPathNames.insert(name)
  }

  func mentions(_ node: some SyntaxProtocol, _ names: Set<String>) -> Bool {
    node.tokens(viewMode: .sourceAccurate).contains {
      if case .identifier(let text) = $0.tokenKind { return names.contains(text) }
      return false
    }
  }

  override func visit(_ node: OptionalBindingConditionSyntax) -> SyntaxVisitorContinueKind {
    if !functionStack.isEmpty,
      let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
      let value = node.initializer?.value
    {
      trackIdentifierPath(name, value)
      recordAlias(name, value: value)
    }
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

  // MARK: Conditions on the restoration identifier path

  /// A `switch` on the identifier path: each `case` of string literals guards what it holds.
  override func visit(_ node: SwitchExprSyntax) -> SyntaxVisitorContinueKind {
    readSwitch(node)
    if isRoleSubject(node.subject) {
      walk(node.subject)
      for element in node.cases {
        guard let switchCase = element.as(SwitchCaseSyntax.self),
          case .case(let label) = switchCase.label
        else {
          walk(element)
          continue
        }
        let depth = roleFrames.count
        roleFrames.append((comparedRoles(label, requiresRole: false), nil))
        walk(element)
        roleFrames.removeSubrange(min(depth, roleFrames.count)...)
      }
      return .skipChildren
    }
    let names = identifierPathNames
    guard !names.isEmpty,
      mentions(node.subject, names)
    else { return .visitChildren }
    walk(node.subject)
    for element in node.cases {
      guard let switchCase = element.as(SwitchCaseSyntax.self),
        case .case(let label) = switchCase.label
      else {
        walk(element)
        continue
      }
      let literals = label.caseItems.map {
        $0.pattern.as(ExpressionPatternSyntax.self).flatMap { Self.stringLiteral($0.expression) }
      }
      guard !literals.isEmpty, literals.allSatisfy({ $0 != nil }) else {
        walk(element)
        continue
      }
      let depth = literalFrames.count
      literalFrames.append((Set(literals.compactMap { $0 }), nil))
      walk(element)
      literalFrames.removeSubrange(min(depth, literalFrames.count)...)
    }
    return .skipChildren
  }

  /// An `if` comparing the identifier path with string literals guards its body.
  override func visit(_ node: IfExprSyntax) -> SyntaxVisitorContinueKind {
    readIf(node)
    let literals = comparedLiterals(node.conditions)
    let roles = comparedRoles(node.conditions)
    guard literals != nil || !roles.isEmpty else { return .visitChildren }
    walk(node.conditions)
    let depth = literalFrames.count
    let roleDepth = roleFrames.count
    if let literals { literalFrames.append((literals, nil)) }
    if !roles.isEmpty { roleFrames.append((roles, nil)) }
    walk(node.body)
    literalFrames.removeSubrange(min(depth, literalFrames.count)...)
    roleFrames.removeSubrange(min(roleDepth, roleFrames.count)...)
    if let elseBody = node.elseBody { walk(elseBody) }
    return .skipChildren
  }

  override func visit(_ node: GuardStmtSyntax) -> SyntaxVisitorContinueKind {
    readGuard(node)
    return .visitChildren
  }

  /// A `guard` comparing the identifier path with string literals guards the rest of its block.
  override func visitPost(_ node: GuardStmtSyntax) {
    guard let block = node.parent?.parent?.as(CodeBlockItemListSyntax.self) else { return }
    let roles = comparedRoles(node.conditions)
    if !roles.isEmpty { roleFrames.append((roles, block.endPosition)) }
    // After its conditions were read: `guard let last = identifierComponents.last, ...`
    // binds the name the comparison uses.
    guard let literals = comparedLiterals(node.conditions) else { return }
    literalFrames.append((literals, block.endPosition))
  }

  /// The string literals that conditions compare the identifier path with (`last == "Map"`,
  /// `identifierComponents.last == "Map" || ...`); nil when they compare it with none.
  private func comparedLiterals(_ conditions: ConditionElementListSyntax) -> Set<String>? {
    let names = identifierPathNames
    guard !names.isEmpty else { return nil }
    var literals: Set<String> = []
    for condition in conditions {
      guard case .expression(let expression) = condition.condition,
        let sequence = expression.as(SequenceExprSyntax.self)
      else { continue }
      let elements = Array(sequence.elements)
      for (index, element) in elements.enumerated()
      where index > 0 && index + 1 < elements.count
        && element.as(BinaryOperatorExprSyntax.self)?.operator.text == "=="
      {
        let (left, right) = (elements[index - 1], elements[index + 1])
        if mentions(left, names), let literal = Self.stringLiteral(right) {
          literals.insert(literal)
        } else if mentions(right, names), let literal = Self.stringLiteral(left) {
          literals.insert(literal)
        }
      }
    }
    return literals.isEmpty ? nil : literals
  }

  // MARK: Expressions

  override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
    let elements = Array(node.elements)
    for (index, element) in elements.enumerated() {
      if let cast = element.as(UnresolvedAsExprSyntax.self), index > 0,
        cast.questionOrExclamationMark?.tokenKind == .exclamationMark,
        index + 1 < elements.count
      {
        checkForceCast(of: elements[index - 1], to: elements[index + 1])
        readForceCast(of: elements[index - 1], to: elements[index + 1])
      }
      if let operation = element.as(BinaryOperatorExprSyntax.self)?.operator.text,
        operation == "==" || operation == "!=", index > 0, index + 1 < elements.count
      {
        readComparison(elements[index - 1], elements[index + 1])
      }
      if element.is(AssignmentExprSyntax.self), index == 1, elements.count >= 3 {
        recordAssignment(to: elements[0], value: elements[2])
      }
    }
    return .visitChildren
  }

  private func checkForceCast(of operand: ExprSyntax, to typeElement: ExprSyntax) {
    guard let call = Self.unwrapped(operand).as(FunctionCallExprSyntax.self),
      let name = Self.calledName(call)
    else { return }
    let type = typeElement.as(TypeExprSyntax.self)?.type
    let typeText = type?.trimmedDescription ?? typeElement.trimmedDescription
    let wrapped = type.flatMap(Self.optionalWrapped)?.trimmedDescription
    let member = call.calledExpression.as(MemberAccessExprSyntax.self)
    guard name.hasPrefix("decode"), isCoder(member?.base),
      call.arguments.contains(where: { $0.label?.text == "forKey" })
        || name == "decodeObject" || name == "decodeTopLevelObject"
    else {
      // A function of the module given a coder may return what it decodes: the rules that
      // cross files decide.
      let arguments = Array(call.arguments)
      guard !name.hasPrefix("decode"),
        let coder = arguments.firstIndex(where: { isCoder($0.expression) })
      else { return }
      let key = arguments.first { ["key", "forKey"].contains($0.label?.text) }
      forceCastCalls.append(
        ForceCastCall(
          call: callSite(call, name: name), coderArgument: coder,
          key: key?.expression.trimmedDescription, type: typeText, wrapped: wrapped,
          owner: functionOwner))
      return
    }
    let key = call.arguments.first { $0.label?.text == "forKey" }?.expression.trimmedDescription
    let what = key.map { "the value decoded for key \($0)" } ?? "the decoded value"
    findings.append(
      ForceCast.finding(
        subject: ownerDescription, what: what, type: typeText, wrapped: wrapped, file: file,
        line: line(call), owner: functionOwner))
  }

  /// Whether an expression names a coder: a parameter, variable or property of type `NSCoder`
  /// (or a keyed archiver or unarchiver).
  private func isCoder(_ expression: ExprSyntax?) -> Bool {
    guard let expression,
      let name = Self.unwrapped(expression).as(DeclReferenceExprSyntax.self)?.baseName.text
    else { return false }
    for index in functionStack.indices.reversed() {
      if functionStack[index].coderParameters.contains(name) { return true }
      if let type = functionStack[index].locals[name]?.type {
        return SwiftFileFacts.isCoderType(type)
      }
    }
    if let index = typeStack.last?.index, let type = types[index].propertyTypes[name] {
      return SwiftFileFacts.isCoderType(type)
    }
    return false
  }

  /// Whether an expression is, or casts, a value decoded from one of the function's coder
  /// parameters.
  private func isDecodedValue(_ expression: ExprSyntax, coders: Set<String>) -> Bool {
    var value = Self.unwrapped(expression)
    if let sequence = value.as(SequenceExprSyntax.self), let first = sequence.elements.first {
      // `x as? T`, `x ?? fallback`: the value is still the decoded one.
      value = Self.unwrapped(first)
    }
    guard let call = value.as(FunctionCallExprSyntax.self),
      Self.calledName(call)?.hasPrefix("decode") == true,
      let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base,
      let name = Self.unwrapped(base).as(DeclReferenceExprSyntax.self)?.baseName.text
    else { return false }
    return coders.contains(name)
  }

  /// The subject of a finding in the code being read: its type, by kind (`class 'Map'`), or
  /// the file's top-level code.
  var ownerDescription: String {
    guard let owner = functionOwner else { return "top-level code" }
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
    // `controller = Map()`, in a branch: the variable is the new controller, and what is set on
    // it after the branches counts for each of them.
    if base == nil, let call = Self.unwrapped(value).as(FunctionCallExprSyntax.self),
      let type = Self.constructedType(call)
    {
      boundCalls[call.id] = property
      if functionStack[index].locals[property] != nil {
        let resolved = type == "Self" ? (functionStack[index].owner ?? type) : type
        functionStack[index].locals[property] = LocalBinding(type: resolved, isConstructed: true)
      }
    }
    switch property {
    case "restorationIdentifier":
      functionStack[index].identifierAssignments.append(
        Assignment(
          target: assignmentTarget, isNil: Self.unwrapped(value).is(NilLiteralExprSyntax.self),
          key: Self.identifierKey(value), line: at))
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
    case "delegateClass":
      readDelegateClassAssignment(assignmentTarget)
    default:
      return
    }
  }

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    guard !functionStack.isEmpty else { return .visitChildren }
    readSceneCall(node)
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
        type: resolved, labels: labels, variable: boundCalls[node.id],
        guardLiterals: guardLiterals(at: node.position), line: at)
      for argument in node.arguments where argument.label?.text == "rootViewController" {
        construction.wrapped += shownControllers(argument.expression, line: at)
      }
      functionStack[index].constructions.append(construction)
      readConstructionArguments(node, construction: functionStack[index].constructions.count - 1)
      return .visitChildren
    }
    guard let name = Self.calledName(node) else { return .visitChildren }
    if member?.base?.is(SuperExprSyntax.self) == true {
      functionStack[index].superCalls.insert(name)
    }
    functionStack[index].callSites.append(callSite(node, name: name))
    let call = functionStack[index].callSites.count - 1
    readArguments(node, call: call)
    readReturnedCall(node, call: call)
    // Keys count when a coder reads or writes them: a `Codable` container's, or this package's
    // `StateDecoder`'s, are not an archive's keys of UIKit's restoration.
    let forKey = node.arguments.first { $0.label?.text == "forKey" }?.expression
    if let forKey, name.hasPrefix("decode") || name.hasPrefix("encode"),
      !name.hasSuffix("IfPresent"), isCoder(member?.base), let key = Self.key(forKey)
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

  /// A call as the rules follow it: its name, labels, receiver and plain-name arguments.
  private func callSite(_ node: FunctionCallExprSyntax, name: String) -> CallSite {
    let member = node.calledExpression.as(MemberAccessExprSyntax.self)
    return CallSite(
      name: name, labels: Self.labels(node), receiver: Self.receiver(member?.base),
      arguments: node.arguments.map {
        Self.unwrapped($0.expression).as(DeclReferenceExprSyntax.self)?.baseName.text
      },
      resultVariable: boundCalls[node.id], guardLiterals: guardLiterals(at: node.position),
      line: line(node))
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

  // MARK: Scenes, user activities and SwiftUI

  override func visit(_ node: StringLiteralExprSyntax) -> SyntaxVisitorContinueKind {
    if readsScenes, Self.stringLiteral(ExprSyntax(node)) == "NSUserActivityTypes" {
      recordActivityTypesRead(node)
    }
    return .visitChildren
  }

  override func visit(_ node: ForceUnwrapExprSyntax) -> SyntaxVisitorContinueKind {
    readForceUnwrap(node)
    return .visitChildren
  }

  override func visit(_ node: SubscriptCallExprSyntax) -> SyntaxVisitorContinueKind {
    readSubscript(node)
    return .visitChildren
  }

  override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
    readMemberAccess(node)
    return .visitChildren
  }

  override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind {
    readFor(node)
    return .visitChildren
  }

  override func visit(_ node: EnumCaseDeclSyntax) -> SyntaxVisitorContinueKind {
    recordEnumCases(node)
    return .visitChildren
  }

  override func visit(_ node: UnexpectedNodesSyntax) -> SyntaxVisitorContinueKind {
    if firstErrorLine == nil { firstErrorLine = line(node) }
    return .skipChildren
  }

  // MARK: Helpers

  /// The last component of a named type (`NSCoder`, `Foundation.NSCoder`, `NSCoder?`), and nil
  /// for any other, without building its text.
  static func simpleTypeName(_ type: TypeSyntax) -> String? {
    if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text }
    if let member = type.as(MemberTypeSyntax.self) { return member.name.text }
    if let optional = type.as(OptionalTypeSyntax.self) {
      return simpleTypeName(optional.wrappedType)
    }
    if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
      return simpleTypeName(unwrapped.wrappedType)
    }
    return nil
  }

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

  /// A restoration identifier given as a string literal or a constant (`name`, `Type.name`);
  /// nil for anything else, such as `identifierComponents.last`.
  static func identifierKey(_ expression: ExprSyntax) -> KeyUse.Key? {
    let value = unwrapped(expression)
    if let literal = stringLiteral(value) { return .literal(literal) }
    if let reference = value.as(DeclReferenceExprSyntax.self) {
      return .constant(reference.baseName.text)
    }
    if let member = value.as(MemberAccessExprSyntax.self),
      let base = member.base?.as(DeclReferenceExprSyntax.self),
      base.baseName.text.first?.isUppercase == true
    {
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

/// The findings of a force cast of a decoded value, direct or through a helper.
enum ForceCast {
  /// The finding: an error for a non-optional type, a warning for an optional one.
  ///
  /// - Parameters:
  ///   - subject: The type whose code casts, as findings name it.
  ///   - what: The value, such as `the value decoded for key "name"`.
  ///   - type: The type cast to, as written.
  ///   - wrapped: For an optional type, the type it wraps.
  ///   - file: The file.
  ///   - line: The line.
  ///   - owner: The type whose code casts.
  /// - Returns: The finding.
  static func finding(
    subject: String, what: String, type: String, wrapped: String?, file: String, line: Int,
    owner: String?
  ) -> LintFinding {
    if let wrapped {
      return LintFinding(
        .warning, .forceCastDecodedOptional,
        "\(subject) force-casts \(what) to the optional \(type): a missing key gives nil, but a value of another type (an archive from an older version of the app) crashes at launch; use 'as? \(wrapped)'",
        file: file, line: line, object: owner)
    }
    return LintFinding(
      .error, .forceCastDecodedValue,
      "\(subject) force-casts \(what) to \(type): an archive without the key (saved before the key existed, or on a path that never writes it) crashes the app at launch; use 'as? \(type)' with a fallback, such as 'guard let value = ... as? \(type) else { return }'",
      file: file, line: line, object: owner)
  }
}
