public import StateRestoration

/// A small value kept per scene (SwiftUI's `@SceneStorage`): a view controller property saved
/// with its scene's state and back before the scene first appears, in that scene only.
///
/// ```swift
/// final class EditorController: ViewController {
///   @SceneStorage("editor.draft") var draft = ""
/// }
/// ```
///
/// The key names the value within the scene: two properties with one key share it. Outside a
/// scene (before the controller is in a scene's window, or in an app without scenes) the
/// property keeps its value in itself and nothing is saved. Values are strings, numbers,
/// Booleans, `Data`, dates and URLs, or `RawRepresentable` types of those; like SwiftUI's, they
/// are for small values, not for documents or secrets.
@propertyWrapper
public struct SceneStorage<Value> {
  /// The key that names the value in its scene.
  public let key: String
  private var localValue: Value
  private let stateValue: (Value) -> StateValue
  private let value: (StateValue) -> Value?

  /// Creates a property kept under `key`, `wrappedValue` until the scene holds one.
  public init(wrappedValue: Value, _ key: String) where Value: StateValueConvertible {
    self.key = key
    localValue = wrappedValue
    stateValue = { $0.stateValue }
    value = { Value(stateValue: $0) }
  }

  /// Creates a property of a `RawRepresentable` type, kept under `key` as its raw value.
  public init(wrappedValue: Value, _ key: String)
  where Value: RawRepresentable, Value.RawValue: StateValueConvertible {
    self.key = key
    localValue = wrappedValue
    stateValue = { $0.rawValue.stateValue }
    value = { Value.RawValue(stateValue: $0).flatMap(Value.init(rawValue:)) }
  }

  /// Only reachable through a view controller.
  @available(*, unavailable, message: "@SceneStorage is for properties of view controllers")
  public var wrappedValue: Value {
    get { localValue }
    set { localValue = newValue }
  }

  /// The value: the scene's when the controller is in a scene that holds one, else its own.
  public static subscript<Owner: ViewController>(
    _enclosingInstance owner: Owner,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<Owner, Value>,
    storage storageKeyPath: ReferenceWritableKeyPath<Owner, SceneStorage<Value>>
  ) -> Value {
    get {
      let storage = owner[keyPath: storageKeyPath]
      if let stored = owner.windowScene?.storageValues[storage.key],
        let value = storage.value(stored)
      {
        return value
      }
      return storage.localValue
    }
    set {
      owner[keyPath: storageKeyPath].localValue = newValue
      let storage = owner[keyPath: storageKeyPath]
      owner.windowScene?.storageValues[storage.key] = storage.stateValue(newValue)
    }
  }
}
