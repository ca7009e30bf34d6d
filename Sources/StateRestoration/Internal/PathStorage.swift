/// The identifier paths of one pass, as UTF-8 bytes in blocks that never move.
///
/// A preserve builds the path of every object it archives. As a `String` each, a path was an
/// allocation, a check of its UTF-8 and a reference count, on the walk's thread, for bytes that
/// only the archive writer reads (and the app, rarely, through ``StateCoder/identifierPath``).
/// Here a path is appended once to a block of many and named by a ``PathBytes``: the memo of
/// paths, the pass's tables, the references in the coders and the archive writer all hold that
/// plain value, and a `String` is made only where one is asked for.
///
/// Appending happens on one thread at a time (the walk's). Bytes once appended never change or
/// move until the storage is freed, so another thread reads a path handed to it while the walk
/// appends more. Whatever holds a ``PathBytes`` keeps its storage alive: a coder holds its
/// pass's, the writer its own and the pass's records.
final class PathStorage: @unchecked Sendable {
  // Unchecked: `blocks`, `next` and `end` are changed only by the appending thread; other
  // threads read appended bytes through their own `PathBytes`, never these properties.
  @exclusivity(unchecked) private var blocks: [UnsafeMutableRawPointer] = []
  @exclusivity(unchecked) private var next: UnsafeMutableRawPointer?
  @exclusivity(unchecked) private var end: UnsafeMutableRawPointer?

  /// The size of a block: a few thousand paths of a few dozen bytes each.
  private static let blockSize = 64 * 1024

  init() {}

  deinit {
    for block in blocks { block.deallocate() }
  }

  /// Appends `count` bytes written by `body`, and returns them with their hash.
  ///
  /// - Parameters:
  ///   - count: The number of bytes; `body` must initialize exactly that many.
  ///   - body: Writes the bytes at the pointer it is given.
  /// - Returns: The bytes, with their hash.
  @inline(__always)
  func append(count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Void) -> PathBytes {
    let start = take(count)
    body(start.bindMemory(to: UInt8.self, capacity: count))
    return PathBytes(
      start: UnsafeRawPointer(start), count: count,
      hash: tableHash(ofBytes: UnsafeRawBufferPointer(start: start, count: count)))
  }

  /// Appends a copy of a string's UTF-8 bytes.
  func append(_ string: String) -> PathBytes {
    withUTF8Bytes(of: string) { utf8 in
      append(count: utf8.count) { target in
        if let source = utf8.baseAddress { target.initialize(from: source, count: utf8.count) }
      }
    }
  }

  /// The start of `count` bytes taken from the current block, or from a new one.
  @inline(__always)
  private func take(_ count: Int) -> UnsafeMutableRawPointer {
    if let next, let end, next.distance(to: end) >= count {
      self.next = next + count
      return next
    }
    return takeFromNewBlock(count)
  }

  private func takeFromNewBlock(_ count: Int) -> UnsafeMutableRawPointer {
    let size = max(Self.blockSize, count)
    let block = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: 8)
    blocks.append(block)
    // A path longer than a block gets a block of its own; the current block stays the one to
    // fill, since most of its room is likely still free.
    if count > Self.blockSize, next != nil { return block }
    next = block + count
    end = block + size
    return block
  }
}

/// One path's bytes in a ``PathStorage``, with their ``tableHash(ofBytes:)``.
///
/// A plain value: copying it counts no reference. It is valid while its storage lives, which
/// whatever holds it keeps alive.
@usableFromInline
struct PathBytes: @unchecked Sendable {
  // Unchecked: the bytes it points at never change once appended (see `PathStorage`).
  private let start: UnsafeRawPointer
  private let length: Int32
  /// The bytes' ``tableHash(ofBytes:)``.
  let hash: UInt32

  init(start: UnsafeRawPointer, count: Int, hash: UInt32) {
    self.start = start
    // Paths are far below 2 GB; a longer one would have failed to allocate its block.
    length = Int32(truncatingIfNeeded: count)
    self.hash = hash
  }

  /// The path of no components, the prefix of a root's path.
  static let empty = PathBytes(
    start: UnsafeRawPointer(bitPattern: 8).unsafelyUnwrapped, count: 0,
    hash: tableHash(ofBytes: UnsafeRawBufferPointer(start: nil, count: 0)))

  /// The number of bytes.
  var count: Int { Int(length) }

  /// The bytes.
  var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: start, count: Int(length)) }

  /// The bytes as UTF-8 code units.
  var utf8: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: Int(length))
  }

  /// The path as a string.
  var string: String { String(decoding: utf8, as: UTF8.self) }
}

/// Maps paths, by their bytes, to integers; insertion only.
///
/// ``StringTable``'s layout for keys that are ``PathBytes``: no key is retained or hashed again.
/// A key's bytes must outlive the table, as they do where the table and the paths belong to one
/// pass.
struct PathTable: InPlaceAccess {
  private var slots: EntrySlots
  private var keys: [PathBytes] = []
  private(set) var values: [Int] = []

  init(capacity: Int = 16) {
    slots = EntrySlots(capacity: capacity)
    keys.reserveCapacity(capacity)
    values.reserveCapacity(capacity)
  }

  var count: Int { keys.count }

  /// Where a key is, or would go: the result of ``lookUp(_:)``.
  struct Lookup {
    fileprivate var slot: Int
    /// The key's value, if present.
    var value: Int?
  }

  /// Finds a key; insert it with ``insert(_:_:at:)`` if absent, with no other insertion between.
  @inline(__always)
  func lookUp(_ key: PathBytes) -> Lookup {
    let (entry, slot) = find(key.bytes, hash: key.hash)
    return Lookup(slot: slot, value: entry.map { values[$0] })
  }

  /// The value for a key, if present.
  @inline(__always)
  func value(for key: PathBytes) -> Int? { lookUp(key).value }

  /// The value for the key with these bytes, if present.
  func value(forBytes bytes: UnsafeRawBufferPointer) -> Int? {
    find(bytes, hash: tableHash(ofBytes: bytes)).entry.map { values[$0] }
  }

  /// Inserts a key that ``lookUp(_:)`` did not find.
  @inline(__always)
  mutating func insert(_ key: PathBytes, _ value: Int, at lookup: Lookup) {
    keys.append(key)
    values.append(value)
    slots.insert(keys.count - 1, at: lookup.slot, count: keys.count) { keys[$0].hash }
  }

  /// Inserts a key if absent.
  ///
  /// - Returns: The key's value, and whether it was inserted.
  @discardableResult
  mutating func insert(_ key: PathBytes, _ value: Int) -> (value: Int, inserted: Bool) {
    let lookup = lookUp(key)
    if let existing = lookup.value { return (existing, false) }
    insert(key, value, at: lookup)
    return (value, true)
  }

  @inline(__always)
  private func find(_ bytes: UnsafeRawBufferPointer, hash: UInt32) -> (entry: Int?, slot: Int) {
    slots.find(hash: hash) { entry in
      // The same bytes where they lie are the same path: a record's path and the references to
      // its object are one memoized path, found without comparing it byte by byte.
      keys[entry].hash == hash
        && (keys[entry].bytes.baseAddress == bytes.baseAddress && keys[entry].count == bytes.count
          || bytesEqual(keys[entry].bytes, bytes))
    }
  }
}
