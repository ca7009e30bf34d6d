import Foundation
import TestSupport

/// The fixtures of the project lint's tests, written for them: `Fixtures/Rules/RULE/triggers`
/// and `passes` (one folder each per Swift rule), the `Project` folder, and the schemas.
enum ProjectFixtures {
  static let root = BuiltExecutable.packageRoot.appendingPathComponent(
    "Tests/ProjectLintTests/Fixtures")

  static func path(_ relative: String) -> String {
    root.appendingPathComponent(relative).path
  }

  static func rule(_ name: String, _ variant: String) -> String {
    path("Rules/\(name)/\(variant)")
  }

  static let project = path("Project")
  static let sarifSchema = path("Schemas/sarif-schema-2.1.0.json")
  static let outputSchema = BuiltExecutable.packageRoot.appendingPathComponent(
    "docs/lint-output.schema.json"
  ).path
}

/// Runs the built `restoration-archive-tool`.
func runTool(_ arguments: [String]) throws -> ProcessResult {
  try run(BuiltExecutable.path(named: "restoration-archive-tool"), arguments)
}

/// Validates JSON text against a JSON Schema file with Python's `jsonschema`, and returns the
/// validator's complaints (empty when the text is valid).
func schemaErrors(of json: String, schema: String) throws -> String {
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
