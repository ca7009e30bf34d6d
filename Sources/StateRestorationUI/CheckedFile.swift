internal import BinaryPropertyList
package import StateRestoration

/// The envelope of the small files the UI layer keeps beside the archive (the launch snapshot,
/// a scene's activity, the index of sessions): a magic naming the format, the body's length and
/// its CRC-32, then the body; a torn or altered file is refused whole.
package enum CheckedFile {
  /// The magic (8 bytes), the body's length and its CRC-32.
  static let headerSize = 16

  /// The bytes of a file of the format `magic` holding `body`.
  package static func encoded(_ body: [UInt8], magic: [UInt8]) -> [UInt8] {
    let checksum = body.withUnsafeBytes { CRC32.checksum($0) }
    var bytes = magic
    bytes.reserveCapacity(headerSize + body.count)
    for value in [UInt32(truncatingIfNeeded: body.count), checksum] {
      for shift in stride(from: 24, through: 0, by: -8) {
        bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
      }
    }
    bytes += body
    return bytes
  }

  /// The body of a file, checked whole.
  ///
  /// - Parameters:
  ///   - bytes: The file.
  ///   - magic: The format's magic.
  ///   - what: The file's kind, for messages ("launch snapshot").
  /// - Returns: The body.
  /// - Throws: `RestorationError` for another format, a length that is not the body's, or a
  ///   checksum that does not match.
  static func body(
    of bytes: [UInt8], magic: [UInt8], what: String
  ) throws(RestorationError) -> ArraySlice<UInt8> {
    guard bytes.count >= headerSize, bytes.starts(with: magic) else {
      throw RestorationError(.notPropertyList, "not a \(what)")
    }
    func word(at offset: Int) -> UInt32 {
      bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }
    let body = bytes[headerSize...]
    guard Int(word(at: 8)) == body.count else {
      throw RestorationError(
        .truncated, "the \(what) declares \(word(at: 8)) bytes, and holds \(body.count)")
    }
    let checksum = body.withUnsafeBytes { CRC32.checksum($0) }
    guard checksum == word(at: 12) else {
      throw RestorationError(.checksumMismatch, "the \(what)'s checksum does not match its bytes")
    }
    return body
  }
}

extension CheckedFile {
  /// The property list a file of the format `magic` holds, checked whole.
  ///
  /// - Throws: `RestorationError` as ``body(of:magic:what:)`` does, or when the body is not a
  ///   property list of values that fit, named after `what`; a small file that shares one long
  ///   string among many containers is refused before it takes memory.
  package static func propertyList(
    of bytes: [UInt8], magic: [UInt8], what: String
  ) throws(RestorationError) -> StateValue {
    let body = Array(try self.body(of: bytes, magic: magic, what: what))
    do {
      return try PropertyList.read(body)
    } catch {
      throw RestorationError(error.code, "the \(what): \(error.message)", offset: error.offset)
    }
  }
}
