import Foundation
import TestSupport

/// Runs a built executable of the package to completion and captures its output.
func runProduct(_ name: String, _ arguments: [String]) throws -> ProcessResult {
  try run(BuiltExecutable.path(named: name), arguments)
}
