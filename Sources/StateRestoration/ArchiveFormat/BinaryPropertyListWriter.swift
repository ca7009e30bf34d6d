#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// We write binary property lists ourselves instead of calling PropertyListSerialization: on
// Linux Foundation's encoder builds an NSObject graph first and is several times slower than
// this direct writer, and it cannot place the checksum object at a fixed offset, which is how
// archives make torn writes detectable (see docs/ArchiveFormat.md).

/// Builds a binary property list (`bplist00`) from values, in two linear passes: the first
/// flattens the values into an object table, uniquing scalars as CoreFoundation does, and counts
/// the bytes each object takes; the second writes the bytes, with the narrowest reference and
/// offset widths, straight into a buffer of the exact final size.
struct BinaryPropertyListWriter {
  /// One object of the table.
  ///
  /// Payloads are plain values (strings and data live in side tables), so building and walking
  /// the table does no reference counting.
  private enum Object {
    case bool(Bool)
    case integer(Int64)
    case unsignedInteger(UInt64)
    case real(UInt64)
    case date(UInt64)
    /// An index into `datas`.
    case data(Int)
    case checksum
    /// An index into `strings`.
    case string(Int)
    /// An index into `uids`: the record it names is known once references are resolved.
    case uid(Int)
    /// `references[range]` are the element references.
    case array(Range<Int>)
    /// `references[range]` are the keys, then the values, each half of the range.
    case dictionary(Range<Int>)
  }

  /// A string of the table: where its payload is in `stringBytes`, and its form.
  ///
  /// The payload is copied out once when the string is added; writing then copies plain bytes,
  /// where reading each `String` again cost a retain, a release and a UTF-8 view per string.
  private struct StringEntry {
    /// The payload's first byte in `stringBytes`.
    var start: Int
    var isASCII: Bool
    /// Bytes for an ASCII string, UTF-16 code units otherwise.
    var length: Int
  }

  private var objects: [Object] = []
  /// The containers' child references; zeros past `referenceCount`, so that a container's
  /// references are copied into room already there, as the strings' payloads are.
  private var references: [Int] = []
  /// How many of `references` are containers' references.
  private var referenceCount = 0
  /// Pending child references while containers are flattened (avoids one array per container).
  private var pending = PendingReferences()
  private var strings: [StringEntry] = []
  /// The payloads of the strings: ASCII bytes, or big-endian UTF-16 code units.
  ///
  /// Zeros past `stringByteCount`: a payload is copied into room already there, where
  /// `append(contentsOf:)` cost two hundred instructions per string in its generic code.
  private var stringBytes: [UInt8] = []
  /// How many bytes of `stringBytes` hold payloads.
  private var stringByteCount = 0
  private var datas: [Data] = []
  /// Bytes taken by every object but the containers' references, whose width is known last.
  private var scalarBytes = 0
  private var stringTable: StringTable
  private var integers = WordTable()
  private var reals = WordTable()
  private var dates = WordTable()
  /// The UID index of each referenced path, so that equal references share one UID.
  private var uidTable: PathTable
  /// The referenced paths, by UID index.
  ///
  /// One array of entries rather than one per field: a new UID was four appends, each with its
  /// own check that the array was not shared.
  private var uids: [UIDEntry] = []
  /// The archive position of the first record with each path that no reference named yet.
  ///
  /// Small and grown as needed: it is empty unless records are noted, and a walk references most
  /// records before it adds them.
  private var unreferencedRecords = PathTable()
  /// The bytes of the paths that came as strings (references held as values, records of a
  /// ``RestorationArchive``), which the tables above file as bytes.
  private var paths = PathStorage()
  /// The record index of each UID, by UID index, once ``resolveReferences(_:)`` ran.
  private var uidValues: [UInt64] = []
  /// The record whose values are being added (its position in the archive), or -1; kept with
  /// each new reference so that a dangling one is reported where it was written.
  var referrer = -1
  private var booleans: [Int?] = [nil, nil]
  private var checksumReference: Int?

  init(estimatedObjectCount: Int = 64) {
    objects.reserveCapacity(estimatedObjectCount)
    // Containers hold about two and a half references per object of the table (a record's
    // dictionary ten, its state twice its keys): sized for that, the array is not copied
    // whole several times as it grows.
    references.reserveCapacity(estimatedObjectCount * 5 / 2)
    // A record's path and a few of its values are strings: about a third of the objects.
    strings.reserveCapacity(estimatedObjectCount / 3)
    stringBytes.reserveCapacity(estimatedObjectCount * 8)
    stringTable = StringTable(capacity: max(16, estimatedObjectCount / 4))
    // Dates and UIDs are often one or more per record (a record is about a dozen objects):
    // sized up front, their tables are not rebuilt a dozen times as they fill.
    dates = WordTable(capacity: max(16, estimatedObjectCount / 12))
    uidTable = PathTable(capacity: max(16, estimatedObjectCount / 12))
    // Grown from empty, the array was copied fourteen times over for ten thousand references.
    uids.reserveCapacity(max(16, estimatedObjectCount / 12))
  }

