/// What an Xcode project says about its targets: their build settings, and which files each
/// compiles or copies.
///
/// Read from `project.pbxproj` (``init(bytes:file:)``): the native targets, their build
/// configurations merged over the project's, the files of their Sources and Resources phases
/// (with their paths worked out through the project's groups), and the folders Xcode keeps in
/// sync with a target (`PBXFileSystemSynchronizedRootGroup`) with their exceptions. Files are
/// named relative to ``folder``, the folder that holds the `.xcodeproj`, as Xcode's `SRCROOT`.
public struct XcodeProject: Sendable, Hashable {
  /// `project.pbxproj` files larger than this are not read.
  public static let maximumFileSize = 32 * 1024 * 1024
  /// The most native targets a project may have; more is a hostile file, not a project.
  public static let maximumTargetCount = 1_000
  /// The most files all targets together may have, counting a file once per target; more is a
  /// hostile file (phases shared by many targets), not a project.
  public static let maximumMembershipCount = 4_000_000

  /// The `project.pbxproj` file, as the run names it.
  public var file: String
  /// The folder that holds the `.xcodeproj`, as the run names it (empty for the current folder).
  public var folder: String
  /// The native targets, in the project's order.
  public var targets: [Target]

  /// One target.
  public struct Target: Sendable, Hashable {
    /// Its name (`TARGET_NAME`).
    public var name: String
    /// Its product type, such as `com.apple.product-type.application`.
    public var productType: String?
    /// Its build configurations, each with the project's settings under the target's own.
    public var configurations: [Configuration]
    /// The files it compiles or copies, relative to the project's folder.
    public var files: Set<String>
    /// The folders it takes every file of, relative to the project's folder, with the files
    /// (relative to the folder) left out.
    public var synchronizedFolders: [SynchronizedFolder]

    /// Whether it builds an app (an App Clip too), not an extension, framework or test bundle.
    public var isApplication: Bool {
      productType?.hasPrefix("com.apple.product-type.application") ?? false
    }

    /// Whether a file, relative to the project's folder, belongs to the target.
    ///
    /// - Parameter path: The file's path, relative to the project's folder.
    /// - Returns: Whether the target compiles or copies it.
    public func contains(_ path: String) -> Bool {
      if files.contains(path) { return true }
      for folder in synchronizedFolders {
        let prefix = folder.path.isEmpty ? "" : folder.path + "/"
        guard path.hasPrefix(prefix) else { continue }
        if !folder.excluded.contains(String(path.dropFirst(prefix.count))) { return true }
      }
      return false
    }
  }

  /// A named build configuration (`Debug`, `Release`) and its settings.
  public struct Configuration: Sendable, Hashable {
    /// Its name.
    public var name: String
    /// Its build settings; a list value is joined with spaces.
    public var buildSettings: [String: String]
  }

  /// A folder whose files all belong to a target, but those left out.
  public struct SynchronizedFolder: Sendable, Hashable {
    /// The folder, relative to the project's folder.
    public var path: String
    /// Files and folders left out, relative to the folder.
    public var excluded: Set<String>
  }

  /// Why a `project.pbxproj` could not be read.
  public struct ReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line, when the text itself is wrong.
    public var line: Int?
    /// What is wrong.
    public var message: String

