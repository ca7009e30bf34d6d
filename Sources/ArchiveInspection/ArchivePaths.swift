public import StateRestoration

/// The identifier paths of an archive: as a list, as an indented tree, or as a Graphviz graph.
///
/// The tree is built from the paths alone: an object's parent is its nearest ancestor path that
/// has a record. Index components such as `:[1]:` are shown as `[1]` before the identifier they
/// number; ancestors without a record of their own (gaps) are folded into the label, so that
/// `A/B/C` with records for `A` and `A/B/C` shows `B/C` under `A`.
public enum ArchivePaths {
  /// The root identifier paths, one a line, in archive order (parents first).
  ///
  /// - Parameter archive: The archive.
  /// - Returns: The lines, each ending with a newline.
  public static func list(_ archive: RestorationArchive) -> String {
    archive.records.map { ValueFormatting.name($0.identifierPath) + "\n" }.joined()
  }

  /// The paths drawn as a tree, children by container index (`[0]` before `[1]`), then in
  /// archive order.
  ///
  /// ```
  /// TabController
  /// ├── [0] FirstViewController
  /// └── [1] NavigationController
  ///     ├── [0] SecondViewController
  ///     └── [1] CityViewController
  /// ```
  ///
  /// - Parameter archive: The archive.
  /// - Returns: The lines, each ending with a newline.
  public static func tree(_ archive: RestorationArchive) -> String {
    let forest = Forest(archive)
    var output = ""
    // Depth-first with an explicit stack: a hostile archive can nest deeper than the call
    // stack allows.
    var stack: [(node: Int, prefix: String, branch: String, childPrefix: String)] =
      forest.roots.reversed().map { ($0, "", "", "") }
    while let (node, prefix, branch, childPrefix) = stack.popLast() {
      output += prefix + branch + forest.labels[node] + "\n"
      let children = forest.children[node]
      for (position, child) in children.enumerated().reversed() {
        let isLast = position == children.count - 1
        stack.append(
          (child, childPrefix, isLast ? "└── " : "├── ", childPrefix + (isLast ? "    " : "│   "))
        )
      }
    }
    return output
  }

  /// The hierarchy as a Graphviz graph, for `dot -Tpng`.
  ///
  /// Each object is a node labelled with its tree label and its class (view controllers as
  /// boxes, views as rounded boxes, other objects as ellipses), with its full path as tooltip;
  /// edges go from parent to child.
  ///
  /// - Parameter archive: The archive.
  /// - Returns: The graph in the DOT language, ending with a newline.
  public static func graphviz(_ archive: RestorationArchive) -> String {
    let lines = graphHeader + graphBody(archive, nodePrefix: "n", indent: "  ") + ["}"]
    return lines.joined(separator: "\n") + "\n"
  }

