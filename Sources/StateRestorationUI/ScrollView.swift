public import StateRestoration

/// A view whose content is larger than itself and scrolls (UIKit's `UIScrollView`).
///
/// Preserves its content offset, content inset and zoom scale, as UIKit documents.
open class ScrollView: View {
  /// Archive key: the content offset, `[x, y]`.
  public static let contentOffsetKey = "contentOffset"
  /// Archive key: the content inset, `[top, left, bottom, right]`.
  public static let contentInsetKey = "contentInset"
  /// Archive key: the zoom scale.
  public static let zoomScaleKey = "zoomScale"

  /// The point of the content shown at the top-left corner.
  open var contentOffset = Point.zero
  /// Space around the content.
  open var contentInset = EdgeInsets.zero
  /// The size of the content.
  open var contentSize = Size.zero
  /// The size of the visible area.
  open var bounds = Size(width: 80, height: 20)
  /// The current zoom.
  open var zoomScale = 1.0 {
    didSet { zoomScale = min(max(zoomScale, minimumZoomScale), maximumZoomScale) }
  }
  /// The smallest zoom.
  open var minimumZoomScale = 0.25
  /// The largest zoom.
  open var maximumZoomScale = 4.0

  /// The largest vertical offset that still fills the visible area.
  public var maximumContentOffsetY: Double {
    max(0, contentSize.height + contentInset.top + contentInset.bottom - bounds.height)
  }

  /// Scrolls by a vertical amount, within the content.
  ///
  /// - Parameter delta: Positive scrolls down.
  open func scroll(by delta: Double) {
    contentOffset.y = min(max(0, contentOffset.y + delta), maximumContentOffsetY)
  }

  /// Writes the content offset, inset and zoom scale.
  open override func encodeRestorableState(with coder: StateCoder) throws {
    try super.encodeRestorableState(with: coder)
    coder.encode([contentOffset.x, contentOffset.y], forKey: Self.contentOffsetKey)
    coder.encode(
      [contentInset.top, contentInset.left, contentInset.bottom, contentInset.right],
      forKey: Self.contentInsetKey
    )
    coder.encode(zoomScale, forKey: Self.zoomScaleKey)
  }

  /// Reads the content offset, inset and zoom scale; malformed values are ignored.
  open override func decodeRestorableState(with coder: StateDecoder) throws {
    try super.decodeRestorableState(with: coder)
    if let offset = coder.decode([Double].self, forKey: Self.contentOffsetKey), offset.count == 2,
      offset.allSatisfy(\.isFinite)
    {
      contentOffset = Point(x: offset[0], y: offset[1])
    }
    if let inset = coder.decode([Double].self, forKey: Self.contentInsetKey), inset.count == 4,
      inset.allSatisfy(\.isFinite)
    {
      contentInset = EdgeInsets(top: inset[0], left: inset[1], bottom: inset[2], right: inset[3])
    }
    if let zoom = coder.decode(Double.self, forKey: Self.zoomScaleKey), zoom.isFinite, zoom > 0 {
      zoomScale = zoom
    }
  }
}
