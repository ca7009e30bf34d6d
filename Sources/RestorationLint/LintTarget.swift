internal import Foundation

/// One target of the project linted: the files it builds, its `Info.plist` and its build
/// settings, as the rules that cross files need them.
///
/// Targets come from the Xcode projects of the run (``XcodeProject``); the files of no project's
/// target, in a folder without one, belong to the `Info.plist` of their folder, or of the
/// nearest folder above them that has one (the only one of the run, for files in no such
/// folder). See ``LintProject/targets()``.
public struct LintTarget: Sendable {
  /// What a target builds.
  public enum Kind: Sendable, Hashable {
    /// An app (an App Clip too).
    case application
    /// An app extension.
    case appExtension
    /// A framework, a test bundle or anything else.
    case other
  }

  /// The target's name; for a target found by its `Info.plist` alone, the plist's folder.
  public var name: String
  /// What it builds.
  public var kind: Kind
  /// The Xcode project's target, when there is one.
  public var projectTarget: XcodeProject.Target?
  /// Its `Info.plist`, when the run found one.
  public var infoPlist: InfoPlist?
  /// Whether Xcode generates its scene manifest from a build setting
  /// (`INFOPLIST_KEY_UIApplicationSceneManifest_Generation`), as for SwiftUI apps.
  public var hasGeneratedSceneManifest = false
  /// The checked files of the run that belong to it, as the run names them.
  public var files: Set<String>

  /// Whether it has a scene manifest, written or generated.
  public var hasSceneManifest: Bool { infoPlist?.sceneManifest != nil || hasGeneratedSceneManifest }

  /// A text with build settings in it, expanded with the target's settings in each build
  /// configuration (``XcodeProject/Target/expand(_:)``); a text with settings in a target
  /// without a project has one unknown value.
  ///
  /// - Parameter text: The text.
  /// - Returns: The distinct values; nil for each that cannot be worked out.
  public func expand(_ text: String) -> [String?] {
    guard let projectTarget else {
      return text.contains("$(") || text.contains("${") ? [nil] : [text]
    }
    return projectTarget.expand(text)
  }

  /// The module name of the target's Swift code (`PRODUCT_MODULE_NAME`), in each configuration;
  /// nil where it cannot be worked out, and empty without a project.
  public var moduleNames: [String?] {
    projectTarget?.values(of: "PRODUCT_MODULE_NAME") ?? []
  }

  /// The iOS deployment target in each configuration (`IPHONEOS_DEPLOYMENT_TARGET`); nil where
  /// it is not set, and empty without a project.
  public var deploymentTargets: [String?] {
    projectTarget?.values(of: "IPHONEOS_DEPLOYMENT_TARGET") ?? []
  }
}

extension LintProject {
  /// The targets of the project linted, worked out once.
  ///
  /// Each native target of each Xcode project of the run is one, with the checked files it
  /// compiles or copies and the `Info.plist` its `INFOPLIST_FILE` names (read now when the run
  /// did not find it by its name; then it joins the checked files). Then each `Info.plist` that
  /// no project's target uses is a target of the files of its folder and below that no project
  /// claims; the files left, when the run found exactly one such `Info.plist`, join it, and
  /// otherwise form a target without `Info.plist`.
  ///
  /// - Returns: The targets: the projects' in their order, then the others.
  /// - Complexity: Linear in the number of files times their depth, plus the files below each
  ///   project times its targets.
  public mutating func targets() -> [LintTarget] {
    if let resolvedTargets { return resolvedTargets }
    var targets: [LintTarget] = []
    var plists = Dictionary(
      facts(InfoPlist.self).map { ($0.file, $0) }, uniquingKeysWith: { first, _ in first })
    var usedPlists: Set<String> = []
    var claimed: Set<String> = []
    let projects = facts(XcodeProject.self)
    let inside = filesInside(projects)
    for (number, project) in projects.enumerated() {
      let inside = inside[number] ?? []
      for target in project.targets {
        var lintTarget = LintTarget(
          name: target.name, kind: Self.kind(of: target), projectTarget: target, files: [])
        let membership = Membership(target)
        for (name, relative) in inside where membership.contains(relative) {
          lintTarget.files.insert(name)
          claimed.insert(name)
        }
        for value in target.values(of: "INFOPLIST_FILE") {
          guard let value, let plistFile = Self.fileInside(project.folder, value) else { continue }
          if plists[plistFile] == nil, let read = readInfoPlist(plistFile, in: project.folder) {
            plists[plistFile] = read
          }
          if let plist = plists[plistFile] {
            lintTarget.infoPlist = plist
            usedPlists.insert(plistFile)
            break
          }
        }
        lintTarget.hasGeneratedSceneManifest = target.configurations.contains {
          $0.buildSettings["GENERATE_INFOPLIST_FILE"] == "YES"
            && $0.buildSettings["INFOPLIST_KEY_UIApplicationSceneManifest_Generation"] == "YES"
        }
        targets.append(lintTarget)
      }
    }
    targets += folderTargets(plists: plists, used: usedPlists, claimed: claimed)
    resolvedTargets = targets
    return targets
  }