    /// `line N: message`, or the message.
    public var description: String { line.map { "line \($0): \(message)" } ?? message }
  }

  /// Reads a `project.pbxproj`.
  ///
  /// - Parameters:
  ///   - bytes: The file's bytes.
  ///   - file: The file, as the run names it: the project's folder is the one above its
  ///     `.xcodeproj`.
  /// - Throws: ``ReadError`` when the text is not an old-style property list, or not a project.
  /// - Complexity: Linear in the size of the file: each object is visited once.
  public init(bytes: [UInt8], file: String) throws(ReadError) {
    let root: OpenStepValue
    do {
      root = try OpenStepValue.parse(bytes)
    } catch {
      throw ReadError(line: error.line, message: error.message)
    }
    guard let objects = root.dictionary?["objects"]?.dictionary,
      let rootID = root.dictionary?["rootObject"]?.string,
      let project = objects[rootID]?.dictionary, project["isa"]?.string == "PBXProject"
    else {
      throw ReadError(line: nil, message: "has no PBXProject root object")
    }
    self.file = file
    folder = Self.projectFolder(of: file)
    let reader = ObjectReader(objects: objects)
    let paths = reader.filePaths(
      mainGroup: project["mainGroup"]?.string, projectDirPath: project["projectDirPath"]?.string)
    let projectConfigurations = reader.configurations(project["buildConfigurationList"]?.string)
    var targets: [Target] = []
    var targetIDs: [String: Int] = [:]
    // Each phase's files are worked out once, however many targets list it.
    var phaseFiles: [String: Set<String>] = [:]
    var memberships = 0
    for id in project["targets"]?.array?.compactMap(\.string) ?? [] {
      guard let target = objects[id]?.dictionary, target["isa"]?.string == "PBXNativeTarget",
        targetIDs[id] == nil
      else { continue }
      guard targets.count < Self.maximumTargetCount else {
        throw ReadError(line: nil, message: "has more than \(Self.maximumTargetCount) targets")
      }
      let name = target["name"]?.string ?? ""
      var configurations = reader.configurations(target["buildConfigurationList"]?.string)
      for index in configurations.indices {
        let shared = projectConfigurations.first { $0.name == configurations[index].name }
        configurations[index].buildSettings.merge(shared?.buildSettings ?? [:]) { own, _ in own }
      }
      var files: Set<String> = []
      var phasesRead: Set<String> = []
      for phaseID in target["buildPhases"]?.array?.compactMap(\.string) ?? [] {
        guard phasesRead.insert(phaseID).inserted else { continue }
        let phase: Set<String>
        if let known = phaseFiles[phaseID] {
          phase = known
        } else {
          phase = Self.files(ofPhase: phaseID, objects: objects, paths: paths.files)
          phaseFiles[phaseID] = phase
        }
        memberships += phase.count
        guard memberships <= Self.maximumMembershipCount else {
          throw ReadError(
            line: nil,
            message: "has more than \(Self.maximumMembershipCount) files in its targets' phases")
        }
        files.formUnion(phase)
      }
      let folders = (target["fileSystemSynchronizedGroups"]?.array ?? []).compactMap {
        value -> SynchronizedFolder? in
        guard let id = value.string, let path = paths.synchronized[id] else { return nil }
        return SynchronizedFolder(path: path, excluded: [])
      }
      targetIDs[id] = targets.count
      targets.append(
        Target(
          name: name, productType: target["productType"]?.string, configurations: configurations,
          files: files, synchronizedFolders: folders))
    }
    // An exception set flips a file's membership for one target: left out of a target that
    // syncs the folder, added to one that does not.
    for (groupID, groupPath) in paths.synchronized {
      for exceptionID in objects[groupID]?.dictionary?["exceptions"]?.array ?? [] {
        guard let exception = exceptionID.string.flatMap({ objects[$0]?.dictionary }),
          let target = exception["target"]?.string.flatMap({ targetIDs[$0] })
        else { continue }
        let names = (exception["membershipExceptions"]?.array ?? []).compactMap(\.string)
        if let index = targets[target].synchronizedFolders.firstIndex(where: {
          $0.path == groupPath
        }) {
          targets[target].synchronizedFolders[index].excluded.formUnion(names)
        } else {
          targets[target].files.formUnion(names.map { Self.join(groupPath, $0) })
        }
      }
    }
    self.targets = targets
  }

  /// The files a Sources or Resources phase names; none for another phase.
  private static func files(
    ofPhase id: String, objects: [String: OpenStepValue], paths: [String: [String]]
  ) -> Set<String> {
    guard let phase = objects[id]?.dictionary,
      ["PBXSourcesBuildPhase", "PBXResourcesBuildPhase"].contains(phase["isa"]?.string)
    else { return [] }
    var files: Set<String> = []
    for buildFileID in phase["files"]?.array?.compactMap(\.string) ?? [] {
      guard let reference = objects[buildFileID]?.dictionary?["fileRef"]?.string else {
        continue
      }
      files.formUnion(paths[reference] ?? [])
    }
    return files
  }

  /// The folder above the `.xcodeproj` that holds a `project.pbxproj`.
  static func projectFolder(of file: String) -> String {
    var components = file.split(separator: "/", omittingEmptySubsequences: false)
    // `Name.xcodeproj/project.pbxproj`: drop both; a file named alone is in the project folder.
    if components.count >= 2, components[components.count - 2].hasSuffix(".xcodeproj") {
      components.removeLast(2)
    } else {
      components.removeLast()
    }
    if components == [""] { return "/" }
    return components.joined(separator: "/")
  }

  /// Two paths joined, with `.` and `..` resolved as far as the text allows; a path that climbs
  /// above where it started keeps its leading `..`.
  static func join(_ base: String, _ path: String) -> String {
    normalized(base.isEmpty ? path : path.hasPrefix("/") ? path : base + "/" + path)
  }

  /// A relative path without `.`, `..` (where it can go) or doubled slashes.
  static func normalized(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/") {
      if part == "." { continue }
      if part == "..", let last = parts.last, last != ".." {
        parts.removeLast()
      } else {
        parts.append(part)
      }
    }
    return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
  }
}

