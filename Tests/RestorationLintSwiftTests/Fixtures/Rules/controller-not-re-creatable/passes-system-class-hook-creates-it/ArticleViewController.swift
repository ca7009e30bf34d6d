// swift-format-ignore-file
import SafariServices
import UIKit

/// An article; its links open in Safari, which the app delegate re-creates.
final class ArticleViewController: UIViewController {
  var link: URL?

  func open(_ link: URL) {
    self.link = link
    let safari = SFSafariViewController(url: link)
    safari.restorationIdentifier = "ArticleLink"
    present(safari, animated: true)
  }

  override func encodeRestorableState(with coder: NSCoder) {
    super.encodeRestorableState(with: coder)
    coder.encode(link, forKey: "link")
  }
}
