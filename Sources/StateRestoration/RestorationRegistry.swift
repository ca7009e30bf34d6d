internal import OrderedCollections

/// The types and objects an archive may bring back: restoration classes by name, registered
/// objects, and storyboards.
///
/// An archive names classes; only names registered here can ever be instantiated, so a crafted
/// archive cannot make the app create arbitrary types. An unknown name is skipped, and the
/// restoration report says so.
public final class RestorationRegistry {
  private var classesByName: [String: any ObjectRestoration.Type] = [:]
  private var namesByType: [ObjectIdentifier: String] = [:]
  private var objects: OrderedDictionary<ObjectIdentifier, WeakObject> = [:]
  private var liveCountAtLastPrune = 0
  private var storyboards: [String: any RestorationStoryboard] = [:]

  /// What updates of the app renamed, in the order they were made, for archives of earlier
  /// app versions; with migrations, an archive of a later app version is not read.
  public var migrations: [RestorationMigration] = []

  /// Creates an empty registry.
  public init() {}

  /// Registers a restoration class.
  ///
  /// - Parameters:
  ///   - type: The class.
  ///   - name: The name recorded in archives; by default the type's name.
  public func register(_ type: any ObjectRestoration.Type, named name: String? = nil) {
    let name = name ?? ClassNames.typeName(type)
    classesByName[name] = type
    namesByType[ObjectIdentifier(type)] = name
  }

  /// The restoration class registered under a name, or nil.
  public func restorationClass(named name: String) -> (any ObjectRestoration.Type)? {
    classesByName[name]
  }

  /// The name a restoration class is recorded under: its registered name, or the type's name if
  /// it is not registered.
  public func name(of type: any ObjectRestoration.Type) -> String {
    namesByType[ObjectIdentifier(type)] ?? ClassNames.typeName(type)
  }

  /// Whether a restoration class is registered.
  public func isRegistered(_ type: any ObjectRestoration.Type) -> Bool {
    namesByType[ObjectIdentifier(type)] != nil
  }

  /// Registers an object outside the node tree so that archives can reference it (UIKit's
  /// `registerObject(forStateRestoration:restorationIdentifier:)`).
  ///
  /// The registry holds the object weakly: it never needs unregistering. Like in UIKit, a
  /// registered object is preserved only when some encode method references it.
  ///
  /// - Parameter object: The object; its ``StateRestoring/restorationIdentifier`` and
  ///   ``StateRestoring/restorationParent`` give its path.
  public func registerObject(_ object: any StateRestoring) {
    // In constant time: an object registered again keeps its place, and a slot whose object is
    // gone (its identity may be the new object's) takes the new one.
    objects[ObjectIdentifier(object)] = WeakObject(object)
    if objects.count >= 2 * max(liveCountAtLastPrune, 32) { prune() }
  }

  /// The registered objects still alive, in the order they were first registered.
  public var registeredObjects: [any StateRestoring] {
    prune()
    return objects.values.compactMap(\.object)
  }

  /// Forgets the objects that are gone: amortized over registrations, so that registering
  /// short-lived objects one after another stays linear.
  private func prune() {
    objects = objects.filter { $0.value.object != nil }
    liveCountAtLastPrune = objects.count
  }

  /// Registers a storyboard, so that nodes recorded as coming from it can be re-created.
  public func register(storyboard: any RestorationStoryboard) {
    storyboards[storyboard.name] = storyboard
  }

  /// The storyboard registered under a name, or nil.
  public func storyboard(named name: String) -> (any RestorationStoryboard)? { storyboards[name] }
}

private struct WeakObject {
  weak var object: (any StateRestoring)?
  init(_ object: any StateRestoring) { self.object = object }
}
