// Small open-addressing hash tables for the archive writer and the preservation and restoration
// passes. Keys that may come from a file (a restored string preserved again, an identifier path
// read from an archive) are hashed with the standard library's seeded `Hasher`, so that no file
// can choose keys that collide; object identities, which no file chooses, are only mixed.

/// Mixes a 64-bit value into a well-spread hash (the finalizer of MurmurHash3).
@inline(__always)
package func mixBits(_ value: UInt64) -> UInt64 {
  var x = value
  x ^= x >> 33
  x &*= 0xFF51_AFD7_ED55_8CCD
  x ^= x >> 33
  x &*= 0xC4CE_B9FE_1A85_EC53
  x ^= x >> 33
  return x
}

/// Runs `body` over a string's UTF-8 bytes, where the string keeps them unless it is bridged.
///
/// In place: the copy of the string that `withUTF8` needs, being mutating, retained and released
/// it, and the engine reads the bytes of every path several times.
@inline(__always)
func withUTF8Bytes<Result>(
  of string: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result
) -> Result {
  if let result = string.utf8.withContiguousStorageIfAvailable(body) { return result }
  var copy = string
  return copy.withUTF8(body)
}

/// The hash a ``StringTable`` files a key under: the low half of ``hashBytes(_:)``, never 0.
///
/// Half a word, so that a path's hash fits beside the path in a coder's entry without making
/// it larger, and travels with the path from the walk, which computes it as it builds the path,
/// to the tables of the pass and of the archive writer, which then do not hash the path again.
/// Never 0, so that 0 can stand for a hash not computed.
@inline(__always)
func tableHash(ofBytes bytes: UnsafeRawBufferPointer) -> UInt32 {
  let hash = UInt32(truncatingIfNeeded: hashBytes(bytes))
  return hash == 0 ? 1 : hash
}

/// The ``tableHash(ofBytes:)`` of a string's UTF-8 bytes.
@inline(__always)
func tableHash(of string: String) -> UInt32 {
  withUTF8Bytes(of: string) { tableHash(ofBytes: UnsafeRawBufferPointer($0)) }
}

/// A hash of raw bytes, keyed with the process's random seed (the standard library's SipHash).
@inline(__always)
package func hashBytes(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
  var hasher = Hasher()
  hasher.combine(bytes: bytes)
  return UInt64(UInt(bitPattern: hasher.finalize()))
}

/// A hash of a word, keyed with the process's random seed (the standard library's SipHash).
@inline(__always)
func hashWord(_ value: UInt64) -> UInt64 {
  var hasher = Hasher()
  hasher.combine(value)
  return UInt64(UInt(bitPattern: hasher.finalize()))
}

/// Whether two buffers of the same length hold the same bytes, compared a word at a time
/// (`elementsEqual` goes through an iterator per byte).
@inline(__always)
func bytesEqual(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
  let count = lhs.count
  guard rhs.count == count else { return false }
  var index = 0
  while index + 8 <= count {
    if lhs.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      != rhs.loadUnaligned(fromByteOffset: index, as: UInt64.self)
    {
      return false
    }
    index += 8
  }
  while index < count {
    if lhs[index] != rhs[index] { return false }
    index += 1
  }
  return true
}

/// The open-addressing index of a table whose entries are kept in arrays of their own, in the
/// order of insertion: each slot holds an entry's number, or -1.
///
/// ``StringTable`` and ``PathTable`` probe and grow through it, each comparing keys its own way.
struct EntrySlots {
  private var slots: [Int32]
  private var mask: Int

  /// Makes room for `capacity` entries at most half full.
  init(capacity: Int) {
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    slots = [Int32](repeating: -1, count: size)
    mask = size - 1
  }

  /// Probes from a hash's slot for the entry `matches` accepts.
  ///
  /// - Returns: The entry, or nil with the empty slot where it would go.
  @inline(__always)
  func find(hash: UInt32, _ matches: (Int) -> Bool) -> (entry: Int?, slot: Int) {
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let entry = Int(slots[slot])
      if entry < 0 { return (nil, slot) }
      if matches(entry) { return (entry, slot) }
      slot = (slot + 1) & mask
    }
  }

  /// Files an entry in a slot ``find(hash:_:)`` found empty, and grows once more than half the
  /// slots are used.
  ///
  /// - Parameters:
  ///   - entry: The entry's number.
  ///   - slot: The empty slot.
  ///   - count: The number of entries, this one included.
  ///   - hashOf: The hash of each entry, to file them again when growing.
  @inline(__always)
  mutating func insert(_ entry: Int, at slot: Int, count: Int, hashOf: (Int) -> UInt32) {
    slots[slot] = Int32(truncatingIfNeeded: entry)
    if count * 2 > slots.count { grow(count: count, hashOf: hashOf) }
  }

  private mutating func grow(count: Int, hashOf: (Int) -> UInt32) {
    let size = slots.count * 2
    slots = [Int32](repeating: -1, count: size)
    mask = size - 1
    for entry in 0..<count {
      var slot = Int(truncatingIfNeeded: hashOf(entry)) & mask
      while slots[slot] >= 0 { slot = (slot + 1) & mask }
      slots[slot] = Int32(truncatingIfNeeded: entry)
    }
  }
}

