public import RestorationLint

/// What one Swift file says about state restoration: its types and what their functions do
/// with restoration identifiers, restoration classes, coders, windows and data sources.
///
/// Reading a file parses it with swift-syntax and keeps only these facts, so a whole project's
/// files can be read in parallel and the rules that cross files run afterwards on the facts
/// (``SwiftProjectLinter``). The rules that need one file only (force casts of decoded values,
/// syntax errors, unknown rule names in comments) are already in ``findings``.
///
/// ```swift
/// let facts = SwiftFileFacts(source: text, file: "DetailViewController.swift")
/// let findings = SwiftProjectLinter(files: [facts], interfaceDocuments: []).findings()
/// ```
public struct SwiftFileFacts: Sendable {
  /// The file, as the caller named it.
  public let file: String
  /// The findings of the rules that need this file only, in file order.
  public internal(set) var findings: [LintFinding] = []
  /// The rules that `restoration-lint:disable:next` comments turn off, by the line they apply
  /// to (the line after the comment).
  public internal(set) var suppressions: [Int: Set<LintFinding.Code>] = [:]
  /// Whether the parser met syntax it could not read.
  public internal(set) var hasSyntaxErrors = false
  /// Whether the file imports UIKit (or SwiftUI, which brings it), so that UIKit's rules apply
  /// to all its code.
  public internal(set) var importsUIKit = false
  /// Whether the file re-exports UIKit to the whole module (`@_exported import UIKit`).
  public internal(set) var exportsUIKit = false

  var types: [TypeDeclaration] = []
  var functions: [FunctionFacts] = []
  var keyUses: [KeyUse] = []
  /// Force casts of what a function of the module returns, when it is given a coder: the
  /// function may return what it decoded.
  var forceCastCalls: [ForceCastCall] = []
  /// String constants (`static let key = "name"`), by name, for keys given as constants.
  var stringConstants: [String: String] = [:]

  init(file: String) {
    self.file = file
  }
}

/// A class, struct, enum, actor, protocol or extension declaration.
struct TypeDeclaration: Sendable {
  enum Kind: Sendable {
    case classType, structType, enumType, actorType, protocolType, extensionType
  }

  /// The kind's keyword, as findings name a type: `class`, `struct`...
  static func describe(_ kind: Kind) -> String {
    switch kind {
    case .classType: return "class"
    case .structType: return "struct"
    case .enumType: return "enum"
    case .actorType: return "actor"
    case .protocolType: return "protocol"
    case .extensionType: return "type"
    }
  }

  var kind: Kind
  /// The type's name (an extension's extended type), last component only.
  var name: String
  /// The inherited types and adopted protocols, last component only.
  var inherited: [String]
  /// Attribute names, such as `main` and `UIApplicationMain`.
  var attributes: [String]
  /// Stored properties with a type known from the declaration: annotation or `Type(...)`.
  var propertyTypes: [String: String]
  var line: Int
}

/// Where a value is assigned: to the object itself, to a local variable, or elsewhere.
enum AssignmentTarget: Sendable, Hashable {
  case ownObject
  case variable(String)
  case other(String)
}

/// An assignment of a restoration identifier, restoration class, data source, window or root
/// view controller.
struct Assignment: Sendable {
  var target: AssignmentTarget
  /// For a restoration class, the class assigned (`X.self`; `Self` for `type(of: self)`); for
  /// a data source, the type of the value (`self` as `Self`), when known.
  var valueType: String?
  /// For a data source given as a name, that name (a property or a variable).
  var valueName: String?
  /// Whether the value is `nil`: clearing an identifier does not make an object restorable.
  var isNil = false
  /// For a restoration identifier, the value when it is a string literal or a constant.
  var key: KeyUse.Key?
  var line: Int
}

/// A controller shown by `pushViewController`, `present`, `show`...
struct ShownController: Sendable {
  /// The variable passed, or nil when the controller is created in the call.
  var variable: String?
  /// The type created in the call.
  var constructedType: String?
  /// The argument labels of that creation, which pick the initializer called.
  var labels: [String] = []
  var line: Int
}

/// A type created in code: `Type(...)`, `Type.init(...)` or `Self()`.
struct Construction: Sendable {
  var type: String
  /// The argument labels, `_` for none, which pick the initializer called.
  var labels: [String]
  /// The local variable the new object is bound to, if any.
  var variable: String?
  /// Controllers passed as `rootViewController:` (a navigation controller wrapping them).
  var wrapped: [ShownController] = []
  /// The identifiers a `switch`, `if` or `guard` on the restoration identifier path around it
  /// compares with; nil when none is around it.
  var guardLiterals: Set<String>?
  var line: Int
}

