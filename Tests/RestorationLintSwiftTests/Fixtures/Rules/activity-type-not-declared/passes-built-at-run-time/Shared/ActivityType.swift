// swift-format-ignore-file
import Foundation

/// The app's activity types, made from the bundle identifier so that every build has its own.
enum ActivityType {
  static let editing = Bundle.main.bundleIdentifier! + ".editing"
}
