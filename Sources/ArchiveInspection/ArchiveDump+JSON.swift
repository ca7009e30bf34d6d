public import StateRestoration

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension ArchiveDump {
  /// A description of the JSON form, for `--help` and the documentation.
  public static let jsonSchemaSummary = """
    The JSON form is one object: "formatVersion" ("1.0", or null), "restorationClassMap" \
    (path to class name), "topLevel" (key to value), and "objects", an array in archive order \
    of {"path", "kind" (viewController, view or object), "class", "restorationClass" (or \
    null), "stateVersion" (the version of what its class encodes, 0 by default), "storyboard" \
    ({"name", "identifier"}, or null), "sensitiveKeys" (names only), \
    "state" (key to value)}. Values map to JSON as booleans, numbers, strings, arrays and \
    objects, except: a reference to another object is {"$ref": "PATH"}, data is \
    {"$data": "BASE64"}, a date is {"$date": "2014-07-06T16:05:18Z"} (UTC), and a real that \
    JSON cannot hold is {"$real": "nan"}, "inf" or "-inf". Keys of archived dictionaries that \
    begin with "$" get one more "$", so they are never taken for these. Object keys are sorted \
    wherever the archive does not fix their order.
    """

  /// A description of the JSON form for several archives, for `--help` and the documentation.
  public static let jsonSectionsSummary = """
    The archives of an app with scenes (a `.savedState` folder or --bundle-id) are one JSON \
    document, a lone session's too: an array in the order of the text form's sections, of \
    {"session" (the scene session's identifier, or null for the app's own archive), "path", \
    "archive" (the object above, or null), "error" (why the archive cannot be read, or null)}.
    """

  /// The archive as JSON, for scripts; the layout is in ``jsonSchemaSummary``.
  ///
  /// - Parameter archive: The archive.
  /// - Returns: Pretty-printed JSON, ending with a newline.
  public static func json(_ archive: RestorationArchive) -> String {
    jsonDocument(archive).rendered() + "\n"
  }

  /// Several archives as one JSON document, for scripts; the layout is in
  /// ``jsonSectionsSummary``.
  ///
  /// - Parameter sections: The archives, each with its session.
  /// - Returns: Pretty-printed JSON, ending with a newline.
  public static func json(_ sections: [ArchiveSection]) -> String {
    let root = JSON.array(
      sections.map { section in
        let archive: JSON =
          switch section.archive {
          case .success(let archive): jsonDocument(archive)
          case .failure: .null
          }
        return JSON.object([
          ("session", section.session.map(JSON.string) ?? .null),
          ("path", .string(section.path)),
          ("archive", archive),
          ("error", section.errorMessage.map(JSON.string) ?? .null),
        ])
      })
    return root.rendered() + "\n"
  }

  private static func jsonDocument(_ archive: RestorationArchive) -> JSON {
    let classMap = archive.restorationClassMap.sorted { $0.key < $1.key }
    let values = archive.fileTopLevel
    let topLevel = KeyOrdering.sorted(values.keys).map { key in (key, jsonValue(values[key])) }
    return JSON.object([
      ("formatVersion", .string(archive.version.description)),
      ("restorationClassMap", .object(classMap.map { ($0.key, .string($0.value)) })),
      ("topLevel", .object(topLevel)),
      ("objects", .array(archive.records.map(jsonRecord))),
    ])
  }

  private static func jsonRecord(_ record: RestorationArchive.Record) -> JSON {
    let storyboard = record.storyboard.map { storyboard in
      JSON.object([
        ("name", .string(storyboard.name)),
        ("identifier", storyboard.identifier.map(JSON.string) ?? .null),
      ])
    }
    // A value stored under a sensitive key (only a damaged or hand-made archive has one) is left
    // out, as the text dump withholds it: the key is listed under "sensitiveKeys".
    let sensitive = Set(record.sensitiveKeys)
    let state = KeyOrdering.sorted(record.state.keys.filter { !sensitive.contains($0) }).map {
      key in (key, jsonValue(record.state[key]))
    }
    return .object([
      ("path", .string(record.identifierPath)),
      ("kind", .string(record.kind.rawValue)),
      ("class", .string(record.className)),
      ("restorationClass", record.restorationClassName.map(JSON.string) ?? .null),
      ("stateVersion", .number(String(record.stateVersion))),
      ("storyboard", storyboard ?? .null),
      ("sensitiveKeys", .array(KeyOrdering.sorted(record.sensitiveKeys).map(JSON.string))),
      ("state", .object(state)),
    ])
  }

  static func jsonValue(_ value: StateValue?) -> JSON {
    guard let value else { return .null }
    switch value {
    case .bool(let flag):
      return .bool(flag)
    case .integer(let number):
      return .number(String(number))
    case .unsignedInteger(let number):
      return .number(String(number))
    case .real(let number):
      guard number.isFinite else {
        return .object([("$real", .string(ValueFormatting.real(number)))])
      }
      return .number(number.description)
    case .string(let text):
      return .string(text)
    case .data(let data):
      return .object([("$data", .string(data.base64EncodedString()))])
    case .date(let date):
      // Dates four-digit years cannot show fall back to seconds since 1970.
      let seconds = date.timeIntervalSince1970
      let fallback: JSON =
        seconds.isFinite ? .number(seconds.description) : .string(ValueFormatting.real(seconds))
      return .object([("$date", ValueFormatting.isoDate(date).map(JSON.string) ?? fallback)])
    case .reference(let path):
      return .object([("$ref", .string(path))])
    case .array(let elements):
      return .array(elements.map(jsonValue))
    case .dictionary(let entries):
      return .object(
        entries.sorted { $0.key < $1.key }.map { key, value in
          (key.hasPrefix("$") ? "$" + key : key, jsonValue(value))
        }
      )
    }
  }
}
