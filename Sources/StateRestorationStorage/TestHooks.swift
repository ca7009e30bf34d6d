/// What the file primitives do on a task, for tests of what cannot be seen in the files: that
/// a folder flush, which costs as much as a small write, is not made for nothing.
package enum PlatformObservers {
  /// Called with each folder flushed on the current task.
  @TaskLocal package static var folderFlushed: PathObserver?
  /// Called with each file's path just before a write renames it into place, on the current task.
  @TaskLocal package static var willRename: PathObserver?
}

/// A function of a path, as ``PlatformObservers`` holds it.
///
/// A class rather than the optional function itself: Swift 6.3.1's optimizer miscompiles
/// `TaskLocal.withValue` for a value of optional function type.
package final class PathObserver: Sendable {
  private let observe: @Sendable (String) -> Void

  /// Creates an observer that calls `observe` with each path.
  package init(_ observe: @escaping @Sendable (String) -> Void) {
    self.observe = observe
  }

  /// Calls the function with a path.
  package func callAsFunction(_ path: String) { observe(path) }
}