  // MARK: Building the object table

  /// Adds the placeholder for the checksum; it must be the first object added so that it lands
  /// at byte 8.
  mutating func addChecksumPlaceholder() -> Int {
    let reference = append(.checksum, bytes: ArchiveChecksum.objectSize)
    checksumReference = reference
    return reference
  }

  /// Adds a string, shared with any equal string already added.
  mutating func add(string: String) -> Int {
    let lookup = stringTable.lookUp(string)
    if let existing = lookup.value { return existing }
    let reference = add(uniqueString: string)
    stringTable.insert(string, reference, at: lookup)
    return reference
  }

  /// Adds a string that no other object of the table is expected to equal, without looking it
  /// up or remembering it: an equal string added later gets an object of its own.
  ///
  /// For identifier paths of records, each unique in an archive: hashing and storing one per
  /// record only to never find it again cost a hash, a probe and a retain per record.
  mutating func add(uniqueString string: String) -> Int {
    withUTF8Bytes(of: string) { add(uniqueUTF8: $0) }
  }

  /// Adds a string, given as valid UTF-8, as ``add(uniqueString:)`` adds one.
  mutating func add(uniqueUTF8 utf8: UnsafeBufferPointer<UInt8>) -> Int {
    let start = stringByteCount
    // A word at a time: a byte loop here was a quarter of adding the string.
    let isASCII = StateRestoration.isASCII(UnsafeRawBufferPointer(utf8))
    var length = 0
    if isASCII {
      length = utf8.count
      let end = start + length
      if end > stringBytes.count { Self.makeRoom(in: &stringBytes, upTo: end) }
      stringBytes.withUnsafeMutableBufferPointer { room in
        guard let target = room.baseAddress, let source = utf8.baseAddress else { return }
        (target + start).update(from: source, count: length)
      }
      stringByteCount = end
    } else {
      let units = String(decoding: utf8, as: UTF8.self).utf16
      length = units.count
      let end = start + 2 * length
      if end > stringBytes.count { Self.makeRoom(in: &stringBytes, upTo: end) }
      var index = start
      for unit in units {
        stringBytes[index] = UInt8(truncatingIfNeeded: unit >> 8)
        stringBytes[index + 1] = UInt8(truncatingIfNeeded: unit)
        index += 2
      }
      stringByteCount = end
    }
    strings.append(StringEntry(start: start, isASCII: isASCII, length: length))
    let bytes = Self.headerSize(count: length) + (isASCII ? length : 2 * length)
    return append(.string(strings.count - 1), bytes: bytes)
  }

  /// Makes zeroed room in `array` up to `end`, for the strings' payloads or the containers'
  /// references.
  ///
  /// In steps of 64 KiB within the capacity reserved up front: zeroing all of it at once made
  /// every page of an estimate resident, several megabytes more than an archive used. A step
  /// stops at the capacity unless `end` is past it: a step past it moved the whole array to one
  /// of twice the size (2.4 MB of references copied per preserve of 10,000 objects) for room
  /// the archive did not need.
  private static func makeRoom<Element: FixedWidthInteger>(
    in array: inout [Element], upTo end: Int
  ) {
    let step = array.count + 64 * 1024 / MemoryLayout<Element>.stride
    let size = max(end, min(step, array.capacity))
    array.append(contentsOf: repeatElement(0, count: size - array.count))
  }

  /// Adds a reference to the record of a path, shared with equal references.
  ///
  /// Records can be referenced before they are added, so the record index is filled in by
  /// ``resolveReferences(_:)``, which must run before ``makeBytes(top:)``.
  ///
  /// - Parameter path: The path's bytes, which must outlive the writer (a pass's paths do).
  /// - Returns: The reference's UID object.
  mutating func add(referenceTo path: PathBytes) -> Int {
    let lookup = uidTable.lookUp(path)
    if let existing = lookup.value { return uids[existing].reference }
    // The UID's size depends on the index, known when it is resolved.
    let index = uids.count
    let reference = append(.uid(index), bytes: 0)
    uidTable.insert(path, index, at: lookup)
    uids.append(
      UIDEntry(
        path: path, reference: reference, referrer: Int32(truncatingIfNeeded: referrer),
        position: unreferencedRecords.count == 0
          ? -1 : unreferencedRecords.value(for: path) ?? -1))
    return reference
  }

  /// Adds a reference to the record of a path given as a string, shared with equal references
  /// however they were given.
  mutating func add(referenceTo path: String) -> Int {
    let existing = withUTF8Bytes(of: path) { uidTable.value(forBytes: UnsafeRawBufferPointer($0)) }
    if let existing { return uids[existing].reference }
    return add(referenceTo: paths.append(path))
  }

  /// Notes that the record at an archive position has a path, so that references to the path
  /// resolve without asking ``resolveReferences(_:)``'s closure.
  ///
  /// The first record with a path wins, as references point at the first.
  ///
  /// - Parameters:
  ///   - path: The record's path, whose bytes must outlive the writer (a pass's paths do).
  ///   - position: The record's position in the archive.
  mutating func noteRecord(path: PathBytes, position: Int) {
    if let index = uidTable.value(for: path) {
      if uids[index].position < 0 { uids[index].position = position }
    } else {
      unreferencedRecords.insert(path, position)
    }
  }

