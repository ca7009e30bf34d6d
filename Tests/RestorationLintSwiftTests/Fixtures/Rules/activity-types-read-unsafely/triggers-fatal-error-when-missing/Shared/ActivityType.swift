// swift-format-ignore-file
import Foundation

/// The app's activity types, as NSUserActivityTypes in the Info.plist lists them.
enum ActivityType {
  static let editing: String = {
    guard let types = Bundle.main.object(forInfoDictionaryKey: "NSUserActivityTypes") as? [String],
      let first = types.first
    else {
      fatalError("NSUserActivityTypes is missing from the Info.plist")
    }
    return first
  }()
}
