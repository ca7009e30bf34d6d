// swift-format-ignore-file
import Foundation

/// The app's activity types, as NSUserActivityTypes in Notebook/Info.plist lists them.
enum ActivityType {
  /// Editing a note: the first type the Info.plist lists.
  static let editing = (Bundle.main.object(forInfoDictionaryKey: "NSUserActivityTypes") as! [String])[0]
  /// Searching the notes.
  static let searching = "com.example.notebook.serching"
  /// Browsing the list of notes.
  static let browsing = "com.example.notebook.browsing"
}
