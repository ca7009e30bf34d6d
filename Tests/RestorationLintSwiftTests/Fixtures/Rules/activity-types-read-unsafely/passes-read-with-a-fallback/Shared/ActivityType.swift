// swift-format-ignore-file
import Foundation

/// The app's activity types, as NSUserActivityTypes in the Info.plist lists them.
enum ActivityType {
  /// The first type the Info.plist lists, or the app's own when a target lists none.
  static let editing: String = {
    let types = Bundle.main.object(forInfoDictionaryKey: "NSUserActivityTypes") as? [String] ?? []
    return types.first ?? "com.example.notebook.editing"
  }()

  /// Whether the Info.plist lists a type.
  static func isDeclared(_ type: String) -> Bool {
    guard let types = Bundle.main.infoDictionary?["NSUserActivityTypes"] as? [String] else {
      return false
    }
    return types.contains(type)
  }
}