  /// Notes that the record at an archive position has a path given as a string, as
  /// ``noteRecord(path:position:)-(PathBytes,_)`` does.
  mutating func noteRecord(path: String, position: Int) {
    let known = withUTF8Bytes(of: path) { utf8 in
      let bytes = UnsafeRawBufferPointer(utf8)
      return (uidTable.value(forBytes: bytes), unreferencedRecords.value(forBytes: bytes))
    }
    if let index = known.0 {
      if uids[index].position < 0 { uids[index].position = position }
    } else if known.1 == nil {
      unreferencedRecords.insert(paths.append(path), position)
    }
  }

  /// Fills in the record index of every reference.
  ///
  /// - Parameter resolve: The record index of a path, or nil when no record has it; asked only
  ///   for paths of no record noted by ``noteRecord(path:position:)``.
  /// - Returns: nil when every reference resolved; else the first dangling path, with the
  ///   position of the record whose values referenced it first (-1 for the top level).
  mutating func resolveReferences(
    _ resolve: (PathBytes) -> Int?
  ) -> (path: String, referrer: Int)? {
    uidValues.removeAll(keepingCapacity: true)
    uidValues.reserveCapacity(uids.count)
    var bytes = 0
    for index in uids.indices {
      let noted = uids[index].position
      guard let record = noted >= 0 ? noted : resolve(uids[index].path) else {
        uidValues.removeAll()
        return (uids[index].path.string, Int(uids[index].referrer))
      }
      let value = UInt64(record)
      uidValues.append(value)
      bytes += 1 + Self.byteWidth(for: value)
    }
    scalarBytes += bytes
    return nil
  }

  @inline(__always)
  private mutating func add(bool value: Bool) -> Int {
    let slot = value ? 1 : 0
    if let existing = booleans[slot] { return existing }
    let reference = append(.bool(value), bytes: 1)
    booleans[slot] = reference
    return reference
  }

  @inline(__always)
  private mutating func add(integer value: Int64) -> Int {
    let key = UInt64(bitPattern: value)
    if let existing = integers.value(for: key) { return existing }
    let width = value >= 0 ? Self.byteWidth(for: key) : 8
    let reference = append(.integer(value), bytes: 1 + width)
    integers.set(reference, for: key)
    return reference
  }

  @inline(__always)
  private mutating func add(real value: Double) -> Int {
    if let existing = reals.value(for: value.bitPattern) { return existing }
    // A real that a 32-bit float holds exactly (bit for bit, so -0.0, infinities and NaN
    // payloads are kept) takes 4 bytes, as CoreFoundation writes float32 values; every
    // reader of the format, this one since its first version included, widens it back.
    let isFloat = Double(Float(value)).bitPattern == value.bitPattern
    let reference = append(.real(value.bitPattern), bytes: isFloat ? 5 : 9)
    reals.set(reference, for: value.bitPattern)
    return reference
  }

  @inline(__always)
  private mutating func add(date: Date) -> Int {
    let bits = date.timeIntervalSinceReferenceDate.bitPattern
    if let existing = dates.value(for: bits) { return existing }
    let reference = append(.date(bits), bytes: 9)
    dates.set(reference, for: bits)
    return reference
  }

  /// Adds a value; references are resolved when ``resolveReferences(_:)`` runs.
  mutating func add(_ value: StateValue) -> Int {
    switch value {
    case .bool(let value):
      return add(bool: value)
    case .integer(let value):
      return add(integer: value)
    case .unsignedInteger(let value):
      return append(.unsignedInteger(value), bytes: 17)
    case .real(let value):
      return add(real: value)
    case .date(let date):
      return add(date: date)
    case .data(let data):
      datas.append(data)
      return append(.data(datas.count - 1), bytes: Self.headerSize(count: data.count) + data.count)
    case .string(let string):
      return add(string: string)
    case .reference(let path):
      return add(referenceTo: path)
    case .array(let elements):
      let mark = pending.count
      elements.withUnsafeBufferPointer { elements in
        for index in elements.indices { pending.push(addInPlace(elements[index])) }
      }
      return appendContainer(from: mark, isDictionary: false)
    case .dictionary(let entries):
      // Sorted keys keep archives byte-identical across runs, whatever the hash seed.
      let keys = entries.keys.sorted()
      let mark = pending.count
      for key in keys { pending.push(add(string: key)) }
      for key in keys {
        guard let element = entries[key] else { continue }
        let child = add(element)
        pending.push(child)
      }
      return appendContainer(from: mark, isDictionary: true)
    }
  }

