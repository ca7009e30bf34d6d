import ArchiveInspection
import Foundation
import StateRestoration
import TestSupport
import Testing

/// Checks what the tool prints against other readers of the same file: Python's `plistlib` and
/// `plutil`.
@Suite struct InteroperabilityTests {
  /// Reads an archive with plistlib and prints, as JSON, its paths, each record's keys
  /// (sensitive ones included), its top-level keys, and the whole archive converted to the
  /// tool's JSON form (`ArchiveDump.jsonSchemaSummary`), written independently here.
  private static let script = """
    import base64, json, math, plistlib, sys
    raw = open(sys.argv[1], "rb").read()
    archive = plistlib.loads(raw)
    # Format 3: one column per field, one element per record; kinds and classes in "types".
    columns, types, records = archive["objects"], archive["types"], []
    for i, name in enumerate(columns["name"]):
        r = dict(types[columns["type"][i]], state=columns["state"][i])
        parent = columns["parent"][i]
        r["path"] = name if parent < 0 else records[parent]["path"] + "/" + name
        if columns.get("sensitiveKeys", [[]] * (i + 1))[i]:
            r["sensitiveKeys"] = columns["sensitiveKeys"][i]
        records.append(r)

    def iso(value):
        text = value.strftime("%Y-%m-%dT%H:%M:%S")
        if value.microsecond:
            text += ("." + "%06d" % value.microsecond).rstrip("0")
        return text + "Z"

    def convert(value):
        if isinstance(value, plistlib.UID):
            return {"$ref": records[value.data]["path"]}
        if isinstance(value, bool):
            return value
        if isinstance(value, float) and not math.isfinite(value):
            return {"$real": "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")}
        if isinstance(value, bytes):
            return {"$data": base64.b64encode(value).decode()}
        if hasattr(value, "strftime"):
            return {"$date": iso(value)}
        if isinstance(value, list):
            return [convert(item) for item in value]
        if isinstance(value, dict):
            return {("$" + key if key.startswith("$") else key): convert(item)
                    for key, item in value.items()}
        return value

    top = archive["topLevel"]
    major, minor = top["kUIStateRestorationArchiveMajorVersionKey"], top["kUIStateRestorationArchiveMinorVersionKey"]
    converted = {
        "formatVersion": "%d.%d" % (major, minor),
        "restorationClassMap": {r["path"]: r["restorationClass"] for r in records if "restorationClass" in r},
        "topLevel": {key: convert(value) for key, value in top.items()},
        "objects": [
            {
                "path": r["path"], "kind": r["kind"], "class": r["class"],
                "restorationClass": r.get("restorationClass"),
                "stateVersion": r.get("version", 0),
                "storyboard": {"name": r["storyboard"], "identifier": r.get("storyboardIdentifier")}
                    if "storyboard" in r else None,
                "sensitiveKeys": sorted(r.get("sensitiveKeys", []), key=lambda k: (k.lower(), k)),
                "state": {key: convert(value) for key, value in r.get("state", {}).items()},
            }
            for r in records
        ],
    }
    print(json.dumps({
        "paths": [r["path"] for r in records],
        "keys": {r["path"]: sorted(list(r.get("state", {})) + r.get("sensitiveKeys", [])) for r in records},
        "topLevelKeys": sorted(top),
        "converted": converted,
    }))
    """

  private struct PythonView: Decodable {
    var paths: [String]
    var keys: [String: [String]]
    var topLevelKeys: [String]
  }

