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
    .library(name: "StateRestorationStorage", targets: ["StateRestorationStorage"]),
    .library(name: "StateRestorationUI", targets: ["StateRestorationUI"]),
    .library(name: "StateRestorationTesting", targets: ["StateRestorationTesting"]),
    .library(name: "ArchiveInspection", targets: ["ArchiveInspection"]),
    .executable(name: "restoration-archive-tool", targets: ["restoration-archive-tool"]),
    .library(name: "StoryboardImport", targets: ["StoryboardImport"]),
    // The lint: findings, rule sets and output formats; Interface Builder and Swift rules; the
    // `lint` command, which any ArgumentParser tool can mount.
    .library(name: "RestorationLint", targets: ["RestorationLint"]),
    .library(
      name: "RestorationLintInterfaceBuilder", targets: ["RestorationLintInterfaceBuilder"]),
    .library(name: "RestorationLintSwift", targets: ["RestorationLintSwift"]),
    .library(name: "RestorationLintCommand", targets: ["RestorationLintCommand"]),
    // `swift package restoration-lint`, in any package that depends on this one.
    .plugin(name: "RestorationLintPlugin", targets: ["RestorationLintPlugin"]),
    // What the archive fuzzer in `Fuzz/` runs on each input; the corpus test runs it too. For
    // the fuzzing package only, not public API: hence the underscore.
    .library(name: "_ArchiveFuzzing", targets: ["ArchiveFuzzing"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    // The lint's Swift parser (`RestorationLintSwift`) and configuration reader
    // (`RestorationLint`).
    .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    // `swift package generate-documentation` and `preview-documentation`; no code depends on it.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
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
    // Archives on disk, in UIKit's layout: private folders, atomic writes, hostile files refused.
    .target(name: "StateRestorationStorage", dependencies: ["StateRestoration"]),

    .target(
      name: "StateRestorationUI",
      dependencies: [
        "StateRestoration", "StateRestorationStorage", "BinaryPropertyList",
        .product(name: "Logging", package: "swift-log"),
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
    // The lint, one module per layer: the findings, configuration, engine and output formats;
    // the Interface Builder rules; the Swift rules, read with swift-syntax; the command.
    .target(
      name: "RestorationLint",
      dependencies: [.product(name: "Yams", package: "Yams")]
    ),
    .target(
      name: "RestorationLintInterfaceBuilder",
      dependencies: ["RestorationLint", "StateRestoration", "StoryboardImport"]
    ),
    .target(
      name: "RestorationLintSwift",
      dependencies: [
        "RestorationLint", "RestorationLintInterfaceBuilder", "StoryboardImport",
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
      ]
    ),
    // The `lint` subcommand, as a library so that any command-line tool can mount it.
    .target(
      name: "RestorationLintCommand",
      dependencies: [
        "RestorationLint", "RestorationLintInterfaceBuilder", "RestorationLintSwift",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),

    // Tools
    .target(
      name: "ArchiveInspection",
      dependencies: ["StateRestoration", "StateRestorationStorage"]
    ),
    .target(
      name: "ArchiveFuzzing",
      dependencies: [
        "ArchiveInspection", "StateRestoration", "StateRestorationTesting", "StateRestorationUI",
        "TestSupport", .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .executableTarget(
      name: "restoration-archive-tool",
      dependencies: [
        "ArchiveInspection", "RestorationLint", "RestorationLintCommand", "StateRestoration",
        "StateRestorationStorage",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(
      name: "restoration-benchmark",
      dependencies: [
        "StateRestoration", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // `swift package restoration-lint`: the lint on the package it is called in.
    .plugin(
      name: "RestorationLintPlugin",
      capability: .command(
        intent: .custom(
          verb: "restoration-lint",
          description:
            "Check the state restoration setup of the package's storyboards, XIBs and Swift sources."
        )
      ),
      dependencies: ["restoration-archive-tool"]
    ),

    // Examples
    .target(
      name: "RestorerCore",
      dependencies: ["StateRestoration", "StateRestorationStorage", "StateRestorationUI"],
      path: "Examples/RestorerCore",
      resources: [.copy("Resources/countries.json")]
    ),
    .executableTarget(
      name: "restorer",
      dependencies: [
        "RestorerCore", "StateRestoration", "StateRestorationStorage", "StateRestorationUI",
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
        "NotesCore", "StateRestoration", "StateRestorationStorage", "StateRestorationUI",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Examples/Notes"
    ),

    // Tests
    // A small app the reliability tests run as a real process: killed, crashed, side by side.
    .executableTarget(
      name: "restoration-test-helper",
      dependencies: [
        "BinaryPropertyList", "StateRestoration", "StateRestorationStorage",
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
    // Support for the tests of Interface Builder files: the real Xcode files and the small ones,
    // and an app that imports them.
    .target(
      name: "StoryboardTestSupport",
      dependencies: [
        "RestorerCore", "StateRestoration", "StateRestorationTesting", "StateRestorationUI",
        "StoryboardImport",
      ],
      path: "Tests/StoryboardTestSupport"
    ),
    // Support for the lint's tests: its fixtures, the tool as a process, the schemas.
    .target(
      name: "LintTestSupport",
      dependencies: ["RestorationLint", "RestorationLintCommand", "TestSupport"],
      path: "Tests/LintTestSupport"
    ),
    .testTarget(
      name: "StateRestorationUITests",
      dependencies: [
        "StateRestoration", "StateRestorationStorage", "StateRestorationUI",
        "StateRestorationTesting", "RestorerCore",
        "TestSupport", .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .testTarget(
      name: "StoryboardImportTests",
      dependencies: [
        "StateRestoration", "StateRestorationUI", "StateRestorationTesting", "RestorerCore",
        "StoryboardImport", "StoryboardTestSupport", "TestSupport",
      ],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "BinaryPropertyListTests",
      dependencies: ["BinaryPropertyList", "TestSupport"]
    ),
    .testTarget(
      name: "RestorationLintTests",
      dependencies: ["RestorationLint", "TestSupport"]
    ),
    .testTarget(
      name: "RestorationLintInterfaceBuilderTests",
      dependencies: [
        "RestorationLint", "RestorationLintInterfaceBuilder", "StateRestoration",
        "StateRestorationTesting", "StateRestorationUI", "StoryboardImport",
        "StoryboardTestSupport",
      ]
    ),
    .testTarget(
      name: "RestorationLintSwiftTests",
      dependencies: [
        "LintTestSupport", "RestorationLint", "RestorationLintSwift", "TestSupport",
      ],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "RestorationLintCommandTests",
      dependencies: [
        "LintTestSupport", "RestorationLint", "RestorationLintCommand",
        "RestorationLintInterfaceBuilder", "StoryboardImport", "StoryboardTestSupport",
        "TestSupport", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "StateRestorationTests",
      dependencies: [
        "BinaryPropertyList", "StateRestoration", "StateRestorationStorage", "TestSupport",
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .testTarget(
      name: "RestorerTests",
      dependencies: [
        "RestorerCore", "StateRestoration", "StateRestorationUI", "StateRestorationTesting",
        "TestSupport",
      ],
      exclude: ["Fixtures", "__RestorationArchives__"]
    ),
    .testTarget(
      name: "NotesTests",
      dependencies: [
        "NotesCore", "StateRestoration", "StateRestorationUI", "StateRestorationTesting",
        "TestSupport",
      ],
      exclude: ["Fixtures", "__RestorationArchives__"]
    ),
    .testTarget(
      name: "ArchiveInspectionTests",
      dependencies: [
        "ArchiveFuzzing", "ArchiveInspection", "BinaryPropertyList", "StateRestoration",
        "StateRestorationStorage",
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
