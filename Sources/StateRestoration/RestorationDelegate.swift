/// The app's part in preservation and restoration (the state-restoration methods of UIKit's
/// `UIApplicationDelegate`).
///
/// Both opt-in methods must be implemented, as in UIKit: without them nothing is saved or
/// restored.
public protocol RestorationDelegate: AnyObject {
  /// Whether to preserve now. The coder is the archive's top level: the app may write its own
  /// keys, such as a UI version, and read them back in
  /// ``shouldRestoreApplicationState(with:)``.
  ///
  /// - Returns: True to preserve.
  func shouldSaveApplicationState(with coder: StateCoder) -> Bool

  /// Whether to restore from the saved archive. The coder holds the archive's top level:
  /// bundle version, system version, timestamp, interface idiom, format version and the app's
  /// own keys.
  ///
  /// - Returns: True to restore; false starts fresh.
  func shouldRestoreApplicationState(with coder: StateDecoder) -> Bool

  /// Called at the very beginning of preservation, to write app-wide state. References encoded
  /// here pull registered objects into the archive.
  func willEncodeRestorableState(with coder: StateCoder)

  /// Called last in restoration, after every object was decoded, with the top-level coder.
  func didDecodeRestorableState(with coder: StateDecoder)

  /// Creates or finds a view controller that has no restoration class.
  ///
  /// Returning nil is not final (unlike a restoration class): the engine goes on to look for an
  /// existing object at the path, then for its storyboard.
  ///
  /// - Parameters:
  ///   - identifierComponents: The identifier path split at `/`, index components included.
  ///   - coder: The object's coder.
  /// - Returns: The object, or nil to keep looking.
  func object(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> (any StateRestoring)?
}

extension RestorationDelegate {
  /// Does nothing by default.
  public func willEncodeRestorableState(with coder: StateCoder) {}
  /// Does nothing by default.
  public func didDecodeRestorableState(with coder: StateDecoder) {}
  /// Returns nil by default, so the engine keeps looking.
  public func object(
    withRestorationIdentifierPath identifierComponents: [String],
    coder: StateDecoder
  ) -> (any StateRestoring)? { nil }
}
