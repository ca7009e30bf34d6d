// swift-format-ignore-file
import UIKit

/// Reads the values the app's controllers encode: the key is the caller's.
enum RestorationArchive {
  static func string(from coder: NSCoder, forKey key: String) -> String? {
    coder.decodeObject(of: NSString.self, forKey: key) as String?
  }

  static func identifiers(from coder: NSCoder, forKey key: String) -> [String] {
    coder.decodeObject(forKey: key) as? [String] ?? []
  }
}

final class SearchViewController: UIViewController {
  var query = ""
  var recent: [String] = []

  override func encodeRestorableState(with coder: NSCoder) {
    super.encodeRestorableState(with: coder)
    coder.encode(query, forKey: "query")
    coder.encode(recent, forKey: "recent")
  }

  override func decodeRestorableState(with coder: NSCoder) {
    super.decodeRestorableState(with: coder)
    query = RestorationArchive.string(from: coder, forKey: "query") ?? ""
    recent = RestorationArchive.identifiers(from: coder, forKey: "recent")
  }
}
