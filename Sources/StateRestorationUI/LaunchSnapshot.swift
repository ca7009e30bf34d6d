public import StateRestoration

/// The text snapshot of the UI that an app saves as it moves to the background and shows at
/// the next launch while it restores, as iOS shows the last screenshot.
///
/// The file is checked like the archive (a length and a CRC-32 of the text), and the text is
/// made printable before anyone shows it: a file left on disk must not be able to put escape
/// sequences on a user's terminal.
public enum LaunchSnapshot {
  /// The largest snapshot file read, in bytes.
  public static let maxFileSize = 1 << 20

  /// The file's first bytes.
  private static let magic = Array("SRSNAP01".utf8)

  /// The bytes of a snapshot file holding `text`.
  public static func encoded(_ text: String) -> [UInt8] {
    CheckedFile.encoded(Array(text.utf8), magic: magic)
  }

  /// The text of a snapshot file, checked whole and made printable (``printable(_:)``).
  ///
  /// - Throws: `RestorationError` when the file is not a whole snapshot: another format, a
  ///   length that is not the file's, a checksum that does not match, or text that is not
  ///   UTF-8.
  public static func decoded(_ bytes: [UInt8]) throws(RestorationError) -> String {
    let body = try CheckedFile.body(of: bytes, magic: magic, what: "launch snapshot")
    guard let text = String(validating: body, as: UTF8.self) else {
      throw RestorationError(.malformed, "the snapshot's text is not UTF-8")
    }
    return printable(text)
  }

  /// The text without control characters, line breaks aside.
  ///
  /// No escape sequence, carriage return or other C0 or C1 control reaches a terminal that
  /// shows it, nor a bidirectional control (such as U+202E), which would reorder the rest of
  /// the line. Tabs become spaces.
  public static func printable(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if scalar == "\n" {
        scalars.append(scalar)
      } else if scalar == "\t" {
        scalars.append(" ")
      } else if scalar.properties.generalCategory != .control, !scalar.properties.isBidiControl {
        scalars.append(scalar)
      }
    }
    return String(scalars)
  }
}
