package import Foundation
package import Testing

/// The real Xcode files in `../shared/fixtures/xcode` (beside the package's folder), and the
/// small files with planted mistakes in `Tests/StoryboardImportTests/Fixtures`.
package enum Fixtures {
  /// The package's root folder.
  package static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // StoryboardTestSupport
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()

  /// The project's shared folder, which CI lays beside the clone: `../shared`, or the folder
  /// that `STATE_RESTORATION_SHARED_FIXTURES` names.
  package static let sharedFolder: URL = {
    let environment = ProcessInfo.processInfo.environment
    if let path = environment["STATE_RESTORATION_SHARED_FIXTURES"], !path.isEmpty {
      return URL(fileURLWithPath: path, relativeTo: packageRoot).standardizedFileURL
    }
    return packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
  }()

  /// The real Xcode files: the interoperability fixtures.
  package static let xcodeFolder = sharedFolder.appendingPathComponent("fixtures/xcode")

  /// Whether the real Xcode files are there; the suites that need them are skipped otherwise,
  /// with ``skipMessage``.
  package static let xcodeFilesAvailable = FileManager.default.fileExists(atPath: xcodeFolder.path)

  /// Whether a run must have the real Xcode files (`REQUIRE_SHARED_FIXTURES=1`, as CI sets):
  /// then their absence fails ``SharedFixturesTests``, instead of only skipping suites.
  package static let xcodeFilesRequired =
    ProcessInfo.processInfo.environment["REQUIRE_SHARED_FIXTURES"] == "1"

  /// Why a suite over the real Xcode files did not run, on the suite's "skipped" line.
  package static let skipMessage = Comment(
    rawValue:
      "the interoperability fixtures from ../shared/fixtures/xcode are absent (looked in \(xcodeFolder.path))"
  )

  /// The trait of a suite that reads the real Xcode files.
  ///
  /// The suite is skipped, with ``skipMessage``, where the files are absent. A suite that takes
  /// it is named in ``interoperabilitySuites``.
  package static let interoperability = ConditionTrait.enabled(if: xcodeFilesAvailable, skipMessage)

  /// The suites with the ``interoperability`` trait, which `SharedFixturesTests` counts when
  /// it says what was skipped (a test checks the list against the sources).
  package static let interoperabilitySuites = [
    "InterfaceDocumentTests", "StoryboardImporterTests", "StoryboardLinterTests",
  ]

  /// The test folders whose suites may have the ``interoperability`` trait.
  package static let interoperabilityFolders = [
    "Tests/StoryboardImportTests", "Tests/RestorationLintInterfaceBuilderTests",
  ]

  /// A real Xcode file, by its name in the shared folder.
  package static func xcode(_ name: String) -> String {
    xcodeFolder.appendingPathComponent(name).path
  }

  /// A test file with planted mistakes.
  package static func local(_ name: String) -> String {
    packageRoot.appendingPathComponent("Tests/StoryboardImportTests/Fixtures/\(name)").path
  }

  package static let restorer = xcode(
    "kharrison__CodeExamples/Restorer__Restorer__Base.lproj__MainStoryboard.storyboard")
  package static let restorer2013 = xcode(
    "kharrison__CodeExamples/Restorer__Restorer__en.lproj__MainStoryboard@43ef3c5.storyboard")
  package static let restorerLaunchScreen = xcode(
    "kharrison__CodeExamples/Restorer__Restorer__Base.lproj__LaunchScreen.storyboard")
  package static let tableBugMain = xcode(
    "kharrison__CodeExamples/Archive__BUG_TableView_State_Restore__restore__Base.lproj__MainStoryboard.storyboard"
  )
  package static let tableBugNavigation = xcode(
    "kharrison__CodeExamples/Archive__BUG_TableView_State_Restore__restore__NavStoryboard.storyboard"
  )
  package static let webViewNib = xcode(
    "kharrison__CodeExamples/Restorer__Restorer__Base.lproj__UYLWebViewController.xib")
  package static let webViewNib2013 = xcode(
    "kharrison__CodeExamples/Restorer__Restorer__UYLWebViewController@43ef3c5.xib")
  package static func demo(_ name: String) -> String {
    xcode("shagedorn__StateRestorationDemo/StateRestorationDemo__\(name).xib")
  }
}
