import Foundation

/// Renders one shape's measurements as a Markdown table, each contender's times and size as a
/// ratio to the engine's at the same size.
///
/// The engine's in-memory preserve and restore columns appear when some measurement has them
/// (runs saved by earlier builds have none).
package func comparisonTable(_ results: [Measurement]) -> String {
  let showsCPU = results.contains { $0.preserveCPUTime != nil || $0.restoreCPUTime != nil }
  var lines = [
    "| objects | contender | encode | decode | archive | peak memory | full preserve (write) | full restore |"
      + (showsCPU ? " preserve CPU | restore CPU |" : ""),
    "|---:|---|---:|---:|---:|---:|---:|---:|" + (showsCPU ? "---:|---:|" : ""),
  ]
  let engines = Dictionary(
    results.filter { $0.contender == .engine }.map { ("\($0.shape) \($0.objects)", $0) },
    uniquingKeysWith: { first, _ in first })
  for result in results {
    let engine = engines["\(result.shape) \(result.objects)"]
    let name =
      result.contender == .engine ? "**\(result.contender.title)**" : result.contender.title
    if let skipped = result.skipped {
      lines.append(
        "| \(grouped(result.objects)) | \(name) | skipped: \(skipped) | | | | | |"
          + (showsCPU ? " | |" : ""))
      continue
    }
    let isEngine = result.contender == .engine
    let encode = cell(
      result.encode, engine?.encode, isEngine, format: milliseconds,
      paired: pairedRatio(result, engine, \.encode))
    let decode = cell(
      result.decode, engine?.decode, isEngine, format: milliseconds,
      paired: pairedRatio(result, engine, \.decode))
    let bytes = cell(
      result.bytes.map(Double.init), engine?.bytes.map(Double.init), isEngine, format: megabytes)
    let memory = result.peakMemory.map { megabytes(Double($0)) } ?? "n/a"
    var preserve =
      result.preserve == nil
      ? "" : cell(result.preserve, engine?.preserve, isEngine, format: milliseconds)
    if let write = result.preserveWrite, !preserve.isEmpty {
      preserve += " (\(milliseconds(write)))"
    }
    let restore =
      result.restore == nil
      ? "" : cell(result.restore, engine?.restore, isEngine, format: milliseconds)
    var row =
      "| \(grouped(result.objects)) | \(name) | \(encode) | \(decode) | \(bytes) | \(memory) | \(preserve) | \(restore) |"
    if showsCPU {
      let preserveCPU = result.preserveCPUTime.map(milliseconds) ?? ""
      let restoreCPU = result.restoreCPUTime.map(milliseconds) ?? ""
      row += " \(preserveCPU) | \(restoreCPU) |"
    }
    lines.append(row)
  }
  return lines.joined(separator: "\n")
}