  /// The files of the run below each project's folder, by the project's position, with their
  /// path relative to that folder: each file looks its folders up, so that the cost grows with
  /// the files and their depth, not with the files times the projects.
  private func filesInside(_ projects: [XcodeProject]) -> [Int: [(String, String)]] {
    var projectsByFolder: [String: [Int]] = [:]
    for (number, project) in projects.enumerated() {
      projectsByFolder[project.folder, default: []].append(number)
    }
    var inside: [Int: [(String, String)]] = [:]
    guard !projectsByFolder.isEmpty else { return inside }
    for name in files.map(\.report.file) {
      var folder = Self.folder(of: name)
      // Paths nest at most so deep.
      for _ in 0..<256 {
        for number in projectsByFolder[folder] ?? [] {
          let relative =
            folder.isEmpty
            ? name : String(name.dropFirst(folder == "/" ? 1 : folder.count + 1))
          inside[number, default: []].append((name, relative))
        }
        if folder.isEmpty || folder == "/" { break }
        folder = Self.folder(of: folder)
      }
    }
    return inside
  }

  private static func kind(of target: XcodeProject.Target) -> LintTarget.Kind {
    if target.isApplication { return .application }
    if let type = target.productType, type.contains("extension") { return .appExtension }
    return .other
  }

  /// The targets of `Info.plist` files that no project's target uses.
  private func folderTargets(
    plists: [String: InfoPlist], used: Set<String>, claimed: Set<String>
  ) -> [LintTarget] {
    let free = plists.values.filter { !used.contains($0.file) }.sorted { $0.file < $1.file }
    var targets = free.map { plist in
      LintTarget(
        name: Self.folder(of: plist.file), kind: plist.isExtension ? .appExtension : .application,
        infoPlist: plist, files: [plist.file])
    }
    let indexByFolder = Dictionary(
      targets.enumerated().map { (Self.folder(of: $1.infoPlist?.file ?? ""), $0) },
      uniquingKeysWith: { first, _ in first })
    var homeless: Set<String> = []
    for file in files.map(\.report.file) where !claimed.contains(file) {
      guard file != "", !used.contains(file), plists[file] == nil else { continue }
      var folder = Self.folder(of: file)
      var owner: Int?
      // The nearest folder above with a free Info.plist; paths nest at most so deep.
      for _ in 0..<256 {
        if let index = indexByFolder[folder] {
          owner = index
          break
        }
        if folder.isEmpty || folder == "/" { break }
        folder = Self.folder(of: folder)
      }
      if let owner {
        targets[owner].files.insert(file)
      } else {
        homeless.insert(file)
      }
    }
    if targets.count == 1 {
      targets[0].files.formUnion(homeless)
    } else if !homeless.isEmpty {
      targets.append(LintTarget(name: "", kind: .other, files: homeless))
    }
    return targets
  }

  /// The folder of a path, as the run names it: empty for a file of the current folder.
  static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    if slash == path.startIndex { return "/" }
    return String(path[..<slash])
  }

  /// A path a project names, relative to its folder, as the run names it; nil for an absolute
  /// path, or one that leaves the folder.
  static func fileInside(_ folder: String, _ path: String) -> String? {
    guard !path.hasPrefix("/") else { return nil }
    let relative = XcodeProject.normalized(path)
    guard !relative.isEmpty, relative != "..", !relative.hasPrefix("../") else { return nil }
    return folder.isEmpty ? relative : folder + "/" + relative
  }

  /// Reads an `Info.plist` a project names that the run did not find by its name, when it is a
  /// regular file reached without a symbolic link below the project's folder; it joins the
  /// checked files.
  private mutating func readInfoPlist(_ file: String, in folder: String) -> InfoPlist? {
    let manager = FileManager.default
    var path = folder
    let relative = folder.isEmpty ? file : String(file.dropFirst(folder.count + 1))
    for component in relative.split(separator: "/") {
      path = path.isEmpty ? String(component) : path + "/" + component
      // attributesOfItem does not follow links: a link is seen as one, and refused.
      guard let type = (try? manager.attributesOfItem(atPath: path))?[.type] as? FileAttributeType,
        type == .typeDirectory || type == .typeRegular
      else { return nil }
    }
    guard case .bytes(let bytes) = ProjectFiles.read(path, limit: InfoPlistRuleSet.maximumFileSize),
      let plist = InfoPlist(bytes: bytes, file: file)
    else { return nil }
    append(
      File(
        report: LintedFile(file: file, kind: .infoPlist, findings: []), suppressions: [:],
        facts: plist))
    return plist
  }
}

/// Which files, relative to the project's folder, a target has: looked up by the file, then by
/// each folder above it, so that the cost does not grow with the number of folders.
private struct Membership {
  let files: Set<String>
  let folders: [String: Set<String>]

  init(_ target: XcodeProject.Target) {
    files = target.files
    folders = Dictionary(
      target.synchronizedFolders.map { ($0.path, $0.excluded) }, uniquingKeysWith: { $0.union($1) })
  }

  func contains(_ path: String) -> Bool {
    if files.contains(path) { return true }
    guard !folders.isEmpty else { return false }
    var folder = LintProject.folder(of: path)
    for _ in 0..<256 {
      if let excluded = folders[folder] {
        let inner = folder.isEmpty ? path : String(path.dropFirst(folder.count + 1))
        // A folder left out leaves out every file below it.
        var part = inner
        for _ in 0..<256 {
          if excluded.contains(part) { return false }
          let up = LintProject.folder(of: part)
          if up.isEmpty || up == part { break }
          part = up
        }
        return true
      }
      if folder.isEmpty { return false }
      folder = LintProject.folder(of: folder)
    }
    return false
  }
}
