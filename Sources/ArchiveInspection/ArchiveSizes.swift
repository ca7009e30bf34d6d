public import StateRestoration

/// How many bytes each object and each key of an archive takes.
///
/// Every object (its record: path, kind, class, state...) and every key (its name plus its
/// value) is encoded alone as a binary property list, the archive's own form, and measured
/// without the 40 bytes of header and trailer every property list has. A reference to another
/// object is measured as the archive stores it, a UID of the object's record number. Strings
/// shared between objects are stored once in the archive but counted in each object here, so
/// the sum can exceed the file's size; it shows what each object would cost on its own.
public struct ArchiveSizes: Sendable, Hashable {
  /// The measuring method, for `--help`.
  public static let methodSummary = """
    Each object's record (path, kind, class, restoration class, storyboard, sensitive key \
    names and state) and each key (its name plus its value) is encoded alone as a binary \
    property list, the archive's own encoding, and counted without the 40 bytes of header and \
    trailer every property list has. A reference to another object counts as the archive \
    stores it, a UID of the object's record number. The archive stores each distinct string \
    once, so strings shared between objects are counted in each of them here: the total can \
    exceed the file's size, and each number is what the object would cost on its own.
    """

  /// The measured size of one key.
  public struct Key: Sendable, Hashable {
    /// The key.
    public var name: String
    /// Its size: the name plus the value (the name alone for a sensitive key).
    public var bytes: Int
    /// Whether the key is sensitive, so only its name is stored.
    public var isSensitive: Bool

    /// Creates a key's size.
    ///
    /// - Parameters:
    ///   - name: The key.
    ///   - bytes: Its size.
    ///   - isSensitive: Whether only its name is stored.
    public init(name: String, bytes: Int, isSensitive: Bool) {
      self.name = name
      self.bytes = bytes
      self.isSensitive = isSensitive
    }
  }

  /// The measured size of one object, or of the top level.
  public struct Object: Sendable, Hashable {
    /// The object's record, or nil for the top level.
    public var record: RestorationArchive.Record?
    /// The object's position in the archive, or nil for the top level.
    public var recordIndex: Int?
    /// The size of the whole record (or the whole top level).
    public var bytes: Int
    /// Its keys, largest first.
    public var keys: [Key]

    /// How the object is named in the report: its path, or `Top Level`.
    public var title: String {
      record.map { ValueFormatting.name($0.identifierPath) } ?? "Top Level"
    }
  }

  /// The objects and the top level, largest first (ties in archive order, the top level first).
  public var objects: [Object]
  /// The sum of all sizes.
  public var total: Int
  /// The number of object records.
  public var recordCount: Int

  /// Measures an archive.
  ///
  /// - Parameter archive: The archive.
  /// - Complexity: O(n) in the size of the archive.
  public init(_ archive: RestorationArchive) {
    var recordNumbers: [String: Int] = [:]
    for (index, record) in archive.records.enumerated()
    where recordNumbers[record.identifierPath] == nil {
      recordNumbers[record.identifierPath] = index
    }
    let measure = Measure(recordNumbers: recordNumbers)

    var objects: [Object] = []
    objects.reserveCapacity(archive.records.count + 1)
    objects.append(
      Object(
        record: nil,
        recordIndex: nil,
        bytes: measure.size(of: .dictionary(archive.topLevel.dictionary)),
        keys: Self.keys(of: archive.topLevel, sensitive: [], measure)
      )
    )
    for (index, record) in archive.records.enumerated() {
      objects.append(
        Object(
          record: record,
          recordIndex: index,
          bytes: measure.size(of: measure.recordValue(record)),
          keys: Self.keys(of: record.state, sensitive: record.sensitiveKeys, measure)
        )
      )
    }
    // The sort is stable, so equal sizes keep archive order.
    self.objects = objects.enumerated()
      .sorted { ($1.element.bytes, $0.offset) < ($0.element.bytes, $1.offset) }
      .map(\.element)
    total = objects.reduce(0) { $0 + $1.bytes }
    recordCount = archive.records.count
  }

  private static func keys(
    of values: KeyedValues,
    sensitive: [String],
    _ measure: Measure
  ) -> [Key] {
    var keys = values.map { key, value in
      Key(
        name: key,
        bytes: measure.size(of: .string(key)) + measure.size(of: value),
        isSensitive: false
      )
    }
    keys += sensitive.map { Key(name: $0, bytes: measure.size(of: .string($0)), isSensitive: true) }
    return keys.sorted { ($1.bytes, $0.name) < ($0.bytes, $1.name) }
  }

