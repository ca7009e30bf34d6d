// A small app for the reliability tests, run as a real process so that the tests can kill it
// with SIGKILL at any instant and let it crash for real. Not a product; only the tests use it.
import ArgumentParser
import BinaryPropertyList
import Foundation
import Logging
import StateRestoration
import StateRestorationStorage

@main
struct RestorationTestHelper: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "restoration-test-helper",
    abstract: "A small app that the reliability tests kill, crash and run side by side.",
    subcommands: [PreserveLoop.self, Launch.self, Settings.self, HashBytes.self]
  )
}

/// Options shared by the subcommands.
struct StateOptions: ParsableArguments {
  @Option(help: "The state root that holds 'Saved Application State'.")
  var stateRoot: String

  @Flag(help: "Keep the archive through crashes and force quits.")
  var developerMode = false

  func makeEngine() throws -> RestorationEngine {
    let registry = RestorationRegistry()
    var logger = Logger(label: "restoration-test-helper") {
      StreamLogHandler.standardError(label: $0)
    }
    logger.logLevel = .info
    let store = try FileArchiveStore(
      stateRoot: stateRoot, bundleIdentifier: "com.example.ReliabilityHelper")
    return RestorationEngine(
      applicationInfo: ApplicationInfo(bundleIdentifier: "com.example.ReliabilityHelper"),
      store: store,
      registry: registry,
      settings: RestorationSettings(developerMode: developerMode, debugLogging: false),
      logger: logger
    )
  }
}

/// Prints the hash the engine's tables file an identifier path under, which must differ from
/// process to process.
struct HashBytes: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "hash-bytes", abstract: "Print the engine's table hash of a string.")

  @Argument(help: "The string.")
  var text: String

  func run() {
    print(ExactString(text).hashValue)
  }
}

/// Prints the settings the engine reads from this process's real environment.
struct Settings: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print the settings read from the environment.")

  func run() {
    let settings = RestorationSettings.fromEnvironment()
    print("developerMode=\(settings.developerMode) debugLogging=\(settings.debugLogging)")
  }
}

/// Preserves a changing state in a loop, forever: generation `from`, then the next, and so on.
///
/// Every object of generation g records g, and the number of objects and the size of their
/// text depend on g, so a reader can tell a whole generation from a mix of two or a torn file.
struct PreserveLoop: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Preserve generation after generation until killed.")

  @OptionGroup var state: StateOptions

  @Option(help: "The first generation to preserve.")
  var from: Int = 1

  @Option(help: "Stop after this many generations (default: never).")
  var count: Int?

  @Option(help: "A tag written into every object, so that two writers' archives differ.")
  var writer = "A"

  func run() throws {
    let engine = try state.makeEngine()
    let delegate = Delegate()
    engine.delegate = delegate
    var generation = from
    while count.map({ generation < from + $0 }) ?? true {
      let root = Generation.makeTree(generation: generation, writer: writer)
      let report = engine.preserveApplicationState(roots: [root])
      guard case .saved = report.outcome, report.issues.isEmpty else {
        throw ValidationError("generation \(generation) was not saved: \(report)")
      }
      generation += 1
    }
  }
}

/// Launches the app once: restores (reporting the outcome on standard output), then, with
/// `--save`, preserves a new state as the Home button would.
struct Launch: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Launch once: restore, report, optionally save.")

  @OptionGroup var state: StateOptions

  @Flag(help: "Crash (a real trap) while decoding the screen named 'Crasher'.")
  var crashInDecode = false

  @Flag(help: "Extend restoration and crash before completing it.")
  var extendThenCrash = false

  @Flag(help: "Preserve after restoring, as the Home button does.")
  var save = false

  func run() throws {
    let engine = try state.makeEngine()
    let delegate = Delegate()
    engine.delegate = delegate
    let root = Screen(identifier: "Root")
    let crasher = Screen(identifier: "Crasher")
    crasher.crashInDecode = crashInDecode
    root.children = [crasher, Screen(identifier: "Plain")]
    if extendThenCrash { delegate.onDidDecode = { engine.extendStateRestoration() } }

    let report = engine.restoreApplicationState(roots: [root])
    print("outcome: \(report.outcome)")
    print(
      "restored value: \(root.children.map { $0.value.map(String.init) ?? "-" }.joined(separator: ","))"
    )
    if extendThenCrash {
      fflush(nil)
      // A deliberate, real crash while the restoration is extended.
      fatalError("crashing while restoration is extended, on purpose")
    }
    if save {
      for (index, child) in root.children.enumerated() { child.value = 100 + index }
      let saved = engine.preserveApplicationState(roots: [root])
      print("saved: \(saved.outcome)")
    }
  }
}

final class Delegate: RestorationDelegate {
  var onDidDecode: (() -> Void)?
  func shouldSaveApplicationState(with coder: StateCoder) -> Bool { true }
  func shouldRestoreApplicationState(with coder: StateDecoder) -> Bool { true }
  func didDecodeRestorableState(with coder: StateDecoder) { onDidDecode?() }
}

/// A screen with one value, children, and a switch to crash in its decode.
final class Screen: RestorationNode {
  let restorationIdentifier: String?
  var children: [Screen] = []
  var value: Int?
  var generation: Int?
  var writer: String?
  var text = ""
  /// The root's record of what its generation holds, so a reader can check the whole archive.
  var expectedShape: (objects: Int, textLength: Int)?
  var crashInDecode = false

  init(identifier: String?) { restorationIdentifier = identifier }

  var restorationChildren: [any StateRestoring] { children }

  func encodeRestorableState(with coder: StateCoder) throws {
    if let value { coder.encode(value, forKey: "value") }
    if let generation { coder.encode(generation, forKey: "generation") }
    if let writer { coder.encode(writer, forKey: "writer") }
    if !text.isEmpty { coder.encode(text, forKey: "text") }
    if let expectedShape {
      coder.encode(expectedShape.objects, forKey: "objectCount")
      coder.encode(expectedShape.textLength, forKey: "textLength")
    }
  }

  func decodeRestorableState(with coder: StateDecoder) throws {
    if crashInDecode {
      fflush(nil)
      // A deliberate, real crash in the middle of restoration: the crash guard's case.
      fatalError("decode of \(restorationIdentifier ?? "?") crashes, on purpose")
    }
    value = coder.decode(Int.self, forKey: "value")
  }
}

/// The preserve loop's state for a generation.
enum Generation {
  /// How many objects generation g has, besides the root: between 50 and 449.
  static func objectCount(_ generation: Int) -> Int { 50 + (generation * 7919) % 400 }

  /// How long each object's text is in generation g: between 0 and 299 characters.
  static func textLength(_ generation: Int) -> Int { (generation * 104_729) % 300 }

  static func makeTree(generation: Int, writer: String) -> Screen {
    let root = Screen(identifier: "Root")
    root.generation = generation
    root.writer = writer
    root.expectedShape = (objectCount(generation), textLength(generation))
    let text = String(repeating: Character(writer), count: textLength(generation))
    root.children = (0..<objectCount(generation)).map { index in
      let screen = Screen(identifier: "Screen\(index)")
      screen.generation = generation
      screen.writer = writer
      screen.value = index
      screen.text = text
      return screen
    }
    return root
  }
}
