/// A struct read in place where it is stored in a class.
///
/// A call on a struct stored in a class can copy the struct for the call, a retain and
/// a release of each of its arrays; the hot paths call tables and readers a few times per
/// object, and those copies cost as much as the work. An inout access lends the stored value
/// without a copy.
protocol InPlaceAccess {}

extension InPlaceAccess {
  /// Runs `body` with this value in place.
  ///
  /// `body` must not change the value unless the call site means to.
  @inline(__always)
  mutating func inPlace<Result>(_ body: (inout Self) -> Result) -> Result {
    body(&self)
  }
}
