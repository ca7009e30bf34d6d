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
  /// The property list a file of the format `magic` holds, checked whole, and refused when its
  /// values would take far more than the file once read.
  ///
  /// A small file can share one long string among many containers, and a reader that builds
  /// each reference spends as much as the string each time; such a file is refused before it
  /// is read, at 16 times its size (and at least 64 KiB).
  ///
  /// - Throws: `RestorationError` as ``body(of:magic:what:)`` does, or when the body is not a
  ///   property list of values that fit.
  package static func propertyList(
    of bytes: [UInt8], magic: [UInt8], what: String
  ) throws(RestorationError) -> StateValue {
    let body = Array(try self.body(of: bytes, magic: magic, what: what))
    let limit = 16 * body.count + (1 << 16)
    if let file = try? BinaryPropertyListReader(body), expandedSize(of: file, limit: limit) == nil {
      throw RestorationError(
        .limitExceeded, "the \(what) would take more than \(limit) bytes once read")
    }
    return try PropertyList.read(body)
  }

  /// The bytes a property list's values take once built, each shared object counted at each of
  /// its references; nil above `limit`, or for a file the reader refuses anyway (it says why).
  static func expandedSize(of file: BinaryPropertyListReader, limit: Int) -> Int? {
    var sizes: [Int: Int] = [:]
    func size(_ object: Int, depth: Int) throws(PropertyListError) -> Int? {
      if let known = sizes[object] { return known }
      guard depth <= ArchiveLimits.default.maxDepth else { return nil }
      var total = 1
      switch try file.type(of: object) {
      case .array, .dictionary:
        let isArray = try file.type(of: object) == .array
        let container = isArray ? try file.array(object) : try file.dictionary(object)
        for index in 0..<container.count {
          let children =
            isArray
            ? [file.element(index, of: container)]
            : [file.key(index, of: container), file.value(index, of: container)]
          for child in children {
            guard let child = try size(child, depth: depth + 1) else { return nil }
            total += child
            if total > limit { return nil }
          }
        }
      case .string, .data:
        let offset = try file.offset(of: object)
        let marker = file.bytes[offset]
        var count = Int(marker & 0x0F)
        if count == 0x0F {
          // The length follows as an integer object of 2^n bytes, n in its marker.
          guard offset + 1 < file.bytes.count, file.bytes[offset + 1] >> 4 == 1 else { return nil }
          let width = 1 << Int(file.bytes[offset + 1] & 0x0F)
          guard width <= 8, offset + 2 + width <= file.bytes.count else { return nil }
          count = file.bytes[(offset + 2)..<(offset + 2 + width)].reduce(0) { $0 << 8 | Int($1) }
          guard count >= 0 else { return nil }
        }
        total += marker >> 4 == 0x6 ? 2 * count : count
      default:
        total += 8
      }
      guard total <= limit else { return nil }
      sizes[object] = total
      return total
    }
    return (try? size(file.topObject, depth: 0)) ?? nil
  }
}
