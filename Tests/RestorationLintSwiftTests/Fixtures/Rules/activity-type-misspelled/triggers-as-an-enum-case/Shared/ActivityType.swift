// swift-format-ignore-file
import Foundation

/// The app's activity types: each one is listed in NSUserActivityTypes in Notebook/Info.plist.
enum ActivityType: String {
  case editing = "com.example.notebook.edting"
  case browsing = "com.example.notebook.browsing"
}
