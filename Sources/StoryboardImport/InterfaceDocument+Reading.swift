internal import Foundation

extension InterfaceDocument {
  /// Files larger than this are not Interface Builder files (the largest real storyboards are a
  /// few megabytes); the limit keeps a stray path from loading gigabytes.
  public static let maximumFileSize = 64 * 1024 * 1024

  /// Reads a storyboard or XIB file.
  ///
  /// - Parameter path: The file's path; errors and issues name the file as given here.
  /// - Throws: ``StoryboardImportError`` for a missing, unreadable, malformed or unsupported
  ///   file.
  public init(contentsOfFile path: String) throws(StoryboardImportError) {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw StoryboardImportError(.fileNotFound, "no such file", file: path)
    }
    guard !isDirectory.boolValue else {
      throw StoryboardImportError(
        .unreadable, "is a folder, not a storyboard or XIB file", file: path)
    }
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    let size = (attributes?[.size] as? NSNumber)?.intValue ?? 0
    guard size <= Self.maximumFileSize else {
      throw StoryboardImportError(
        .limitExceeded,
        "is \(size) bytes; Interface Builder files are at most \(Self.maximumFileSize) bytes here",
        file: path
      )
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw StoryboardImportError(.unreadable, "cannot be read (check its permissions)", file: path)
    }
    try self.init(data: data, file: path)
  }

  /// Reads a storyboard or XIB from its bytes.
  ///
  /// - Parameters:
  ///   - bytes: The file's contents.
  ///   - file: The name errors and issues give the file.
  /// - Throws: ``StoryboardImportError`` for malformed or unsupported contents.
  public init(bytes: [UInt8], file: String) throws(StoryboardImportError) {
    guard bytes.count <= Self.maximumFileSize else {
      throw StoryboardImportError(
        .limitExceeded,
        "is \(bytes.count) bytes; Interface Builder files are at most \(Self.maximumFileSize) bytes here",
        file: file
      )
    }
    try self.init(data: Data(bytes), file: file)
  }

  private init(data: Data, file: String) throws(StoryboardImportError) {
    let root: XMLNode
    do {
      root = try XMLTree.parse(data)
    } catch {
      switch error {
      case .empty:
        throw StoryboardImportError(.malformedXML, "is empty, not an XML document", file: file)
      case .malformed(let line, let reason):
        throw StoryboardImportError(.malformedXML, reason, file: file, line: line)
      case .tooLarge(let line, let reason):
        throw StoryboardImportError(.limitExceeded, reason, file: file, line: line)
      }
    }
    self = try Self.interpret(root, file: file)
  }

  private static func interpret(_ root: XMLNode, file: String) throws(StoryboardImportError)
    -> InterfaceDocument
  {
    let type = root["type"] ?? ""
    let version = root["version"] ?? "?"
    // `com.apple.InterfaceBuilder3.` for iOS and macOS, `com.apple.InterfaceBuilder.` for
    // watchOS and tvOS.
    guard root.name == "document" || root.name == "archive",
      type.hasPrefix("com.apple.InterfaceBuilder")
    else {
      throw StoryboardImportError(
        .notInterfaceBuilderFile,
        "is XML, but its root <\(root.name)> is not an Interface Builder <document> or <archive>",
        file: file,
        line: root.line
      )
    }
    guard type.hasPrefix("com.apple.InterfaceBuilder3.CocoaTouch.") else {
      throw StoryboardImportError(
        .unsupportedDocument,
        "is a '\(type)' file; only iOS (Cocoa Touch) storyboards and XIBs are read",
        file: file,
        line: root.line,
        documentType: type
      )
    }
    if root.name == "archive" {
      return ArchiveFormatReader(root: root, file: file).read(version: version)
    }
    let kind: Kind = type.hasSuffix(".Storyboard.XIB") ? .storyboard : .xib
    var reader = DocumentFormatReader(file: file)
    return reader.read(root, kind: kind, version: version)
  }
}
