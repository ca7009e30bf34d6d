import ArchiveFuzzing

/// libFuzzer's entry point: one input, every archive reader run on it.
///
/// libFuzzer supplies `main` when the package is built with `-sanitize=fuzzer`.
@_cdecl("LLVMFuzzerTestOneInput")
public func archiveReaderFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data else { return 0 }
  ArchiveFuzzing.exercise(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}
