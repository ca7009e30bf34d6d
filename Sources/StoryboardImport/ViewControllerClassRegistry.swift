public import StateRestorationUI

/// The app's view controller classes, by the class names an Interface Builder file uses.
///
/// A storyboard names its controllers' custom classes (`UYLTableViewController`); the importer
/// looks each name up here to create the app's own subclass. A name that is not registered
/// falls back to the class of the element's kind (`NavigationController` for a
/// `navigationController`, `ViewController` for a `tableViewController`), and the import says
/// so in a warning.
///
/// ```swift
/// var classes = ViewControllerClassRegistry()
/// classes.register("UYLTableViewController") { CountriesViewController() }
/// let imported = try StoryboardImporter(classes: classes).importStoryboard(atPath: path)
/// ```
public struct ViewControllerClassRegistry {
  private var factories: [String: () -> ViewController] = [:]

  /// Creates an empty registry.
  public init() {}

  /// Registers the factory for a class name.
  ///
  /// - Parameters:
  ///   - className: The name in the file's `customClass`, such as `UYLTableViewController`;
  ///     with a module (`Demo.CityViewController`) it matches only that module's class.
  ///   - make: Makes a new controller of the app's class.
  public mutating func register(_ className: String, make: @escaping () -> ViewController) {
    factories[className] = make
  }

  /// The names registered.
  public var classNames: [String] { factories.keys.sorted() }

  /// The factory for a custom class, looked up with its module first, then by name alone.
  ///
  /// - Parameters:
  ///   - className: The custom class.
  ///   - module: The class's module, if the file names one.
  /// - Returns: The factory, or nil when the class is not registered.
  public func factory(forClassName className: String, module: String? = nil)
    -> (() -> ViewController)?
  {
    if let module, let factory = factories["\(module).\(className)"] { return factory }
    return factories[className]
  }
}
