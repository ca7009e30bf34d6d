internal import StateRestoration
internal import StateRestorationStorage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// What scene sessions need of a private folder: removing session folders, and the advisory
// locks that order the index's updates and mark the folders in use.
extension PrivateFolder {
  /// Removes folders inside this one, named by the bytes ``entries()`` gives, with the files
  /// `items` in each (and their temporary files), flushing this folder once at the end.
  ///
  /// What is not a folder, a folder holding other files, and with `unlockedOnly` a locked one,
  /// are left.
  ///
  /// - Returns: How many folders were removed, and the first item that could not be.
  func removeFolders(
    _ names: [[UInt8]], holding items: [String], unlockedOnly: Bool
  ) -> (removed: Int, failure: RestorationError?) {
    var (removed, failure): (Int, RestorationError?) = (0, nil)
    for name in names {
      let cName = name.map { CChar(bitPattern: $0) } + [0]
      let child = openat(descriptor, cName, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      guard child >= 0 else { continue }
      let folder = PrivateFolder(
        descriptor: child, path: "\(path)/\(String(decoding: name, as: UTF8.self))")
      if unlockedOnly, flock(child, LOCK_EX | LOCK_NB) != 0 { continue }
      var removedItems = false
      do throws(RestorationError) {
        removedItems = try folder.remove(items, flushing: false)
      } catch {
        failure = failure ?? error
      }
      if unlinkat(descriptor, cName, AT_REMOVEDIR) == 0 {
        removed += 1
      } else if removedItems {
        folder.flush()
      }
    }
    if removed > 0 { flush() }
    return (removed, failure)
  }

  /// Takes an advisory lock (`flock`) on the folder, or on its file `name` (created `0600`, never
  /// through a link), held until released or until the process dies.
  ///
  /// - Returns: The lock; nil when `waiting` is false and another holds it, or when the file
  ///   system cannot lock.
  /// - Throws: ``RestorationError`` naming the file when it cannot be opened.
  func lock(
    _ name: String? = nil, exclusive: Bool, waiting: Bool
  ) throws(RestorationError) -> FileLock? {
    let flags = name == nil ? O_RDONLY | O_DIRECTORY : O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK
    let file = openat(descriptor, name ?? ".", flags | O_CLOEXEC, 0o600)
    guard file >= 0 else { throw openFailure("\(path)/\(name ?? "")") }
    let lock = FileLock(descriptor: file)
    let operation = (exclusive ? LOCK_EX : LOCK_SH) | (waiting ? 0 : LOCK_NB)
    while flock(file, operation) != 0 {
      guard errno == EINTR else { return nil }
    }
    return lock
  }
}

/// An advisory lock that ``PrivateFolder/lock(_:exclusive:waiting:)`` took, held until released.
final class FileLock {
  private let descriptor: Int32
  init(descriptor: Int32) { self.descriptor = descriptor }
  deinit { close(descriptor) }
}