  /// Adds a value where it lies, for the containers' loops.
  ///
  /// Scalars are matched on the borrowed value: handing the whole value to ``add(_:)`` copied
  /// it, with a retain and a release, for every value of every object.
  @inline(__always)
  private mutating func addInPlace(_ value: borrowing StateValue) -> Int {
    switch value {
    case .integer(let value): return add(integer: value)
    case .real(let value): return add(real: value)
    case .bool(let value): return add(bool: value)
    case .date(let value): return add(date: value)
    case .string(let value): return add(string: value)
    case .reference(let path): return add(referenceTo: path)
    default: return add(copy value)
    }
  }

  /// Adds a coder's value where it lies, as ``addInPlace(_:)-(StateValue)`` adds the value
  /// it stands for.
  @inline(__always)
  private mutating func addInPlace(_ value: borrowing CoderValue) -> Int {
    switch value {
    case .value(let value): return addInPlace(value)
    case .integers(let integers):
      // The bytes of `.array` of `.integer` values, made without them.
      let mark = pending.count
      integers.withUnsafeBufferPointer { integers in
        for index in integers.indices { pending.push(add(integer: Int64(integers[index]))) }
      }
      return appendContainer(from: mark, isDictionary: false)
    case .reference(let reference):
      return add(referenceTo: reference)
    case .references(let references):
      // The bytes of `.array` of `.reference` values, made without them.
      let mark = pending.count
      references.withUnsafeBufferPointer { references in
        for index in references.indices {
          pending.push(add(referenceTo: references[index]))
        }
      }
      return appendContainer(from: mark, isDictionary: false)
    }
  }

  /// Adds a dictionary with keys in the given order.
  mutating func addDictionary(_ values: KeyedValues) -> Int {
    let mark = pending.count
    // Elements are read through buffer pointers, which borrow them; iterating the arrays would
    // copy each value and retain its payload.
    values.keys.withUnsafeBufferPointer { keys in
      for index in keys.indices { pending.push(add(string: keys[index])) }
    }
    values.values.withUnsafeBufferPointer { values in
      for index in values.indices {
        let child = add(values[index])
        pending.push(child)
      }
    }
    return appendContainer(from: mark, isDictionary: true)
  }

  /// Adds a coder's values as a dictionary, keys in the order written.
  ///
  /// - Parameters:
  ///   - entries: The values, with their keys' numbers.
  ///   - keyNames: The key names, by number.
  ///   - keyReferences: The reference of each key name already added, by number, or -1; updated.
  /// - Returns: The dictionary's reference.
  mutating func addDictionary(
    entries: UnsafeBufferPointer<CoderEntry>,
    keyNames: [String],
    keyReferences: inout [Int]
  ) -> Int {
    let mark = pending.count
    for index in entries.indices {
      let key = Int(entries[index].key)
      var reference = keyReferences[key]
      if reference < 0 {
        reference = add(string: keyNames[key])
        keyReferences[key] = reference
      }
      pending.push(reference)
    }
    // Through the base address, whose `pointee` lends each entry where the buffer's subscript
    // copied it, retaining and releasing its payload.
    guard let base = entries.baseAddress else {
      return appendContainer(from: mark, isDictionary: true)
    }
    for index in entries.indices { pending.push(addInPlace((base + index).pointee.value)) }
    return appendContainer(from: mark, isDictionary: true)
  }

  /// Adds a dictionary whose keys and values are already in the table.
  mutating func addDictionary(keys: [Int], values: [Int]) -> Int {
    let mark = pending.count
    pending.push(contentsOf: keys)
    pending.push(contentsOf: values)
    return appendContainer(from: mark, isDictionary: true)
  }

  /// Adds an array whose elements are already in the table.
  mutating func addArray(_ elements: [Int]) -> Int {
    let mark = pending.count
    pending.push(contentsOf: elements)
    return appendContainer(from: mark, isDictionary: false)
  }

  /// Starts a container whose children are added one at a time with ``addChild(_:)``, and
  /// which ``endArray(from:)`` or ``endDictionary(from:)`` adds: a dictionary's keys first,
  /// then its values in the same order.
  ///
  /// Containers nest: a child container begun and ended between two children of this one takes
  /// its own children off the stack. Adding children this way spares the caller collecting them
  /// in arrays of its own, which were then copied here.
  ///
  /// - Returns: The mark to end the container with.
  mutating func beginContainer() -> Int { pending.count }

  /// Adds a child of the innermost container begun.
  @inline(__always)
  mutating func addChild(_ reference: Int) { pending.push(reference) }

  /// Adds the array whose elements were added since `mark`.
  mutating func endArray(from mark: Int) -> Int {
    appendContainer(from: mark, isDictionary: false)
  }

  /// Adds the dictionary whose keys, then values, were added since `mark`.
  mutating func endDictionary(from mark: Int) -> Int {
    appendContainer(from: mark, isDictionary: true)
  }

  private mutating func appendContainer(from mark: Int, isDictionary: Bool) -> Int {
    let start = referenceCount
    let end = start + pending.count - mark
    if end > references.count { Self.makeRoom(in: &references, upTo: end) }
    pending.pop(from: mark, into: &references, at: start)
    referenceCount = end
    let range = start..<end
    let count = isDictionary ? range.count / 2 : range.count
    return append(
      isDictionary ? .dictionary(range) : .array(range),
      bytes: Self.headerSize(count: count)
    )
  }

