import Foundation
import TestSupport
import Testing

/// The manifest's `platforms` must say what the code needs: CI builds on Linux only, where
/// nothing checks availability, so an API newer than the declared macOS would break the first
/// macOS build unnoticed.
@Suite struct PlatformTests {
  /// APIs whose availability sets the floor, with the macOS version they need.
  ///
  /// Names that are also ordinary words of the code (`bytes`, `span`) are left out: this is a
  /// tripwire for the usual suspects, not a compiler.
  private static let markers: [(pattern: String, macOS: Int)] = [
    ("InlineArray", 26), ("Span<", 26), ("RawSpan", 26), ("MutableSpan", 26), ("OutputSpan", 26),
    ("UTF8Span", 26), (".utf8Span", 26), ("Task.immediate", 26), ("@concurrent", 26),
    ("Mutex<", 15), ("Atomic<", 15), ("String(validating:", 15), ("import Synchronization", 15),
  ]

  /// The package's Swift files, with comments removed.
  private static func sources() throws -> [(path: String, code: String)] {
    let root = BuiltExecutable.packageRoot
    var files: [(String, String)] = []
    for folder in ["Sources", "Examples", "Tests"] {
      let url = root.appendingPathComponent(folder)
      guard let walk = FileManager.default.enumerator(atPath: url.path) else { continue }
      // This file names the markers; it uses none of them.
      for case let relative as String in walk
      where relative.hasSuffix(".swift") && !relative.hasSuffix("PlatformTests.swift") {
        let text = try String(
          contentsOf: url.appendingPathComponent(relative), encoding: .utf8)
        let code = text.split(separator: "\n").map { line in
          line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line)
        }
        files.append(("\(folder)/\(relative)", code.joined(separator: "\n")))
      }
    }
    return files
  }

  /// The `.macOS(.vN)` of `Package.swift`.
  private static func declaredMacOS() throws -> Int {
    let manifest = try String(
      contentsOf: BuiltExecutable.packageRoot.appendingPathComponent("Package.swift"),
      encoding: .utf8)
    let start = try #require(manifest.range(of: ".macOS(.v"), "Package.swift declares no macOS")
    return try #require(Int(manifest[start.upperBound...].prefix { $0.isNumber }))
  }

  @Test func theDeclaredMacOSIsWhatTheCodeNeeds() throws {
    let declared = try Self.declaredMacOS()
    var needed = 0
    for (path, code) in try Self.sources() {
      for marker in Self.markers where code.contains(marker.pattern) {
        needed = max(needed, marker.macOS)
        #expect(
          marker.macOS <= declared,
          "\(path) uses \(marker.pattern), which needs macOS \(marker.macOS); Package.swift declares macOS \(declared)"
        )
      }
    }
    // And no higher than needed, or users of older systems are turned away for nothing.
    #expect(
      needed == declared, "the code needs macOS \(needed); Package.swift declares \(declared)")
  }
}
