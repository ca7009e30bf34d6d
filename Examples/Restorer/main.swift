// A first, non-interactive Restorer: each run restores what the previous run saved, changes
// it a little, and preserves it again, exactly as an app killed in the background would.
//
//   swift run restorer            run once; run again to see the state come back
//   swift run restorer --reset    forget the saved state
import Foundation
import StateRestoration

/// The countries list: which row is at the top and which one is selected.
final class CountriesController: RestorationNode {
  let restorationIdentifier: String? = "CountryNCID"
  var firstVisibleRow = 0
  var selectedRow: Int?

  func encodeRestorableState(with coder: StateCoder) throws {
    coder.encode(firstVisibleRow, forKey: "firstVisibleRow")
    if let selectedRow { coder.encode(selectedRow, forKey: "selectedRow") }
  }

  func decodeRestorableState(with coder: StateDecoder) throws {
    firstVisibleRow = coder.decode(Int.self, forKey: "firstVisibleRow") ?? 0
    selectedRow = coder.decode(Int.self, forKey: "selectedRow")
  }
}

final class AppDelegate: RestorationDelegate {
  func shouldSaveApplicationState(with coder: StateCoder) -> Bool { true }
  func shouldRestoreApplicationState(with coder: StateDecoder) -> Bool { true }
}

let countries = ["Albania", "Brazil", "Chile", "Denmark", "Egypt", "France", "Ghana", "Hungary"]

let environment = ProcessInfo.processInfo.environment
let stateRoot =
  environment["XDG_STATE_HOME"].map { "\($0)/swift-state-restoration" }
  ?? "\(NSHomeDirectory())/.local/state/swift-state-restoration"

do {
  let store = try FileArchiveStore(stateRoot: stateRoot, bundleIdentifier: "com.example.Restorer")
  let delegate = AppDelegate()
  let engine = RestorationEngine(
    applicationInfo: ApplicationInfo(
      bundleIdentifier: "com.example.Restorer", userInterfaceIdiom: "terminal"),
    store: store
  )
  engine.delegate = delegate
  if CommandLine.arguments.contains("--reset") {
    engine.deleteArchive()
    print("Saved state deleted from \(store.folder)")
    exit(0)
  }

  let list = CountriesController()
  let report = engine.restoreApplicationState(roots: [list])
  print("Launch: \(report.outcome).")
  if report.outcome == .restored, let row = list.selectedRow {
    print(
      "Restored: \(countries[row % countries.count]) is selected, row \(list.firstVisibleRow) at the top."
    )
  }

  // The user scrolls down and selects the next country.
  list.firstVisibleRow += 1
  list.selectedRow = ((list.selectedRow ?? -1) + 1) % countries.count
  print(
    "Now selected: \(countries[list.selectedRow ?? 0]), row \(list.firstVisibleRow) at the top.")

  // Home button: the app moves to the background and its state is preserved.
  let saved = engine.preserveApplicationState(roots: [list])
  print("Moved to the background: \(saved.outcome) to \(store.path(of: .archive))")
  print(
    "Run `swift run restorer` again to restore it, or `swift run restorer --reset` to forget it.")
} catch {
  FileHandle.standardError.write(Data("restorer: \(error)\n".utf8))
  exit(1)
}
