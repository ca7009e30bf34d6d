// swift-format-ignore-file
import Foundation

extension NSUserActivity {
  /// Editing a note: listed in NSUserActivityTypes in Notebook/Info.plist.
  static let editingType = "com.example.notebook.editing"
}

/// The same types as an enum, for switches.
enum ActivityType: String {
  case editing = "com.example.notebook.editing"
  case browsing = "com.example.notebook.browsing"
}
