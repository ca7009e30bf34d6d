// swift-format-ignore-file
import UIKit

/// The app's archive helpers: each takes the coder and returns what it decoded.
enum Store {
  static func object(decodedFrom coder: NSCoder, key: String) -> Any? {
    coder.decodeObject(forKey: key)
  }
}
