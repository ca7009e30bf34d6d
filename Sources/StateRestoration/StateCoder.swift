#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

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
  /// The values written so far, in the order their keys were first written.
  public var values: KeyedValues {
    withEntries { Self.keyedValues($0, names: keys.names) }
  }

  /// Entries as values under their key names.
  private static func keyedValues(
    _ entries: UnsafeBufferPointer<CoderEntry>, names: [String]
  ) -> KeyedValues {
    var result = KeyedValues(reservingCapacity: entries.count)
    for entry in entries {
      result.appendUnchecked(names[Int(entry.key)], entry.value.stateValue)
    }
    return result
  }

  /// The identifier path of the object this coder belongs to; nil for the top-level coder.
  ///
  /// Made from the path's bytes at each call: the pass keeps paths as bytes, and only the
  /// archive writer reads most of them.
  public var identifierPath: String? { path?.string }
  /// The path's bytes, in ``pathStorage``.
  let path: PathBytes?
  /// Where the bytes of the path, and of the references written to this coder, are.
  ///
  /// The coder keeps it alive for them: the pass's storage, or, for a coder outside a pass, one
  /// of the coder's own, made with its first reference.
  @exclusivity(unchecked) private(set) var pathStorage: PathStorage?
  // Unchecked, as the values below: the pass reads both of every coder it archives, and the
  // runtime's exclusivity checks of those reads cost 1.5% of a preserve. Nothing reenters a
  // coder while it inserts or appends to them.
  /// Keys whose values are kept out of the archive (see ``encode(_:forKey:sensitive:)``).
  @exclusivity(unchecked) public private(set) var sensitiveKeys: Set<String> = []
  /// Errors from encoding `Codable` values, kept for the preservation report.
  @exclusivity(unchecked) package private(set) var errors: [RestorationError] = []

  /// The key names, shared by every coder of a preservation pass.
  let keys: CoderKeys
  // The values, each with its key's number, in the order the keys were first written.
  //
  // Keys are numbers rather than strings so that finding a repeated key compares integers,
  // and the archive writer adds each key name once per pass rather than once per object.
  //
  // The first values are kept in the coder itself: an array of their own was an allocation per
  // object, a twentieth of a preserve. They move to `spilledEntries` when there are more than
  // fit, or when one is replaced or removed after the pass sent them to its concurrent writer:
  // from then on the first values never change, so the writer reads them from the coder while
  // the app goes on writing to it.
  //
  // Their room is plain words, which the coder initializes and deinitializes entry by entry:
  // an inline array of entries filled each slot with a placeholder up front and destroyed it
  // again on every write, which cost more than the allocation it spared.
  //
  // Unchecked: encoding a key touches these several times, and the runtime's exclusivity check
  // of a class's stored property cost as much as the rest of the store. Nothing reenters a
  // coder while it changes them.
  @exclusivity(unchecked) private var firstRoom = InlineArray<32, UInt64>(repeating: 0)
  /// How many entries fit in `firstRoom`.
  private static let firstCapacity =
    MemoryLayout<InlineArray<32, UInt64>>.size / MemoryLayout<CoderEntry>.stride
  /// How many entries `firstRoom` holds; they are the values while nothing has spilled.
  @exclusivity(unchecked) private var firstCount = 0
  /// Every value, once they have spilled out of `firstRoom`.
  @exclusivity(unchecked) private var spilledEntries: ContiguousArray<CoderEntry>?
  /// Positions by key number, built once a coder holds many keys, so that an object with
  /// thousands of keys still encodes in linear time.
  @exclusivity(unchecked) private var index: [Int32: Int]?
  /// The key numbers below 64 that hold a value, one bit each: a key written for the first
  /// time, as almost every key is, is appended without searching the entries for it.
  @exclusivity(unchecked) private var heldKeys: UInt64 = 0

  // The archive record's other fields, set by the pass once the object's encode has returned
  // and never changed after: the record is the coder, so that handing it to the concurrent
  // writer retains one object instead of copying every field.
  /// The object's kind.
  @exclusivity(unchecked) var recordKind = RestorationKind.object
  /// The object's class name.
  @exclusivity(unchecked) var recordClassName = ""
  /// The object's restoration class name, if any.
  @exclusivity(unchecked) var recordRestorationClassName: String?
  /// The storyboard scene the object came from, if any.
  @exclusivity(unchecked) var recordStoryboard: StoryboardReference?

  /// The link to the pass the coder belongs to.
  private let link: PassLink<PreservationPass>?
  /// The pass the coder belongs to, while it runs.
  private var pass: PreservationPass? { link?.pass }
  /// Whether the pass has sent a snapshot of the values to its concurrent writer; a change after
  /// that makes the pass write its archive from the coders instead.
  @exclusivity(unchecked) var isHandedOff = false

  /// Creates a coder that is not part of a preservation pass.
  ///
  /// References encoded into it record the object's identifier path, computed from the tree,
  /// but pull nothing into an archive. Useful in tests of `encodeRestorableState(with:)`.
  public convenience init() {
    self.init(path: nil, storage: nil, link: nil, keys: CoderKeys())
  }

  init(
    path: PathBytes?, storage: PathStorage?, link: PassLink<PreservationPass>?, keys: CoderKeys
  ) {
    self.path = path
    self.pathStorage = storage
    self.link = link
    self.keys = keys
  }

  deinit {
    let count = firstCount
    withFirstRoom { _ = $0.deinitialize(count: count) }
  }

  /// The number of keys above which lookups go through a hash index.
  private static let indexThreshold = 12

  // Inlined: the call's entry and exit cost more than the test of `heldKeys` that answers
  // almost every call.
  @inline(__always)
  private func position(of key: Int32) -> Int? {
    if key < 64, heldKeys & (1 << UInt64(key)) == 0 { return nil }
    if let index { return index[key] }
    return withEntries { entries in
      for position in entries.indices where entries[position].key == key { return position }
      return nil
    }
  }

  /// Calls `body` with the values, in the order their keys were first written.
  func withEntries<Result>(_ body: (UnsafeBufferPointer<CoderEntry>) -> Result) -> Result {
    if let spilledEntries { return spilledEntries.withUnsafeBufferPointer(body) }
    return withFirstEntries(count: firstCount, body)
  }

  /// The values as the pass hands them to its concurrent writer, which reads them on another
  /// thread; the coder is marked handed off, so that a later change spills them first.
  func handOffEntries() -> CoderEntries {
    isHandedOff = true
    if let spilledEntries { return .spilled(spilledEntries) }
    return .first(count: firstCount)
  }

  /// Hands the values off as a pass hands them to its concurrent writer, and returns a reading
  /// of them as the writer makes it, for tests that change the coder afterwards.
  package func handOffForReading() -> () -> KeyedValues {
    let entries = handOffEntries()
    return { entries.withEntries(of: self) { StateCoder.keyedValues($0, names: self.keys.names) } }
  }

  /// Calls `body` with the first `count` values kept in the coder.
  ///
  /// Read through the room's span, without a mutable access: the concurrent writer calls this
  /// from its own thread.
  fileprivate func withFirstEntries<Result>(
    count: Int, _ body: (UnsafeBufferPointer<CoderEntry>) -> Result
  ) -> Result {
    firstRoom.span.withUnsafeBytes { room in
      body(
        UnsafeBufferPointer(
          start: room.baseAddress?.assumingMemoryBound(to: CoderEntry.self), count: count))
    }
  }

  /// Calls `body` with the room for the first entries, bound to entries.
  @inline(__always)
  private func withFirstRoom<Result>(_ body: (UnsafeMutablePointer<CoderEntry>) -> Result)
    -> Result
  {
    withUnsafeMutableBytes(of: &firstRoom) { room in
      body(
        room.baseAddress.unsafelyUnwrapped.bindMemory(
          to: CoderEntry.self, capacity: Self.firstCapacity))
    }
  }

  /// Moves the values into `spilledEntries`, unless they are there already.
  private func spill(reservingCapacity extra: Int) {
    guard spilledEntries == nil else { return }
    var spilled = ContiguousArray<CoderEntry>()
    spilled.reserveCapacity(firstCount + extra)
    withFirstEntries(count: firstCount) { spilled.append(contentsOf: $0) }
    spilledEntries = spilled
  }

  /// Sets the value of a key.
  // Consuming: the value moves into the entries, where a borrowed one was copied there and the
  // caller's copy released (a retain and a release for every value with a payload). Inlined
  // into the few public calls that store a value: a call more per key was a tenth of the store.
  @inline(__always)
  private func set(_ value: consuming CoderValue, forKey name: String) {
    if isHandedOff { keys.writtenAfterHandOff = true }
    let key = keys.number(of: name)
    if let position = position(of: key) {
      if spilledEntries == nil, !isHandedOff {
        var moving: CoderValue? = value
        withFirstRoom { first in
          if let value = moving.take() { first[position].value = value }
        }
      } else {
        spill(reservingCapacity: 0)
        spilledEntries?[position].value = value
      }
      return
    }
    if key < 64 { heldKeys |= 1 << UInt64(key) }
    if spilledEntries == nil, !isHandedOff, firstCount < Self.firstCapacity {
      // Moved in through an optional: a closure cannot consume what it captures.
      var moving: CoderEntry? = CoderEntry(key: key, value: value)
      let position = firstCount
      withFirstRoom { first in
        if let entry = moving.take() { (first + position).initialize(to: entry) }
      }
      firstCount += 1
      return
    }
    spill(reservingCapacity: firstCount + 1)
    spilledEntries?.append(CoderEntry(key: key, value: value))
    let count = spilledEntries?.count ?? 0
    if index != nil {
      index?[key] = count - 1
    } else if count > Self.indexThreshold {
      rebuildIndex()
    }
  }

  /// Removes the value of a key, if any.
  private func remove(forKey name: String) {
    if isHandedOff { keys.writtenAfterHandOff = true }
    let key = keys.number(of: name)
    guard let position = position(of: key) else { return }
    spill(reservingCapacity: 0)
    spilledEntries?.remove(at: position)
    if key < 64 { heldKeys &= ~(1 << UInt64(key)) }
    if index != nil { rebuildIndex() }
  }

  private func rebuildIndex() {
    var built: [Int32: Int] = [:]
    withEntries { entries in
      built.reserveCapacity(entries.count * 2)
      for (position, entry) in entries.enumerated() { built[entry.key] = position }
    }
    index = built
  }

  /// Whether a value has been written for a key.
  ///
  /// - Parameter key: The key.
  /// - Returns: True if the key holds a value.
  public func contains(_ key: String) -> Bool {
    guard let number = keys.existingNumber(of: key) else { return false }
    return position(of: number) != nil
  }

  /// Writes a value of a built-in type.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - key: The key; a later write to the same key replaces it.
  @inlinable
  public func encode<T: StateValueConvertible>(_ value: T, forKey key: String) {
    // Inlinable so that the conversion is specialized in the app's code, where this test folds
    // away for every other type: unspecialized generic calls through witness tables were a
    // third of the cost of encoding an object. Arrays of integers (selections, index paths) are
    // the commonest arrays apps archive: kept as the app's array, they skip a `StateValue` per
    // element and the array of them.
    if T.self == [Int].self, let integers = value as? [Int] {
      encodeIntegers(integers, forKey: key)
      return
    }
    encodeValue(value.stateValue, forKey: key)
  }

  /// Writes an array of integers as the app's array; archived as an array of integer values.
  @usableFromInline
  func encodeIntegers(_ integers: [Int], forKey key: String) {
    set(.integers(integers), forKey: key)
  }

  /// Writes a value, or marks the key sensitive so that its value never reaches the disk.
  ///
  /// Use it for values that must not outlive the process (a half-typed password, a one-time
  /// code). A sensitive key is recorded by name only: at the next launch it is absent, and tools
  /// that print archives show that it was withheld, never its value.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - key: The key.
  ///   - sensitive: Pass true to keep the value out of the archive.
  public func encode<T: StateValueConvertible>(_ value: T, forKey key: String, sensitive: Bool) {
    if sensitive {
      // The removal below marks a coder changed after its values were sent.
      sensitiveKeys.insert(key)
      remove(forKey: key)
    } else {
      encode(value, forKey: key)
    }
  }

  /// Writes any `Encodable` value, converted into archived values.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - key: The key.
  /// - Throws: ``RestorationError`` (``RestorationError/Code/encodingFailed``) if the value
  ///   fails to encode; the key is then left unchanged.
  public func encode<T: Encodable>(_ value: T, forKey key: String) throws(RestorationError) {
    do {
      set(.value(try StateValue.encoding(value)), forKey: key)
    } catch {
      var located = error
      located.key = key
      located.identifierPath = identifierPath
      errors.append(located)
      throw located
    }
  }

  /// Writes an archived value as is.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - key: The key.
  public func encodeValue(_ value: consuming StateValue, forKey key: String) {
    set(.value(consume value), forKey: key)
  }

  /// Writes a reference to another restorable object, and adds that object to the archive.
  ///
  /// An object without an identifier path (its identifier is nil) cannot be referenced: the key
  /// is left unwritten and the preservation report says why, as UIKit logs it.
  ///
  /// - Parameters:
  ///   - object: The referenced object; nil removes the key.
  ///   - key: The key.
  public func encode(_ object: (any StateRestoring)?, forKey key: String) {
    // A switch borrows the object where `guard let` copied it: a retain and a release on the
    // runtime's slow path for an object that is referenced weakly, as most controllers are.
    switch object {
    case .none:
      remove(forKey: key)
    case .some(let object):
      if let reference = referencePath(to: object, key: key) {
        set(.reference(reference), forKey: key)
      }
    }
  }

  /// Writes an array of references, adding each object to the archive.
  ///
  /// Objects without an identifier path are left out of the array.
  ///
  /// - Parameters:
  ///   - objects: The referenced objects, in order.
  ///   - key: The key.
  public func encode(_ objects: [any StateRestoring], forKey key: String) {
    var references: [PathBytes] = []
    references.reserveCapacity(objects.count)
    // By index, borrowing each object, where a for-in loop copied it (as above).
    for index in objects.indices { appendReference(to: objects[index], key: key, to: &references) }
    encodeReferences(references, forKey: key)
  }

  /// Writes an array of references to objects of one class, adding each object to the archive.
  ///
  /// The same as encoding the array as `[any StateRestoring]`, without making that array first:
  /// a container encoding its `[ViewController]` children takes this overload.
  ///
  /// - Parameters:
  ///   - objects: The referenced objects, in order.
  ///   - key: The key.
  @inlinable
  public func encode<Object: StateRestoring>(_ objects: [Object], forKey key: String) {
    // Inlinable, so that the array is read as the app's: converting it to an array of
    // existentials allocated a second array per call and copied every element into it. Each
    // element is lent unretained, which spares a retain and a release of each on the runtime's
    // slow path for an object that is referenced weakly (as a child's parent usually is).
    var references: [PathBytes] = []
    references.reserveCapacity(objects.count)
    objects.forEachUnretained { appendReference(to: $0, key: key, to: &references) }
    encodeReferences(references, forKey: key)
  }

  /// Appends the reference to an object, which joins the pass, unless it has no path.
  @usableFromInline
  func appendReference(
    to object: any StateRestoring, key: String, to references: inout [PathBytes]
  ) {
    if let reference = referencePath(to: object, key: key) {
      references.append(reference)
    }
  }

  /// Writes an array of references; archived as an array of reference values.
  @usableFromInline
  func encodeReferences(_ references: [PathBytes], forKey key: String) {
    set(.references(references), forKey: key)
  }

  /// Removes a key.
  ///
  /// - Parameter key: The key.
  public func removeValue(forKey key: String) {
    remove(forKey: key)
  }

  /// The path of a referenced object, which joins the pass; nil when it has none.
  @inline(__always)
  private func referencePath(to object: any StateRestoring, key: String) -> PathBytes? {
    if let pass {
      return pass.encodeReference(to: object, key: key, in: path)
    }
    let storage = pathStorage ?? PathStorage()
    pathStorage = storage
    var resolver = IdentifierPathResolver(storage: storage)
    return resolver.pathBytes(of: object)
  }
}

