// swift-format-ignore-file
import SafariServices
import UIKit

/// An article; its links open in Safari, which is not preserved.
final class ArticleViewController: UIViewController {
  func open(_ link: URL) {
    present(SFSafariViewController(url: link), animated: true)
  }
}
