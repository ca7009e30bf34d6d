// swift-format-ignore-file
// Generated: never edited by hand, excluded by the configuration.
enum Strings {
  static let title = "Atlas"
}
