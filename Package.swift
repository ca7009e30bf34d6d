// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "swift-state-restoration",
  // macOS 15 is the floor of the APIs used (String(validating:as:) in StateRestorationUI,
  // Synchronization's Mutex in the tests; PlatformTests checks it). CI builds and tests on
  // Linux only; other Apple platforms are not declared, and not built.
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "StateRestoration", targets: ["StateRestoration"]),
    .library(name: "BinaryPropertyList", targets: ["BinaryPropertyList"]),
    .library(name: "StateRestorationUI", targets: ["StateRestorationUI"]),
    .library(name: "StateRestorationTesting", targets: ["StateRestorationTesting"]),
    .library(name: "ArchiveInspection", targets: ["ArchiveInspection"]),
    .executable(name: "restoration-archive-tool", targets: ["restoration-archive-tool"]),
    .library(name: "StoryboardImport", targets: ["StoryboardImport"]),
    .library(name: "StoryboardLint", targets: ["StoryboardLint"]),
    .library(name: "SwiftSourceLint", targets: ["SwiftSourceLint"]),
    .library(name: "ProjectLint", targets: ["ProjectLint"]),
    // What the archive fuzzer in `Fuzz/` runs on each input; the corpus test runs it too.
    .library(name: "ArchiveFuzzing", targets: ["ArchiveFuzzing"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    // The lint's Swift parser (`SwiftSourceLint`) and configuration reader (`ProjectLint`).
    .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
  ],
  targets: [
    // Core
    .target(
      name: "StateRestoration",
      dependencies: [
        "BinaryPropertyList", .product(name: "Logging", package: "swift-log"),
        .product(name: "OrderedCollections", package: "swift-collections"),
        .product(name: "DequeModule", package: "swift-collections"),
      ]
    ),
    // Binary property lists and their checksum, usable without the engine.
    .target(name: "BinaryPropertyList", dependencies: ["CRC32Folding"]),
    // The checksum's fast path, in C: Swift has no carry-less multiply.
    .target(name: "CRC32Folding"),

    .target(
      name: "StateRestorationUI",
      dependencies: [
        "StateRestoration", "BinaryPropertyList", .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .target(
      name: "StateRestorationTesting",
      dependencies: [
        "StateRestoration", "StateRestorationUI", .product(name: "Logging", package: "swift-log"),
      ]
    ),

    // Interface Builder files: the XML stays out of the engine and the UI library.
    .target(
      name: "StoryboardImport",
      dependencies: ["StateRestoration", "StateRestorationUI"]
    ),
    .target(
      name: "StoryboardLint",
      dependencies: ["StateRestoration", "StoryboardImport"]
    ),
    // Swift sources, read with swift-syntax: kept out of the engine and the storyboard reader.
    .target(
      name: "SwiftSourceLint",
      dependencies: [
        "StoryboardImport", "StoryboardLint",
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
      ]
    ),
    // A project folder: finding its files, the configuration file, and the CI output formats.
    .target(
      name: "ProjectLint",
      dependencies: [
        "StoryboardImport", "StoryboardLint", "SwiftSourceLint",
        .product(name: "Yams", package: "Yams"),
      ]
    ),

    // Tools
    .target(
      name: "ArchiveInspection",
      dependencies: ["StateRestoration"]
    ),
    .target(
      name: "ArchiveFuzzing",
      dependencies: ["ArchiveInspection", "StateRestoration", "TestSupport"]
    ),
    .executableTarget(
      name: "restoration-archive-tool",
      dependencies: [
        "ArchiveInspection", "StateRestoration", "StoryboardLintCommand",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(
      name: "restoration-benchmark",
      dependencies: [
        "StateRestoration", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // The `lint` subcommand, as a library so that any command-line tool can mount it.
    .target(
      name: "StoryboardLintCommand",
      dependencies: [
        "ProjectLint", "StoryboardLint",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),

    // Examples
    .target(
      name: "RestorerCore",
      dependencies: ["StateRestoration", "StateRestorationUI"],
      path: "Examples/RestorerCore",
      resources: [.copy("Resources/countries.json")]
    ),
    .executableTarget(
      name: "restorer",
      dependencies: [
        "RestorerCore", "StateRestoration", "StateRestorationUI",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Examples/Restorer"
    ),
    // The smallest complete app: the README quotes its main.swift.
    .target(
      name: "NotesCore",
      dependencies: ["StateRestoration", "StateRestorationUI"],
      path: "Examples/NotesCore"
    ),
    .executableTarget(
      name: "notes",
      dependencies: [
        "NotesCore", "StateRestoration", "StateRestorationUI",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Examples/Notes"
    ),

    // Tests
    // A small app the reliability tests run as a real process: killed, crashed, side by side.
    .executableTarget(
      name: "restoration-test-helper",
      dependencies: [
        "BinaryPropertyList", "StateRestoration",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Tests/Helpers/restoration-test-helper"
    ),
    .target(
      name: "TestSupport",
      dependencies: [.product(name: "Logging", package: "swift-log")],
      path: "Tests/TestSupport"
    ),
    .testTarget(
      name: "StateRestorationUITests",
      dependencies: [
        "StateRestoration", "StateRestorationUI", "StateRestorationTesting", "RestorerCore",
        "TestSupport", .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .testTarget(
      name: "StoryboardImportTests",
      dependencies: [
        "StateRestoration", "StateRestorationUI", "StateRestorationTesting", "RestorerCore",
        "StoryboardImport", "StoryboardLint", "StoryboardLintCommand", "TestSupport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "BinaryPropertyListTests",
      dependencies: ["BinaryPropertyList", "TestSupport"]
    ),
    .testTarget(
      name: "ProjectLintTests",
      dependencies: [
        "ProjectLint", "StoryboardImport", "StoryboardLint", "StoryboardLintCommand",
        "SwiftSourceLint", "TestSupport",
      ],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "StateRestorationTests",
      dependencies: [
        "BinaryPropertyList", "StateRestoration", "TestSupport",
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .testTarget(
      name: "RestorerTests",
      dependencies: [
        "RestorerCore", "StateRestoration", "StateRestorationUI", "StateRestorationTesting",
        "TestSupport",
      ],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "NotesTests",
      dependencies: [
        "NotesCore", "StateRestoration", "StateRestorationUI", "StateRestorationTesting",
        "TestSupport",
      ],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "ArchiveInspectionTests",
      dependencies: [
        "ArchiveFuzzing", "ArchiveInspection", "BinaryPropertyList", "StateRestoration",
        "StateRestorationUI", "TestSupport",
      ],
      exclude: ["__Snapshots__"]
    ),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets
where [.executable, .test, .regular].contains(target.type) && target.name != "CRC32Folding" {
  var settings = target.swiftSettings ?? []
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  settings.append(.enableUpcomingFeature("MemberImportVisibility"))
  settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
  target.swiftSettings = settings
}
