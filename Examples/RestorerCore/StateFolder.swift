import Foundation

/// The folder where the Restorer app keeps its saved state and settings.
public enum StateFolder {
  /// Creates the folder and its parents when missing.
  ///
  /// - Parameter path: The folder.
  /// - Throws: ``StateFolderError``, one line naming the folder and the reason, when the path
  ///   is taken by a file or the folder cannot be created.
  public static func create(at path: String) throws(StateFolderError) {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
      if isDirectory.boolValue { return }
      throw StateFolderError(path: path, reason: "a file of that name is in the way")
    }
    // Foundation's error for a file further up the path is a bare code (512): name the file.
    var ancestor = URL(fileURLWithPath: path).standardizedFileURL
    while ancestor.pathComponents.count > 1 {
      ancestor = ancestor.deletingLastPathComponent()
      if FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isDirectory) {
        if !isDirectory.boolValue {
          throw StateFolderError(path: path, reason: "\(ancestor.path) is a file, not a folder")
        }
        break
      }
    }
    do {
      // 0700, as the XDG base directory specification asks of folders it creates: the state
      // (the archive, the settings, the debug log) is the user's alone.
      try FileManager.default.createDirectory(
        atPath: path, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    } catch {
      throw StateFolderError(path: path, reason: reason(of: error))
    }
  }

  /// The system's words for why a folder could not be made: Foundation's errors wrap the POSIX
  /// error, whose message is the one-line reason; the raw `NSError` description is not.
  private static func reason(of error: any Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return String(cString: strerror(Int32(underlying.code)))
    }
    if nsError.domain == NSPOSIXErrorDomain {
      return String(cString: strerror(Int32(nsError.code)))
    }
    switch nsError.code {
    case NSFileWriteFileExistsError: return "a file is in the way"
    case NSFileWriteNoPermissionError: return "permission denied"
    case NSFileWriteOutOfSpaceError: return "no space left on the device"
    case NSFileWriteVolumeReadOnlyError: return "the file system is read-only"
    default: return nsError.localizedDescription
    }
  }
}

/// The state folder could not be created.
public struct StateFolderError: Error, CustomStringConvertible {
  /// The folder.
  public var path: String
  /// Why it could not be created.
  public var reason: String

  /// `cannot create the state folder <path>: <reason>`.
  public var description: String { "cannot create the state folder \(path): \(reason)" }
}
