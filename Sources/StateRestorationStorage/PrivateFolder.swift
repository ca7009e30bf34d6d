package import StateRestoration

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A folder of one user's private state that nothing in it can lead out of: folders below the
/// root are opened without following links, must be the user's and are made `0700`; files are
/// opened relative to the open folder (so a link swapped in later redirects nothing), `0600`.
package final class PrivateFolder {
  /// The folder's path, for messages.
  package let path: String
  package let descriptor: Int32

  package init(descriptor: Int32, path: String) {
    self.descriptor = descriptor
    self.path = path
  }

  deinit { close(descriptor) }

  /// Opens the folder `components` below `root`, or nil when it does not exist.
  ///
  /// The root may be reached through links; each component is checked, a link or another user's
  /// folder throwing `unsafeStorage`. With `creating`, missing folders are made `0700`.
  package static func open(
    root: String, components: [String], creating: Bool
  ) throws(RestorationError) -> PrivateFolder? {
    let rootPath = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
    var descriptor = openFolder(rootPath)
    if descriptor < 0, errno == ENOENT {
      guard creating else { return nil }
      try createFolders(rootPath)
      descriptor = openFolder(rootPath)
    }
    guard descriptor >= 0 else {
      throw RestorationError(
        .storageFailed, "cannot open folder: \(Platform.errorDescription())", file: rootPath)
    }
    var folder = PrivateFolder(descriptor: descriptor, path: rootPath)
    for name in components {
      guard let child = try folder.openChild(name, creating: creating) else { return nil }
      folder = child
    }
    return folder
  }

  /// Opens a folder inside this one, with the checks of ``open(root:components:creating:)``.
  package func openChild(_ name: String, creating: Bool) throws(RestorationError) -> PrivateFolder?
  {
    let childPath = "\(path)/\(name)"
    let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
    var child = openat(descriptor, name, flags)
    if child < 0, errno == ENOENT {
      guard creating else { return nil }
      if mkdirat(descriptor, name, 0o700) != 0, errno != EEXIST {
        throw RestorationError(
          .storageFailed, "cannot create folder: \(Platform.errorDescription())", file: childPath)
      }
      child = openat(descriptor, name, flags)
    }
    guard child >= 0 else {
      let code = errno
      var status = stat()
      if fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 {
        if status.st_mode & S_IFMT == S_IFLNK {
          throw RestorationError(
            .unsafeStorage, "is a symbolic link; state is never read or written through one",
            file: childPath)
        }
        if status.st_mode & S_IFMT != S_IFDIR {
          throw RestorationError(.storageFailed, "exists but is not a folder", file: childPath)
        }
      }
      throw RestorationError(
        .storageFailed, "cannot open folder: \(Platform.errorDescription(code))", file: childPath)
    }
    let folder = PrivateFolder(descriptor: child, path: childPath)
    try folder.makePrivate()
    return folder
  }

  /// Checks that the open folder is the user's own, and takes other users' access away.
  private func makePrivate() throws(RestorationError) {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw RestorationError(
        .storageFailed, "cannot stat: \(Platform.errorDescription())", file: path)
    }
    guard status.st_uid == geteuid() else {
      throw RestorationError(
        .unsafeStorage, "belongs to user \(status.st_uid), not to this user (\(geteuid()))",
        file: path)
    }
    if status.st_mode & 0o7777 != 0o700, fchmod(descriptor, 0o700) != 0 {
      throw RestorationError(
        .unsafeStorage,
        "is open to other users (mode \(String(status.st_mode & 0o7777, radix: 8))) and cannot be made private: \(Platform.errorDescription())",
        file: path)
    }
  }

  /// Creates a folder and its missing parents, each new one `0700`.
  private static func createFolders(_ path: String) throws(RestorationError) {
    var current = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
      current += "/" + component
      if mkdir(current, 0o700) != 0, errno != EEXIST {
        throw RestorationError(
          .storageFailed, "cannot create folder: \(Platform.errorDescription())", file: current)
      }
    }
  }

  // MARK: - Files

  /// Reads a whole file of the folder, or nil when there is none; one above `maxSize`, a link
  /// or another user's file fails before anything is read.
  package func read(_ name: String, maxSize: Int) throws(RestorationError) -> [UInt8]? {
    let filePath = "\(path)/\(name)"
    // O_NONBLOCK: a FIFO without a writer would block the open forever; it is refused below.
    let file = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    if file < 0 {
      if errno == ENOENT { return nil }
      throw openFailure(filePath)
    }
    defer { close(file) }
    return try Platform.readOpenFile(file, path: filePath, maxSize: maxSize, ownedByUser: true)
  }

  /// Replaces a file atomically and durably (a flushed `0600` temporary file renamed over it,
  /// then the folder flushed): a process killed at any instant leaves the old or the new whole.
  package func write(_ bytes: [UInt8], to name: String) throws(RestorationError) {
    removeStaleTemporaryFiles()
    let temporary = "\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    let temporaryPath = "\(path)/\(temporary)"
    let file = openat(
      descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard file >= 0 else {
      throw RestorationError(
        .storageFailed, "cannot create a temporary file: \(Platform.errorDescription())",
        file: temporaryPath)
    }
    var failure: RestorationError?
    func fail(_ what: String, _ code: Int32 = errno) {
      failure = RestorationError(
        .storageFailed, "cannot \(what): \(Platform.errorDescription(code))", file: temporaryPath)
    }
    // Exactly `0600`, which a umask may have narrowed.
    if fchmod(file, 0o600) != 0 {
      fail("set permissions")
    } else {
      let code = bytes.withUnsafeBytes { writeFully($0, to: file) }
      if code != 0 {
        fail("write", code)
      } else if fsync(file) != 0 {
        fail("flush")
      }
    }
    close(file)
    PlatformObservers.willRename?("\(path)/\(name)")
    if failure == nil, renameat(descriptor, temporary, descriptor, name) != 0 {
      failure = RestorationError(
        .storageFailed, "cannot rename into place: \(Platform.errorDescription())",
        file: "\(path)/\(name)")
    }
    if let failure {
      unlinkat(descriptor, temporary, 0)
      throw failure
    }
    flush()
  }

  /// Removes files (a missing one is no error) and their temporary files, flushing the folder
  /// once; returns whether anything went, and throws for the first that could not go.
  @discardableResult
  package func remove(_ names: [String], flushing: Bool = true) throws(RestorationError) -> Bool {
    var failure: RestorationError?
    var removedAny = removeStaleTemporaryFiles(of: names) > 0
    for name in names {
      if unlinkat(descriptor, name, 0) == 0 {
        removedAny = true
      } else if errno != ENOENT, failure == nil {
        failure = RestorationError(
          .storageFailed, "cannot remove: \(Platform.errorDescription())", file: "\(path)/\(name)")
      }
    }
    if removedAny, flushing { flush() }
    if let failure { throw failure }
    return removedAny
  }

  /// The names of the folder's entries, as the bytes the disk holds.
  package func entries() -> [[UInt8]] {
    let copy = dup(descriptor)
    guard copy >= 0, let directory = fdopendir(copy) else {
      if copy >= 0 { close(copy) }
      return []
    }
    defer { closedir(directory) }
    var names: [[UInt8]] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
      if name != [0x2E], name != [0x2E, 0x2E] { names.append(name) }
    }
    return names
  }

  /// Removes the temporary files (`<name>.<pid>.<random>.tmp`) of writers no longer running,
  /// and all of `items`' (a killed writer's pid may be reused); returns how many went.
  @discardableResult
  package func removeStaleTemporaryFiles(of items: [String] = []) -> Int {
    var removed = 0
    for name in entries().compactMap({ String(validating: $0, as: UTF8.self) })
    where name.hasSuffix(".tmp") {
      let parts = name.split(separator: ".")
      guard parts.count >= 4, let pid = Int32(parts[parts.count - 3]), pid > 0 else { continue }
      let ofAnItem = items.contains { name.hasPrefix("\($0).") }
      let stale = pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
      if ofAnItem || stale, unlinkat(descriptor, name, 0) == 0 { removed += 1 }
    }
    return removed
  }

  /// Why a file of the folder, opened without following a link, could not be opened.
  package func openFailure(_ filePath: String, _ code: Int32 = errno) -> RestorationError {
    code == ELOOP
      ? RestorationError(
        .unsafeStorage, "is a symbolic link; state is never read or written through one",
        file: filePath)
      : RestorationError(
        .storageFailed, "cannot open: \(Platform.errorDescription(code))", file: filePath)
  }

  /// Flushes the folder's entries, so that a rename or a removal survives a power loss.
  package func flush() {
    PlatformObservers.folderFlushed?(path)
    fsync(descriptor)
  }
}

/// Opens a folder by path, following links: the root a user chose.
private func openFolder(_ path: String) -> Int32 {
  open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
}
