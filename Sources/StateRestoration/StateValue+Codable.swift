#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// A Codable bridge to StateValue. Foundation's PropertyListEncoder would give the same shape,
// but only through a serialized byte form that we would then parse again; converting the value
// tree directly keeps `Codable` values as cheap as the built-in types.

/// Stands for `nil` inside arrays, where a property list has no null (PropertyListEncoder's
/// convention).
private let nullMarker = "$null"

extension StateValue {
  /// Converts an `Encodable` value into its archived form.
  ///
  /// - Throws: ``RestorationError`` with code ``RestorationError/Code/encodingFailed`` when the
  ///   value's `encode(to:)` throws or produces nothing.
  static func encoding<T: Encodable>(_ value: T) throws(RestorationError) -> StateValue {
    if let direct = directValue(value) { return direct }
    let encoder = ValueEncoder(codingPath: [])
    do {
      try value.encode(to: encoder)
    } catch let error as RestorationError {
      throw error
    } catch {
      throw RestorationError(.encodingFailed, "\(T.self) failed to encode: \(error)")
    }
    guard let result = encoder.finish() else {
      throw RestorationError(.encodingFailed, "\(T.self) encoded no value")
    }
    return result
  }

  /// Converts an archived value back into a `Decodable` type.
  ///
  /// - Throws: ``RestorationError`` with code ``RestorationError/Code/typeMismatch`` when the
  ///   archived value does not have the shape `T` expects.
  func decoded<T: Decodable>(as type: T.Type) throws(RestorationError) -> T {
    if let direct = Self.directDecode(self, as: type) { return direct }
    do {
      return try T(from: ValueDecoder(value: self, codingPath: []))
    } catch let error as RestorationError {
      throw error
    } catch let DecodingError.typeMismatch(_, context) {
      throw RestorationError(.typeMismatch, describe(context, "as \(T.self)"))
    } catch let DecodingError.keyNotFound(key, context) {
      throw RestorationError(.typeMismatch, describe(context, "missing key '\(key.stringValue)'"))
    } catch let DecodingError.valueNotFound(_, context) {
      throw RestorationError(.typeMismatch, describe(context, "missing value"))
    } catch let DecodingError.dataCorrupted(context) {
      throw RestorationError(.typeMismatch, describe(context, "corrupted value"))
    } catch {
      throw RestorationError(.typeMismatch, "cannot decode \(T.self): \(error)")
    }
  }

  private func describe(_ context: DecodingError.Context, _ what: String) -> String {
    let path = context.codingPath.map(\.stringValue).joined(separator: ".")
    return path.isEmpty
      ? "cannot decode \(what): \(context.debugDescription)"
      : "cannot decode \(what) at '\(path)': \(context.debugDescription)"
  }

  fileprivate static func directValue<T: Encodable>(_ value: T) -> StateValue? {
    switch value {
    case let value as Date: .date(value)
    case let value as Data: .data(value)
    case let value as URL: .string(value.absoluteString)
    default: nil
    }
  }

  fileprivate static func directDecode<T: Decodable>(_ value: StateValue, as type: T.Type) -> T? {
    if type == Date.self { return Date(stateValue: value) as? T }
    if type == Data.self { return Data(stateValue: value) as? T }
    if type == URL.self { return URL(stateValue: value) as? T }
    return nil
  }
}

// MARK: - Encoder

/// A reference-typed dictionary or array under construction; containers share it by reference
/// so nested writes land in place.
private final class ContainerBox {
  enum Content {
    case keyed([String: Any])
    case unkeyed([Any])
  }
  // Entries are StateValue, ContainerBox or ValueEncoder; resolved when the encoder finishes.
  var content: Content

  init(_ content: Content) { self.content = content }

  var isKeyed: Bool {
    if case .keyed = content { return true }
    return false
  }

  func resolve() -> StateValue {
    switch content {
    case .keyed(let entries):
      return .dictionary(entries.mapValues(Self.resolve))
    case .unkeyed(let entries):
      return .array(entries.map(Self.resolve))
    }
  }

  static func resolve(_ entry: Any) -> StateValue {
    if let box = entry as? ContainerBox { return box.resolve() }
    if let encoder = entry as? ValueEncoder { return encoder.finish() ?? .dictionary([:]) }
    if let value = entry as? StateValue { return value }
    return .string(nullMarker)
  }
}

