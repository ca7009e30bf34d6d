internal import OrderedCollections

/// A keyed coder for one object's state, at preservation time (UIKit's `NSCoder` as passed to
/// `encodeRestorableState(with:)`).
///
/// Every object gets a fresh coder, so keys never collide between objects. Values are typed:
/// `Bool`, integers, `Double`, `Float`, `String`, `Data`, `Date`, `URL`, arrays and string-keyed
/// dictionaries of these, any `Codable` value, and references to other restorable objects.
///
/// Encoding a reference stores the object's identifier path (UIKit's
/// `_UIObjectIdentifierPathProxy`) and pulls the object into the archive: this is how containers
/// save their children.
public final class StateCoder {
  /// The identifier path of the object this coder belongs to; nil for the top-level coder.
  public let identifierPath: String?
  /// Keys whose values are kept out of the archive (see ``encode(_:forKey:sensitive:)``).
  public private(set) var sensitiveKeys: Set<String> = []
  /// Errors from encoding `Codable` values, kept for the preservation report.
  package private(set) var errors: [RestorationError] = []
  private var entries: OrderedDictionary<String, StateValue> = [:]
  /// The pass the coder belongs to, which archives what it references.
  private weak var pass: PreservationPass?
  /// The paths of referenced objects, for a coder outside a pass.
  private lazy var resolver = IdentifierPathResolver()

  /// Creates a coder that is not part of a preservation pass.
  ///
  /// References encoded into it record the object's identifier path, computed from the tree,
  /// but pull nothing into an archive. Useful in tests of `encodeRestorableState(with:)`.
  public convenience init() {
    self.init(identifierPath: nil, pass: nil)
  }

  init(identifierPath: String?, pass: PreservationPass?) {
    self.identifierPath = identifierPath
    self.pass = pass
    // Most objects write a handful of keys: one allocation instead of one per doubling.
    entries.reserveCapacity(8)
  }

  /// The values written so far, in the order their keys were first written.
  public var values: KeyedValues { KeyedValues(entries) }

  /// Whether a value has been written for a key.
  public func contains(_ key: String) -> Bool { entries[key] != nil }

  // Inlinable so that the conversion is specialized in the caller, not looked up at run time.
  /// Writes a value of a built-in type; a later write to the same key replaces it.
  @inlinable
  public func encode<T: StateValueConvertible>(_ value: T, forKey key: String) {
    encodeValue(value.stateValue, forKey: key)
  }

  /// Writes a value, or marks the key sensitive so that its value never reaches the disk.
  ///
  /// Use it for values that must not outlive the process (a half-typed password, a one-time
  /// code). A sensitive key is recorded by name only: at the next launch it is absent, and tools
  /// that print archives show that it was withheld, never its value.
  public func encode<T: StateValueConvertible>(_ value: T, forKey key: String, sensitive: Bool) {
    if sensitive {
      sensitiveKeys.insert(key)
      entries[key] = nil
    } else {
      encode(value, forKey: key)
    }
  }

  /// Writes any `Encodable` value, converted into archived values.
  ///
  /// - Throws: ``RestorationError`` (``RestorationError/Code/encodingFailed``) if the value
  ///   fails to encode; the key is then left unchanged.
  public func encode<T: Encodable>(_ value: T, forKey key: String) throws(RestorationError) {
    do {
      entries[key] = try StateValue.encoding(value)
    } catch {
      var located = error
      located.key = key
      located.identifierPath = identifierPath
      errors.append(located)
      throw located
    }
  }

  /// Writes an archived value as is.
  public func encodeValue(_ value: StateValue, forKey key: String) {
    entries[key] = value
  }

  /// Writes a reference to another restorable object, and adds that object to the archive.
  ///
  /// An object without an identifier path (its identifier is nil) cannot be referenced: the key
  /// is left unwritten and the preservation report says why, as UIKit logs it. A nil `object`
  /// removes the key.
  public func encode(_ object: (any StateRestoring)?, forKey key: String) {
    guard let object else {
      entries[key] = nil
      return
    }
    if let path = referencePath(to: object, key: key) { entries[key] = .reference(path) }
  }

  /// Writes an array of references, adding each object to the archive.
  ///
  /// Objects without an identifier path are left out of the array.
  public func encode(_ objects: [any StateRestoring], forKey key: String) {
    entries[key] = .array(
      objects.compactMap { referencePath(to: $0, key: key).map(StateValue.reference) })
  }

  /// Writes an array of references, adding each object to the archive.
  public func encode<Object: StateRestoring>(_ objects: [Object], forKey key: String) {
    encode(objects.map { $0 as any StateRestoring }, forKey: key)
  }

  /// Removes a key's value, if any.
  public func removeValue(forKey key: String) {
    entries[key] = nil
  }

  private func referencePath(to object: any StateRestoring, key: String) -> String? {
    if let pass { return pass.encodeReference(to: object, key: key, from: identifierPath) }
    return resolver.path(of: object)
  }
}