/// A comparison's run as `--json` prints it and `--save-json` writes it.
package struct ComparisonDocument: Codable, Sendable {
  /// The machine, as ``machineDescription(swiftVersion:)`` describes it.
  package var machine: [String: String]
  /// How the linear shape's selections varied.
  package var selections: String
  /// Whether each timed call ran right after the last, without waiting for the engine's
  /// background freeing; only in runs of builds whose engine freed memory on background queues.
  package var backToBack: Bool?
  /// The timed runs asked for per measurement; absent from files of earlier builds.
  package var runs: Int?
  /// The measurements.
  package var results: [Measurement]

  /// Creates a document.
  package init(
    machine: [String: String], selections: String, backToBack: Bool? = nil, runs: Int?,
    results: [Measurement]
  ) {
    self.machine = machine
    self.selections = selections
    self.backToBack = backToBack
    self.runs = runs
    self.results = results
  }

  /// The document as JSON, for scripts.
  package func json() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return String(decoding: try encoder.encode(self), as: UTF8.self)
  }

  /// The shapes measured, in the order the run measured them.
  package var shapes: [StateShape] {
    var shapes: [StateShape] = []
    for result in results where !shapes.contains(result.shape) { shapes.append(result.shape) }
    return shapes
  }

  /// The lines above the tables: the machine, the selections and how the times were taken.
  package var header: String {
    let runs = self.runs ?? results.map(\.runs).max() ?? 0
    let spacing =
      switch backToBack {
      case true: "Each call ran right after the last."
      case false: "Each call waited for the last one's background freeing."
      case nil: "Each call ran right after the last; the engine leaves no work behind."
      }
    var text = """
      Machine: \(machine["cores"] ?? "?") cores, \(machine["cpu"] ?? "unknown CPU"), \(machine["swift"] ?? "Swift"), \(machine["system"] ?? "")
      Selections: \(selections).
      Times are medians of up to \(runs) runs, taken in rounds of one run per contender. \
      (×n) is the ratio to the engine: for times, the median of the ratios of the runs of one \
      round, or of the medians for a contender timed once. \
      \(spacing)
      """
    let calls = results.compactMap(\.cpuTimedCalls)
    if let fewest = calls.min(), let most = calls.max() {
      text += """

        preserve CPU and restore CPU: the engine's full preserve (walk and encode) and full \
        restore (read, decode, re-create and decode every object) with the archive in memory, \
        no file and no fsync, in the process's CPU time (CLOCK_PROCESS_CPUTIME_ID), medians of \
        \(fewest == most ? "\(most)" : "\(fewest) to \(most)") calls; full preserve and full \
        restore use a real file, in wall-clock time.
        """
    }
    return text
  }

  /// The header, then each shape's summary and table, as the comparison prints them.
  package var report: String {
    let groups = shapes.map { shape in
      "Shape \(shape.rawValue): \(shape.summary)\n\n"
        + comparisonTable(results.filter { $0.shape == shape })
    }
    return ([header] + groups).joined(separator: "\n\n")
  }
}

/// The median of the ratios of a contender's runs to the engine's runs timed in the same
/// rounds, or nil when the two were not timed in rounds together.
///
/// Each ratio compares two runs taken seconds apart, so a drift of the machine's speed from one
/// round to the next cancels out, where the ratio of the two medians mixes rounds.
package func pairedRatio(
  _ result: Measurement, _ engine: Measurement?, _ time: KeyPath<TimedRun, Double>
) -> Double? {
  guard let engine, result.timedRuns.count > 1,
    result.timedRuns.count == engine.timedRuns.count
  else { return nil }
  let ratios = zip(result.timedRuns, engine.timedRuns).compactMap { run, engineRun in
    engineRun[keyPath: time] > 0 ? run[keyPath: time] / engineRun[keyPath: time] : nil
  }
  return ratios.count == result.timedRuns.count ? median(ratios) : nil
}

private func cell(
  _ value: Double?,
  _ engine: Double?,
  _ isEngine: Bool,
  format: (Double) -> String,
  paired: Double? = nil
) -> String {
  guard let value else { return "n/a" }
  guard !isEngine, let engine, engine > 0 else { return format(value) }
  let ratio = paired ?? value / engine
  let text = ratio >= 100 ? String(format: "%.0f", ratio) : String(format: "%.1f", ratio)
  return "\(format(value)) (×\(text))"
}

func milliseconds(_ value: Double) -> String {
  if value >= 10_000 { return String(format: "%.1f s", value / 1000) }
  if value >= 100 { return String(format: "%.0f ms", value) }
  if value >= 10 { return String(format: "%.1f ms", value) }
  // Three decimals under a millisecond, where budgets per call are read off.
  if value >= 1 { return String(format: "%.2f ms", value) }
  return String(format: "%.3f ms", value)
}

func megabytes(_ value: Double) -> String {
  value >= 10_000_000
    ? String(format: "%.1f MB", value / 1_000_000)
    : String(format: "%.2f MB", value / 1_000_000)
}

func grouped(_ value: Int) -> String {
  let digits = Array(String(value))
  var result = ""
  for (index, digit) in digits.enumerated() {
    if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
    result.append(digit)
  }
  return result
}

/// A description of the machine: cores, CPU model, Swift version, kernel.
package func machineDescription(swiftVersion: String?) -> [String: String] {
  var machine: [String: String] = [:]
  machine["cores"] = String(ProcessInfo.processInfo.activeProcessorCount)
  if let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
    let line = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
    let colon = line.firstIndex(of: ":")
  {
    machine["cpu"] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
  }
  machine["system"] = ProcessInfo.processInfo.operatingSystemVersionString
  if let swiftVersion { machine["swift"] = swiftVersion }
  return machine
}