  /// Several archives as one Graphviz graph: a cluster per archive, labelled with its session
  /// (`scene session ID`, or `app archive`), holding that archive's graph.
  ///
  /// Node names start with the cluster's number (`s1_n0`), since two sessions often hold the
  /// same objects. An archive that cannot be read is a note saying why, so that every session
  /// has its cluster.
  ///
  /// - Parameter sections: The archives, each with its session.
  /// - Returns: The graph in the DOT language, ending with a newline.
  public static func graphviz(_ sections: [ArchiveSection]) -> String {
    var lines = graphHeader
    for (number, section) in sections.enumerated() {
      lines += [
        "  subgraph cluster_\(number) {",
        "    label=\(dotString(section.title));",
        "    tooltip=\(dotString(section.path));",
      ]
      switch section.archive {
      case .success(let archive) where !archive.records.isEmpty:
        lines += graphBody(archive, nodePrefix: "s\(number)_n", indent: "    ")
      case .success:
        // dot leaves an empty cluster out; a note keeps the session in the picture.
        lines.append("    s\(number)_empty [label=\"no objects\", shape=plaintext];")
      case .failure:
        let reason = "cannot be read: " + (section.errorMessage ?? "")
        lines.append("    s\(number)_error [label=\(dotString(reason)), shape=note];")
      }
      lines.append("  }")
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The lines that open a graph.
  private static let graphHeader = [
    "digraph restoration {",
    "  rankdir=TB;",
    "  node [shape=box, fontname=\"Helvetica\"];",
  ]

  /// An archive's nodes and edges, each node named `nodePrefix` and its record's number.
  private static func graphBody(
    _ archive: RestorationArchive, nodePrefix: String, indent: String
  ) -> [String] {
    let forest = Forest(archive)
    var lines: [String] = []
    // Nodes in tree order, so that dot lays siblings out as the tree lists them.
    let order = forest.preorder
    for index in order {
      let record = archive.records[index]
      var label = forest.labels[index] + "\n" + record.className
      if let name = record.restorationClassName { label += "\nrestoration class: \(name)" }
      let shape =
        switch record.kind {
        case .viewController: "box"
        case .view: "box, style=rounded"
        case .object: "ellipse"
        }
      lines.append(
        "\(indent)\(nodePrefix)\(index) [label=\(dotString(label)), tooltip=\(dotString(record.identifierPath)), shape=\(shape)];"
      )
    }
    for parent in order {
      for child in forest.children[parent] {
        lines.append("\(indent)\(nodePrefix)\(parent) -> \(nodePrefix)\(child);")
      }
    }
    return lines
  }

  /// A DOT quoted string; line breaks become DOT's centred `\n`.
  static func dotString(_ text: String) -> String {
    var result = "\""
    for character in text {
      switch character {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case _ where character.isNewline: result += "\\n"
      default: result.append(character)
      }
    }
    return result + "\""
  }

  /// How an identifier path's components read in a tree: `:[1]:` becomes `[1]` before the
  /// identifier it numbers, identifiers are joined with `/`.
  ///
  /// - Parameter components: Components of a path, index components included.
  /// - Returns: The label, such as `[1] NavigationController`.
  static func label(_ components: some Collection<String>) -> String {
    var pieces: [String] = []
    var pending = ""
    for component in components {
      if IdentifierPath.isIndexComponent(component) {
        pending += "[" + component.dropFirst(2).dropLast(2) + "]"
      } else {
        let name = ValueFormatting.name(component)
        pieces.append(pending.isEmpty ? name : pending + " " + name)
        pending = ""
      }
    }
    if !pending.isEmpty { pieces.append(pending) }
    return pieces.joined(separator: "/")
  }
}

/// The records of an archive arranged by their paths.
///
/// Parents are found by walking a trie of path components, so an archive of long paths (even
/// a hostile one with a path of a million components) is arranged in time linear in its size.
struct Forest {
  /// The records with no ancestor record, in archive order.
  var roots: [Int] = []
  /// Each record's children: by container index, then in archive order.
  var children: [[Int]]
  /// Each record's nearest ancestor record, if any.
  var parents: [Int?]
  /// Each record's label: its path's components below its parent's.
  var labels: [String]
  /// For each record, the earlier record with the same path, if any.
  var duplicateOf: [Int?]

  /// The records depth first, each before its children, siblings in ``children`` order.
  var preorder: [Int] {
    var order: [Int] = []
    order.reserveCapacity(parents.count)
    var stack = Array(roots.reversed())
    while let node = stack.popLast() {
      order.append(node)
      stack += children[node].reversed()
    }
    return order
  }

  init(_ archive: RestorationArchive) {
    let records = archive.records
    children = Array(repeating: [], count: records.count)
    parents = Array(repeating: nil, count: records.count)
    labels = Array(repeating: "", count: records.count)
    duplicateOf = Array(repeating: nil, count: records.count)

    // A trie of components; each node knows the first record whose path ends there.
    var branches: [[String: Int]] = [[:]]
    var recordAt: [Int?] = [nil]
    var componentsOf: [[String]] = []
    componentsOf.reserveCapacity(records.count)
    for (index, record) in records.enumerated() {
      let components = IdentifierPath.components(of: record.identifierPath)
      componentsOf.append(components)
      var node = 0
      for component in components {
        if let next = branches[node][component] {
          node = next
        } else {
          branches.append([:])
          recordAt.append(nil)
          branches[node][component] = branches.count - 1
          node = branches.count - 1
        }
      }
      if let first = recordAt[node] {
        duplicateOf[index] = first
      } else {
        recordAt[node] = index
      }
    }

    // Each record's index in its container, from the first component below its parent.
    var positions: [Int?] = Array(repeating: nil, count: records.count)
    for index in records.indices {
      let components = componentsOf[index]
      // The deepest record along the path, before its last component, that ends on an
      // identifier (as IdentifierPath.parent(of:) climbs, index components are never ends).
      var parent: (record: Int, depth: Int)?
      var node = 0
      for (depth, component) in components.enumerated().dropLast() {
        guard let next = branches[node][component] else { break }
        node = next
        if let record = recordAt[node], !IdentifierPath.isIndexComponent(component) {
          parent = (record, depth + 1)
        }
      }
      if let parent {
        parents[index] = parent.record
        labels[index] = ArchivePaths.label(components.dropFirst(parent.depth))
        children[parent.record].append(index)
      } else {
        labels[index] = ArchivePaths.label(components)
        roots.append(index)
      }
      if duplicateOf[index] != nil { labels[index] += " (duplicate)" }
      if let first = components.dropFirst(parent?.depth ?? 0).first,
        IdentifierPath.isIndexComponent(first)
      {
        positions[index] = Int(first.dropFirst(2).dropLast(2))
      }
    }
    // Siblings by their container index, [0] before [1], whatever order the archive has them
    // in (references can pull a later sibling in first); siblings without an index
    // (views, presented controllers) follow in archive order.
    for parent in children.indices where children[parent].count > 1 {
      children[parent] = children[parent].enumerated()
        .sorted { lhs, rhs in
          let left = positions[lhs.element] ?? Int.max
          let right = positions[rhs.element] ?? Int.max
          return (left, lhs.offset) < (right, rhs.offset)
        }
        .map(\.element)
    }
  }
}