/// One value of a coder, with its key's number in the pass's ``CoderKeys``.
struct CoderEntry {
  var key: Int32
  var value: CoderValue
}

/// A coder's values as the pass hands them to its concurrent writer.
enum CoderEntries {
  /// The first `count` of the values kept in the coder.
  case first(count: Int)
  /// Values that had spilled out of the coder, in an array the coder no longer changes.
  case spilled(ContiguousArray<CoderEntry>)

  /// Calls `body` with the values, from `coder` where they are kept in it.
  func withEntries<Result>(
    of coder: StateCoder, _ body: (UnsafeBufferPointer<CoderEntry>) -> Result
  ) -> Result {
    switch self {
    case .first(let count): coder.withFirstEntries(count: count, body)
    case .spilled(let entries): entries.withUnsafeBufferPointer(body)
    }
  }
}

/// A value as a coder keeps it until the archive is written.
enum CoderValue {
  /// A value in its archived form.
  case value(StateValue)
  /// An array of integers as the app gave it: the writer writes the bytes of the array of
  /// integer values it stands for, without making one.
  case integers([Int])
  /// A reference, as its path's bytes in the coder's ``StateCoder/pathStorage``, with their
  /// hash: the writer files the path under the hash without hashing it again.
  /// `.value(.reference(path))` stands for the same value.
  case reference(PathBytes)
  /// An array of references, each kept as ``reference(_:)`` keeps one.
  case references([PathBytes])

  /// The value in its archived form.
  var stateValue: StateValue {
    switch self {
    case .value(let value): value
    case .integers(let integers): integers.stateValue
    case .reference(let reference): .reference(reference.string)
    case .references(let references): .array(references.map { .reference($0.string) })
    }
  }
}
