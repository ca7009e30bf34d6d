// swift-tools-version: 6.1
// Benchmarks live in their own package so that the root package does not make its users resolve
// and build the benchmark tooling.
import PackageDescription

let package = Package(
  name: "Benchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "swift-state-restoration", path: ".."),
    .package(
      url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
  ],
  targets: [
    // The UI state every contender encodes, the contenders, and the measuring loop.
    .target(
      name: "RestorationComparison",
      dependencies: [
        .product(name: "StateRestoration", package: "swift-state-restoration"),
        .product(name: "StateRestorationStorage", package: "swift-state-restoration"),
      ]
    ),

    // The side-by-side comparison with Foundation's archivers and encoders.
    .executableTarget(
      name: "restoration-comparison",
      dependencies: [
        "RestorationComparison",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),

    // The comparison command, run as a process.
    .testTarget(
      name: "RestorationComparisonTests",
      dependencies: ["restoration-comparison", "RestorationComparison"]
    ),

    // Regression benchmarks for package-benchmark (`swift package benchmark`).
    .executableTarget(
      name: "RestorationBenchmarks",
      dependencies: [
        "RestorationComparison",
        .product(name: "StateRestoration", package: "swift-state-restoration"),
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/RestorationBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets where [.executable, .regular, .test].contains(target.type) {
  var settings = target.swiftSettings ?? []
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  settings.append(.enableUpcomingFeature("MemberImportVisibility"))
  settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
  target.swiftSettings = settings
}