// Its own single-value container, as Foundation's encoders are.
private final class ValueEncoder: Encoder, SingleValueEncodingContainer {
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }
  /// What a single-value container wrote.
  var value: StateValue?
  var container: ContainerBox?

  init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(KeyedContainer<Key>(box: box(keyed: true), codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    UnkeyedContainer(box: box(keyed: false), codingPath: codingPath)
  }

  /// The container already asked for, if of the same kind, else a new one.
  private func box(keyed: Bool) -> ContainerBox {
    if let container, container.isKeyed == keyed { return container }
    let box = ContainerBox(keyed ? .keyed([:]) : .unkeyed([]))
    container = box
    return box
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  func encodeNil() throws { value = .string(nullMarker) }

  func encode<T: Encodable>(_ value: T) throws {
    self.value = ContainerBox.resolve(try Self.encodeNested(value, codingPath: codingPath))
  }

  /// Finishes encoding: the single value, or the container, as one StateValue.
  func finish() -> StateValue? {
    if let container { return container.resolve() }
    return value
  }

  static func encodeNested<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> Any {
    if let direct = StateValue.directValue(value) { return direct }
    if let convertible = value as? any StateValueConvertible {
      return convertible.stateValue
    }
    let encoder = ValueEncoder(codingPath: codingPath)
    try value.encode(to: encoder)
    if let container = encoder.container { return container }
    return encoder.value ?? StateValue.dictionary([:])
  }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let box: ContainerBox
  let codingPath: [any CodingKey]

  private func set(_ entry: Any, for key: Key) { set(entry, forName: key.stringValue) }

  private func set(_ entry: Any, forName name: String) {
    guard case .keyed(var entries) = box.content else { return }
    box.content = .keyed([:])  // drop the box's copy so the dictionary is mutated in place
    entries[name] = entry
    box.content = .keyed(entries)
  }

  mutating func encodeNil(forKey key: Key) throws {}
  // Scalars go through the generic `encode`, as `StateValueConvertible` values.

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    set(try ValueEncoder.encodeNested(value, codingPath: codingPath + [key]), for: key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type,
    forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = ContainerBox(.keyed([:]))
    set(nested, for: key)
    return KeyedEncodingContainer(
      KeyedContainer<NestedKey>(box: nested, codingPath: codingPath + [key])
    )
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested = ContainerBox(.unkeyed([]))
    set(nested, for: key)
    return UnkeyedContainer(box: nested, codingPath: codingPath + [key])
  }

  mutating func superEncoder() -> any Encoder {
    let encoder = ValueEncoder(codingPath: codingPath)
    set(encoder, forName: "super")
    return encoder
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    let encoder = ValueEncoder(codingPath: codingPath + [key])
    set(encoder, for: key)
    return encoder
  }
}

private struct IndexKey: CodingKey {
  var stringValue: String
  var intValue: Int?
  init(_ index: Int) {
    stringValue = "Index \(index)"
    intValue = index
  }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { self.init(intValue) }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
  let box: ContainerBox
  let codingPath: [any CodingKey]

  var count: Int {
    guard case .unkeyed(let entries) = box.content else { return 0 }
    return entries.count
  }

  private func append(_ entry: Any) {
    guard case .unkeyed(var entries) = box.content else { return }
    box.content = .unkeyed([])
    entries.append(entry)
    box.content = .unkeyed(entries)
  }

  mutating func encodeNil() throws { append(StateValue.string(nullMarker)) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    append(try ValueEncoder.encodeNested(value, codingPath: codingPath + [IndexKey(count)]))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = ContainerBox(.keyed([:]))
    let path = codingPath + [IndexKey(count)]
    append(nested)
    return KeyedEncodingContainer(KeyedContainer<NestedKey>(box: nested, codingPath: path))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let nested = ContainerBox(.unkeyed([]))
    let path = codingPath + [IndexKey(count)]
    append(nested)
    return UnkeyedContainer(box: nested, codingPath: path)
  }

  mutating func superEncoder() -> any Encoder {
    let encoder = ValueEncoder(codingPath: codingPath + [IndexKey(count)])
    append(encoder)
    return encoder
  }
}

// MARK: - Decoder

// Its own single-value container, as Foundation's decoders are.
private struct ValueDecoder: Decoder, SingleValueDecodingContainer {
  let value: StateValue
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .dictionary(let entries) = value else { throw mismatch([String: Any].self) }
    return KeyedDecodingContainer(KeyedDecoding<Key>(entries: entries, codingPath: codingPath))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let entries) = value else { throw mismatch([Any].self) }
    return UnkeyedDecoding(entries: entries, codingPath: codingPath)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

  func decodeNil() -> Bool { value == .string(nullMarker) }

  /// The value as `type`: directly for the built-in types, else through `init(from:)`.
  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    if let direct = StateValue.directDecode(value, as: type) { return direct }
    if let convertible = type as? any StateValueConvertible.Type {
      if let result = convertible.init(stateValue: value) as? T { return result }
      throw mismatch(type)
    }
    return try T(from: self)
  }

  private func mismatch(_ type: Any.Type) -> DecodingError {
    .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "found \(value.typeName)"))
  }
}

private struct KeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let entries: [String: StateValue]
  let codingPath: [any CodingKey]

  var allKeys: [Key] { entries.keys.compactMap { Key(stringValue: $0) } }

  func contains(_ key: Key) -> Bool { entries[key.stringValue] != nil }

  /// A decoder of the value for `key`, which must be present.
  private func decoder(_ key: Key) throws -> ValueDecoder {
    guard let value = entries[key.stringValue] else {
      throw DecodingError.keyNotFound(
        key,
        .init(codingPath: codingPath, debugDescription: "no value for '\(key.stringValue)'")
      )
    }
    return ValueDecoder(value: value, codingPath: codingPath + [key])
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    guard let value = entries[key.stringValue] else { return true }
    return value == .string(nullMarker)
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try decoder(key).decode(type)
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type,
    forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try decoder(key).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try decoder(key).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    ValueDecoder(value: entries["super"] ?? .dictionary([:]), codingPath: codingPath)
  }

  func superDecoder(forKey key: Key) throws -> any Decoder { try decoder(key) }
}

private struct UnkeyedDecoding: UnkeyedDecodingContainer {
  let entries: [StateValue]
  let codingPath: [any CodingKey]
  var currentIndex = 0

  var count: Int? { entries.count }
  var isAtEnd: Bool { currentIndex >= entries.count }

  /// A decoder of the next value.
  private mutating func next() throws -> ValueDecoder {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        Any.self,
        .init(codingPath: codingPath, debugDescription: "unkeyed container is at its end")
      )
    }
    defer { currentIndex += 1 }
    return ValueDecoder(
      value: entries[currentIndex], codingPath: codingPath + [IndexKey(currentIndex)])
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd else { return false }
    if entries[currentIndex] == .string(nullMarker) {
      currentIndex += 1
      return true
    }
    return false
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try next().decode(type)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try next().container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try next().unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder { try next() }
}
