// The operating system's primitives the engine needs; the files' are StateRestorationStorage's.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

package enum Platform {
  /// The value of an environment variable.
  package static func environment(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
  }

  /// The kernel's name and release, such as `Linux 6.1.0-18-amd64`.
  static var systemVersion: String {
    var info = utsname()
    guard uname(&info) == 0 else { return "unknown" }
    return "\(string(ofCharacters: info.sysname)) \(string(ofCharacters: info.release))"
  }

  /// The string in a C struct's fixed-size character array, up to its first NUL.
  static func string<Field>(ofCharacters field: Field) -> String {
    withUnsafeBytes(of: field) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
  }
}