  /// The objects (not the top level) above a budget, largest first.
  ///
  /// - Parameter budget: The most bytes an object should take.
  /// - Returns: The objects above it.
  public func objects(above budget: ByteCount) -> [Object] {
    objects.filter { $0.record != nil && $0.bytes > budget.bytes }
  }

  /// The report: objects largest first, each followed by its keys largest first, the total,
  /// and a warning line for each object above the budget.
  ///
  /// - Parameters:
  ///   - budget: The most bytes an object should take.
  ///   - limit: Show only this many of the largest objects (and the top level, if among them);
  ///     nil for all. The total and the warnings always cover every object.
  ///   - fileSize: The archive file's size, to show beside the total.
  /// - Returns: The text, ending with a newline.
  public func text(budget: ByteCount, limit: Int? = nil, fileSize: Int? = nil) -> String {
    let shown = limit.map { Array(objects.prefix(max(0, $0))) } ?? objects
    let largest = shown.flatMap { [$0.bytes] + $0.keys.map(\.bytes) }.max() ?? 0
    let width = ValueFormatting.grouped(largest).count
    func column(_ bytes: Int) -> String {
      let text = ValueFormatting.grouped(bytes)
      return String(repeating: " ", count: max(0, width - text.count)) + text
    }
    var lines: [String] = []
    for object in shown {
      var title = object.title
      if let record = object.record {
        title += " (Class: \(ValueFormatting.name(record.className)))"
      }
      lines.append(column(object.bytes) + "  " + title)
      for key in object.keys {
        let note = key.isSensitive ? "  " + ArchiveDump.sensitiveMarker : ""
        lines.append(column(key.bytes) + "      " + ValueFormatting.name(key.name) + note)
      }
    }
    if shown.count < objects.count {
      lines.append("(\(objects.count - shown.count) smaller not shown)")
    }
    lines.append("")
    var totalLine =
      "\(ValueFormatting.grouped(total)) bytes in \(recordCount) object\(recordCount == 1 ? "" : "s") and the top level"
    if let fileSize { totalLine += "; the file is \(ValueFormatting.grouped(fileSize)) bytes" }
    lines.append(totalLine)
    let over = objects(above: budget)
    for object in over {
      lines.append(
        "warning: \(object.title) is \(ValueFormatting.grouped(object.bytes)) bytes, above the budget of \(budget)"
      )
    }
    if over.isEmpty { lines.append("No object is above the budget of \(budget).") }
    return lines.joined(separator: "\n") + "\n"
  }
}

/// Encodes values alone to measure them.
private struct Measure {
  /// The bytes every binary property list has besides its objects: the 8-byte header and the
  /// 32-byte trailer.
  static let envelope = 40

  let recordNumbers: [String: Int]

  /// The size of a value encoded alone, references counted as UIDs.
  func size(of value: StateValue) -> Int {
    // The writer refuses references in a plain property list; an integer of the record number
    // has exactly the size of the UID the archive stores (a marker and 1, 2, 4 or 8 bytes).
    guard let bytes = try? PropertyList.write(replacingReferences(in: value)) else { return 0 }
    return bytes.count - Self.envelope
  }

  func replacingReferences(in value: StateValue) -> StateValue {
    switch value {
    case .reference(let path): .integer(Int64(recordNumbers[path] ?? 0))
    case .array(let elements): .array(elements.map(replacingReferences))
    case .dictionary(let entries): .dictionary(entries.mapValues(replacingReferences))
    default: value
    }
  }

  /// A record as the archive lays it out (docs/ArchiveFormat.md).
  func recordValue(_ record: RestorationArchive.Record) -> StateValue {
    var fields: [String: StateValue] = [
      "path": .string(record.identifierPath),
      "kind": .string(record.kind.rawValue),
      "class": .string(record.className),
      "state": .dictionary(record.state.dictionary),
    ]
    if let name = record.restorationClassName { fields["restorationClass"] = .string(name) }
    if let storyboard = record.storyboard {
      fields["storyboard"] = .string(storyboard.name)
      if let identifier = storyboard.identifier {
        fields["storyboardIdentifier"] = .string(identifier)
      }
    }
    if !record.sensitiveKeys.isEmpty {
      fields["sensitiveKeys"] = .array(record.sensitiveKeys.map(StateValue.string))
    }
    return .dictionary(fields)
  }
}
