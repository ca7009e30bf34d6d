// Regression benchmarks for the engine at 10,000 objects of the linear shape (encode, decode,
// preserve and restore), and for a preserve and a restore of 300 objects of the app shape, the
// size of a real app's state.
//
//   swift package --package-path Benchmarks benchmark
//
// Preserve and restore use an in-memory store, so that the file system's latency (an fsync
// takes milliseconds here) does not drown a change in the engine; restoration-comparison
// measures them against a real file.
import Benchmark
import RestorationComparison

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
    warmupIterations: 2,
    maxDuration: .seconds(3),
    maxIterations: 30
  )

  Benchmark("Encode 10,000 objects") { benchmark in
    let profiler = try EngineProfiler(objects: 10_000)
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { blackHole(try profiler.encode()) }
  }

  Benchmark("Decode 10,000 objects") { benchmark in
    let profiler = try EngineProfiler(objects: 10_000)
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { blackHole(try profiler.decode()) }
  }

  Benchmark("Preserve 10,000 objects") { benchmark in
    let profiler = try EngineProfiler(objects: 10_000)
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { blackHole(try profiler.preserve()) }
  }

  // One restore per measurement: each restores into a launch of its own, built before the
  // measurement starts.
  Benchmark("Restore 10,000 objects") { benchmark in
    let profiler = try EngineProfiler(objects: 10_000)
    let launch = try profiler.makeLaunch()
    benchmark.startMeasurement()
    blackHole(try profiler.restore(launch))
  }

  Benchmark("Preserve 300 objects, app shape") { benchmark in
    let profiler = try EngineProfiler(objects: 300, shape: .app)
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { blackHole(try profiler.preserve()) }
  }

  Benchmark("Restore 300 objects, app shape") { benchmark in
    let profiler = try EngineProfiler(objects: 300, shape: .app)
    let launch = try profiler.makeLaunch()
    benchmark.startMeasurement()
    blackHole(try profiler.restore(launch))
  }
}
