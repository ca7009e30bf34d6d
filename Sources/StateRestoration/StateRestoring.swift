/// An object that takes part in state preservation and restoration (UIKit's `UIStateRestoring`).
///
/// Conform to save a little state when the app goes to the background and get it back at the next
/// launch. Only ``restorationIdentifier`` is required; everything else has a default.
///
/// ```swift
/// final class Counter: StateRestoring {
///   let restorationIdentifier: String? = "Counter"
///   var count = 0
///   func encodeRestorableState(with coder: StateCoder) { coder.encode(count, forKey: "count") }
///   func decodeRestorableState(with coder: StateDecoder) throws {
///     count = coder.decode(Int.self, forKey: "count") ?? 0
///   }
/// }
/// ```
///
/// Objects that are not part of a ``RestorationNode`` tree (UIKit's "registered objects") must be
/// registered with ``RestorationRegistry/registerObject(_:)`` and referenced from some encode
/// method, exactly as in UIKit.
public protocol StateRestoring: AnyObject {
  /// The identifier of this object among its siblings; nil means "do not preserve".
  var restorationIdentifier: String? { get }

  /// The object that scopes this object's identifier path, for objects outside the node tree.
  ///
  /// UIKit ignores this for view controllers and views, which take their path from the tree, and
  /// so does the engine: ``RestorationNode/restorationContainer`` wins when present.
  var restorationParent: (any StateRestoring)? { get }

  /// The type that re-creates this object at launch, if the app does not find it otherwise.
  ///
  /// The type must be registered with ``RestorationRegistry/register(_:named:)``: an archive can
  /// only ever cause registered types to be instantiated.
  var objectRestorationClass: (any ObjectRestoration.Type)? { get }

  /// Writes the object's state into its own, fresh coder.
  ///
  /// Encoding a reference to another restorable object (`StateCoder.encode(_:forKey:)` with an object)
  /// stores its identifier path and pulls it into the archive.
  ///
  /// - Parameter coder: The coder for this object alone; keys never collide with other objects.
  /// - Throws: An error to report; what was encoded before it is kept.
  func encodeRestorableState(with coder: StateCoder) throws

  /// Reads the object's state back from its own coder.
  ///
  /// - Parameter coder: The coder that holds what ``encodeRestorableState(with:)`` wrote.
  /// - Throws: An error that marks this object as not restored in the report.
  func decodeRestorableState(with coder: StateDecoder) throws

  /// Called on every restored object after all decoding, the delegate's included, is done.
  func applicationFinishedRestoringState()

  /// The version of what the class encodes, recorded with each of its objects and read back as
  /// ``StateDecoder/stateVersion``; an object is not decoded from a later version than its own.
  var restorationStateVersion: Int { get }
}

extension StateRestoring {
  /// This object as a node of the tree, or nil when it is not one.
  public var restorationNode: (any RestorationNode)? { self as? any RestorationNode }
  /// No parent by default.
  public var restorationParent: (any StateRestoring)? { nil }
  /// No restoration class by default.
  public var objectRestorationClass: (any ObjectRestoration.Type)? { nil }
  /// Stores nothing by default; the object can still be referenced.
  public func encodeRestorableState(with coder: StateCoder) throws {}
  /// Reads nothing by default.
  public func decodeRestorableState(with coder: StateDecoder) throws {}
  /// Does nothing by default.
  public func applicationFinishedRestoringState() {}
  /// 0 by default.
  public var restorationStateVersion: Int { 0 }
}

/// A type that re-creates objects at launch (UIKit's `UIObjectRestoration` and
/// `UIViewControllerRestoration`).
public protocol ObjectRestoration {
  /// Creates or finds the object preserved at an identifier path.
  ///
  /// Returning nil leaves the object, and everything below it, out of the restore; no other
  /// lookup is tried (UIKit's rule).
  ///
  /// - Parameters:
  ///   - identifierComponents: The identifier path split at `/`, index components such as
  ///     `:[1]:` included. The last component is the object's own identifier.
  ///   - coder: The object's coder, for state needed to create it.
  /// - Returns: The object, or nil to skip it.
  static func object(
    withRestorationIdentifierPath identifierComponents: [String], coder: StateDecoder
  ) -> (any StateRestoring)?
}

/// What kind of object a record in the archive holds; it decides how the object is found again.
public enum RestorationKind: String, Sendable, Hashable, CaseIterable {
  /// A view controller: found or re-created at launch.
  case viewController
  /// A view: never created by the engine, found inside its controller.
  case view
  /// Any other restorable object, registered with the registry.
  case object
}

/// The link from a node to the node above it in the restoration tree.
public struct RestorationParentLink {
  /// The node that scopes the child's path: a container, a presenting controller, or the
  /// controller that owns a view.
  public var parent: any StateRestoring
  /// The child's index among the container's children, written as `:[index]:`; nil for a
  /// presented controller or a view.
  public var index: Int?

  /// Creates a link.
  public init(parent: any StateRestoring, index: Int? = nil) {
    (self.parent, self.index) = (parent, index)
  }
}