  /// The paths and keys of a text dump, read back from the text: section headers
  /// `[Kind] PATH (Class: NAME)` and entries `KEY...VALUE` indented 16 spaces.
  private func parseDump(_ text: String) -> (
    paths: [String], keys: [String: [String]], top: [String]
  ) {
    var paths: [String] = []
    var keys: [String: [String]] = [:]
    var top: [String] = []
    var current: String?
    var inTopLevel = false
    let header = /^\[(View Controller|View|Object)\] (.+) \(Class: [^()]+\)$/
    for line in text.split(separator: "\n") {
      if let match = line.wholeMatch(of: header) {
        current = String(match.2)
        paths.append(String(match.2))
        inTopLevel = false
        continue
      }
      if line == "Top Level" {
        inTopLevel = true
        continue
      }
      guard line.hasPrefix(String(repeating: " ", count: 16)), line.dropFirst(16).first != " "
      else { continue }
      let entry = line.dropFirst(16)
      guard let dots = entry.range(of: "...") else { continue }  // notes: restoration class...
      let key = String(entry[..<dots.lowerBound])
      if inTopLevel {
        top.append(key)
      } else if let current {
        keys[current, default: []].append(key)
      }
    }
    return (paths, keys, top)
  }

  @Test(arguments: ["talkDemo", "signIn"])
  func everyPathAndKeyTheToolPrintsIsInTheArchiveAsPlistlibReadsIt(scenario: String) throws {
    let archive = scenario == "talkDemo" ? try DemoArchives.talkDemo() : try DemoArchives.signIn()
    let (folder, file) = try DemoArchives.write(try archive.encoded())
    defer { try? FileManager.default.removeItem(at: folder) }

    let python = try python(Self.script, [file.path])
    try #require(python.status == 0, "\(python.standardError)")
    let view = try JSONDecoder().decode(PythonView.self, from: Data(python.standardOutput.utf8))

    let dump = try ArchiveTool.run(["dump", file.path])
    #expect(dump.status == 0, "\(dump.standardError)")
    let printed = parseDump(dump.standardOutput)
    #expect(!printed.paths.isEmpty)
    #expect(printed.paths == view.paths)
    for path in printed.paths {
      let printedKeys = try #require(printed.keys[path], "no keys printed for \(path)")
      for key in printedKeys {
        #expect(view.keys[path]?.contains(key) == true, "\(path): \(key) is not in the archive")
      }
      #expect(printedKeys.sorted() == view.keys[path])
    }
    #expect(printed.top.sorted() == view.topLevelKeys)
  }

  @Test(arguments: ["talkDemo", "signIn"])
  func jsonDumpMatchesPlistlibsReadingOfTheFile(scenario: String) throws {
    let archive = scenario == "talkDemo" ? try DemoArchives.talkDemo() : try DemoArchives.signIn()
    let (folder, file) = try DemoArchives.write(try archive.encoded())
    defer { try? FileManager.default.removeItem(at: folder) }

    let python = try python(Self.script, [file.path])
    try #require(python.status == 0, "\(python.standardError)")
    let pythonRoot = try #require(
      try JSONSerialization.jsonObject(with: Data(python.standardOutput.utf8)) as? NSDictionary)
    let converted = try #require(pythonRoot["converted"] as? NSDictionary)

    let dump = try ArchiveTool.run(["dump", "--json", file.path])
    #expect(dump.status == 0, "\(dump.standardError)")
    let tool = try #require(
      try JSONSerialization.jsonObject(with: Data(dump.standardOutput.utf8)) as? NSDictionary)
    #expect(tool == converted, "tool: \(tool)\nplistlib: \(converted)")
  }

  /// `plutil`: the Swift toolchain's on Linux, the system's on macOS; nil when neither is there.
  static let plutil = ["/opt/swift/usr/bin/plutil", "/usr/bin/plutil"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  // Skipped, and shown as skipped, when the toolchain has no plutil where it usually is.
  @Test(.enabled(if: plutil != nil, "plutil is not at /opt/swift/usr/bin or /usr/bin"))
  func plutilAcceptsTheArchives() throws {
    let plutil = try #require(Self.plutil)
    for archive in [try DemoArchives.talkDemo(), try DemoArchives.signIn()] {
      let (folder, file) = try DemoArchives.write(try archive.encoded())
      defer { try? FileManager.default.removeItem(at: folder) }
      let result = try run(plutil, ["-lint", file.path])
      #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
      #expect(result.standardOutput.contains("OK"))
    }
  }
}
