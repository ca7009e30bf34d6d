// swift-format-ignore-file
import Foundation

/// A Codable helper of the app's model layer: its keys are a container's, not an archive's.
extension KeyedDecodingContainer {
  /// The value for a key, or nil when the key is missing or holds another type.
  func decodeLeniently<T: Decodable>(_ type: T.Type, forKey key: Key) -> T? {
    (try? decode(type, forKey: key)) ?? nil
  }

  /// A date written either as seconds or as text.
  func decodeDate(forKey key: Key) throws -> Date {
    if let seconds = try? decode(Double.self, forKey: key) {
      return Date(timeIntervalSince1970: seconds)
    }
    return try decode(Date.self, forKey: key)
  }
}
