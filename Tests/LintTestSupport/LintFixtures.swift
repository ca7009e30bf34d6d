package import Foundation
package import RestorationLint
internal import RestorationLintCommand
package import TestSupport

/// The fixtures of the lint's tests, written for them: `Fixtures/Rules/RULE/triggers` and
/// `passes` (one folder each per Swift rule) beside the Swift rules' tests, the `Project`
/// folder and the schemas beside the command's.
package enum LintFixtures {
  /// The Swift rules' fixture folders.
  package static let rules = BuiltExecutable.packageRoot.appendingPathComponent(
    "Tests/RestorationLintSwiftTests/Fixtures/Rules")
  /// The command's fixtures.
  package static let command = BuiltExecutable.packageRoot.appendingPathComponent(
    "Tests/RestorationLintCommandTests/Fixtures")

  /// A file or folder of the command's fixtures.
  package static func path(_ relative: String) -> String {
    command.appendingPathComponent(relative).path
  }

  /// A rule's fixture folder, such as `triggers` or `passes-created-by-a-helper`.
  package static func rule(_ name: String, _ variant: String) -> String {
    rules.appendingPathComponent("\(name)/\(variant)").path
  }

  /// The project folder that `docs/Lint.md` shows.
  package static let project = path("Project")
  /// The OASIS SARIF 2.1.0 schema.
  package static let sarifSchema = path("Schemas/sarif-schema-2.1.0.json")
  /// The JSON output's schema.
  package static let outputSchema = BuiltExecutable.packageRoot.appendingPathComponent(
    "docs/lint-output.schema.json"
  ).path
}

extension ProjectLinter {
  /// The linter `restoration-archive-tool lint` runs, in process.
  ///
  /// - Parameter configurationFile: A configuration file for every path.
  /// - Returns: The linter.
  package static func iOS(configurationFile: String? = nil) -> ProjectLinter {
    ProjectLinter(ruleSets: iOSRuleSets, configurationFile: configurationFile)
  }
}

/// Runs the built `restoration-archive-tool`.
///
/// - Parameter arguments: Its arguments.
/// - Returns: Its status and output.
/// - Throws: When it was not built.
package func runTool(_ arguments: [String]) throws -> ProcessResult {
  try run(BuiltExecutable.path(named: "restoration-archive-tool"), arguments)
}

/// Validates JSON text against a JSON Schema file with Python's `jsonschema`, and returns the
/// validator's complaints (empty when the text is valid).
///
/// - Parameters:
///   - json: The text.
///   - schema: The schema file.
/// - Returns: The complaints.
/// - Throws: When Python cannot be started.
package func schemaErrors(of json: String, schema: String) throws -> String {
  let folder = try makeTemporaryFolder()
  defer { try? FileManager.default.removeItem(at: folder) }
  let document = folder.appendingPathComponent("document.json")
  try Data(json.utf8).write(to: document)
  let script = """
    import json, sys, jsonschema
    schema = json.load(open(sys.argv[1]))
    document = json.load(open(sys.argv[2]))
    validator = jsonschema.validators.validator_for(schema)
    validator.check_schema(schema)
    errors = list(validator(schema, format_checker=validator.FORMAT_CHECKER).iter_errors(document))
    for error in errors:
        print(list(error.absolute_path), error.message)
    sys.exit(1 if errors else 0)
    """
  let result = try python(script, [schema, document.path])
  return result.status == 0 ? "" : result.standardOutput + result.standardError
}
