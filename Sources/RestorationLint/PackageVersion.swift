/// The version of this package and its tools, as the CHANGELOG's latest release names it.
///
/// `restoration-archive-tool --version` prints it, and the lint's SARIF output names it as its
/// driver's version; a test checks it against the CHANGELOG.
public enum PackageVersion {
  /// The version, `MAJOR.MINOR.PATCH`.
  public static let current = "0.1.0"
}
