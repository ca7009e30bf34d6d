import StateRestoration
import TestSupport
import Testing

/// Archives the engine would never write, crafted byte by byte, in release 0.1.0's layout (2.0,
/// a dictionary per record) and in the current one (3.0, columns).
///
/// Every internal key holding every wrong type, references to records that do not exist, paths
/// given twice: the reader gives a typed error or a valid archive, and a restoration from any of
/// them finishes.
@Suite struct CraftedArchiveTests {
  /// The fields of a small, valid archive: a root controller with a reference to its child,
  /// and a child that uses every optional record field.
  private static func validRoot() -> [(String, CraftedValue)] {
    [
      ("format", .string("StateRestorationArchive")),
      (
        "topLevel",
        .dictionary([
          ("kUIStateRestorationArchiveMajorVersionKey", .integer(2)),
          ("kUIStateRestorationArchiveMinorVersionKey", .integer(0)),
          ("appKey", .string("app")),
        ])
      ),
      ("objects", .array([validRecord(0), validRecord(1)])),
    ]
  }

  private static func validRecord(_ index: Int) -> CraftedValue {
    if index == 0 {
      return .dictionary([
        ("name", .string("TabController")),
        ("kind", .string("viewController")),
        ("class", .string("TestController")),
        ("state", .dictionary([("value", .integer(7)), ("child", .uid(1))])),
      ])
    }
    return .dictionary([
      ("parent", .integer(0)),
      ("name", .string("FirstViewController")),
      ("kind", .string("viewController")),
      ("class", .string("TestController")),
      ("restorationClass", .string("CityRestoration")),
      ("storyboard", .string("Main")),
      ("storyboardIdentifier", .string("First")),
      ("sensitiveKeys", .array([.string("password")])),
      ("state", .dictionary([("list", .array([.integer(1), .real(2.5), .string("x")]))])),
    ])
  }

  /// One value of each type a property list can hold.
  private static let everyType: [(name: String, value: CraftedValue)] = [
    ("string", .string("x")),
    ("integer", .integer(7)),
    ("real", .real(1.5)),
    ("bool", .bool(true)),
    ("data", .data([1, 2, 3])),
    ("date", .date(0)),
    ("uid", .uid(0)),
    ("array", .array([.integer(1)])),
    ("dictionary", .dictionary([("a", .integer(1))])),
  ]

  private static func replacing(
    _ key: String, in entries: [(String, CraftedValue)], with value: CraftedValue
  ) -> [(String, CraftedValue)] {
    entries.map { $0.0 == key ? ($0.0, value) : $0 }
  }

  /// Decodes, and also restores through an engine into the talk demo's tree, which must finish
  /// whatever the bytes.
  private func decode(_ bytes: [UInt8]) -> Result<RestorationArchive, RestorationError> {
    let store = InMemoryArchiveStore(contents: [.archive: bytes])
    let report = makeEngine(store: store, delegate: TestDelegate())
      .restoreApplicationState(roots: TalkDemo().roots)
    do {
      let archive = try RestorationArchive(decoding: bytes)
      #expect(report.outcome == .restored)
      return .success(archive)
    } catch {
      guard case .discarded(.unreadable(let reported)) = report.outcome else {
        Issue.record("the engine restored an archive its reader rejects: \(report.outcome)")
        return .failure(error)
      }
      #expect(reported.code == error.code)
      return .failure(error)
    }
  }

