import Dispatch

/// A preserved object's record as the archive writer needs it, taken once the object's encode
/// has returned.
///
/// The writer reads it on another thread while the walk goes on. It reads the coder's record
/// fields, which the pass set before and never changes, and the values as they were handed off:
/// a coder that the app kept and writes to later leaves those as they were (see
/// ``StateCoder/handOffEntries()``). The sensitive keys are copied, since the app can add to them.
struct RecordSnapshot: ArchiveRecordFields, CoderHeldRecord, @unchecked Sendable {
  // Unchecked: what the writer reads of the coder does not change once handed off (above).
  let coder: StateCoder
  let entries: CoderEntries
  /// Sorted, as the archive lists them.
  let sensitiveKeys: [String]
}

/// A batch of snapshots as records of the archive writer, with the key names sent so far.
struct SnapshotRecords: BufferedArchiveRecords {
  var records = UnsafeBufferPointer<RecordSnapshot>(start: nil, count: 0)
  /// The key names, by number, as ``CoderKeys`` numbers them.
  var keyNames: [String] = []
  /// The property list reference of each key name, by number; -1 until first added.
  var keyReferences: [Int] = []

  mutating func addState(at position: Int, to writer: inout BinaryPropertyListWriter) -> Int {
    records[position].entries.withEntries(of: records[position].coder) { entries in
      writer.addDictionary(entries: entries, keyNames: keyNames, keyReferences: &keyReferences)
    }
  }
}

/// Adds a preservation pass's records to an archive on a background queue while the walk goes
/// on, so that the walk's thread only finishes the archive once the walk is done.
///
/// Records go through the same ``ArchiveBuilder`` in the same order as the sequential writer's,
/// so the bytes are the same. The pass sends them in batches as the walk archives them, and
/// uses the result only when the walk's order is the archive's and no coder was written to after
/// its record was sent (see ``PreservationPass/concurrentlyAddedRecords()``).
final class ConcurrentRecordWriter: @unchecked Sendable {
  // Unchecked: `builder` and `records` are touched only by blocks of `queue`, a serial queue,
  // and by `finish()` through `queue.sync`, which runs after every block queued before it. The
  // queue's ordering is the lock.
  private let queue = DispatchQueue(label: "StateRestoration.ConcurrentRecordWriter")
  private var builder: ArchiveBuilder?
  private var records = SnapshotRecords()

  /// Starts an archive of about `estimatedRecordCount` records.
  init(estimatedRecordCount: Int) {
    // Made here, on the walk's thread, although it is a seventieth of the walk's work: made on
    // the queue, it held up the queue, which then finished 4 ms after the walk instead of 1 ms.
    builder = ArchiveBuilder(estimatedRecordCount: estimatedRecordCount, resolvesEarly: true)
  }

  /// Queues records to be added after those queued before, with the key names first used
  /// since the last batch.
  func add(_ batch: [RecordSnapshot], newKeyNames: [String]) {
    queue.async { self.write(batch, newKeyNames: newKeyNames) }
  }

  private func write(_ batch: [RecordSnapshot], newKeyNames: [String]) {
    guard var builder else { return }
    // Moved out and back, so the builder's buffers stay uniquely held while records are added.
    self.builder = nil
    records.keyNames.append(contentsOf: newKeyNames)
    records.keyReferences.append(contentsOf: repeatElement(-1, count: newKeyNames.count))
    batch.withUnsafeBufferPointer { batch in
      records.records = batch
      for index in batch.indices { builder.addRecord(at: index, of: &records) }
      records.records = UnsafeBufferPointer(start: nil, count: 0)
    }
    self.builder = builder
  }

  /// Waits until every queued record is added, and returns the builder with them.
  func finish() -> ArchiveBuilder? {
    queue.sync {
      let finished = builder
      builder = nil
      return finished
    }
  }
}
