package import Foundation
package import StateRestoration

/// One archived object as a contender's decoded output gives it back, in a form common to all
/// contenders, so that tests can check that every contender holds the same records.
///
/// References are the referenced record's identifier path: the engine stores paths, the other
/// contenders record indices or object references, and the path is what all of them name.
package struct ComparableRecord: Hashable, Sendable, CustomStringConvertible {
  /// The object's identifier path.
  package var path: String
  /// What kind of object it is (`viewController` or `object`).
  package var kind: String
  /// The object's class name.
  package var className: String
  /// The name of the object's restoration class, if it has one.
  package var restorationClass: String?
  /// The object's keys and values.
  package var state: [String: ComparableValue]

  /// Creates a record.
  package init(
    path: String, kind: String, className: String, restorationClass: String?,
    state: [String: ComparableValue]
  ) {
    self.path = path
    self.kind = kind
    self.className = className
    self.restorationClass = restorationClass
    self.state = state
  }

  /// The record on one line, its keys sorted, for a test's failure message.
  package var description: String {
    let keys = state.keys.sorted().map { "\($0): \(state[$0].map(String.init(describing:)) ?? "")" }
    return
      "\(path) [\(kind) \(className) \(restorationClass ?? "-")] {\(keys.joined(separator: ", "))}"
  }
}

/// A value of a ``ComparableRecord``.
package enum ComparableValue: Hashable, Sendable {
  case bool(Bool)
  case integer(Int)
  case real(Double)
  case string(String)
  case data(Data)
  case date(Date)
  case array([ComparableValue])
  case dictionary([String: ComparableValue])
  /// A reference, as the referenced object's identifier path.
  case reference(String)

  /// References to objects, by their paths.
  static func references(_ paths: [String]) -> ComparableValue {
    .array(paths.map(ComparableValue.reference))
  }
}

// MARK: - From the engine's archive

extension ComparableRecord {
  /// The records of one of the engine's archives.
  package static func records(of archive: RestorationArchive) -> [ComparableRecord] {
    archive.records.map { record in
      ComparableRecord(
        path: record.identifierPath, kind: record.kind.rawValue, className: record.className,
        restorationClass: record.restorationClassName,
        state: Dictionary(
          record.state.map { ($0.key, ComparableValue($0.value)) }, uniquingKeysWith: { $1 }))
    }
  }
}

extension ComparableValue {
  /// An archived value of the engine.
  init(_ value: StateValue) {
    switch value {
    case .bool(let value): self = .bool(value)
    case .integer(let value): self = .integer(Int(truncatingIfNeeded: value))
    case .unsignedInteger(let value): self = .integer(Int(truncatingIfNeeded: value))
    case .real(let value): self = .real(value)
    case .string(let value): self = .string(value)
    case .data(let value): self = .data(value)
    case .date(let value): self = .date(value)
    case .array(let values): self = .array(values.map(ComparableValue.init))
    case .dictionary(let values): self = .dictionary(values.mapValues(ComparableValue.init))
    case .reference(let path): self = .reference(path)
    }
  }
}

// MARK: - From property list objects

/// The type of a state key, to read a property list object back without guessing: Foundation
/// on Linux gives integers, reals and Booleans back as `NSNumber`s, which cast to more than one.
package enum ValueType: Sendable {
  case bool, integer, real, string, data, date
  /// An array of integers.
  case integers
  /// An array of strings.
  case strings
  /// A dictionary of strings to integers.
  case counts
  /// A record index.
  case reference
  /// An array of record indices.
  case references
}

extension ComparableRecord {
  /// The records of an archive in property list objects (`topLevel`, then `objects`, each with
  /// `path`, `kind`, `class`, an optional `restorationClass` and `state`), as
  /// `PropertyListSerialization` reads them and the Codable contenders' archives convert to.
  ///
  /// - Parameters:
  ///   - propertyList: The archive's root object.
  ///   - schema: The type of every state key.
  /// - Returns: One record per object, in the archive's order.
  /// - Throws: ``ComparisonFailure`` when an object or a value is not what the schema says.
  package static func records(
    propertyList: Any, schema: [String: ValueType]
  ) throws -> [ComparableRecord] {
    guard let root = propertyList as? [String: Any], let objects = root["objects"] as? [Any]
    else { throw ComparisonFailure("the archive has no objects") }
    let dictionaries = try objects.map { object in
      guard let dictionary = object as? [String: Any] else {
        throw ComparisonFailure("a record is not a dictionary")
      }
      return dictionary
    }
    let paths = try dictionaries.map { record in
      guard let path = record["path"] as? String else {
        throw ComparisonFailure("a record has no path")
      }
      return path
    }
    return try zip(paths, dictionaries).map { path, record in
      guard let kind = record["kind"] as? String, let className = record["class"] as? String,
        let state = record["state"] as? [String: Any]
      else { throw ComparisonFailure("\(path): no kind, class or state") }
      var values: [String: ComparableValue] = [:]
      for (key, value) in state {
        guard let type = schema[key] else {
          throw ComparisonFailure("\(path): key '\(key)' is not in the shape's schema")
        }
        guard let converted = ComparableValue(value, as: type, paths: paths) else {
          throw ComparisonFailure("\(path): key '\(key)' does not hold a \(type): \(value)")
        }
        values[key] = converted
      }
      return ComparableRecord(
        path: path, kind: kind, className: className,
        restorationClass: record["restorationClass"] as? String, state: values)
    }
  }
}

extension ComparableValue {
  /// A property list object of a known type; record indices become the records' paths.
  init?(_ value: Any, as type: ValueType, paths: [String]) {
    func path(_ index: Any) -> String? {
      guard let index = index as? Int, paths.indices.contains(index) else { return nil }
      return paths[index]
    }
    switch type {
    case .bool:
      guard let value = value as? Bool else { return nil }
      self = .bool(value)
    case .integer:
      guard let value = value as? Int else { return nil }
      self = .integer(value)
    case .real:
      guard let value = value as? Double else { return nil }
      self = .real(value)
    case .string:
      guard let value = value as? String else { return nil }
      self = .string(value)
    case .data:
      guard let value = value as? Data else { return nil }
      self = .data(value)
    case .date:
      guard let value = value as? Date else { return nil }
      self = .date(value)
    case .integers:
      guard let items = value as? [Any] else { return nil }
      let integers = items.compactMap { $0 as? Int }
      guard integers.count == items.count else { return nil }
      self = .array(integers.map(ComparableValue.integer))
    case .strings:
      guard let items = value as? [Any] else { return nil }
      let strings = items.compactMap { $0 as? String }
      guard strings.count == items.count else { return nil }
      self = .array(strings.map(ComparableValue.string))
    case .counts:
      guard let entries = value as? [String: Any] else { return nil }
      let counts = entries.compactMapValues { $0 as? Int }
      guard counts.count == entries.count else { return nil }
      self = .dictionary(counts.mapValues(ComparableValue.integer))
    case .reference:
      guard let target = path(value) else { return nil }
      self = .reference(target)
    case .references:
      guard let items = value as? [Any] else { return nil }
      let targets = items.compactMap(path)
      guard targets.count == items.count else { return nil }
      self = .references(targets)
    }
  }
}
