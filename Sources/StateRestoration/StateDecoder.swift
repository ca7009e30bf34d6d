/// A reference read back from a coder: the archived identifier path and the live object, if one
/// was restored for it.
public struct DecodedReference {
  /// The identifier path stored in the archive.
  public var identifierPath: String
  /// The object restored for that path, or nil if none was.
  public var object: (any StateRestoring)?
}

/// A keyed coder for one object's state, at restoration time (UIKit's `NSCoder` as passed to
/// `decodeRestorableState(with:)`).
///
/// One rule for every type: a key that is absent, or that holds another type, reads as nil from
/// the `decode` methods and throws a ``RestorationError`` (``RestorationError/Code/keyNotFound``
/// or ``RestorationError/Code/typeMismatch``) from `decodeRequired`. A type mismatch during a
/// restore is also a warning in the ``RestorationReport``. Nothing traps, whatever the archive
/// holds. A restorable object reads back as the object its reference names, as it was encoded.
public final class StateDecoder {
  /// The archived values.
  ///
  /// A decoder of a restore looks each key up in the checked archive when it is asked for; this
  /// property gathers them all at once, on first use.
  public var values: KeyedValues {
    if let materialized = reading.materialized { return materialized }
    guard let archive else { return KeyedValues() }
    let all = archive.values(record: record)
    reading.materialized = all
    return all
  }
  /// The identifier path of the object this coder belongs to; nil for the top-level coder.
  public let identifierPath: String?

  /// The pass the decoder belongs to, while it runs.
  private weak var pass: RestorationPass?
  /// The values when given whole or once read whole, and the number of keys asked for so far,
  /// which the archive uses to find the next one quickly: one value, so that a lookup is one
  /// access to the decoder.
  private struct Reading {
    var materialized: KeyedValues?
    var asked = 0

    /// The number of keys asked for before this one, or nil when the values are whole.
    mutating func nextKey() -> Int? {
      guard materialized == nil else { return nil }
      defer { asked += 1 }
      return asked
    }
  }
  private var reading: Reading
  /// The archive the values are read from, and the record's index in it; nil when given whole.
  private let archive: CheckedArchive?
  private let record: Int

  /// Creates a decoder over values, outside any restoration pass.
  ///
  /// References in it resolve to nil, and errors name `identifierPath`. Useful in tests of
  /// `decodeRestorableState(with:)`.
  public convenience init(values: KeyedValues, identifierPath: String? = nil) {
    self.init(values: values, identifierPath: identifierPath, pass: nil)
  }

  /// Creates a decoder over values given whole, or, with `archive`, over a record's values,
  /// looked up in the checked archive as they are asked for.
  init(
    values: KeyedValues?, archive: CheckedArchive? = nil, record: Int = 0,
    identifierPath: String?, pass: RestorationPass?
  ) {
    (reading, self.archive, self.record) = (Reading(materialized: values), archive, record)
    (self.identifierPath, self.pass) = (identifierPath, pass)
  }

  /// The archived value of a key: from the values when they are whole, else from the archive.
  private func value(forKey key: String) -> StateValue? {
    guard let asked = reading.nextKey() else { return reading.materialized?[key] }
    return archive?.value(forKey: key, record: record, asked: asked)
  }

  /// Whether the archive holds a value for a key.
  public func contains(_ key: String) -> Bool {
    guard let asked = reading.nextKey() else { return reading.materialized?[key] != nil }
    return archive?.object(forKey: key, record: record, asked: asked) != nil
  }

  /// The ``StateRestoring/restorationStateVersion`` the state was written with, or 0.
  public var stateVersion: Int {
    archive.map { $0.types[$0.typeOfRecord[record]].stateVersion } ?? 0
  }

  /// The keys the archive holds for this object, in the order they were written.
  public var allKeys: [String] {
    if let materialized = reading.materialized { return materialized.keys }
    return archive?.keys(record: record) ?? []
  }

  // Inlinable so that the conversion is specialized in the caller, not looked up at run time.
  /// Reads a value of a built-in type; nil when the key is absent or holds another type.
  @inlinable
  public func decode<T: StateValueConvertible>(_ type: T.Type, forKey key: String) -> T? {
    guard let value = decodeValue(forKey: key) else { return nil }
    let result = T(stateValue: value)
    if result == nil { warnTypeMismatch(T.self, found: value, forKey: key) }
    return result
  }

  /// Reads any `Decodable` value, or a restorable object from its reference; nil when the key is
  /// absent or holds another type.
  public func decode<T: Decodable>(_ type: T.Type, forKey key: String) -> T? {
    do {
      return try decoded(type, forKey: key)
    } catch {
      pass?.warning("\(error); read as nil")
      return nil
    }
  }

  /// Reads a value that must be present.
  ///
  /// - Throws: ``RestorationError`` with ``RestorationError/Code/keyNotFound`` when the key is
  ///   absent (or its object was not restored), or ``RestorationError/Code/typeMismatch`` when
  ///   it holds another type.
  public func decodeRequired<T: Decodable>(_ type: T.Type, forKey key: String)
    throws(RestorationError) -> T
  {
    guard let result = try decoded(type, forKey: key) else {
      throw RestorationError(
        .keyNotFound, "no value for the key", identifierPath: identifierPath, key: key)
    }
    return result
  }