/// A call of a function or method, with what the rules need to follow it to its callee.
struct CallSite: Sendable {
  /// What the call is made on.
  enum Receiver: Sendable, Hashable {
    /// No receiver, or `self`: the object itself (or the type, in a static method).
    case ownObject
    case superObject
    case variable(String)
    /// A type: `Type.method(...)`.
    case type(String)
    case other
  }

  var name: String
  var labels: [String]
  var receiver: Receiver
  /// For each argument, the variable passed (`self` for the object itself), if a plain name.
  var arguments: [String?]
  /// The local variable the result is bound to, if any.
  var resultVariable: String?
  /// As for a ``Construction``.
  var guardLiterals: Set<String>?
  var line: Int
}

/// A force cast of what a call returns, when a coder is among its arguments:
/// `Store.object(decodedFrom: coder, key: "item") as! Item`.
struct ForceCastCall: Sendable {
  var call: CallSite
  /// The position of the argument that is a coder.
  var coderArgument: Int
  /// The key argument's text (`key:` or `forKey:`), if any.
  var key: String?
  /// The type cast to, as written.
  var type: String
  /// For an optional type, the type it wraps, as written.
  var wrapped: String?
  /// The type whose code casts.
  var owner: String?
}

/// A local variable's type, and whether the value was created in code (`Type(...)`).
struct LocalBinding: Sendable {
  var type: String
  var isConstructed: Bool
}

/// A coder key read or written.
struct KeyUse: Sendable {
  enum Key: Sendable, Hashable {
    case literal(String)
    case constant(String)
  }

  var key: Key
  var isDecode: Bool
  var method: String
  /// The type whose code reads or writes it.
  var owner: String?
  var line: Int
}

/// One function, initializer, or the initial values of a type's properties.
struct FunctionFacts: Sendable {
  /// The type it belongs to (an extension's extended type), nil for a free function.
  var owner: String?
  /// The base name (`init` for an initializer).
  var name: String
  /// The argument labels, `_` for none.
  var labels: [String]
  /// The parameters' internal names, in order.
  var parameterNames: [String] = []
  /// The parameters whose type is a coder (`NSCoder` or a keyed archiver), by internal name.
  var coderParameters: Set<String> = []
  /// Whether it returns a value it decoded from a coder parameter (a helper that reads an
  /// archive for its caller).
  var returnsDecoded = false
  /// Names bound to the restoration identifier path (the factory's and the app delegate hook's
  /// `identifierComponents`, and what is read from it), for the conditions that compare it.
  var identifierPathNames: Set<String> = []
  /// Which parameters have a default value, so a call may leave them out.
  var defaulted: [Bool] = []
  var isStatic = false
  var isOverride = false
  var isInitializer = false
  var line: Int
  var identifierAssignments: [Assignment] = []
  var classAssignments: [Assignment] = []
  var dataSourceAssignments: [Assignment] = []
  /// Lines that assign the window or a root view controller.
  var windowAssignments: [Int] = []
  /// Types created with `Type(...)` or `Self()`.
  var constructions: [Construction] = []
  /// The calls, in order, with their receivers and arguments; `self.init(...)` and
  /// `super.init(...)` in an initializer are calls of `init` on the object.
  var callSites: [CallSite] = []
  /// Names of the `super` methods it calls.
  var superCalls: Set<String> = []
  var shown: [ShownController] = []
  var locals: [String: LocalBinding] = [:]

  /// Such as `application(_:shouldSaveApplicationState:)`.
  var signature: String { "\(name)(\(labels.map { "\($0):" }.joined()))" }

  /// Whether the second argument label is `label` (the app delegate's methods all start with
  /// `application(_:`).
  func isApplicationMethod(_ label: String) -> Bool {
    name == "application" && labels.count >= 2 && labels[1] == label
  }

  /// Whether a call with these argument labels can call it: the labels match, leaving out
  /// parameters with default values (`*`, a trailing closure, matches any label).
  func accepts(_ callLabels: [String]) -> Bool {
    parameterPositions(callLabels) != nil
  }

  /// For each argument of a call with these labels, the position of its parameter; nil when
  /// the call cannot call this function.
  func parameterPositions(_ callLabels: [String]) -> [Int]? {
    var positions: [Int] = []
    for (index, label) in labels.enumerated() {
      if positions.count < callLabels.count,
        callLabels[positions.count] == label || callLabels[positions.count] == "*"
      {
        positions.append(index)
      } else if !(defaulted.indices.contains(index) && defaulted[index]) {
        return nil
      }
    }
    return positions.count == callLabels.count ? positions : nil
  }

  /// Whether it is the restoration factory `viewController(withRestorationIdentifierPath:coder:)`.
  var isRestorationFactory: Bool {
    (name == "viewController" && labels.first == "withRestorationIdentifierPath")
      || name == "viewControllerWithRestorationIdentifierPath"
  }
}