/// Maps strings to integers; insertion only.
///
/// Keys are filed under their ``tableHash(of:)``. (Identifier paths, which carry their hash, go
/// in a ``PathTable``.)
struct StringTable: InPlaceAccess {
  private var slots: EntrySlots
  private var keys: [String] = []
  private var hashes: [UInt32] = []
  private(set) var values: [Int] = []

  init(capacity: Int = 16) {
    slots = EntrySlots(capacity: capacity)
    keys.reserveCapacity(capacity)
    hashes.reserveCapacity(capacity)
    values.reserveCapacity(capacity)
  }

  var count: Int { keys.count }

  /// The value for a key, if present.
  @inline(__always)
  func value(for key: String) -> Int? {
    lookUp(key).value
  }

  /// Where a key is, or would go: the result of ``lookUp(_:)``.
  struct Lookup {
    fileprivate var hash: UInt32
    fileprivate var slot: Int
    /// The key's value, if present.
    var value: Int?
  }

  /// Finds a key; insert it with ``insert(_:_:at:)`` if absent, with no other insertion between.
  ///
  /// - Parameter key: The key.
  /// - Returns: Where the key is, with its value, or where it would go.
  @inline(__always)
  func lookUp(_ key: String) -> Lookup {
    let hash = tableHash(of: key)
    let (entry, slot) = find(key, hash: hash)
    return Lookup(hash: hash, slot: slot, value: entry.map { values[$0] })
  }

  /// Inserts a key that ``lookUp(_:)`` did not find.
  @inline(__always)
  mutating func insert(_ key: String, _ value: Int, at lookup: Lookup) {
    keys.append(key)
    hashes.append(lookup.hash)
    values.append(value)
    slots.insert(keys.count - 1, at: lookup.slot, count: keys.count) { hashes[$0] }
  }

  /// Inserts a key if absent.
  ///
  /// - Returns: The key's value, and whether it was inserted.
  @discardableResult
  mutating func insert(_ key: String, _ value: Int) -> (value: Int, inserted: Bool) {
    let lookup = lookUp(key)
    if let existing = lookup.value { return (existing, false) }
    insert(key, value, at: lookup)
    return (value, true)
  }

  /// The value for the key made of the first `length` UTF-8 bytes of `key`, if present.
  ///
  /// Looks up a prefix, such as a parent path, without making a string of it.
  func value(forPrefix length: Int, of key: String) -> Int? {
    withUTF8Bytes(of: key) { utf8 -> Int? in
      guard length <= utf8.count else { return nil }
      return value(forBytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: utf8[..<length])))
    }
  }

  /// The value for the key whose UTF-8 bytes are `bytes`, if present.
  ///
  /// Looks up a piece of a larger buffer (a parent path, a path component) without making a
  /// string of it.
  func value(forBytes bytes: UnsafeRawBufferPointer) -> Int? {
    let hash = tableHash(ofBytes: bytes)
    let found = slots.find(hash: hash) { entry in
      hashes[entry] == hash
        && withUTF8Bytes(of: keys[entry]) { stored in
          stored.count == bytes.count && bytesEqual(UnsafeRawBufferPointer(stored), bytes)
        }
    }
    return found.entry.map { values[$0] }
  }

  /// Runs `body` over a string's UTF-8 bytes with this table at hand, to look up pieces of the
  /// string (its parent paths, its components) without making a string of each.
  ///
  /// Mutating, and the table handed to `body` in place, only so that a table stored in a class
  /// is not copied: reading one through a closure, or copying it to a local first, retained and
  /// released each of its arrays per call. `body` must not change the table.
  @inline(__always)
  mutating func withUTF8<Result>(
    of string: String,
    _ body: (UnsafeBufferPointer<UInt8>, inout StringTable) -> Result
  ) -> Result {
    withUTF8Bytes(of: string) { body($0, &self) }
  }

  /// The key stored for an entry index (the order of insertion).
  func key(at entry: Int) -> String { keys[entry] }

  @inline(__always)
  private func find(_ key: String, hash: UInt32) -> (entry: Int?, slot: Int) {
    slots.find(hash: hash) { hashes[$0] == hash && keys[$0] == key }
  }
}

/// Maps 64-bit keys (integers, bit patterns) to non-negative integers.
///
/// One array of slots, each a key beside its value: three arrays (keys, values, and whether a
/// slot is used) were three cache lines to read per probe and three checks that an array was
/// not shared per insertion, for the archive writer's tables of integers, reals and dates.
struct WordTable {
  private struct Slot {
    var key: UInt64
    /// The value plus one; 0 marks an empty slot, so that a table of zeros is empty.
    var stored: Int
  }
  private var slots: [Slot]
  private(set) var count = 0
  private var mask: Int

