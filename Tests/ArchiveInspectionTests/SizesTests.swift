import ArchiveInspection
import Foundation
import StateRestoration
import Testing

@Suite struct SizesTests {
  @Test func sizesAreThoseOfEachValueEncodedAlone() throws {
    let key = "blob"
    let archive = Crafting.archive([
      Crafting.record("Big", state: [(key, .data(Data(repeating: 7, count: 1_000)))]),
      Crafting.record("Small", state: [("n", .integer(1)), ("ref", .reference("Big"))]),
    ])
    let sizes = ArchiveSizes(archive)
    #expect(sizes.recordCount == 2)
    let big = try #require(sizes.objects.first { $0.record?.identifierPath == "Big" })
    // A 1,000-byte data object: marker, 2-byte length (0x4F 0x11 0x03E8), the bytes, and a
    // 2-byte offset entry (the offset table starts past byte 255); the key: marker, 4 ASCII
    // bytes, a 1-byte offset entry.
    #expect(
      big.keys == [
        ArchiveSizes.Key(name: key, bytes: 1 + 3 + 1_000 + 2 + (1 + 4 + 1), isSensitive: false)
      ])
    // The whole record: the same as the archive writes it, plus its other fields.
    let plain = try PropertyList.write(
      .dictionary([
        "path": .string("Big"), "kind": .string("viewController"),
        "class": .string("DemoController"),
        "state": .dictionary([key: .data(Data(repeating: 7, count: 1_000))]),
      ]))
    #expect(big.bytes == plain.count - 40)
    let small = try #require(sizes.objects.first { $0.record?.identifierPath == "Small" })
    // The reference counts as a one-byte UID (marker and record number 0) plus its offset entry.
    #expect(small.keys.first { $0.name == "ref" }?.bytes == (1 + 3 + 1) + (1 + 1 + 1))
    #expect(sizes.total == sizes.objects.reduce(0) { $0 + $1.bytes })
  }

  @Test func objectsAndKeysAreListedLargestFirst() throws {
    let sizes = ArchiveSizes(try DemoArchives.talkDemo())
    let bytes = sizes.objects.map(\.bytes)
    #expect(bytes == bytes.sorted(by: >))
    for object in sizes.objects {
      #expect(object.keys.map(\.bytes) == object.keys.map(\.bytes).sorted(by: >))
    }
    #expect(sizes.objects.count == 6)
    #expect(sizes.objects.contains { $0.record == nil && $0.title == "Top Level" })
  }

  @Test func reportShowsTheTotalAndWarnsAboutObjectsAboveTheBudget() throws {
    let archive = Crafting.archive([
      Crafting.record("Huge", state: [("image", .data(Data(repeating: 1, count: 70_000)))]),
      Crafting.record("Tiny", state: [("n", .integer(1))]),
    ])
    let sizes = ArchiveSizes(archive)
    let huge = sizes.objects[0]
    #expect(huge.record?.identifierPath == "Huge")
    #expect((70_000..<71_000).contains(huge.bytes))
    let image = try #require(huge.keys.first)
    let text = sizes.text(budget: ByteCount(64 << 10), fileSize: 70_500)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // Numbers right-aligned in one column, keys indented under their object.
    #expect(lines[0] == "\(grouped(huge.bytes))  Huge (Class: DemoController)")
    #expect(lines[1] == "\(grouped(image.bytes))      image")
    let small = try #require(lines.first { $0.hasSuffix("      n") })
    #expect(small.count == grouped(huge.bytes).count + "      n".count)
    #expect(
      lines.contains(
        "\(grouped(sizes.total)) bytes in 2 objects and the top level; the file is 70,500 bytes"
      ))
    #expect(
      lines.contains(
        "warning: Huge is \(grouped(huge.bytes)) bytes, above the budget of 64 KiB"))
    #expect(lines.filter { $0.hasPrefix("warning:") }.count == 1)
    #expect(!text.contains("No object is above"))

    let relaxed = sizes.text(budget: ByteCount(1 << 20))
    #expect(!relaxed.contains("warning:"))
    #expect(relaxed.hasSuffix("No object is above the budget of 1 MiB.\n"))
  }

  @Test func topLimitsTheListButNotTheTotalOrWarnings() throws {
    let sizes = ArchiveSizes(try DemoArchives.talkDemo())
    let text = sizes.text(budget: ByteCount(10), limit: 1)
    let objectLines = text.split(separator: "\n").filter {
      $0.contains("  ") && ($0.contains("(Class: ") || $0.hasSuffix("  Top Level"))
    }
    #expect(objectLines.count == 1)
    #expect(text.contains("(5 smaller not shown)"))
    #expect(text.split(separator: "\n").filter { $0.hasPrefix("warning:") }.count == 5)
  }

  @Test func sensitiveKeysCountOnlyTheirNames() throws {
    let sizes = ArchiveSizes(try DemoArchives.signIn())
    let form = try #require(sizes.objects.first { $0.record?.identifierPath == "SignIn" })
    let password = try #require(form.keys.first { $0.name == "password" })
    #expect(password.isSensitive)
    #expect(password.bytes == 1 + 8 + 1)
    #expect(
      sizes.text(budget: ByteCount(1 << 20)).contains("      password  (sensitive, not saved)"))
  }

  @Test(arguments: [
    ("100000", 100_000),
    ("512k", 524_288),
    ("64KiB", 65_536),
    ("64 KiB", 65_536),
    ("64kb", 65_536),
    ("2M", 2_097_152),
    ("1.5MiB", 1_572_864),
    ("1G", 1_073_741_824),
    ("0", 0),
    ("10B", 10),
  ])
  func budgetsAcceptTheUsualForms(text: String, bytes: Int) {
    #expect(ByteCount(parsing: text)?.bytes == bytes)
  }

  @Test(arguments: ["", "k", "-5", "64 parsecs", "1.2.3", "64KiBs", ".", "99999999999999999999G"])
  func budgetsRejectWhatIsNotASize(text: String) {
    #expect(ByteCount(parsing: text) == nil)
  }

  @Test func budgetsDescribeThemselvesInTheLargestExactUnit() {
    #expect(ByteCount(65_536).description == "64 KiB")
    #expect(ByteCount(3 << 20).description == "3 MiB")
    #expect(ByteCount(100_000).description == "100,000 bytes")
    #expect(ByteCount(1).description == "1 byte")
  }
}

/// Thousands separators, written independently of the library's.
private func grouped(_ value: Int) -> String {
  let digits = Array(String(value))
  return stride(from: digits.count, to: 0, by: -3).reversed()
    .map { String(digits[max(0, $0 - 3)..<$0]) }
    .joined(separator: ",")
}
