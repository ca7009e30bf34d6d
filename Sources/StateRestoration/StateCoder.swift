/// A keyed coder for one object's state, at preservation time (UIKit's `NSCoder` as passed to
/// `encodeRestorableState(with:)`).
///
/// Every object gets an empty coder of its own, so keys never collide between objects (a pass
/// empties and reuses the coder of an object it archived, unless the app keeps it, which it
/// then never touches again). Values are typed: `Bool`, integers, `Double`, `Float`, `String`,
/// `Data`, `Date`, `URL`, arrays and string-keyed dictionaries of these, any `Codable` value, and
/// references to other restorable objects.
///
/// Encoding a reference stores the object's identifier path (UIKit's
/// `_UIObjectIdentifierPathProxy`) and pulls the object into the archive: this is how containers
/// save their children.
///
/// What the coder holds is archived when the encode method returns: a replaced value never
/// reaches the file, and later writes are not archived.
public final class StateCoder {
  /// A write, in the order made.
  enum Write {
    case value(StateValue)
    /// A reference to the record an object joined the walk as, with its path.
    case record(Int, path: String)
    /// An array of references.
    case records([Int], paths: [String])
    case removal

    var isRemoval: Bool {
      if case .removal = self { return true }
      return false
    }

    /// Whether the write is a value that may hold a reference by path, checked without a copy.
    var mayReferencePath: Bool {
      switch self {
      case .value(.reference), .value(.array), .value(.dictionary): true
      default: false
      }
    }
  }

  /// The identifier path of the object this coder belongs to; nil for the top-level coder.
  public var identifierPath: String? { log.identifierPath }
  /// Keys whose values are kept out of the archive (see ``encode(_:forKey:sensitive:)``).
  public var sensitiveKeys: Set<String> { log.sensitiveKeys }
  /// Errors from encoding `Codable` values, kept for the preservation report.
  package var errors: [RestorationError] { log.errors }
  /// What the coder holds for its object: its path, each key once in the order first written
  /// (again after a removal) with its last write (a removed key's is `.removal`), and errors.
  struct Log {
    var identifierPath: String?
    var sensitiveKeys: Set<String> = []
    var errors: [RestorationError] = []
    var keys: [String] = []
    var writes: [Write] = []
    /// The place of each key not removed, once there are more than a handful to compare.
    private var places: [String: Int]?
    /// The values written so far, kept up to date once asked for.
    var resolved: KeyedValues?
    /// A bit for each key written, from its byte count for the first dozen, then from its
    /// ``ending(_:)``; every bit for a key not ASCII, which may equal one of other bytes (`"é"`).
    private var lengths: UInt64 = 0
    private var endings: UInt64 = 0

    /// Removes every write, sensitive key and error, keeping the storage.
    mutating func removeAll() {
      keys.removeAll(keepingCapacity: true)
      writes.removeAll(keepingCapacity: true)
      if !sensitiveKeys.isEmpty || !errors.isEmpty { (sensitiveKeys, errors) = ([], []) }
      (places, resolved, lengths, endings) = (nil, nil, 0, 0)
    }

    /// A bit from an ASCII key's byte count and last two bytes, where numbered keys differ.
    private static func ending(_ key: String) -> UInt64 {
      var key = key
      return key.withUTF8 { utf8 in
        guard let last = utf8.last, utf8.reduce(0, |) < 0x80 else { return ~0 }
        let previous = utf8.count > 1 ? Int(utf8[utf8.count - 2]) : 0
        return 1 << ((Int(last) &+ 10 &* previous &+ 7 &* utf8.count) & 63)
      }
    }

    /// Records a write; returns the one it replaces, for the caller to release.
    @discardableResult
    mutating func append(_ write: Write, forKey key: String) -> Write? {
      var place: Int?
      var replaced: Write?
      let (count, many) = (key.utf8.count, keys.count >= 12)
      if many, endings == 0 { endings = keys.reduce(0) { $0 | Self.ending($1) } }
      // As many UTF-16 code units as UTF-8 bytes only in ASCII, which knows both counts.
      let bit: UInt64 = many ? Self.ending(key) : count == key.utf16.count ? 1 << (count & 63) : ~0
      if let places {
        place = places[key]
      } else if (many ? endings : lengths) & bit != 0, let index = keys.lastIndex(of: key) {
        place = writes[index].isRemoval ? nil : index
      }
      if let place {
        replaced = writes[place]
        writes[place] = write
        if write.isRemoval { places?[key] = nil }
      } else if !write.isRemoval {
        keys.append(key)
        writes.append(write)
        if many { endings |= bit } else { lengths |= bit }
        places?[key] = keys.count - 1
        if places == nil, keys.count > 64 {
          let (keys, writes) = (keys, writes)
          places = Dictionary(
            keys.indices.filter { !writes[$0].isRemoval }.map { (keys[$0], $0) },
            uniquingKeysWith: max)
        }
      }
      if var values = resolved.take() {
        StateCoder.apply(write, forKey: key, to: &values)
        resolved = values
      }
      return replaced
    }
  }

  /// What the coder holds, in one value so that each use of it is one access to the coder.
  // Unchecked, for speed (docs/Performance.md): an access runs the log's code alone and releases
  // no value an app made (a `Data` may run the app's deallocator).
  @exclusivity(unchecked) private(set) var log = Log()
  /// The pass the coder belongs to, which archives what it references.
  private weak var pass: PreservationPass?
  /// The paths of referenced objects, for a coder outside a pass.
  private lazy var resolver = IdentifierPathResolver()