  @inline(__always)
  private mutating func append(_ object: Object, bytes: Int) -> Int {
    objects.append(object)
    scalarBytes += bytes
    return objects.count - 1
  }

  // MARK: Writing bytes

  /// Writes the property list with `top` as its root object.
  ///
  /// - Parameters:
  ///   - top: The root object.
  ///   - concurrently: For a large file, write the last two fifths of the objects, and compute
  ///     their CRC-32, on a background queue while the calling thread does the rest; the
  ///     bytes are the same.
  /// - Returns: The file's bytes; when a checksum placeholder was added, it holds the CRC-32 of
  ///   every byte after it.
  func makeBytes(top: Int, concurrently: Bool = false) -> [UInt8] {
    precondition(uidValues.count == uids.count, "references written before they were resolved")
    let referenceSize = Self.tableWidth(for: UInt64(max(objects.count - 1, 0)))
    let tableOffset = 8 + scalarBytes + referenceCount * referenceSize
    let layout = Layout(
      referenceSize: referenceSize, tableOffset: tableOffset,
      offsetSize: Self.tableWidth(for: UInt64(tableOffset)))
    let total = tableOffset + objects.count * layout.offsetSize + 32
    // Three fifths on this thread: the queue first adds up the sizes of this thread's objects
    // to find where its own start. Split in the middle, this thread then waited for the queue
    // 234 µs by the median of 66 calls for 10,000 records, and the bytes took 810 µs; at three
    // fifths it waited 83 µs, and the bytes took 738 µs (at 65%, 803 µs).
    let laterPartStart = objects.count * 3 / 5
    // The later part goes to a background queue only when the checksum object, if any, is in
    // the first: archives add it first, so that it lands at byte 8.
    let inTwoParts =
      concurrently && total >= RestorationArchive.concurrentChecksumThreshold
      && objects.count >= 2 && (checksumReference ?? 0) < laterPartStart
    var checksumStart: Int?
    var crc: UInt32 = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
      var out = ByteWriter(buffer)
      out.append(contentsOf: "bplist00")
      let split = inTwoParts ? laterPartStart : objects.count
      var later: BackgroundResult<LaterPart>?
      if inTwoParts {
        let writer = self
        let shared = SharedMutableBytes(buffer)
        later = BackgroundResult {
          writer.writeLaterPart(from: split, layout: layout, into: shared.bytes)
        }
      }
      checksumStart = writeObjects(0..<split, to: &out, layout: layout)
      let splitOffset = out.count
      out.skip(tableOffset - splitOffset)
      out.skip(objects.count * layout.offsetSize)
      // Trailer: 5 unused bytes, sort version, offset width, reference width, counts and offsets.
      for _ in 0..<6 { out.append(0) }
      out.append(UInt8(layout.offsetSize))
      out.append(UInt8(referenceSize))
      out.appendBigEndian(UInt64(objects.count), width: 8)
      out.appendBigEndian(UInt64(top), width: 8)
      out.appendBigEndian(UInt64(tableOffset), width: 8)
      precondition(out.count == total, "binary property list size miscounted")
      initialized = out.count
      let file = UnsafeRawBufferPointer(buffer)
      let covered = checksumStart.map { $0 + ArchiveChecksum.objectSize }
      guard let later else {
        // Each object's size was counted when it was added; the offset table must start exactly
        // where the objects end, or the sizes and the writes disagree.
        precondition(splitOffset == tableOffset, "binary property list size miscounted")
        if let covered { crc = CRC32.checksum(UnsafeRawBufferPointer(rebasing: file[covered...])) }
        return
      }
      // In file order: this part's objects, the later part's, this part's offsets, the later
      // part's offsets, the trailer. This part's are computed while the queue works.
      let firstTable = tableOffset + split * layout.offsetSize
      let trailer = total - 32
      let checksums = covered.map { covered in
        (
          objects: CRC32.checksum(UnsafeRawBufferPointer(rebasing: file[covered..<splitOffset])),
          table: CRC32.checksum(UnsafeRawBufferPointer(rebasing: file[tableOffset..<firstTable])),
          trailer: CRC32.checksum(UnsafeRawBufferPointer(rebasing: file[trailer...]))
        )
      }
      // Waited for inside the initializer, so the buffer outlives the queue's writing to it.
      let second = later.wait()
      precondition(second.start == splitOffset, "binary property list size miscounted")
      guard let checksums else { return }
      crc = CRC32.combine(
        checksums.objects, second.objectsChecksum, secondLength: tableOffset - splitOffset)
      crc = CRC32.combine(crc, checksums.table, secondLength: firstTable - tableOffset)
      crc = CRC32.combine(crc, second.tableChecksum, secondLength: trailer - firstTable)
      crc = CRC32.combine(crc, checksums.trailer, secondLength: 32)
    }
    guard let start = checksumStart else { return bytes }
    var result = bytes
    result.withUnsafeMutableBufferPointer { buffer in
      for index in 0..<4 {
        buffer[start + 1 + index] = UInt8(truncatingIfNeeded: crc >> UInt32(24 - 8 * index))
      }
    }
    return result
  }

  /// The widths and the offset table's position of a file being written.
  private struct Layout {
    var referenceSize: Int
    var tableOffset: Int
    var offsetSize: Int
  }

  /// What the background queue reports of the later part it wrote.
  private struct LaterPart: Sendable {
    /// Where its first object starts.
    var start: Int
    /// The CRC-32 of its objects' bytes.
    var objectsChecksum: UInt32
    /// The CRC-32 of its entries of the offset table.
    var tableChecksum: UInt32
  }

  /// Writes the objects from `split` on, with their offsets, and computes their CRC-32s.
  ///
  /// Where they start is the size of the objects before them, summed here: the queue adds
  /// sizes while the calling thread writes those objects.
  private func writeLaterPart(
    from split: Int, layout: Layout, into buffer: UnsafeMutableBufferPointer<UInt8>
  ) -> LaterPart {
    var start = 8
    for index in 0..<split {
      start += size(of: objects[index], referenceSize: layout.referenceSize)
    }
    var out = ByteWriter(buffer)
    out.skip(start)
    _ = writeObjects(split..<objects.count, to: &out, layout: layout)
    precondition(out.count == layout.tableOffset, "binary property list size miscounted")
    let file = UnsafeRawBufferPointer(buffer)
    let table = layout.tableOffset + split * layout.offsetSize
    let tableEnd = layout.tableOffset + objects.count * layout.offsetSize
    return LaterPart(
      start: start,
      objectsChecksum: CRC32.checksum(
        UnsafeRawBufferPointer(rebasing: file[start..<layout.tableOffset])),
      tableChecksum: CRC32.checksum(UnsafeRawBufferPointer(rebasing: file[table..<tableEnd])))
  }

  /// Writes objects at the writer's end, and their offsets into the table.
  ///
  /// - Returns: The checksum object's offset, when it is among them.
  private func writeObjects(
    _ range: Range<Int>, to out: inout ByteWriter, layout: Layout
  ) -> Int? {
    var checksumStart: Int?
    var table = layout.tableOffset + range.lowerBound * layout.offsetSize
    // A plain integer to compare each index with, rather than the optional reference.
    let checksumIndex = checksumReference ?? -1
    for index in range {
      let offset = out.count
      if index == checksumIndex { checksumStart = offset }
      out.putBigEndian(UInt64(offset), width: layout.offsetSize, at: table)
      table += layout.offsetSize
      write(objects[index], to: &out, referenceSize: layout.referenceSize)
    }
    return checksumStart
  }

  /// The bytes ``write(_:to:referenceSize:)`` writes for an object.
  private func size(of object: Object, referenceSize: Int) -> Int {
    switch object {
    case .bool: 1
    case .integer(let value): value >= 0 ? 1 + Self.byteWidth(for: UInt64(value)) : 9
    case .unsignedInteger: 17
    case .real(let bits): Double(Float(Double(bitPattern: bits))).bitPattern == bits ? 5 : 9
    case .date: 9
    case .data(let index): Self.headerSize(count: datas[index].count) + datas[index].count
    case .checksum: ArchiveChecksum.objectSize
    case .string(let index):
      Self.headerSize(count: strings[index].length)
        + (strings[index].isASCII ? strings[index].length : 2 * strings[index].length)
    case .uid(let index): 1 + Self.byteWidth(for: uidValues[index])
    case .array(let range): Self.headerSize(count: range.count) + range.count * referenceSize
    case .dictionary(let range):
      Self.headerSize(count: range.count / 2) + range.count * referenceSize
    }
  }

  // Inlined into the loop of `writeObjects`, its one caller: the call's entry and exit were an
  // eighth of writing the objects.
  @inline(__always)
  private func write(_ object: Object, to out: inout ByteWriter, referenceSize: Int) {
    switch object {
    case .bool(let value):
      out.append(value ? 0x09 : 0x08)
    case .integer(let value):
      if value >= 0 {
        let width = Self.byteWidth(for: UInt64(value))
        // 1, 2 and 4-byte integers are unsigned; 8-byte ones are signed.
        out.append(0x10 | UInt8(width.trailingZeroBitCount))
        out.appendBigEndian(UInt64(value), width: width)
      } else {
        out.append(0x13)
        out.appendBigEndian(UInt64(bitPattern: value), width: 8)
      }
    case .unsignedInteger(let value):
      // Values above Int64.max need the 16-byte form, as plistlib and CoreFoundation write it.
      out.append(0x14)
      out.appendBigEndian(0, width: 8)
      out.appendBigEndian(value, width: 8)
    case .real(let bits):
      let value = Double(bitPattern: bits)
      let single = Float(value)
      if Double(single).bitPattern == bits {
        out.append(0x22)
        out.appendBigEndian(UInt64(single.bitPattern), width: 4)
      } else {
        out.append(0x23)
        out.appendBigEndian(bits, width: 8)
      }
    case .date(let bits):
      out.append(0x33)
      out.appendBigEndian(bits, width: 8)
    case .data(let index):
      let data = datas[index]
      out.appendHeader(0x40, count: data.count)
      data.withUnsafeBytes { out.append(raw: $0) }
    case .checksum:
      out.append(0x44)
      out.appendBigEndian(0, width: 4)
    case .string(let index):
      let entry = strings[index]
      out.appendHeader(entry.isASCII ? 0x50 : 0x60, count: entry.length)
      let size = entry.isASCII ? entry.length : 2 * entry.length
      stringBytes.withUnsafeBytes { bytes in
        out.append(raw: UnsafeRawBufferPointer(rebasing: bytes[entry.start..<(entry.start + size)]))
      }
    case .uid(let index):
      let value = uidValues[index]
      let width = Self.byteWidth(for: value)
      out.append(0x80 | UInt8(width - 1))
      out.appendBigEndian(value, width: width)
    case .array(let range):
      out.appendHeader(0xA0, count: range.count)
      out.appendReferences(references, range, width: referenceSize)
    case .dictionary(let range):
      out.appendHeader(0xD0, count: range.count / 2)
      out.appendReferences(references, range, width: referenceSize)
    }
  }

  /// The bytes a marker with `count` takes: the count sits in the marker's low nibble below 15,
  /// else in a following integer object.
  static func headerSize(count: Int) -> Int {
    count < 15 ? 1 : 2 + byteWidth(for: UInt64(count))
  }

  /// The fewest bytes, 1 to 8, that hold `value`: the width of references and offsets.
  ///
  /// CoreFoundation writes these widths too (3 bytes once an archive passes 64 KiB or 65,536
  /// objects), and saving a byte per reference and per offset is a tenth of a typical archive.
  static func tableWidth(for value: UInt64) -> Int {
    max(1, (UInt64.bitWidth - value.leadingZeroBitCount + 7) / 8)
  }

  /// The narrowest of 1, 2, 4 or 8 bytes that holds `value`.
  static func byteWidth(for value: UInt64) -> Int {
    if value <= 0xFF { return 1 }
    if value <= 0xFFFF { return 2 }
    if value <= 0xFFFF_FFFF { return 4 }
    return 8
  }
}