  init(capacity: Int = 16) {
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    slots = [Slot](repeating: Slot(key: 0, stored: 0), count: size)
    mask = size - 1
  }

  /// The value for a key, if present.
  @inline(__always)
  func value(for key: UInt64) -> Int? {
    var index = Int(truncatingIfNeeded: hashWord(key)) & mask
    while true {
      let slot = slots[index]
      if slot.stored == 0 { return nil }
      if slot.key == key { return slot.stored &- 1 }
      index = (index + 1) & mask
    }
  }

  /// Sets the value for a key.
  ///
  /// - Parameters:
  ///   - value: The value; not negative.
  ///   - key: The key.
  @inline(__always)
  mutating func set(_ value: Int, for key: UInt64) {
    precondition(value >= 0 && value < Int.max, "word table values are non-negative")
    var index = Int(truncatingIfNeeded: hashWord(key)) & mask
    while slots[index].stored != 0 {
      if slots[index].key == key {
        slots[index].stored = value + 1
        return
      }
      index = (index + 1) & mask
    }
    slots[index] = Slot(key: key, stored: value + 1)
    count += 1
    if count * 2 > slots.count { grow() }
  }

  private mutating func grow() {
    let old = slots
    let size = slots.count * 2
    slots = [Slot](repeating: Slot(key: 0, stored: 0), count: size)
    mask = size - 1
    for slot in old where slot.stored != 0 {
      var index = Int(truncatingIfNeeded: hashWord(slot.key)) & mask
      while slots[index].stored != 0 { index = (index + 1) & mask }
      slots[index] = slot
    }
  }
}

extension ObjectIdentifier {
  /// The identity as a table key.
  @inline(__always)
  var tableKey: UInt64 { UInt64(UInt(bitPattern: self)) }
}

/// Maps object identities to values.
///
/// Each slot holds its key and its value side by side: a lookup lands on a random slot of a
/// table larger than the processor's first-level cache, and with keys and values in two arrays
/// one that found its key touched two cache lines instead of one (under a sampling profiler the
/// maps' lookups took three times their share of instructions).
package struct IdentityMap<Value> {
  private struct Slot {
    /// The identity's bits; 0 (which no identity has) marks an empty slot.
    var key: UInt
    var value: Value?
  }

  private var slots: [Slot]
  /// The number of identities with a slot (a value set to nil keeps its slot).
  package private(set) var count = 0
  private var mask: Int

  /// Creates a map with room for `capacity` identities before it grows.
  package init(capacity: Int = 16) {
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    slots = [Slot](repeating: Slot(key: 0, value: nil), count: size)
    mask = size - 1
  }

  @inline(__always)
  private func slot(of key: UInt) -> (slot: Int, found: Bool) {
    slots.withUnsafeBufferPointer { slots in
      var slot = Int(truncatingIfNeeded: mixBits(UInt64(key))) & mask
      while true {
        let stored = slots[slot].key
        if stored == key { return (slot, true) }
        if stored == 0 { return (slot, false) }
        slot = (slot + 1) & mask
      }
    }
  }

  /// The value for an identity.
  package subscript(key: ObjectIdentifier) -> Value? {
    get {
      let (slot, found) = slot(of: UInt(bitPattern: key))
      return found ? slots[slot].value : nil
    }
    set {
      let raw = UInt(bitPattern: key)
      guard newValue != nil else {
        // Removal is not needed by the passes; keep the slot and forget the value.
        let (slot, found) = slot(of: raw)
        if found { slots[slot].value = nil }
        return
      }
      let (slot, found) = slot(of: raw)
      // The optional moves into the slot as it came: unwrapping it first copied the value (for
      // a path, a retain and a release of its string twice over).
      slots[slot].value = consume newValue
      if !found {
        slots[slot].key = raw
        count += 1
        if count * 2 > slots.count { grow() }
      }
    }
  }

  /// Inserts a value for an identity unless one is present.
  ///
  /// - Returns: True if inserted.
  @inline(__always)
  package mutating func insert(_ value: Value, for key: ObjectIdentifier) -> Bool {
    let raw = UInt(bitPattern: key)
    let (slot, found) = slot(of: raw)
    if found, slots[slot].value != nil { return false }
    slots[slot].value = value
    if !found {
      slots[slot].key = raw
      count += 1
      if count * 2 > slots.count { grow() }
    }
    return true
  }

  /// Makes room for `count` more entries without growing.
  package mutating func reserveCapacity(_ count: Int) {
    var size = slots.count
    while (self.count + count) * 2 > size { size *= 2 }
    // One rebuild at the final size: growing step by step rebuilt the table a dozen times.
    if size > slots.count { grow(to: size) }
  }

  private mutating func grow() {
    grow(to: slots.count * 2)
  }

  private mutating func grow(to size: Int) {
    let old = slots
    slots = [Slot](repeating: Slot(key: 0, value: nil), count: size)
    mask = size - 1
    for entry in old where entry.key != 0 {
      let (slot, _) = slot(of: entry.key)
      slots[slot] = entry
    }
  }
}
