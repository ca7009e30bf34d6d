// swift-tools-version: 5.4
// The libFuzzer target for the archive reader, in its own package so that normal builds never
// need the fuzzer runtime. Build and run it with `Scripts/fuzz.sh`.
//
// The tools version is 5.4 on purpose: later ones build executables with a renamed entry point
// (for testable executables) that clashes with libFuzzer's own `main` at link time. The code is
// still compiled in the Swift 6 language mode, through the flag below.
import PackageDescription

let package = Package(
  name: "Fuzz",
  dependencies: [
    .package(name: "swift-state-restoration", path: "..")
  ],
  targets: [
    .executableTarget(
      name: "archive-reader-fuzzer",
      dependencies: [.product(name: "_ArchiveFuzzing", package: "swift-state-restoration")],
      swiftSettings: [.unsafeFlags(["-swift-version", "6", "-parse-as-library"])]
    )
  ]
)