/// The child references of the containers being added, innermost container's last.
///
/// A stack whose storage never shrinks: taking a container's references off only moves the
/// count, where `Array.removeLast(_:)` went through the general range-replacing code once per
/// container.
private struct PendingReferences {
  // An array, although every push checks that it is not shared: a buffer of its own in a small
  // class, tried, ran 9% fewer instructions on the concurrent writer's queue and yet made a
  // preserve of 10,000 objects about 4 ms slower in every round measured. The likely cause is
  // the queue writing the stack's count, on every push, in a small object that shares a cache
  // line with objects the walk's thread writes.
  private var storage: [Int] = []
  private(set) var count = 0

  @inline(__always)
  mutating func push(_ reference: Int) {
    if count < storage.count {
      storage[count] = reference
    } else {
      storage.append(reference)
    }
    count += 1
  }

  /// Pushes references already in an array, in order.
  mutating func push(contentsOf references: [Int]) {
    // Whatever lies above the count is dead: drop it so the references go in with one copy.
    if count < storage.count { storage.removeLast(storage.count - count) }
    storage.append(contentsOf: references)
    count += references.count
  }

  /// Copies the references above `mark` into `target` from `start`, and takes them off the
  /// stack; `target` must have room for them there.
  @inline(__always)
  mutating func pop(from mark: Int, into target: inout [Int], at start: Int) {
    precondition(mark >= 0 && mark <= count, "container ended twice or out of order")
    let moving = count - mark
    precondition(start >= 0 && moving <= target.count - start, "no room for the references")
    storage.withUnsafeBufferPointer { storage in
      target.withUnsafeMutableBufferPointer { target in
        guard moving > 0, let source = storage.baseAddress, let room = target.baseAddress else {
          return
        }
        (room + start).update(from: source + mark, count: moving)
      }
    }
    count = mark
  }
}