  @Test func theCraftedBaseArchiveIsValid() throws {
    let archive = try decode(CraftedArchive.bytes(Self.validRoot())).get()
    #expect(
      archive.records.map(\.identifierPath) == [
        "TabController", "TabController/FirstViewController",
      ])
    #expect(archive.records[0].state["child"] == .reference("TabController/FirstViewController"))
    #expect(archive.records[1].sensitiveKeys == ["password"])
    #expect(archive.topLevel["appKey"] == .string("app"))
  }

  @Test(arguments: ["format", "topLevel", "objects"])
  func everyWrongTypeForARootFieldIsATypedError(field: String) {
    let right = ["format": "string", "topLevel": "dictionary", "objects": "array"][field]
    for (type, value) in Self.everyType where type != right {
      let bytes = CraftedArchive.bytes(Self.replacing(field, in: Self.validRoot(), with: value))
      guard case .failure(let error) = decode(bytes) else {
        Issue.record("'\(field)' as \(type) was accepted")
        continue
      }
      #expect([.notArchive, .malformed].contains(error.code), "'\(field)' as \(type): \(error)")
    }
  }

  @Test(arguments: [
    "parent", "name", "kind", "class", "restorationClass", "storyboard", "storyboardIdentifier",
    "sensitiveKeys", "state",
  ])
  func everyWrongTypeForARecordFieldIsATypedError(field: String) {
    let right =
      ["sensitiveKeys": "array", "state": "dictionary", "parent": "integer"][field] ?? "string"
    for (type, value) in Self.everyType where type != right {
      guard case .dictionary(let entries) = Self.validRecord(1) else { return }
      let record = CraftedValue.dictionary(Self.replacing(field, in: entries, with: value))
      let root = Self.replacing(
        "objects", in: Self.validRoot(), with: .array([Self.validRecord(0), record]))
      guard case .failure(let error) = decode(CraftedArchive.bytes(root)) else {
        Issue.record("record field '\(field)' as \(type) was accepted")
        continue
      }
      #expect(error.code == .malformed, "'\(field)' as \(type): \(error)")
    }
  }

  @Test func everyWrongTypeForTheVersionKeysIsATypedError() {
    for key in [
      "kUIStateRestorationArchiveMajorVersionKey", "kUIStateRestorationArchiveMinorVersionKey",
    ] {
      for (type, value) in Self.everyType where type != "integer" {
        let topLevel = CraftedValue.dictionary(
          [
            ("kUIStateRestorationArchiveMajorVersionKey", .integer(2)),
            ("kUIStateRestorationArchiveMinorVersionKey", .integer(0)),
          ].map { $0.0 == key ? ($0.0, value) : $0 })
        let root = Self.replacing("topLevel", in: Self.validRoot(), with: topLevel)
        guard case .failure = decode(CraftedArchive.bytes(root)) else {
          Issue.record("'\(key)' as \(type) was accepted")
          continue
        }
      }
    }
  }

  @Test func anUnknownKindAndNonStringSensitiveKeysAreTypedErrors() {
    for (field, value) in [
      ("kind", CraftedValue.string("spaceship")),
      ("sensitiveKeys", .array([.integer(1)])),
    ] {
      guard case .dictionary(let entries) = Self.validRecord(1) else { return }
      let record = CraftedValue.dictionary(Self.replacing(field, in: entries, with: value))
      let root = Self.replacing(
        "objects", in: Self.validRoot(), with: .array([Self.validRecord(0), record]))
      guard case .failure(let error) = decode(CraftedArchive.bytes(root)) else {
        Issue.record("'\(field)' = \(value) was accepted")
        continue
      }
      #expect(error.code == .malformed)
    }
  }

  @Test func aReferenceToARecordThatDoesNotExistIsATypedError() {
    // In an object's state, nested in a container, and in the top level.
    let states: [CraftedValue] = [
      .dictionary([("child", .uid(2))]),
      .dictionary([("children", .array([.uid(1), .uid(99)]))]),
      .dictionary([("deep", .dictionary([("x", .uid(UInt32.max))]))]),
    ]
    for state in states {
      let record = CraftedValue.dictionary([
        ("name", .string("TabController")), ("kind", .string("viewController")),
        ("class", .string("TestController")), ("state", state),
      ])
      let root = Self.replacing(
        "objects", in: Self.validRoot(), with: .array([record, Self.validRecord(1)]))
      guard case .failure(let error) = decode(CraftedArchive.bytes(root)) else {
        Issue.record("a reference in \(state) was accepted")
        continue
      }
      #expect(error.code == .malformed)
      #expect(error.description.contains("reference to object record"))
    }
    let topLevel = CraftedValue.dictionary([
      ("kUIStateRestorationArchiveMajorVersionKey", .integer(2)),
      ("kUIStateRestorationArchiveMinorVersionKey", .integer(0)),
      ("current", .uid(5)),
    ])
    let root = Self.replacing("topLevel", in: Self.validRoot(), with: topLevel)
    guard case .failure(let error) = decode(CraftedArchive.bytes(root)) else {
      Issue.record("a top-level reference to a missing record was accepted")
      return
    }
    #expect(error.code == .malformed)
  }

  @Test func aPathGivenTwiceRestoresTheFirstAndReportsTheSecond() throws {
    let root = Self.replacing(
      "objects", in: Self.validRoot(),
      with: .array([Self.validRecord(0), Self.validRecord(1), Self.validRecord(1)]))
    let bytes = CraftedArchive.bytes(root)
    let archive = try decode(bytes).get()
    #expect(archive.records.count == 3)
    let demo = TalkDemo()
    let report = makeEngine(
      store: InMemoryArchiveStore(contents: [.archive: bytes]), delegate: TestDelegate()
    )
    .restoreApplicationState(roots: demo.roots)
    #expect(report.outcome == .restored)
    #expect(demo.tab.decodedState?["value"] == 7)
    #expect(report.entries.contains { $0.status == .skipped(.duplicatePath) })
  }

  /// A key named twice is an error in every dictionary of the file, the root's and the
  /// records' as well as the states' and the top level's, whether the reader knows the key or
  /// not: no reader may pick one of the two values while another picks the other.
  @Test func aRepeatedKeyIsRejectedInEveryDictionary() throws {
    func repeating(_ key: String, _ value: CraftedValue, in fields: [(String, CraftedValue)])
      -> [(String, CraftedValue)]
    {
      fields + [(key, value)]
    }
    let root = Self.validRoot()
    guard case .dictionary(let record) = Self.validRecord(1),
      case .dictionary(let topLevel) = root[1].1
    else {
      Issue.record("the valid archive changed shape")
      return
    }
    func state(_ nested: [(String, CraftedValue)]) -> [(String, CraftedValue)] {
      record.filter { $0.0 != "state" } + [
        (
          "state",
          .dictionary([
            ("value", .integer(1)), ("nested", .dictionary(nested)), ("value", .integer(2)),
          ])
        )
      ]
    }
    func withRecord(_ fields: [(String, CraftedValue)]) -> [(String, CraftedValue)] {
      [root[0], root[1], ("objects", .array([Self.validRecord(0), .dictionary(fields)]))]
    }
    let cases: [(String, [(String, CraftedValue)])] = [
      ("format", repeating("format", .string("StateRestorationArchive"), in: root)),
      ("objects", repeating("objects", .array([]), in: root)),
      (
        "unknown",
        repeating("unknown", .integer(2), in: repeating("unknown", .integer(1), in: root))
      ),
      ("name", withRecord(repeating("name", .string("Other"), in: record))),
      ("class", withRecord(repeating("class", .string("Other"), in: record))),
      (
        "extra",
        withRecord(repeating("extra", .integer(2), in: repeating("extra", .integer(1), in: record)))
      ),
      (
        "appKey",
        [
          root[0], ("topLevel", .dictionary(repeating("appKey", .string("again"), in: topLevel))),
          root[2],
        ]
      ),
      // In a state, repeated after a dictionary nested between the two, whose keys are
      // others or the same.
      ("value", withRecord(state([("inner", .integer(1))]))),
      ("value", withRecord(state([("value", .integer(1))]))),
    ]
    for (key, fields) in cases {
      guard case .failure(let error) = decode(CraftedArchive.bytes(fields)) else {
        Issue.record("the repeated key '\(key)' was accepted")
        continue
      }
      #expect(error.code == .malformed, "\(key)")
      #expect(error.message == "dictionary repeats the key '\(key)'", "\(key)")
    }
  }

  // MARK: The current layout

  /// The fields of a small, valid archive of the current layout: the same two records.
  private static func validColumns(
    replacing field: String? = nil, with value: CraftedValue = .integer(0)
  ) -> [(String, CraftedValue)] {
    let columns: [(String, CraftedValue)] = [
      ("parent", .array([.integer(-1), .integer(0)])),
      ("name", .array([.string("TabController"), .string("FirstViewController")])),
      ("type", .array([.integer(0), .integer(1)])),
      (
        "state",
        .array([
          .dictionary([("value", .integer(7)), ("child", .uid(1))]),
          .dictionary([("list", .array([.integer(1), .real(2.5), .string("x")]))]),
        ])
      ),
      ("sensitiveKeys", .array([.array([]), .array([.string("password")])])),
    ]
    let types: [CraftedValue] = [
      .dictionary([("kind", .string("viewController")), ("class", .string("TestController"))]),
      .dictionary([
        ("kind", .string("viewController")), ("class", .string("TestController")),
        ("restorationClass", .string("CityRestoration")), ("storyboard", .string("Main")),
        ("storyboardIdentifier", .string("First")),
      ]),
    ]
    let root: [(String, CraftedValue)] = [
      ("format", .string("StateRestorationArchive")),
      (
        "topLevel",
        .dictionary([
          ("kUIStateRestorationArchiveMajorVersionKey", .integer(3)),
          ("kUIStateRestorationArchiveMinorVersionKey", .integer(1)),
          ("appKey", .string("app")),
        ])
      ),
      ("types", .array(types)),
      ("objects", .dictionary(columns)),
    ]
    guard let field else { return root }
    if root.contains(where: { $0.0 == field }) { return replacing(field, in: root, with: value) }
    return replacing(
      "objects", in: root, with: .dictionary(replacing(field, in: columns, with: value)))
  }

  @Test func theCraftedArchiveOfTheCurrentLayoutIsValid() throws {
    let archive = try decode(CraftedArchive.bytes(Self.validColumns())).get()
    #expect(archive.version == .current)
    #expect(
      archive.records.map(\.identifierPath) == [
        "TabController", "TabController/FirstViewController",
      ])
    #expect(archive.records[0].state["child"] == .reference("TabController/FirstViewController"))
    #expect(archive.records[1].sensitiveKeys == ["password"])
    #expect(archive.records[1].restorationClassName == "CityRestoration")
    #expect(archive.records[1].storyboard == StoryboardReference(name: "Main", identifier: "First"))
    // Read in either layout, the two archives are one.
    #expect(try decode(CraftedArchive.bytes(Self.validRoot())).get() == archive)
  }

  @Test(arguments: ["types", "objects", "parent", "name", "type", "state", "sensitiveKeys"])
  func everyWrongTypeForAFieldOrColumnIsATypedError(field: String) {
    let right = ["objects": "dictionary"][field] ?? "array"
    for (type, value) in Self.everyType where type != right {
      guard
        case .failure(let error) = decode(
          CraftedArchive.bytes(Self.validColumns(replacing: field, with: value)))
      else {
        Issue.record("'\(field)' as \(type) was accepted")
        continue
      }
      #expect([.notArchive, .malformed].contains(error.code), "'\(field)' as \(type): \(error)")
    }
  }

  @Test func everyWrongElementOfAColumnOrTypeIsATypedError() {
    let cases: [(String, CraftedValue)] = [
      ("parent", .array([.integer(-1), .string("0")])),
      ("parent", .array([.integer(-1), .integer(1)])),
      ("parent", .array([.integer(-2), .integer(0)])),
      ("name", .array([.string("TabController"), .integer(1)])),
      ("type", .array([.integer(0), .integer(2)])),
      ("type", .array([.integer(0), .integer(-1)])),
      ("state", .array([.dictionary([]), .array([])])),
      ("sensitiveKeys", .array([.array([]), .array([.integer(1)])])),
      ("name", .array([.string("TabController")])),
      ("types", .array([.dictionary([("kind", .string("spaceship")), ("class", .string("C"))])])),
      ("types", .array([.dictionary([("kind", .string("view"))])])),
      ("types", .array([.dictionary([("kind", .string("view")), ("class", .integer(1))])])),
      (
        "types",
        .array([
          .dictionary([
            ("kind", .string("view")), ("class", .string("C")), ("version", .integer(-1)),
          ])
        ])
      ),
      (
        "types",
        .array([
          .dictionary([
            ("kind", .string("view")), ("class", .string("C")), ("version", .string("1")),
          ])
        ])
      ),
    ]
    for (field, value) in cases {
      guard
        case .failure(let error) = decode(
          CraftedArchive.bytes(Self.validColumns(replacing: field, with: value)))
      else {
        Issue.record("'\(field)' = \(value) was accepted")
        continue
      }
      #expect(error.code == .malformed, "'\(field)' = \(value): \(error)")
    }
  }

  @Test func aStringSharedByManyReferencesIsRefusedBeforeItTakesMemory() throws {
    // 16 KiB shared 20,000 times: 60 KiB of file for 320 MiB of strings.
    let long = CraftedValue.shared("long", .string(String(repeating: "x", count: 16 << 10)))
    let many = CraftedValue.array(Array(repeating: long, count: 20_000))
    let state = CraftedValue.array([.dictionary([("many", many)]), .dictionary([])])
    let files = [
      CraftedArchive.propertyList(many),
      CraftedArchive.bytes(Self.validColumns(replacing: "state", with: state)),
      CraftedArchive.bytes(
        Self.replacing(
          "objects", in: Self.validRoot(),
          with: .array([
            .dictionary([
              ("name", .string("Root")), ("kind", .string("viewController")),
              ("class", .string("TestController")), ("state", .dictionary([("many", many)])),
            ])
          ]))),
    ]
    let clock = ContinuousClock()
    let start = clock.now
    for (index, bytes) in files.enumerated() {
      #expect(bytes.count < 100_000)
      let error = #expect(throws: RestorationError.self, "file \(index)") {
        if index == 0 { _ = try PropertyList.read(bytes) } else { _ = try decode(bytes).get() }
      }
      #expect(error?.code == .limitExceeded, "file \(index): \(String(describing: error))")
      #expect(
        error?.message.contains("twice the file's size") == true, "\(String(describing: error))")
    }
    #expect(clock.now - start < .seconds(2))
    // The same string once is read, and so is what the writer shares: a short string in
    // every element of a long array.
    let text = String(repeating: "x", count: 16 << 10)
    let once = try PropertyList.read(CraftedArchive.propertyList(.array([.string(text)])))
    #expect(once == .array([.string(text)]))
    let labels = StateValue.array(
      Array(repeating: .string(String(repeating: "é", count: 16)), count: 50_000))
    #expect(try PropertyList.read(PropertyList.write(labels)) == labels)
  }

  @Test func recordsNamedByOneLongStringAreRefusedQuickly() {
    // 20,000 records whose names are one shared 8 KiB string: 160 MiB of names from 170 KiB,
    // read once; the paths are refused at the file's share of their total.
    let count = 20_000
    let name = CraftedValue.shared("name", .string(String(repeating: "n", count: 8 << 10)))
    let columns: [(String, CraftedValue)] = [
      ("parent", .array(Array(repeating: .shared("root", .integer(-1)), count: count))),
      ("name", .array(Array(repeating: name, count: count))),
      ("type", .array(Array(repeating: .shared("type", .integer(0)), count: count))),
      ("state", .array(Array(repeating: .shared("state", .dictionary([])), count: count))),
    ]
    let bytes = CraftedArchive.bytes(
      Self.replacing("objects", in: Self.validColumns(), with: .dictionary(columns)))
    #expect(bytes.count < 200_000)
    let clock = ContinuousClock()
    let start = clock.now
    guard case .failure(let error) = decode(bytes) else {
      Issue.record("160 MiB of identifier paths were accepted from \(bytes.count) bytes")
      return
    }
    #expect(error.code == .limitExceeded, "\(error)")
    // Read again for each record, the name alone is 160 MiB to check.
    #expect(clock.now - start < .seconds(10))
  }

  @Test func aMissingColumnIsATypedError() {
    for column in ["parent", "name", "type", "state"] {
      let root = Self.validColumns().map { field, value -> (String, CraftedValue) in
        guard field == "objects", case .dictionary(let columns) = value else {
          return (field, value)
        }
        return (field, .dictionary(columns.filter { $0.0 != column }))
      }
      guard case .failure(let error) = decode(CraftedArchive.bytes(root)) else {
        Issue.record("an archive without '\(column)' was accepted")
        continue
      }
      #expect(error.code == .notArchive, "\(column): \(error)")
    }
  }
}
