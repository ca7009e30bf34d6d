/// The pass a set of coders belongs to: one link per pass, held by each of its coders, and
/// emptied when the pass is freed.
///
/// Coders do not hold their pass weakly: the first weak reference to an object gives it a side
/// table, after which every retain and release of the object takes the runtime's slow path, and
/// each coder would form a weak reference of its own. Weak references cost 2% of a preserve's
/// instructions and 1% of a restore's; a link costs a plain retain per coder. A coder the app
/// keeps past the pass finds the link empty, as it would find a weak reference nil.
final class PassLink<Pass: AnyObject> {
  /// The pass, or nil once it has been freed.
  // Unowned and unsafe, so that the pass gets no side table: the pass empties the link in its
  // deinit, before its memory is freed, so the reference never outlives it. Passes are freed on
  // the thread that ran them, the only thread their (non-Sendable) coders may be used on.
  private(set) unowned(unsafe) var pass: Pass?

  /// Points the link at its pass; the pass calls it from its initializer.
  func attach(_ pass: Pass) {
    self.pass = pass
  }

  /// Empties the link; the pass calls it from its deinit.
  func cut() {
    pass = nil
  }
}
