internal import SwiftSyntax

/// The conditions of `#if` as an iOS build sees them: true, false, or unknown when the answer
/// depends on the build (a custom flag, the simulator, the architecture).
///
/// The lint reads the branches an iOS app may compile, so that code for macOS or code turned
/// off with `#if false` gives no finding, and a condition it cannot decide keeps its code in.
enum IOSConditions {
  /// A condition's value on iOS.
  enum Value: Equatable {
    case yes, no, unknown

    static prefix func ! (value: Value) -> Value {
      switch value {
      case .yes: .no
      case .no: .yes
      case .unknown: .unknown
      }
    }

    static func && (lhs: Value, rhs: Value) -> Value {
      if lhs == .no || rhs == .no { return .no }
      return lhs == .yes && rhs == .yes ? .yes : .unknown
    }

    static func || (lhs: Value, rhs: Value) -> Value {
      if lhs == .yes || rhs == .yes { return .yes }
      return lhs == .no && rhs == .no ? .no : .unknown
    }
  }

  /// Modules that an iOS app can import, and those it cannot; others are unknown.
  private static let importable: Set<String> = [
    "UIKit", "SwiftUI", "Foundation", "Darwin", "Dispatch", "ObjectiveC", "CoreGraphics",
    "QuartzCore", "Combine", "MapKit", "WebKit", "SafariServices",
  ]
  private static let notImportable: Set<String> = [
    "AppKit", "Cocoa", "WatchKit", "Glibc", "Musl", "WinSDK", "Android", "WASILibc",
  ]

  /// Evaluates a condition, at most 64 operators deep (deeper is unknown).
  ///
  /// - Parameter condition: The condition after `#if` or `#elseif`.
  /// - Returns: Its value on iOS.
  static func evaluate(_ condition: ExprSyntax) -> Value {
    evaluate(condition, depth: 0)
  }

  private static func evaluate(_ expression: ExprSyntax, depth: Int) -> Value {
    guard depth < 64 else { return .unknown }
    if let literal = expression.as(BooleanLiteralExprSyntax.self) {
      return literal.literal.tokenKind == .keyword(.true) ? .yes : .no
    }
    if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1,
      let only = tuple.elements.first
    {
      return evaluate(only.expression, depth: depth + 1)
    }
    if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
      return !evaluate(prefix.expression, depth: depth + 1)
    }
    if let sequence = expression.as(SequenceExprSyntax.self) {
      return evaluate(Array(sequence.elements), depth: depth + 1)
    }
    if let infix = expression.as(InfixOperatorExprSyntax.self),
      let operation = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text
    {
      let left = evaluate(infix.leftOperand, depth: depth + 1)
      let right = evaluate(infix.rightOperand, depth: depth + 1)
      switch operation {
      case "&&": return left && right
      case "||": return left || right
      default: return .unknown
      }
    }
    if let call = expression.as(FunctionCallExprSyntax.self),
      let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
      call.arguments.count == 1, let argument = call.arguments.first?.expression
    {
      return evaluate(name, argument.trimmedDescription)
    }
    // A custom flag (`DEBUG`), or a form the lint does not know.
    return .unknown
  }

  /// A sequence of operands and `&&` and `||`, `&&` binding tighter, as Swift folds them.
  private static func evaluate(_ elements: [ExprSyntax], depth: Int) -> Value {
    var disjunction: Value = .no
    var conjunction: Value = .yes
    var expectsOperand = true
    for element in elements {
      if expectsOperand {
        conjunction = conjunction && evaluate(element, depth: depth + 1)
        expectsOperand = false
        continue
      }
      switch element.as(BinaryOperatorExprSyntax.self)?.operator.text {
      case "&&": break
      case "||":
        disjunction = disjunction || conjunction
        conjunction = .yes
      default: return .unknown
      }
      expectsOperand = true
    }
    return disjunction || conjunction
  }

  private static func evaluate(_ function: String, _ argument: String) -> Value {
    switch function {
    case "os":
      return argument == "iOS" ? .yes : .no
    case "canImport":
      let module = String(argument.prefix { $0 != "." && $0 != "," })
      if importable.contains(module) { return .yes }
      return notImportable.contains(module) ? .no : .unknown
    case "_runtime":
      return argument == "_ObjC" ? .yes : .no
    default:
      // `targetEnvironment(simulator)`, `arch(arm64)`, `swift(>=5.9)`, `compiler(...)`,
      // `hasFeature(...)`: true for some iOS builds, or not worth guessing.
      return .unknown
    }
  }
}
