extension XcodeProject.Target {
  /// A text with build settings in it (`$(PRODUCT_BUNDLE_IDENTIFIER).browsing`), expanded with
  /// each configuration's settings.
  ///
  /// `TARGET_NAME`, `PRODUCT_NAME` and `PRODUCT_MODULE_NAME` have Xcode's defaults, `SRCROOT`
  /// and `PROJECT_DIR` are the project's folder (`.`), and the `:rfc1034identifier`,
  /// `:c99extidentifier`, `:identifier`, `:lower` and `:upper` operators apply. A setting the
  /// project does not give (one from an `.xcconfig` file, say) leaves that configuration's value
  /// unknown.
  ///
  /// - Parameter text: The text, as an `Info.plist` or a build setting holds it.
  /// - Returns: The distinct values, in the order of the configurations; nil for a configuration
  ///   where a setting is unknown. A target without configurations gives one value, with the
  ///   defaults alone.
  public func expand(_ text: String) -> [String?] {
    guard text.contains("$") else { return [text] }
    var values: [String?] = []
    let settings = configurations.isEmpty ? [[:]] : configurations.map(\.buildSettings)
    for own in settings {
      let value = BuildSettingExpansion(settings: withDefaults(own)).expand(text)
      if !values.contains(value) { values.append(value) }
    }
    return values
  }

  /// The values a build setting takes over the configurations, expanded; nil where unknown.
  ///
  /// - Parameter name: The setting, such as `IPHONEOS_DEPLOYMENT_TARGET`.
  /// - Returns: The distinct values; nil in place of a configuration that does not set it or
  ///   where it cannot be expanded.
  public func values(of name: String) -> [String?] {
    expand("$(\(name))")
  }

  private func withDefaults(_ own: [String: String]) -> [String: String] {
    var settings = own
    settings["TARGET_NAME"] = name
    if settings["PRODUCT_NAME"] == nil { settings["PRODUCT_NAME"] = "$(TARGET_NAME)" }
    if settings["PRODUCT_MODULE_NAME"] == nil {
      settings["PRODUCT_MODULE_NAME"] = "$(PRODUCT_NAME:c99extidentifier)"
    }
    for folder in ["SRCROOT", "PROJECT_DIR", "SOURCE_ROOT"] { settings[folder] = "." }
    return settings
  }
}

/// Expands `$(NAME)`, `${NAME}` and `$(NAME:operator)` in a text, within bounds: references
/// nest at most 8 deep and a value grows to at most 4,096 characters, so a setting built from
/// itself, or doubled at every level, ends as unknown.
struct BuildSettingExpansion {
  let settings: [String: String]

  static let maximumDepth = 8
  static let maximumLength = 4096

  func expand(_ text: String) -> String? {
    expand(Array(text.unicodeScalars), depth: 0)
  }

  private func expand(_ text: [Unicode.Scalar], depth: Int) -> String? {
    guard depth <= Self.maximumDepth else { return nil }
    var result = String.UnicodeScalarView()
    var index = 0
    while index < text.count {
      let scalar = text[index]
      guard scalar == "$", index + 1 < text.count, text[index + 1] == "(" || text[index + 1] == "{"
      else {
        result.append(scalar)
        index += 1
        guard result.count <= Self.maximumLength else { return nil }
        continue
      }
      let close: Unicode.Scalar = text[index + 1] == "(" ? ")" : "}"
      var end = index + 2
      var nesting = 0
      while end < text.count {
        if text[end] == "(" || text[end] == "{" { nesting += 1 }
        if text[end] == close {
          if nesting == 0 { break }
          nesting -= 1
        } else if text[end] == ")" || text[end] == "}" {
          nesting -= 1
        }
        end += 1
      }
      guard end < text.count else { return nil }
      // The name itself may hold a reference: `$(PRODUCT_NAME_$(CONFIGURATION))`.
      guard let reference = expand(Array(text[(index + 2)..<end]), depth: depth + 1) else {
        return nil
      }
      let parts = reference.split(separator: ":", omittingEmptySubsequences: false)
      let name = String(parts[0])
      guard let value = value(of: name, depth: depth) else { return nil }
      var transformed = value
      for operation in parts.dropFirst() {
        guard let next = Self.apply(String(operation), to: transformed) else { return nil }
        transformed = next
      }
      result.append(contentsOf: transformed.unicodeScalars)
      guard result.count <= Self.maximumLength else { return nil }
      index = end + 1
    }
    return String(result)
  }

  private func value(of name: String, depth: Int) -> String? {
    if name == "inherited" { return "" }
    guard let raw = settings[name] else { return nil }
    return expand(Array(raw.unicodeScalars), depth: depth + 1)
  }

  /// Xcode's operators on a setting's value.
  static func apply(_ operation: String, to value: String) -> String? {
    switch operation {
    case "rfc1034identifier":
      return String(
        String.UnicodeScalarView(
          value.unicodeScalars.map { isASCIIAlphanumeric($0) || $0 == "-" || $0 == "." ? $0 : "-" }
        ))
    case "c99extidentifier", "identifier":
      var scalars = String.UnicodeScalarView(
        value.unicodeScalars.map { isASCIIAlphanumeric($0) ? $0 : "_" })
      if let first = scalars.first, ("0"..."9").contains(first) {
        scalars.insert("_", at: scalars.startIndex)
      }
      return String(scalars)
    case "lower": return value.lowercased()
    case "upper": return value.uppercased()
    default: return nil
    }
  }

  private static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
  }
}
