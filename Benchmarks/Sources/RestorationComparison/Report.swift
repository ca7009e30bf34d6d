import Foundation

/// Renders measurements as a Markdown table, each contender's times and size as a ratio to the
/// engine's at the same size.
package func comparisonTable(_ results: [Measurement]) -> String {
  var lines = [
    "| objects | contender | encode | decode | archive | peak memory | full preserve (write) | full restore |",
    "|---:|---|---:|---:|---:|---:|---:|---:|",
  ]
  let engines = Dictionary(
    results.filter { $0.contender == .engine }.map { ($0.objects, $0) },
    uniquingKeysWith: { first, _ in first })
  for result in results {
    let engine = engines[result.objects]
    let name =
      result.contender == .engine ? "**\(result.contender.title)**" : result.contender.title
    if let skipped = result.skipped {
      lines.append("| \(grouped(result.objects)) | \(name) | skipped: \(skipped) | | | | | |")
      continue
    }
    let isEngine = result.contender == .engine
    let encode = cell(result.encode, engine?.encode, isEngine, format: milliseconds)
    let decode = cell(result.decode, engine?.decode, isEngine, format: milliseconds)
    let bytes = cell(
      result.bytes.map(Double.init), engine?.bytes.map(Double.init), isEngine, format: megabytes)
    let memory = result.peakMemory.map { megabytes(Double($0)) } ?? "n/a"
    var preserve = result.preserve.map(milliseconds) ?? ""
    if let write = result.preserveWrite, !preserve.isEmpty {
      preserve += " (\(milliseconds(write)))"
    }
    let restore = result.restore.map(milliseconds) ?? ""
    lines.append(
      "| \(grouped(result.objects)) | \(name) | \(encode) | \(decode) | \(bytes) | \(memory) | \(preserve) | \(restore) |"
    )
  }
  return lines.joined(separator: "\n")
}

/// The measurements as JSON, for scripts.
package func comparisonJSON(
  _ results: [Measurement], machine: [String: String], selections: UIState.Selections = .repeated,
  backToBack: Bool = false
) throws -> String {
  struct Document: Encodable {
    var machine: [String: String]
    var selections: String
    /// Whether each timed call ran right after the last, without waiting for its background
    /// freeing.
    var backToBack: Bool
    var results: [Measurement]
  }
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
  return String(
    decoding: try encoder.encode(
      Document(
        machine: machine, selections: selections.rawValue, backToBack: backToBack,
        results: results)), as: UTF8.self)
}

private func cell(
  _ value: Double?,
  _ engine: Double?,
  _ isEngine: Bool,
  format: (Double) -> String
) -> String {
  guard let value else { return "n/a" }
  guard !isEngine, let engine, engine > 0 else { return format(value) }
  let ratio = value / engine
  let text = ratio >= 100 ? String(format: "%.0f", ratio) : String(format: "%.1f", ratio)
  return "\(format(value)) (×\(text))"
}

func milliseconds(_ value: Double) -> String {
  if value >= 10_000 { return String(format: "%.1f s", value / 1000) }
  if value >= 100 { return String(format: "%.0f ms", value) }
  if value >= 10 { return String(format: "%.1f ms", value) }
  return String(format: "%.2f ms", value)
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