/// Where a node came from, so the engine can re-create it when nothing else does.
public struct StoryboardReference: Sendable, Hashable {
  /// The name of the storyboard, as registered with the registry.
  public var name: String
  /// The storyboard identifier of the scene the node was instantiated from.
  public var identifier: String?

  /// Creates a reference.
  public init(name: String, identifier: String?) {
    (self.name, self.identifier) = (name, identifier)
  }
}

/// A node of the tree the engine walks: a view controller or a view.
///
/// A UI framework adopts this so the engine can preserve its hierarchy without knowing its types.
/// The engine walks down through ``restorationChildren`` from the roots it is given and computes
/// each node's identifier path by climbing ``restorationContainer``.
public protocol RestorationNode: StateRestoring {
  /// Whether this is a view controller or a view.
  var restorationKind: RestorationKind { get }

  /// The node above this one, with the child's index if the container supplies one.
  ///
  /// A contained controller names its container and its index; a presented controller names the
  /// presenting controller and no index; a view names the controller that owns its view tree.
  var restorationContainer: RestorationParentLink? { get }

  /// The nodes below this one, for the walk: contained controllers and views.
  ///
  /// A node without a restoration identifier cuts itself and its subtree out of preservation,
  /// except views, which are crossed so that identified views deeper down are still found.
  var restorationChildren: [any StateRestoring] { get }

  /// The node this one presents modally, walked after ``restorationChildren``.
  ///
  /// Its ``restorationContainer`` names this node with no index, so its path has no index
  /// component (UIKit's rule); a node without a restoration identifier cuts what it presents
  /// out of preservation with the rest of its subtree.
  var restorationPresentedNode: (any StateRestoring)? { get }

  /// The storyboard scene the node was instantiated from, recorded so it can be re-created.
  var restorationStoryboard: StoryboardReference? { get }

  /// Called just before ``StateRestoring/decodeRestorableState(with:)``, for example to load a
  /// controller's view so that decode runs after it, as in UIKit.
  ///
  /// - Parameter coder: The node's coder.
  func restorationWillDecode(with coder: StateDecoder)

  /// Finds an existing child by the identifier and index it was archived with, when no object
  /// exists at its exact archived path.
  ///
  /// The default matches a child among ``restorationChildren`` with the same identifier and the
  /// same index. A container whose children keep their identity when reordered (a tab bar
  /// controller, whose tabs UIKit matches by identifier, not position) ignores the index.
  ///
  /// - Parameters:
  ///   - identifier: The child's restoration identifier.
  ///   - index: The index component it was archived with, if any.
  /// - Returns: The child, or nil.
  func restorationChild(withIdentifier identifier: String, index: Int?) -> (any StateRestoring)?

  /// Why this container has no child with an identifier and index, for the restoration report.
  ///
  /// Called only when nothing re-created the child and ``restorationChild(withIdentifier:index:)``
  /// found none. The phrase follows the container's path in the report ("its restored container
  /// 'Tabs' …"), so it names the kind of container and what it lacks; nil gives the generic
  /// reason.
  ///
  /// - Parameters:
  ///   - identifier: The missing child's restoration identifier.
  ///   - index: The index component it was archived with, if any.
  /// - Returns: The phrase, or nil.
  func restorationMissingChildReason(identifier: String, index: Int?) -> String?
}

extension RestorationNode {
  /// A view controller by default.
  public var restorationKind: RestorationKind { .viewController }
  /// No container by default.
  public var restorationContainer: RestorationParentLink? { nil }
  /// No children by default.
  public var restorationChildren: [any StateRestoring] { [] }
  /// Nothing presented by default.
  public var restorationPresentedNode: (any StateRestoring)? { nil }
  /// Not from a storyboard by default.
  public var restorationStoryboard: StoryboardReference? { nil }
  /// Does nothing by default.
  public func restorationWillDecode(with coder: StateDecoder) {}

  /// Matches a child by identifier and index.
  public func restorationChild(withIdentifier identifier: String, index: Int?)
    -> (any StateRestoring)?
  {
    for child in restorationChildren where child.restorationIdentifier == identifier {
      let link = IdentifierPathResolver.parentLink(of: child)
      if link?.index == index, link?.parent === self { return child }
    }
    if index == nil, let presented = restorationPresentedNode,
      presented.restorationIdentifier == identifier,
      IdentifierPathResolver.parentLink(of: presented)?.parent === self
    {
      return presented
    }
    return nil
  }

  /// No specific reason by default: the report gives the generic one.
  public func restorationMissingChildReason(identifier: String, index: Int?) -> String? { nil }
}

/// A factory that instantiates nodes by storyboard identifier (a storyboard, in UIKit's terms).
///
/// The engine uses it last, after the restoration class, the delegate and the existing
/// hierarchy, for a node whose record names this storyboard.
public protocol RestorationStoryboard: AnyObject {
  /// The name recorded in archives.
  var name: String { get }

  /// Instantiates the scene with a storyboard identifier.
  ///
  /// - Parameter identifier: The storyboard identifier.
  /// - Returns: A fresh node, or nil when the storyboard has no such scene.
  func instantiateForRestoration(withIdentifier identifier: String) -> (any StateRestoring)?
}
