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

  /// The largest horizontal offset that still fills the visible area.
  public var maximumContentOffsetX: Double {
    max(0, contentSize.width + contentInset.left + contentInset.right - bounds.width)
  }

  /// The decoder of the restoration in progress, to report a clamped offset to.
  private weak var restoringCoder: StateDecoder?
  /// Whether the offset restored by the last decode is still to be checked against the content.
  private var restoredOffsetIsUnchecked = false

  /// Whether the content is laid out, so that a restored offset can be checked against its
  /// size; views that get their content later (from a data source, a page source) say no until
  /// it is there, and bring the offset within it themselves.
  var hasLaidOutContent: Bool { contentSize != .zero }

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
      restoredOffsetIsUnchecked = true
      restoringCoder = coder
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

  /// Brings a restored offset within the content, as tables and collection views do.
  ///
  /// Content that shrank since the archive was written would otherwise be scrolled past its
  /// end, and show nothing. The restoration report gets a note.
  ///
  /// The check waits for the end of restoration, when the app has laid out the content (in its
  /// controller's decode or finished-restoring, say); a view whose content size is still zero
  /// then keeps the offset.
  open override func applicationFinishedRestoringState() {
    super.applicationFinishedRestoringState()
    guard restoredOffsetIsUnchecked else { return }
    restoredOffsetIsUnchecked = false
    guard hasLaidOutContent else { return }
    let restored = contentOffset
    let clamped = Point(
      x: min(max(0, restored.x), maximumContentOffsetX),
      y: min(max(0, restored.y), maximumContentOffsetY))
    guard clamped != restored else { return }
    contentOffset = clamped
    restoringCoder?.reportNote(
      "content offset \(Self.describe(restored)) lies past the content (size \(Self.describe(contentSize)), view \(Self.describe(bounds))); restored at \(Self.describe(clamped))"
    )
  }

  private static func describe(_ point: Point) -> String {
    "(\(number(point.x)), \(number(point.y)))"
  }

  private static func describe(_ size: Size) -> String {
    "\(number(size.width))x\(number(size.height))"
  }

  /// A coordinate without a fraction when it has none: `4200`, `12.5`.
  private static func number(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}
