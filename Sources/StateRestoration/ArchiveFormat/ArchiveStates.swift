/// The records' states of an archive that was checked whole, read from the file when a decoder
/// asks for a key.
///
/// ``RestorationArchive/readLazily(_:limits:)`` checks every value of every state exactly as
/// ``RestorationArchive/init(decoding:limits:)`` reads it, so a file this type reads from has
/// passed every limit, the checksum and the offset, reference, cycle and depth checks. Reading a
/// value again cannot fail; were it to, the key reads as absent, never as a trap.
///
/// Decoders of one restore share it; a decoder the app keeps holds it, and with it the file's
/// bytes, until the decoder goes.
package final class ArchiveStates {
  /// Where a record's state lies in the checked entries: `count` entries from `first`.
  struct Span {
    var count: Int
    var first: Int
  }

  // Unchecked exclusivity: every key a decoder reads touches the reader, and nothing reenters
  // it while it reads (reading a value calls no app code). Read through `inPlace`, which does
  // not copy it.
  @exclusivity(unchecked) private var reader: BinaryPropertyListReader
  private let paths: [String]
  private let spans: [Span]
  /// Every state's key numbers and value references, as the check found them.
  private let entries: CheckedEntries

  /// Maps a UID to the path of the record it names; made once, not per value read.
  private let uid: (Int) throws(RestorationError) -> String

  /// The key number each key name was last found as, nil for a name no state holds.
  @exclusivity(unchecked) private var recentNumbers = RecentStrings<Int32?>()

  /// Whether half of the states were checked on a background queue (see
  /// ``RestorationArchive/readLazily(_:limits:concurrently:pathsRead:)``).
  package let checkedConcurrently: Bool

  init(
    reader: BinaryPropertyListReader, paths: [String], spans: [Span], entries: CheckedEntries,
    checkedConcurrently: Bool = false
  ) {
    self.reader = reader
    self.paths = paths
    self.spans = spans
    self.entries = entries
    self.checkedConcurrently = checkedConcurrently
    uid = { (index: Int) throws(RestorationError) -> String in
      guard index < paths.count else {
        throw BinaryPropertyListReader.recordReferenceError(index, recordCount: paths.count)
      }
      return paths[index]
    }
  }

  /// The number of a key name in the checked states, or nil when no state holds it.
  @inline(__always)
  private func number(ofKey key: String) -> Int32? {
    recentNumbers.value(for: key) { key in reader.inPlace { $0.keyNumber(ofName: key) } }
  }

  /// The number of records.
  package var recordCount: Int { spans.count }

  /// Entry positions by key number of the records with many keys, built on first use, so that
  /// an object with thousands of keys still decodes in linear time (as ``KeyedValues`` does).
  @exclusivity(unchecked) private var indexes: [Int: [Int32: Int]] = [:]

  /// The object reference of the value a record's state holds for a key, if any.
  @inline(__always)
  private func valueReference(forKey key: String, record: Int) -> Int? {
    guard let number = number(ofKey: key) else { return nil }
    let span = spans[record]
    if span.count > KeyedValues.indexThreshold {
      let index = indexes[record] ?? makeIndex(record: record)
      return index[number].map { entries.values[$0] }
    }
    return entries.keys.withUnsafeBufferPointer { keys in
      for position in span.first..<(span.first + span.count) where keys[position] == number {
        return entries.values[position]
      }
      return nil
    }
  }

  private func makeIndex(record: Int) -> [Int32: Int] {
    let span = spans[record]
    var index: [Int32: Int] = [:]
    index.reserveCapacity(span.count)
    for position in span.first..<(span.first + span.count) {
      index[entries.keys[position]] = position
    }
    indexes[record] = index
    return index
  }

  /// Whether a record's state holds a key.
  package func contains(_ key: String, record: Int) -> Bool {
    valueReference(forKey: key, record: record) != nil
  }

  /// The value a record's state holds for a key.
  package func value(forKey key: String, record: Int) -> StateValue? {
    guard let reference = valueReference(forKey: key, record: record) else { return nil }
    return value(at: reference)
  }

  private func value(at reference: Int) -> StateValue? {
    reader.inPlace { reader in
      if let scalar = reader.scalarValue(reference) { return scalar }
      if let string = reader.asciiStringValue(reference) { return string }
      if let array = reader.scalarArray(reference) { return array }
      return try? reader.value(reference, depth: 3, uid: uid)
    }
  }

  /// The integers of an array a record's state holds for a key, when every element is an
  /// integer of up to 8 bytes; nil otherwise (absent, or another value), for
  /// ``value(forKey:record:)`` to answer.
  func integerArray(forKey key: String, record: Int) -> [Int]? {
    guard let reference = valueReference(forKey: key, record: record) else { return nil }
    return reader.inPlace { $0.integerArray(reference) }
  }

  /// The record a key's reference names, when the key holds a reference.
  ///
  /// Decoders resolve references by record rather than by path: no path is hashed or retained.
  func recordIndex(forKey key: String, record: Int) -> Int? {
    guard let reference = valueReference(forKey: key, record: record),
      let index = reader.inPlace({ $0.recordIndex(ofUID: reference) }), index < paths.count
    else { return nil }
    return index
  }

  /// The records an array of references names, in order, when the key holds an array;
  /// elements that are not references are left out, as ``StateDecoder`` leaves them out.
  func recordIndices(forKey key: String, record: Int) -> [Int]? {
    guard let reference = valueReference(forKey: key, record: record) else { return nil }
    return reader.inPlace { reader -> [Int]? in
      guard let (count, start) = try? reader.containerSpan(reference, isDictionary: false)
      else { return nil }
      var indices: [Int] = []
      indices.reserveCapacity(count)
      for position in 0..<count {
        if let index = reader.recordIndex(ofUID: reader.reference(at: start, position)),
          index < paths.count
        {
          indices.append(index)
        }
      }
      return indices
    }
  }

  /// The identifier path of a record.
  func path(ofRecord index: Int) -> String { paths[index] }

  /// The keys of a record's state, in the file's order.
  package func keys(record: Int) -> [String] {
    let span = spans[record]
    return reader.inPlace { reader in
      (span.first..<(span.first + span.count)).map { reader.keyName(entries.keys[$0]) }
    }
  }

  /// A record's whole state, as ``RestorationArchive/init(decoding:limits:)`` would have read it.
  package func values(record: Int) -> KeyedValues {
    let span = spans[record]
    var result = KeyedValues(reservingCapacity: span.count)
    for position in span.first..<(span.first + span.count) {
      guard let value = value(at: entries.values[position]) else { continue }
      result.appendUnchecked(reader.inPlace { $0.keyName(entries.keys[position]) }, value)
    }
    return result
  }
}

/// The entries of the states a check accepted, state after state: each key's name number
/// (``BinaryPropertyListReader/keyNumber(_:)``) and its value's object reference.
///
/// Two flat arrays for the whole archive rather than one per state: a key is found by scanning
/// a few integers, and the table costs two allocations however many records there are.
struct CheckedEntries {
  private(set) var keys: [Int32] = []
  private(set) var values: [Int] = []

  /// The number of entries.
  var count: Int { keys.count }

  mutating func reserveCapacity(_ count: Int) {
    keys.reserveCapacity(count)
    values.reserveCapacity(count)
  }

  mutating func append(key: Int32, value: Int) {
    keys.append(key)
    values.append(value)
  }

  /// Appends another check's entries, whose key numbers are replaced by `numbers[key]`.
  mutating func append(contentsOf other: CheckedEntries, renumbering numbers: [Int32]) {
    keys.reserveCapacity(keys.count + other.count)
    for key in other.keys { keys.append(numbers[Int(key)]) }
    values.append(contentsOf: other.values)
  }
}