  /// Creates a coder that is not part of a preservation pass.
  ///
  /// References encoded into it record the object's identifier path, computed from the tree,
  /// but pull nothing into an archive. Useful in tests of `encodeRestorableState(with:)`.
  public convenience init() { self.init(identifierPath: nil, pass: nil) }

  init(identifierPath: String?, pass: PreservationPass?) {
    (log.identifierPath, self.pass) = (identifierPath, pass)
    // Most objects write a handful of keys: one allocation instead of one per doubling.
    log.keys.reserveCapacity(8)
    log.writes.reserveCapacity(8)
  }

  /// Empties the coder for another object of its pass, keeping its storage: most objects'
  /// coders are archived and held by nothing else, and making one costs three allocations.
  func reset(identifierPath: String) {
    var emptied = Log()
    swap(&emptied, &log)
    emptied.removeAll()
    emptied.identifierPath = identifierPath
    swap(&emptied, &log)
  }

  /// The values written so far, in the order their keys were first written.
  ///
  /// - Complexity: O(n) the first time, then O(1) per write.
  public var values: KeyedValues {
    if let resolved = log.resolved { return resolved }
    var values = KeyedValues()
    for (key, write) in zip(log.keys, log.writes) where !write.isRemoval {
      Self.apply(write, forKey: key, to: &values)
    }
    log.resolved = values
    return values
  }

  /// Whether a value has been written for a key.
  public func contains(_ key: String) -> Bool { values[key] != nil }

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
  /// that print archives show that it was withheld, never its value. A key once marked sensitive
  /// stays so in this coder: a later write to it is withheld too.
  public func encode<T: StateValueConvertible>(_ value: T, forKey key: String, sensitive: Bool) {
    if sensitive {
      log.sensitiveKeys.insert(key)
      log.append(.removal, forKey: key)
    } else {
      encode(value, forKey: key)
    }
  }

  /// Writes any `Encodable` value, converted into archived values.
  ///
  /// A restorable object, or an array of them, is always written as a reference to the object,
  /// never as a copy of its value, whichever overload the caller's static type picks.
  ///
  /// - Throws: ``RestorationError`` (``RestorationError/Code/encodingFailed``) if the value
  ///   fails to encode; the key is then left unchanged.
  public func encode<T: Encodable>(_ value: T, forKey key: String) throws(RestorationError) {
    if let object = value as? any StateRestoring {
      return encode(object, forKey: key)
    } else if let objects = value as? [any StateRestoring] {
      return encode(objects, forKey: key)
    }
    do {
      // Made before the log is accessed: the value's own encode may write to this coder.
      let encoded = try StateValue.encoding(value)
      log.append(.value(encoded), forKey: key)
    } catch {
      var located = error
      located.key = key
      located.identifierPath = identifierPath
      log.errors.append(located)
      throw located
    }
  }

  /// Writes an archived value as is.
  ///
  /// A ``StateValue/reference(_:)`` must name the path of an object in the archive; during a
  /// preservation one that does not leaves the key out, and the report says why.
  public func encodeValue(_ value: StateValue, forKey key: String) {
    log.append(.value(value), forKey: key)
  }

  /// Writes a reference to another restorable object, and adds that object to the archive.
  ///
  /// An object without an identifier path (its identifier is nil) cannot be referenced: the key
  /// is left unwritten and the preservation report says why, as UIKit logs it. A nil `object`
  /// removes the key.
  public func encode(_ object: (any StateRestoring)?, forKey key: String) {
    guard let object else {
      log.append(.removal, forKey: key)
      return
    }
    if let pass {
      guard let (number, path) = pass.encodeReference(to: object, key: key, from: identifierPath)
      else { return }
      log.append(.record(number, path: path), forKey: key)
    } else if let path = resolver.path(of: object) {
      log.append(.value(.reference(path)), forKey: key)
    }
  }

  /// Writes an array of references, adding each object to the archive.
  ///
  /// Objects without an identifier path are left out of the array.
  public func encode(_ objects: [any StateRestoring], forKey key: String) {
    if let pass {
      var numbers: [Int] = []
      var paths: [String] = []
      for object in objects {
        guard let (number, path) = pass.encodeReference(to: object, key: key, from: identifierPath)
        else { continue }
        numbers.append(number)
        paths.append(path)
      }
      log.append(.records(numbers, paths: paths), forKey: key)
    } else {
      let paths = objects.compactMap { resolver.path(of: $0) }
      log.append(.value(.array(paths.map(StateValue.reference))), forKey: key)
    }
  }

  // Inlinable so that each element is made an existential in the caller, where its type is known.
  /// Writes an array of references, adding each object to the archive.
  @inlinable
  public func encode<Object: StateRestoring>(_ objects: [Object], forKey key: String) {
    encode(objects.map { $0 as any StateRestoring }, forKey: key)
  }

  /// Removes a key's value, if any.
  public func removeValue(forKey key: String) { log.append(.removal, forKey: key) }

  /// Applies a write to values: a removal removes the key, a value replaces the key's or is
  /// appended.
  static func apply(_ write: Write, forKey key: String, to values: inout KeyedValues) {
    switch write {
    case .value(let value): values[key] = value
    case .record(_, let path): values[key] = .reference(path)
    case .records(_, let paths): values[key] = .array(paths.map(StateValue.reference))
    case .removal: values[key] = nil
    }
  }
}
