// Preserves and restores trees of restorable objects at two sizes and prints the times, so a
// quadratic step anywhere on the path shows as a ratio far above 2.
//
//   swift run -c release restoration-benchmark [N ...]     (default: 10000 20000 40000)
import ArgumentParser
import Foundation
import StateRestoration

/// A controller-like node: a tab bar of navigation stacks, 6 keys of mixed types each, and a
/// reference to its previous sibling.
final class Node: RestorationNode {
  let restorationIdentifier: String?
  weak var parent: Node?
  var index: Int?
  var children: [Node] = []
  weak var sibling: Node?
  var seed: Int

  init(_ identifier: String, seed: Int) {
    restorationIdentifier = identifier
    self.seed = seed
  }

  func add(_ child: Node) {
    child.parent = self
    child.index = children.count
    children.append(child)
  }

  var restorationContainer: RestorationParentLink? {
    parent.map { RestorationParentLink(parent: $0, index: index) }
  }
  var restorationChildren: [any StateRestoring] { children }

  func encodeRestorableState(with coder: StateCoder) throws {
    coder.encode(seed, forKey: "seed")
    coder.encode(Double(seed) * 0.5, forKey: "offset")
    coder.encode("title \(seed)", forKey: "title")
    coder.encode(seed % 2 == 0, forKey: "selected")
    coder.encode([seed, seed + 1], forKey: "selection")
    if !children.isEmpty { coder.encode(children, forKey: "children") }
    if let sibling { coder.encode(sibling, forKey: "previous") }
  }

  func decodeRestorableState(with coder: StateDecoder) throws {
    seed = coder.decode(Int.self, forKey: "seed") ?? 0
    _ = coder.decode(Double.self, forKey: "offset")
    _ = coder.decode(String.self, forKey: "title")
  }
}

final class Delegate: RestorationDelegate {
  func shouldSaveApplicationState(with coder: StateCoder) -> Bool { true }
  func shouldRestoreApplicationState(with coder: StateDecoder) -> Bool { true }
}

/// A tab bar with `count / 100` tabs, each a navigation stack of 99 controllers.
func makeTree(count: Int) -> Node {
  let root = Node("Tabs", seed: 0)
  var made = 1
  var tab = 0
  while made < count {
    let stack = Node("Stack", seed: made)
    root.add(stack)
    made += 1
    var previous: Node?
    while made < count, stack.children.count < 99 {
      let node = Node("Screen", seed: made)
      node.sibling = previous
      stack.add(node)
      previous = node
      made += 1
    }
    tab += 1
  }
  return root
}

func measure(
  count: Int, repetitions: Int, settings: RestorationSettings
) throws -> (preserve: Double, restore: Double, bytes: Int) {
  var preserveTimes: [Double] = []
  var restoreTimes: [Double] = []
  var bytes = 0
  let delegate = Delegate()
  let clock = ContinuousClock()
  for _ in 0..<repetitions {
    let store = InMemoryArchiveStore()
    let engine = RestorationEngine(
      applicationInfo: ApplicationInfo(bundleIdentifier: "benchmark"),
      store: store,
      settings: settings
    )
    engine.delegate = delegate
    let tree = makeTree(count: count)
    let start = clock.now
    let report = engine.preserveApplicationState(roots: [tree])
    preserveTimes.append(seconds(clock.now - start))
    guard case .saved(let size) = report.outcome, report.identifierPaths.count == count else {
      throw BenchmarkFailure(message: "preservation failed: \(report)")
    }
    bytes = size

    let launched = makeTree(count: count)
    let restoreStart = clock.now
    let restored = engine.restoreApplicationState(roots: [launched])
    restoreTimes.append(seconds(clock.now - restoreStart))
    guard restored.outcome == .restored, restored.restoredPaths.count == count else {
      throw BenchmarkFailure(message: "restoration failed: \(restored.outcome)")
    }
  }
  return (fastest(preserveTimes), fastest(restoreTimes), bytes)
}

struct BenchmarkFailure: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}

func seconds(_ duration: Duration) -> Double {
  let (whole, fraction) = duration.components
  return Double(whole) + Double(fraction) / 1e18
}

/// The fastest of several runs: on a shared machine, other work only ever adds time, so the
/// minimum is the run least disturbed by it, and ratios between sizes stay stable under load.
func fastest(_ values: [Double]) -> Double {
  values.min() ?? 0
}

struct RestorationBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "restoration-benchmark",
    abstract: "Preserves and restores trees of restorable objects and prints how time scales.",
    discussion: """
      Each size is preserved and restored several times after a warm-up; the fastest time of \
      each is printed with its ratio to the first size, which stays near the size ratio when \
      every step is linear. Build with -c release for meaningful numbers.
      """
  )

  @Argument(help: "The numbers of objects, each above 1.")
  var sizes: [Int] = [10_000, 20_000, 40_000]

  @Option(help: "How many times each size is preserved and restored.")
  var repetitions = 7

  func validate() throws {
    guard sizes.allSatisfy({ $0 > 1 }) else {
      throw ValidationError(
        "sizes must be above 1, got \(sizes.map(String.init).joined(separator: " "))")
    }
    guard repetitions > 0 else { throw ValidationError("--repetitions must be at least 1") }
  }

  func run() throws {
    #if DEBUG
      print("note: debug build; use `swift run -c release restoration-benchmark` for real numbers")
    #endif
    let settings = RestorationSettings()
    print("objects    preserve (ms)  restore (ms)  archive (bytes)  preserve ratio  restore ratio")
    var baseline: (Double, Double, Int)?
    do {
      // Warms up caches and the allocator.
      _ = try measure(count: 1_000, repetitions: min(3, repetitions), settings: settings)
      for size in sizes {
        let (preserve, restore, bytes) = try measure(
          count: size, repetitions: repetitions, settings: settings)
        let base = baseline ?? (preserve, restore, size)
        if baseline == nil { baseline = base }
        let scale = Double(size) / Double(base.2)
        print(
          String(
            format: "%7d    %13.2f  %12.2f  %15d  %14.2f  %13.2f",
            size, preserve * 1000, restore * 1000, bytes, preserve / base.0, restore / base.1
          ),
          scale == 1 ? "" : "(size ratio \(String(format: "%.1f", scale)))"
        )
      }
    } catch let failure as BenchmarkFailure {
      FileHandle.standardError.write(Data("restoration-benchmark: \(failure)\n".utf8))
      throw ExitCode.failure
    }
  }
}

RestorationBenchmark.main()
