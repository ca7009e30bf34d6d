import Foundation
import Testing

/// The real Xcode files in `../shared/fixtures/xcode` (beside the package's folder), and the
/// small files with planted mistakes in `Tests/StoryboardImportTests/Fixtures`.
enum Fixtures {
  /// The package's root folder.
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Support
    .deletingLastPathComponent()  // StoryboardImportTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()

  /// The shared folder of real Xcode files; CI has it beside the clone.
  static let xcodeFolder = packageRoot.deletingLastPathComponent()
    .appendingPathComponent("shared/fixtures/xcode")

  /// Whether the real Xcode files are there; tests that need them are skipped otherwise, with
  /// this message.
  static let xcodeFilesAvailable: Bool = {
    let available = FileManager.default.fileExists(atPath: xcodeFolder.path)
    if !available {
      print("Skipping the tests over real Xcode files: \(xcodeFolder.path) is absent")
    }
    return available
  }()

  static let skipMessage: Comment = "../shared/fixtures/xcode is absent"

  /// A real Xcode file, by its name in the shared folder.
  static func xcode(_ name: String) -> String {
    xcodeFolder.appendingPathComponent(name).path
  }

  /// A test file with planted mistakes.
  static func local(_ name: String) -> String {
    packageRoot.appendingPathComponent("Tests/StoryboardImportTests/Fixtures/\(name)").path
  }

  static let restorer = xcode(
    "kharrison__CodeExamples/Restorer__Restorer__Base.lproj__MainStoryboard.storyboard")
  static let restorer2013 = xcode(
    "kharrison__CodeExamples/Restorer__Restorer__en.lproj__MainStoryboard@43ef3c5.storyboard")
  static let restorerLaunchScreen = xcode(
    "kharrison__CodeExamples/Restorer__Restorer__Base.lproj__LaunchScreen.storyboard")
  static let tableBugMain = xcode(
    "kharrison__CodeExamples/Archive__BUG_TableView_State_Restore__restore__Base.lproj__MainStoryboard.storyboard"
  )
  static let tableBugNavigation = xcode(
    "kharrison__CodeExamples/Archive__BUG_TableView_State_Restore__restore__NavStoryboard.storyboard"
  )
  static let webViewNib = xcode(
    "kharrison__CodeExamples/Restorer__Restorer__Base.lproj__UYLWebViewController.xib")
  static let webViewNib2013 = xcode(
    "kharrison__CodeExamples/Restorer__Restorer__UYLWebViewController@43ef3c5.xib")
  static func demo(_ name: String) -> String {
    xcode("shagedorn__StateRestorationDemo/StateRestorationDemo__\(name).xib")
  }
}
