// swift-format-ignore-file
import Foundation

/// The app's activity types: each one is listed in NSUserActivityTypes in Notebook/Info.plist.
enum ActivityType {
  static let editing = "com.example.notebook.editing"
}
