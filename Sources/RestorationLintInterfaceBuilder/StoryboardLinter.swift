internal import RestorationLint
public import StoryboardImport

/// Checks the state restoration setup of storyboards and XIBs, without running the app.
///
/// For each file it computes the identifier paths the launch hierarchy gets, as UIKit forms
/// them (the initial controller's tree, `:[i]:` index components for tab, navigation, split and
/// embedded children, views attached to their controller's path), the paths of controllers that
/// segues push onto navigation stacks, and it finds the mistakes that make restoration fail
/// silently on a device:
///
/// - a controller with an identifier under a container or presenter without one (a gap in the
///   chain: "any gaps in the chain will cause restoration to fail"), and a view with an
///   identifier in a controller without one (errors);
/// - an identifier on a table or collection view cell instead of the table or collection view;
/// - containers, tabs and the root without identifiers, and a Storyboard ID whose "Use
///   Storyboard ID" is unchecked;
/// - duplicate identifiers among tabs and among a controller's views, and duplicate
///   Storyboard IDs;
/// - a segue destination with an identifier but no Storyboard ID (nothing can re-create it),
///   or without identifier under a preserved controller;
/// - a XIB's controller with an identifier, which needs a restoration class or app-delegate
///   code.
///
/// ```swift
/// let report = try StoryboardLinter().lint(fileAtPath: "Main.storyboard")
/// for entry in report.paths { print(entry.path) }
/// for finding in report.findings { print(finding) }  // Main.storyboard:42: error: ...
/// ```
public struct StoryboardLinter {
  /// Creates a linter.
  public init() {}

  /// Reads and checks a storyboard or XIB file.
  ///
  /// - Parameter path: The file's path.
  /// - Returns: The paths and findings.
  /// - Throws: `StoryboardImportError` when the file cannot be read.
  public func lint(fileAtPath path: String) throws(StoryboardImportError) -> LintReport {
    lint(try InterfaceDocument(contentsOfFile: path))
  }

  /// Checks a document.
  ///
  /// - Parameter document: The document.
  /// - Returns: The paths and findings.
  public func lint(_ document: InterfaceDocument) -> LintReport {
    var pass = LintPass(document: document)
    pass.run()
    return LintReport(
      file: document.file,
      kind: document.kind,
      format: document.format.description,
      paths: pass.paths,
      findings: pass.sortedFindings
    )
  }
}
