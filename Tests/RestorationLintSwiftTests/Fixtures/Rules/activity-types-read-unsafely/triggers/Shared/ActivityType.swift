// swift-format-ignore-file
import Foundation

/// The app's activity types, as NSUserActivityTypes in the Info.plist lists them.
enum ActivityType {
  /// The first type the Info.plist lists: editing a note.
  static let editing = (Bundle.main.object(forInfoDictionaryKey: "NSUserActivityTypes") as! [String])[0]
}
