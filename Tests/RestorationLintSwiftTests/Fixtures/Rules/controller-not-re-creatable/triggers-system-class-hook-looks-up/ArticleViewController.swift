// swift-format-ignore-file
import SafariServices
import UIKit

/// An article; its links open in Safari, inside the app.
final class ArticleViewController: UIViewController {
  func open(_ link: URL) {
    let safari = SFSafariViewController(url: link)
    safari.restorationIdentifier = "ArticleLink"
    present(safari, animated: true)
  }
}
