import Dispatch

/// Frees a pass's tables on a background queue, so that the thread that ran the pass does not
/// wait while tens of thousands of strings, arrays and coders are freed one by one.
///
/// Only the engine's own values go there: an app object's last reference may be in a table,
/// and its deinit must run on the thread the app expects, so passes drop those first.
enum BackgroundRelease {
  /// Moves `value` to a background queue and frees it there.
  ///
  /// The value must hold the only references to whatever it frees, or the thread that drops the
  /// last other reference frees it instead; no one is harmed either way, since references are
  /// counted atomically.
  static func release<Value>(_ value: consuming Value) {
    let box = Box(value)
    DispatchQueue.global(qos: .utility).async { box.clear() }
  }

  // Unchecked: `value` is set on creation, before the box is queued, and then touched only by
  // the queued block.
  private final class Box<Value>: @unchecked Sendable {
    private var value: Value?
    init(_ value: consuming Value) { self.value = value }
    func clear() { value = nil }
  }
}
