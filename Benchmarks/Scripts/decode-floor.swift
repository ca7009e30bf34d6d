// The least time a decoder that builds its values could take for the comparison's 4,000
// records, with no reading or checking of a file at all: the floor under the goal of decoding
// 1,000 times faster than NSKeyedUnarchiver.
//
//     swiftc -O Benchmarks/Scripts/decode-floor.swift -o /tmp/decode-floor && /tmp/decode-floor
//
// Two floors, each the median of 21 builds of 4,000 records:
// - one array of 7 integers per record, and nothing else;
// - what a decoded record must hold at the least: its path as a `String` made from bytes, and
//   an array of its 7 values, one of them a `String` and one an array of 2 integers made from
//   bytes, as the benchmark's screens hold a title and a selection.

import Dispatch

enum Value {
  case integer(Int)
  case real(Double)
  case bool(Bool)
  case string(String)
  case integers([Int])
}

struct Record {
  var path: String
  var values: [Value]
}

let pathBytes = Array("TabBarController/nav-3/ScreenController-000123".utf8)
let titleBytes = Array("Screen title number 123".utf8)

@inline(never) func integerArrays(_ count: Int) -> [[Int]] {
  var records: [[Int]] = []
  records.reserveCapacity(count)
  for i in 0..<count { records.append([i, i &+ 1, i &+ 2, i &+ 3, i &+ 4, i &+ 5, i &+ 6]) }
  return records
}

@inline(never) func records(_ count: Int) -> [Record] {
  var records: [Record] = []
  records.reserveCapacity(count)
  for i in 0..<count {
    let path = String(decoding: pathBytes, as: UTF8.self)
    let title = String(decoding: titleBytes, as: UTF8.self)
    records.append(
      Record(
        path: path,
        values: [
          .integer(i), .real(Double(i)), .bool(i & 1 == 0), .string(title), .integers([i, i &+ 1]),
          .integer(i &+ 5), .real(1.5),
        ]))
  }
  return records
}

/// The median of 21 timed calls, in milliseconds; what each call built is freed after its
/// timing, as a decoder's result outlives its decode.
func median<Built>(_ body: () -> [Built], check: (Built) -> Int) -> Double {
  var times: [Double] = []
  var sink = 0
  for _ in 0..<21 {
    let start = DispatchTime.now().uptimeNanoseconds
    let built = body()
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    // Read after the timing, so that the optimizer cannot drop the work.
    if let last = built.last { sink &+= check(last) }
  }
  precondition(sink != 0)
  return times.sorted()[10]
}

let count = 4000
let arrays = median({ integerArrays(count) }, check: { $0[6] })
let built = median({ records(count) }, check: { $0.path.utf8.count })
print("4,000 records, median of 21:")
print("  one array of 7 integers each: \(Int(arrays * 1000 + 0.5)) µs")
print(
  "  a path, and 7 values with a string and an array of 2 integers, each: \(Int(built * 1000 + 0.5)) µs"
)
