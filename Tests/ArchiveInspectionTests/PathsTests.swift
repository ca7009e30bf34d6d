import ArchiveInspection
import Foundation
import StateRestoration
import TestSupport
import Testing

@Suite struct PathsTests {
  @Test func listsRootIdentifierPathsParentsFirst() throws {
    // In archive order, which follows the tree, as UIKit's root identifier paths do.
    #expect(
      ArchivePaths.list(try DemoArchives.talkDemo()) == """
        TabController
        TabController/:[0]:/FirstViewController
        TabController/:[1]:/NavigationController
        TabController/:[1]:/NavigationController/:[0]:/SecondViewController
        TabController/:[1]:/NavigationController/:[1]:/CityViewController

        """
    )
  }

  @Test func drawsTheTalkDemoAsATree() throws {
    #expect(
      ArchivePaths.tree(try DemoArchives.talkDemo()) == """
        TabController
        ├── [0] FirstViewController
        └── [1] NavigationController
            ├── [0] SecondViewController
            └── [1] CityViewController

        """
    )
  }

  @Test func treeFoldsGapsKeepsSeveralRootsAndMarksDuplicates() {
    let archive = Crafting.archive([
      Crafting.record("Window"),
      Crafting.record("Window/:[0]:/Root"),
      // No record for Window/:[0]:/Root/:[2]:/Hidden: the gap is folded into the label.
      Crafting.record("Window/:[0]:/Root/:[2]:/Hidden/:[0]:/Leaf"),
      Crafting.record("Window/:[0]:/Root/Sidebar"),
      Crafting.record("Settings"),
      Crafting.record("Window/:[0]:/Root/Sidebar"),
      Crafting.record("Orphan/:[3]:/Child"),
    ])
    #expect(
      ArchivePaths.tree(archive) == """
        Window
        └── [0] Root
            ├── [2] Hidden/[0] Leaf
            ├── Sidebar
            └── Sidebar (duplicate)
        Settings
        Orphan/[3] Child

        """
    )
  }

  @Test func treeOfAnArchiveWithChildrenBeforeParentsStillShowsTheHierarchy() {
    let archive = Crafting.archive([
      Crafting.record("A/:[0]:/B"),
      Crafting.record("A"),
    ])
    #expect(ArchivePaths.tree(archive) == "A\n└── [0] B\n")
  }

  @Test func treeHandlesDeepAndLongPathsWithoutRecursion() {
    // 1,000 nested records and one path of 200,000 components: linear, and no stack overflow.
    var records: [RestorationArchive.Record] = []
    var path = "R"
    for depth in 0..<1_000 {
      records.append(Crafting.record(path))
      path += "/:[0]:/N\(depth)"
    }
    records.append(
      Crafting.record(Array(repeating: "x", count: 200_000).joined(separator: "/")))
    let tree = ArchivePaths.tree(Crafting.archive(records))
    #expect(tree.split(separator: "\n").count == 1_001)
    #expect(tree.hasPrefix("R\n└── [0] N0\n    └── [0] N1\n"))
  }

  @Test func graphvizHasANodePerObjectAndAnEdgePerParent() throws {
    let dot = ArchivePaths.graphviz(try DemoArchives.talkDemo())
    #expect(dot.hasPrefix("digraph restoration {\n"))
    #expect(dot.hasSuffix("}\n"))
    #expect(
      dot.contains(
        "  n4 [label=\"[1] CityViewController\\nCityViewController\\nrestoration class: CityViewController\", tooltip=\"TabController/:[1]:/NavigationController/:[1]:/CityViewController\", shape=box];"
      )
    )
    // Nodes in tree order: [0] FirstViewController (record 1) before [1] NavigationController.
    let nodes = dot.split(separator: "\n").filter { $0.contains(" [label=") }
      .map { $0.split(separator: " ")[0] }
    #expect(nodes == ["n0", "n1", "n2", "n3", "n4"])
    let edges = dot.split(separator: "\n").filter { $0.contains("->") }
    #expect(edges == ["  n0 -> n1;", "  n0 -> n2;", "  n2 -> n3;", "  n2 -> n4;"])
    let signIn = ArchivePaths.graphviz(try DemoArchives.signIn())
    #expect(signIn.contains("shape=box, style=rounded];"))
    #expect(signIn.contains("shape=ellipse];"))
  }

  /// Graphviz's `dot`, where package managers put it, or nil.
  static let dot = ["/usr/bin/dot", "/usr/local/bin/dot", "/opt/homebrew/bin/dot"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  // Skipped, and shown as skipped, without Graphviz; `.ci/run` installs it so CI renders.
  @Test(.enabled(if: dot != nil, "Graphviz's dot is not installed (.ci/run installs it)"))
  func graphvizRendersWithDot() throws {
    let dot = try #require(Self.dot)
    for archive in [try DemoArchives.talkDemo(), try DemoArchives.signIn()] {
      let (folder, file) = try DemoArchives.write(Array(ArchivePaths.graphviz(archive).utf8))
      defer { try? FileManager.default.removeItem(at: folder) }
      let result = try run(dot, ["-Tsvg", file.path])
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardError.isEmpty)
      for record in archive.records {
        #expect(result.standardOutput.contains("xlink:title=\"\(record.identifierPath)\""))
      }
    }
  }

  @Test func graphvizQuotesLabelsSafely() {
    let archive = Crafting.archive([Crafting.record("Say \"hi\"\\now")])
    let dot = ArchivePaths.graphviz(archive)
    #expect(dot.contains("tooltip=\"Say \\\"hi\\\"\\\\now\""))
  }
}
