// swift-format-ignore-file
import UIKit

/// A reader of three kinds, re-created by kind: the class is set after the branches, the
/// identifier nowhere.
final class ReaderViewController: UIViewController, UIViewControllerRestoration {
  enum Mode { case article, gallery, video }
  let mode: Mode

  init(mode: Mode) {
    self.mode = mode
    super.init(nibName: nil, bundle: nil)
  }

  required init?(coder: NSCoder) { nil }

  static func viewController(
    withRestorationIdentifierPath identifierComponents: [String], coder: NSCoder
  ) -> UIViewController? {
    let reader: ReaderViewController
    if identifierComponents.last == "Gallery" {
      reader = ReaderViewController(mode: .gallery)
    } else if identifierComponents.last == "Video" {
      reader = ReaderViewController(mode: .video)
    } else {
      reader = ReaderViewController(mode: .article)
    }
    reader.restorationClass = ReaderViewController.self
    return reader
  }
}