/// A path referenced in the table, with its UID object.
private struct UIDEntry {
  var path: PathBytes
  /// The UID object.
  var reference: Int
  /// The archive position of the record whose values first referenced the path, -1 for the top
  /// level.
  var referrer: Int32
  /// The archive position of the first record with the path, once such a record was added (see
  /// ``BinaryPropertyListWriter/noteRecord(path:position:)``); -1 before.
  ///
  /// A preserve's records are added on a background queue while the walk goes on: references
  /// resolved there leave the walk's thread a read of this field instead of a lookup each.
  var position: Int
}

/// Where the checksum lives: a 4-byte data object at byte 8, right after the magic number.
enum ArchiveChecksum {
  /// The marker byte plus four bytes of CRC.
  static let objectSize = 5
  /// The offset of the checksum object.
  static let offset = 8
}

/// Writes bytes into a buffer of known size.
///
/// The writer sizes the buffer exactly before writing, so the bounds check here only guards
/// against a miscount; it costs a compare per write, far less than `Array.append`'s capacity and
/// uniqueness checks per byte.
struct ByteWriter {
  private let base: UnsafeMutablePointer<UInt8>
  private let capacity: Int
  private(set) var count = 0

  init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
    // A zero-capacity buffer has no base address; point at a dummy that is never written.
    base = buffer.baseAddress ?? UnsafeMutablePointer(bitPattern: 1).unsafelyUnwrapped
    capacity = buffer.count
  }

  @inline(__always)
  private func reserve(_ size: Int, at position: Int) {
    precondition(position >= 0 && size <= capacity - position, "write past the end of the buffer")
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    reserve(1, at: count)
    base[count] = byte
    count += 1
  }

  mutating func append(contentsOf ascii: StaticString) {
    ascii.withUTF8Buffer { append(raw: UnsafeRawBufferPointer($0)) }
  }

  @inline(__always)
  mutating func append(raw bytes: UnsafeRawBufferPointer) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    reserve(bytes.count, at: count)
    (base + count).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
    count += bytes.count
  }

  @inline(__always)
  mutating func appendBigEndian(_ value: UInt64, width: Int) {
    putBigEndian(value, width: width, at: count)
    count += width
  }

  /// Writes a big-endian value at a position without moving the end.
  @inline(__always)
  func putBigEndian(_ value: UInt64, width: Int, at position: Int) {
    reserve(width, at: position)
    let out = base + position
    // The offset table's widths (1 to 3 bytes) and the 8-byte scalars are written without a
    // byte loop, which was a fifth of writing the bytes.
    switch width {
    case 1:
      out[0] = UInt8(truncatingIfNeeded: value)
    case 2:
      out[0] = UInt8(truncatingIfNeeded: value &>> 8)
      out[1] = UInt8(truncatingIfNeeded: value)
    case 3:
      out[0] = UInt8(truncatingIfNeeded: value &>> 16)
      out[1] = UInt8(truncatingIfNeeded: value &>> 8)
      out[2] = UInt8(truncatingIfNeeded: value)
    case 8:
      UnsafeMutableRawPointer(out).storeBytes(of: value.bigEndian, as: UInt64.self)
    default:
      var shift = UInt64((width - 1) * 8)
      for index in 0..<width {
        out[index] = UInt8(truncatingIfNeeded: value >> shift)
        shift &-= 8
      }
    }
  }

  /// Moves the end past bytes written with ``putBigEndian(_:width:at:)``.
  mutating func skip(_ size: Int) {
    reserve(size, at: count)
    count += size
  }

  /// A marker with its count: in the low nibble when below 15, else in a following integer.
  @inline(__always)
  mutating func appendHeader(_ marker: UInt8, count: Int) {
    if count < 15 {
      append(marker | UInt8(count))
    } else {
      append(marker | 0x0F)
      let width = BinaryPropertyListWriter.byteWidth(for: UInt64(count))
      append(0x10 | UInt8(width.trailingZeroBitCount))
      appendBigEndian(UInt64(count), width: width)
    }
  }

  /// Container references, each `width` bytes, big-endian.
  @inline(__always)
  mutating func appendReferences(_ references: [Int], _ range: Range<Int>, width: Int) {
    precondition(range.lowerBound >= 0 && range.upperBound <= references.count)
    reserve(range.count * width, at: count)
    var out = base + count
    // The widths archives use (1 to 3 bytes) are written without an inner loop: a byte loop
    // per reference was a tenth of writing the bytes.
    references.withUnsafeBufferPointer { refs in
      switch width {
      case 1:
        for index in range {
          out[0] = UInt8(truncatingIfNeeded: refs[index])
          out += 1
        }
      case 2:
        for index in range {
          let value = refs[index]
          out[0] = UInt8(truncatingIfNeeded: value &>> 8)
          out[1] = UInt8(truncatingIfNeeded: value)
          out += 2
        }
      case 3:
        for index in range {
          let value = refs[index]
          out[0] = UInt8(truncatingIfNeeded: value &>> 16)
          out[1] = UInt8(truncatingIfNeeded: value &>> 8)
          out[2] = UInt8(truncatingIfNeeded: value)
          out += 3
        }
      default:
        for index in range {
          let value = UInt64(truncatingIfNeeded: refs[index])
          var shift = UInt64((width - 1) * 8)
          for _ in 0..<width {
            out[0] = UInt8(truncatingIfNeeded: value >> shift)
            out += 1
            shift &-= 8
          }
        }
      }
    }
    count += range.count * width
  }
}

/// Bytes written by a background queue while the thread that owns them writes other bytes of
/// the same buffer and then waits for it.
///
/// Unchecked: the two write disjoint ranges, and the owner reads the queue's range, or frees the
/// buffer, only after the queue's result is in.
struct SharedMutableBytes: @unchecked Sendable {
  let bytes: UnsafeMutableBufferPointer<UInt8>
  init(_ bytes: UnsafeMutableBufferPointer<UInt8>) { self.bytes = bytes }
}
