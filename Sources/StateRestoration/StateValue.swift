#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// A value stored in a restoration archive.
///
/// Every key an object writes into its ``StateCoder`` becomes one of these. The cases map one to
/// one onto binary property list types, so an archive stays readable by `plutil` and Python's
/// `plistlib`; a ``reference(_:)`` is stored as a property list `UID` that points at the record of
/// the referenced object.
public enum StateValue: Sendable, Hashable {
  /// A Boolean.
  case bool(Bool)
  /// A signed integer.
  case integer(Int64)
  /// An unsigned integer above `Int64.max`; smaller unsigned values use ``integer(_:)``.
  case unsignedInteger(UInt64)
  /// A floating-point number (`Float` values are widened to `Double`).
  case real(Double)
  /// A string.
  case string(String)
  /// Raw bytes.
  case data(Data)
  /// A point in time.
  case date(Date)
  /// An ordered list of values.
  case array([StateValue])
  /// String-keyed values; archives store the keys sorted, so output is stable.
  case dictionary([String: StateValue])
  /// A reference to another restorable object, by its restoration identifier path.
  case reference(String)

  /// The name of the case, used in error messages.
  public var typeName: String {
    switch self {
    case .bool: "Bool"
    case .integer, .unsignedInteger: "Integer"
    case .real: "Real"
    case .string: "String"
    case .data: "Data"
    case .date: "Date"
    case .array: "Array"
    case .dictionary: "Dictionary"
    case .reference: "Reference"
    }
  }
}

// MARK: - Typed conversion

/// A type that converts to and from a ``StateValue`` without loss.
///
/// The coder's typed `encode` and `decode` methods take these types: `Bool`, the fixed-width
/// integers, `Double`, `Float`, `String`, `Data`, `Date`, `URL`, and arrays and string-keyed
/// dictionaries of them. The protocol refines `Codable` so that calls with these types pick the
/// direct conversion over the generic `Codable` path.
public protocol StateValueConvertible: Codable {
  /// The archived form of this value.
  var stateValue: StateValue { get }

  /// Creates a value from its archived form, or returns nil when the archived value has another
  /// type or does not fit.
  init?(stateValue: StateValue)
}

extension Bool: StateValueConvertible {
  /// The archived form of this value.
  @inlinable
  public var stateValue: StateValue { .bool(self) }

  /// Creates a Boolean from an archived Boolean.
  @inlinable
  public init?(stateValue: StateValue) {
    guard case .bool(let value) = stateValue else { return nil }
    self = value
  }
}

/// Integer conversion shared by every fixed-width integer type.
extension StateValueConvertible where Self: FixedWidthInteger {
  /// The archived form of this value.
  @inlinable
  public var stateValue: StateValue {
    if let signed = Int64(exactly: self) { return .integer(signed) }
    // Only unsigned values above Int64.max reach this point.
    return .unsignedInteger(UInt64(truncatingIfNeeded: self))
  }

  /// Creates an integer from an archived integer that fits this type.
  @inlinable
  public init?(stateValue: StateValue) {
    switch stateValue {
    case .integer(let value):
      guard let exact = Self(exactly: value) else { return nil }
      self = exact
    case .unsignedInteger(let value):
      guard let exact = Self(exactly: value) else { return nil }
      self = exact
    default:
      return nil
    }
  }
}

extension Int: StateValueConvertible {}
extension Int8: StateValueConvertible {}
extension Int16: StateValueConvertible {}
extension Int32: StateValueConvertible {}
extension Int64: StateValueConvertible {}
extension UInt: StateValueConvertible {}
extension UInt8: StateValueConvertible {}
extension UInt16: StateValueConvertible {}
extension UInt32: StateValueConvertible {}
extension UInt64: StateValueConvertible {}

extension Double: StateValueConvertible {
  /// The archived form of this value.
  @inlinable
  public var stateValue: StateValue { .real(self) }

  /// Creates a double from an archived real, or from an archived integer.
  @inlinable
  public init?(stateValue: StateValue) {
    switch stateValue {
    case .real(let value): self = value
    case .integer(let value): self = Double(value)
    case .unsignedInteger(let value): self = Double(value)
    default: return nil
    }
  }
}

extension Float: StateValueConvertible {
  /// The archived form of this value, widened to `Double`.
  @inlinable
  public var stateValue: StateValue { .real(Double(self)) }

  /// Creates a float from an archived real or integer.
  @inlinable
  public init?(stateValue: StateValue) {
    guard let value = Double(stateValue: stateValue) else { return nil }
    self = Float(value)
  }
}

extension String: StateValueConvertible {
  /// The archived form of this value.
  @inlinable
  public var stateValue: StateValue { .string(self) }

  /// Creates a string from an archived string.
  @inlinable
  public init?(stateValue: StateValue) {
    guard case .string(let value) = stateValue else { return nil }
    self = value
  }
}

extension Data: StateValueConvertible {
  /// The archived form of this value.
  @inlinable
  public var stateValue: StateValue { .data(self) }

  /// Creates data from archived data.
  @inlinable
  public init?(stateValue: StateValue) {
    guard case .data(let value) = stateValue else { return nil }
    self = value
  }
}

extension Date: StateValueConvertible {
  /// The archived form of this value.
  @inlinable
  public var stateValue: StateValue { .date(self) }

  /// Creates a date from an archived date.
  @inlinable
  public init?(stateValue: StateValue) {
    guard case .date(let value) = stateValue else { return nil }
    self = value
  }
}

extension URL: StateValueConvertible {
  /// The archived form of this value: its absolute string.
  @inlinable
  public var stateValue: StateValue { .string(absoluteString) }

  /// Creates a URL from an archived string that parses as a URL.
  @inlinable
  public init?(stateValue: StateValue) {
    guard case .string(let value) = stateValue, let url = URL(string: value) else { return nil }
    self = url
  }
}

extension Array: StateValueConvertible where Element: StateValueConvertible {
  /// The archived form of this value.
  @inlinable
  public var stateValue: StateValue {
    // A closure, not `\.stateValue`: a key path into a generic extension is instantiated at run
    // time on every call, which cost more than the conversion itself.
    .array(map { $0.stateValue })
  }

  /// Creates an array when every archived element converts to `Element`.
  @inlinable
  public init?(stateValue: StateValue) {
    guard case .array(let values) = stateValue else { return nil }
    var result: [Element] = []
    result.reserveCapacity(values.count)
    for value in values {
      guard let element = Element(stateValue: value) else { return nil }
      result.append(element)
    }
    self = result
  }
}

extension Dictionary: StateValueConvertible
where Key == String, Value: StateValueConvertible {
  /// The archived form of this value.
  @inlinable
  public var stateValue: StateValue { .dictionary(mapValues { $0.stateValue }) }

  /// Creates a dictionary when every archived value converts to `Value`.
  @inlinable
  public init?(stateValue: StateValue) {
    guard case .dictionary(let values) = stateValue else { return nil }
    // Mapped in place: hashing the keys again would cost more than the values.
    guard
      let result = try? values.mapValues({ (value) throws(RestorationError) -> Value in
        guard let element = Value(stateValue: value) else {
          throw RestorationError(.typeMismatch, "")
        }
        return element
      })
    else { return nil }
    self = result
  }
}
