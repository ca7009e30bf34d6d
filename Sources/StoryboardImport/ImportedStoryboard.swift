public import StateRestorationUI

/// A storyboard built from an Interface Builder file.
public struct ImportedStoryboard {
  /// The storyboard, ready for `Application` or `Storyboard.instantiateInitialViewController()`.
  public let storyboard: Storyboard
  /// The document it was built from.
  public let document: InterfaceDocument
  /// What the import could not do exactly: unregistered custom classes, relationships that lead
  /// outside the file, problems found while reading.
  public let warnings: [ImportWarning]
  /// The storyboard's scene ID for each controller's object ID.
  public let sceneIDs: [String: String]
}

/// A XIB built from an Interface Builder file: the view tree it gives its File's Owner.
public struct ImportedNib {
  /// The document it was built from.
  public let document: InterfaceDocument
  /// What the import could not do exactly.
  public let warnings: [ImportWarning]
  /// The XIB's top-level view controllers as scenes (no initial scene); empty for the usual
  /// XIB, whose controller is File's Owner.
  public let storyboard: Storyboard
  let ownerFactory: () -> ViewController

  /// File's Owner's class, such as `UYLWebViewController`.
  public var ownerClassName: String? { document.fileOwner?.customClass }

  /// Builds the view tree the XIB gives File's Owner (its `view` outlet).
  ///
  /// - Returns: A new view tree, or nil when the XIB has no top-level view.
  public func makeView() -> View? {
    document.fileOwnerView.map(StoryboardImporter.makeView)
  }

  /// Creates File's Owner as `initWithNibName:` would: the registered class for its custom
  /// class (or `ViewController`), whose view, when it loads, is the XIB's view tree.
  ///
  /// The controller has no restoration identifier: as in UIKit, code sets it, and a
  /// restoration class or the app delegate re-creates the controller at launch.
  ///
  /// - Returns: A new controller.
  public func instantiateViewController() -> ViewController {
    let controller = ownerFactory()
    if let view = document.fileOwnerView {
      controller.viewFactory = { StoryboardImporter.makeView(view) }
    }
    return controller
  }
}
