#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The processor time this thread has used: the tests that run beside a timed one, on the other
/// cores or in turns on this one, do not count.
package func threadCPUTime() -> Duration {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
}

/// The least of a few timings of `work` in this thread's processor time, which the noise of a
/// busy machine can only lengthen.
///
/// - Parameters:
///   - runs: How many times to run it.
///   - work: What to time.
/// - Returns: The shortest time.
package func fastestThreadTime(runs: Int = 3, _ work: () throws -> Void) rethrows -> Duration {
  var fastest = Duration.seconds(Int64.max)
  for _ in 0..<runs {
    let start = threadCPUTime()
    try work()
    fastest = min(fastest, threadCPUTime() - start)
  }
  return fastest
}
