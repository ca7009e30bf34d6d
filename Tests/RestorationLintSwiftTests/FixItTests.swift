import RestorationLint
import RestorationLintSwift
import Testing

/// The fix-it sentences of the one-file Swift rules quote code that compiles.
@Suite struct FixItTests {
  @Test(arguments: [
    ("String?", "String"), ("String!", "String"), ("Optional<String>", "String"),
    ("[Int]?", "[Int]"), ("Optional<[String: Int]>", "[String: Int]"),
  ])
  func aForceCastToAnOptionalSuggestsTheWrappedType(_ optional: String, _ wrapped: String) throws {
    let source = """
      final class A: UIViewController {
        override func decodeRestorableState(with coder: NSCoder) {
          super.decodeRestorableState(with: coder)
          let value = coder.decodeObject(forKey: "a") as! \(optional)
        }
      }
      """
    let facts = SwiftFileFacts(source: source, file: "A.swift")
    let finding = try #require(facts.findings.first { $0.code == .forceCastDecodedOptional })
    #expect(finding.message.hasSuffix("use 'as? \(wrapped)'"), "\(finding.message)")
    #expect(!facts.findings.contains { $0.code == .forceCastDecodedValue })
  }
}