/// Reads a project's objects: groups, file references and build configurations.
private struct ObjectReader {
  let objects: [String: OpenStepValue]

  /// The deepest group nesting followed; deeper is a hostile file, not a project.
  static let maximumGroupDepth = 64

  /// Where each file reference (and variant group) is, relative to the project's folder, and
  /// where each synchronized folder is.
  func filePaths(
    mainGroup: String?, projectDirPath: String?
  ) -> (files: [String: [String]], synchronized: [String: String]) {
    var files: [String: [String]] = [:]
    var synchronized: [String: String] = [:]
    guard let mainGroup else { return ([:], [:]) }
    let base = XcodeProject.normalized(projectDirPath ?? "")
    var visited: Set<String> = []
    // The group's ID, its folder, its depth; variant groups give their children's paths to
    // their own ID (a localized storyboard is one file of the Resources phase).
    var stack: [(id: String, folder: String, depth: Int, variant: String?)] = [
      (mainGroup, base, 0, nil)
    ]
    while let (id, parentFolder, depth, variant) = stack.popLast() {
      guard visited.insert(id).inserted, let object = objects[id]?.dictionary else { continue }
      let isa = object["isa"]?.string
      let path = object["path"]?.string
      let folder: String?
      switch object["sourceTree"]?.string {
      case "<group>"?, nil:
        folder = path.map { XcodeProject.join(parentFolder, $0) } ?? parentFolder
      case "SOURCE_ROOT"?: folder = path.map { XcodeProject.join(base, $0) } ?? base
      default: folder = nil  // absolute, SDK or build products: not the project's own files
      }
      switch isa {
      case "PBXFileReference"?:
        if let folder, path != nil { files[variant ?? id, default: []].append(folder) }
      case "PBXFileSystemSynchronizedRootGroup"?:
        if let folder { synchronized[id] = folder }
      case "PBXGroup"?, "PBXVariantGroup"?, "XCVersionGroup"?:
        guard let folder, depth + 1 < Self.maximumGroupDepth else { continue }
        let childVariant = isa == "PBXVariantGroup" ? id : variant
        for child in (object["children"]?.array ?? []).reversed() {
          if let child = child.string {
            stack.append((child, folder, depth + 1, childVariant))
          }
        }
      default:
        continue
      }
    }
    return (files, synchronized)
  }

  /// A configuration list's configurations, with their settings.
  func configurations(_ listID: String?) -> [XcodeProject.Configuration] {
    guard let listID, let list = objects[listID]?.dictionary else { return [] }
    return (list["buildConfigurations"]?.array ?? []).compactMap { value in
      guard let id = value.string, let configuration = objects[id]?.dictionary else { return nil }
      var settings: [String: String] = [:]
      for (key, setting) in configuration["buildSettings"]?.dictionary ?? [:] {
        if let text = setting.string {
          settings[key] = text
        } else if let list = setting.array {
          settings[key] = list.compactMap(\.string).joined(separator: " ")
        }
      }
      return XcodeProject.Configuration(
        name: configuration["name"]?.string ?? "", buildSettings: settings)
    }
  }
}
