import Dispatch

/// Frees a pass's tables on a background queue, so that the thread that ran the pass does not
/// wait while tens of thousands of strings, arrays and coders are freed one by one.
///
/// Only the engine's own values go there: an app object's last reference may be in a table,
/// and its deinit must run on the thread the app expects, so passes keep those tables out.
package enum BackgroundRelease {
  /// Moves `value` to a background queue and frees it there.
  ///
  /// The value must hold the only references to whatever it frees, or the thread that drops the
  /// last other reference frees it instead; no one is harmed either way, since references are
  /// counted atomically.
  static func release<Value>(_ value: consuming Value) {
    let box = Box(value)
    DispatchQueue.global(qos: .utility).async(group: pending) { box.clear() }
  }

  /// Runs `work` on `queue`, among the releases that
  /// ``RestorationEngine/waitForBackgroundFreeing()`` waits for: the disk space of replaced
  /// files is freed there.
  static func perform(on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
    queue.async(group: pending, execute: work)
  }

  /// The releases queued and not yet done.
  private static let pending = DispatchGroup()

  /// Waits until every value queued so far is freed (see
  /// ``RestorationEngine/waitForBackgroundFreeing()``).
  package static func waitUntilReleased() {
    pending.wait()
  }

  /// Waits until every value queued so far is freed, or until `timeout`.
  static func waitUntilReleased(timeout: DispatchTime) {
    _ = pending.wait(timeout: timeout)
  }

  /// Puts `value` in `kept`, freeing the value it replaces on a background queue when
  /// `inBackground` is true, and here otherwise.
  ///
  /// For the engine's reports: each lists every object of its call, and freeing the last one's
  /// strings one by one was a millisecond of the next call on the calling thread.
  package static func replace<Value: Sendable>(
    _ kept: inout Value?, with value: consuming Value, inBackground: Bool
  ) {
    let previous = kept.take()
    kept = value
    if inBackground, previous != nil { release(consume previous) }
  }

  // Unchecked: `value` is set on creation, before the box is queued, and then touched only by
  // the queued block.
  private final class Box<Value>: @unchecked Sendable {
    private var value: Value?
    init(_ value: consuming Value) { self.value = value }
    func clear() { value = nil }
  }
}

/// A value made on a background queue while the calling thread does other work, and waited for
/// when needed.
final class BackgroundResult<Value: Sendable>: @unchecked Sendable {
  // Unchecked: `value` is written once by the queued block before it signals, and read only
  // after `wait()` has taken that signal.
  private var value: Value?
  private let done = DispatchSemaphore(value: 0)

  /// Starts making the value, by default on a concurrent queue of its own.
  init(
    on queue: DispatchQueue = .global(qos: .userInitiated),
    _ work: @escaping @Sendable () -> Value
  ) {
    queue.async {
      self.value = work()
      self.done.signal()
    }
  }

  /// Waits for the value and hands it over; call it once.
  ///
  /// The value is moved out, not copied: a copy left here would keep the value's storage alive
  /// until this object is freed, wherever that happens.
  func wait() -> Value {
    done.wait()
    // The queued block sets the value before the signal that `done.wait()` took; no input
    // reaches this.
    guard let value = value.take() else {
      preconditionFailure("a background result was signalled unset")
    }
    return value
  }
}

/// The queue a restore's reading work runs on beside the calling thread, one block after
/// another: the archive's CRC-32, the later states' check and the paths' analysis.
///
/// One serial queue rather than a thread each: on two cores, three threads beside the calling
/// one took its core from it in turns.
let restoreReadQueue = DispatchQueue(label: "StateRestoration.restoreRead", qos: .userInitiated)
