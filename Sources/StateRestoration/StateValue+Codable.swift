#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// `Codable` values go through Foundation's property list coders and this package's reader and
// writer: the archive holds what `PropertyListEncoder` would write, `nil` in an array as
// "$null" included. A value is wrapped in an array, which every coder takes at the top.

extension StateValue {
  /// Converts an `Encodable` value into its archived form; `encodingFailed` when its
  /// `encode(to:)` throws or produces nothing.
  static func encoding<T: Encodable>(_ value: T) throws(RestorationError) -> StateValue {
    switch value {
    case let value as Date: return .date(value)
    case let value as Data: return .data(value)
    case let value as URL: return .string(value.absoluteString)
    default: break
    }
    let bytes: Data
    do {
      let encoder = PropertyListEncoder()
      encoder.outputFormat = .binary
      bytes = try encoder.encode([value])
    } catch {
      throw RestorationError(.encodingFailed, "\(T.self) failed to encode: \(error)")
    }
    guard case .array(let values) = try PropertyList.read([UInt8](bytes)), let first = values.first
    else {
      throw RestorationError(.encodingFailed, "\(T.self) encoded no value")
    }
    return first
  }

  /// Converts an archived value back into a `Decodable` type; `typeMismatch` when it does not
  /// have the shape `T` expects.
  func decoded<T: Decodable>(as type: T.Type) throws(RestorationError) -> T {
    if type == Date.self, let date = Date(stateValue: self) as? T { return date }
    if type == Data.self, let data = Data(stateValue: self) as? T { return data }
    if type == URL.self, let url = URL(stateValue: self) as? T { return url }
    let bytes: [UInt8]
    do {
      bytes = try PropertyList.write(.array([self]))
    } catch {
      throw RestorationError(.typeMismatch, "cannot decode \(T.self) from a reference")
    }
    do {
      let values = try PropertyListDecoder().decode([T].self, from: Data(bytes))
      guard let first = values.first else {
        throw RestorationError(.typeMismatch, "cannot decode \(T.self): no value")
      }
      return first
    } catch let error as RestorationError {
      throw error
    } catch let DecodingError.typeMismatch(_, context) {
      throw RestorationError(.typeMismatch, describe(context, "as \(T.self)"))
    } catch let DecodingError.keyNotFound(key, context) {
      throw RestorationError(.typeMismatch, describe(context, "missing key '\(key.stringValue)'"))
    } catch let DecodingError.valueNotFound(_, context) {
      throw RestorationError(.typeMismatch, describe(context, "missing value"))
    } catch let DecodingError.dataCorrupted(context) {
      throw RestorationError(.typeMismatch, describe(context, "corrupted value"))
    } catch {
      throw RestorationError(.typeMismatch, "cannot decode \(T.self): \(error)")
    }
  }

  private func describe(_ context: DecodingError.Context, _ what: String) -> String {
    // The first step is the array the value was wrapped in.
    let path = context.codingPath.dropFirst().map(\.stringValue).joined(separator: ".")
    return path.isEmpty
      ? "cannot decode \(what): \(context.debugDescription)"
      : "cannot decode \(what) at '\(path)': \(context.debugDescription)"
  }
}
