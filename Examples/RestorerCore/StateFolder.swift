import Foundation
import StateRestoration
import StateRestorationStorage

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
      // 0700, each folder made, as the XDG base directory specification asks of folders it
      // creates: the state (the archive, the settings, the debug log) is the user's alone.
      _ = try PrivateFolder.open(root: path, components: [], creating: true)
    } catch {
      throw StateFolderError(path: path, reason: error.message)
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