  /// A key's value as `type`: nil when absent, thrown when of another type.
  private func decoded<T: Decodable>(_ type: T.Type, forKey key: String) throws(RestorationError)
    -> T?
  {
    guard let value = value(forKey: key) else { return nil }
    let result: T?
    if type is any StateRestoring.Type {
      guard case .reference(let path) = value else { throw mismatch(T.self, value, key) }
      guard let object = pass?.resolveReference(path) else { return nil }
      result = object as? T
    } else if let convertible = type as? any StateValueConvertible.Type {
      result = convertible.init(stateValue: value) as? T
    } else {
      do { return try value.decoded(as: type) } catch { throw located(error, key: key) }
    }
    guard let result else { throw mismatch(T.self, value, key) }
    return result
  }

  /// Warns, during a restore, that a key held another type than the one asked for.
  @usableFromInline
  func warnTypeMismatch(_ type: Any.Type, found value: StateValue, forKey key: String) {
    pass?.warning("\(mismatch(type, value, key)); read as nil")
  }

  private func mismatch(_ type: Any.Type, _ value: StateValue, _ key: String) -> RestorationError {
    located(RestorationError(.typeMismatch, "expected \(type), found \(value.typeName)"), key: key)
  }

  /// Reads an archived value as is; nil when the key is absent.
  public func decodeValue(forKey key: String) -> StateValue? { value(forKey: key) }

  /// Reads a reference to another restorable object; nil when the key is absent, holds no
  /// reference, or the referenced object was not restored.
  public func decodeObject(forKey key: String) -> (any StateRestoring)? {
    if let archive, let asked = reading.nextKey() {
      let object = archive.object(forKey: key, record: record, asked: asked)
      guard let index = object.flatMap(archive.recordIndex(ofUID:)) else { return nil }
      return pass?.resolveReference(record: index)
    }
    guard case .reference(let path) = value(forKey: key) else { return nil }
    return pass?.resolveReference(path)
  }

  /// Reads a reference to an object of a given type; nil when absent, not restored, or of another
  /// type.
  public func decodeObject<T>(of type: T.Type, forKey key: String) -> T? {
    // Unwrapped before the cast: Swift 6.3.1's optimizer, specializing `optional as? T` for a
    // class `T`, dropped the check for nil and handed nil to the runtime's class cast, which
    // crashed every release build whose decode asked for an absent key.
    guard let object = decodeObject(forKey: key) else { return nil }
    if let typed = object as? T { return typed }
    let found = RestorationError(
      .typeMismatch, "expected \(T.self), found \(Swift.type(of: object))")
    pass?.warning("\(located(found, key: key)); read as nil")
    return nil
  }

  /// Reads an array of references, keeping the paths of objects that were not restored.
  ///
  /// Containers use it to relink their children and to notice a child that could not be
  /// re-created (see ``reportTruncation(of:reason:)``).
  ///
  /// - Returns: One entry per archived reference, or nil when the key does not hold an array.
  public func decodeReferences(forKey key: String) -> [DecodedReference]? {
    if let archive, let asked = reading.nextKey() {
      let object = archive.object(forKey: key, record: record, asked: asked)
      guard let indices = object.flatMap(archive.recordIndices(ofArray:)) else { return nil }
      return indices.map { index in
        DecodedReference(
          identifierPath: archive.paths[index],
          object: pass?.resolveReference(record: index))
      }
    }
    guard case .array(let items) = value(forKey: key) else { return nil }
    var result: [DecodedReference] = []
    result.reserveCapacity(items.count)
    for item in items {
      guard case .reference(let path) = item else { continue }
      result.append(
        DecodedReference(identifierPath: path, object: pass?.resolveReference(path)))
    }
    return result
  }

  /// Records in the restoration report that a container dropped some archived children.
  ///
  /// - Parameters:
  ///   - paths: The identifier paths of the children that were dropped.
  ///   - reason: Why, in words.
  public func reportTruncation(of paths: [String], reason: String) {
    pass?.noteTruncation(of: paths, reason: reason)
  }

  /// The object the app made available to restoration code through
  /// ``RestorationEngine/applicationContext``, such as the application or its data model.
  ///
  /// Restoration classes are types, not instances; this is how they reach the app's data
  /// without globals.
  public var applicationContext: AnyObject? { pass?.applicationContext }

  /// Adds a note to this object's entry in the restoration report, for state that came back
  /// only in part, such as a selected row whose item was deleted since.
  public func reportNote(_ note: String) {
    guard let identifierPath else { return }
    pass?.addNote(note, for: identifierPath)
  }

  /// Writes a line to the restoration debug log (when debug logging is on).
  public func debugLog(_ message: String) { pass?.debug(message) }

  private func located(_ error: RestorationError, key: String) -> RestorationError {
    var copy = error
    copy.key = copy.key ?? key
    copy.identifierPath = identifierPath
    return copy
  }
}
