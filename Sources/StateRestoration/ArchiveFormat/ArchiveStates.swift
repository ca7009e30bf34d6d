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
  /// Where a record's state dictionary lists its references: `count` keys from `start`, then
  /// `count` values.
  struct Span {
    var count: Int
    var start: Int
  }

  // Unchecked exclusivity: every key a decoder reads touches the reader, and nothing reenters
  // it while it reads (reading a value calls no app code).
  @exclusivity(unchecked) private var reader: BinaryPropertyListReader
  private let paths: [String]
  private let spans: [Span]

  /// Maps a UID to the path of the record it names; made once, not per value read.
  private let uid: (Int) throws(RestorationError) -> String
  /// The key object each key name was last found as, by the bits of the name's `String`.
  ///
  /// Writers share one string object per key name, so a key is usually found by comparing
  /// object numbers rather than strings; a miss falls back to comparing names. Apps pass
  /// literal keys, whose bits repeat from call to call.
  @exclusivity(unchecked) private var recentKeys = [(name: String, reference: Int)?](
    repeating: nil, count: 64)

  init(reader: BinaryPropertyListReader, paths: [String], spans: [Span]) {
    self.reader = reader
    self.paths = paths
    self.spans = spans
    uid = { (index: Int) throws(RestorationError) -> String in
      guard index < paths.count else {
        throw BinaryPropertyListReader.recordReferenceError(index, recordCount: paths.count)
      }
      return paths[index]
    }
  }

  @inline(__always)
  private func slot(of key: String) -> Int {
    guard MemoryLayout<String>.size == 16 else { return 0 }
    let bits = withUnsafeBytes(of: key) { raw in
      (raw.load(as: UInt64.self), raw.load(fromByteOffset: 8, as: UInt64.self))
    }
    return Int(truncatingIfNeeded: mixBits(bits.0 ^ (bits.1 &* 31))) & (recentKeys.count - 1)
  }

  /// The number of records.
  package var recordCount: Int { spans.count }

  /// Key positions of the records with many keys, built on first use, so that an object with
  /// thousands of keys still decodes in linear time (as ``KeyedValues`` does).
  @exclusivity(unchecked) private var indexes: [Int: [String: Int]] = [:]

  /// The object reference of the value a record's state holds for a key, if any.
  @inline(__always)
  private func valueReference(forKey key: String, record: Int) -> Int? {
    let span = spans[record]
    if span.count > KeyedValues.indexThreshold {
      let index = indexes[record] ?? makeIndex(record: record)
      return index[key].map { reader.reference(at: span.start, span.count + $0) }
    }
    let slot = slot(of: key)
    if let cached = recentKeys[slot], cached.name == key {
      for index in 0..<span.count
      where reader.reference(at: span.start, index) == cached.reference {
        return reader.reference(at: span.start, span.count + index)
      }
    }
    for index in 0..<span.count {
      let keyReference = reader.reference(at: span.start, index)
      guard let name = try? reader.string(keyReference) else { continue }
      if name == key {
        recentKeys[slot] = (key, keyReference)
        return reader.reference(at: span.start, span.count + index)
      }
    }
    return nil
  }

  private func makeIndex(record: Int) -> [String: Int] {
    let span = spans[record]
    var index: [String: Int] = [:]
    index.reserveCapacity(span.count)
    for position in 0..<span.count {
      if let name = try? reader.string(reader.reference(at: span.start, position)) {
        index[name] = position
      }
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
    if let scalar = reader.scalarValue(reference) { return scalar }
    return try? reader.value(reference, depth: 3, uid: uid)
  }

  /// The record a key's reference names, when the key holds a reference.
  ///
  /// Decoders resolve references by record rather than by path: no path is hashed or retained.
  func recordIndex(forKey key: String, record: Int) -> Int? {
    guard let reference = valueReference(forKey: key, record: record),
      let index = reader.recordIndex(ofUID: reference), index < paths.count
    else { return nil }
    return index
  }

  /// The records an array of references names, in order, when the key holds an array;
  /// elements that are not references are left out, as ``StateDecoder`` leaves them out.
  func recordIndices(forKey key: String, record: Int) -> [Int]? {
    guard let reference = valueReference(forKey: key, record: record),
      let (count, start) = try? reader.containerSpan(reference, isDictionary: false)
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

  /// The identifier path of a record.
  func path(ofRecord index: Int) -> String { paths[index] }

  /// The keys of a record's state, in the file's order.
  package func keys(record: Int) -> [String] {
    let span = spans[record]
    var keys: [String] = []
    keys.reserveCapacity(span.count)
    for index in 0..<span.count {
      if let name = try? reader.string(reader.reference(at: span.start, index)) {
        keys.append(name)
      }
    }
    return keys
  }

  /// A record's whole state, as ``RestorationArchive/init(decoding:limits:)`` would have read it.
  package func values(record: Int) -> KeyedValues {
    let span = spans[record]
    var result = KeyedValues(reservingCapacity: span.count)
    for index in 0..<span.count {
      guard let name = try? reader.string(reader.reference(at: span.start, index)),
        let value = value(at: reader.reference(at: span.start, span.count + index))
      else { continue }
      result.appendUnchecked(name, value)
    }
    return result
  }
}
