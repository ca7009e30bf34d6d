// Everything that talks to the terminal and to signals lives in this file.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// Signal handlers cannot capture context: they reach the terminal's saved settings and the
// wake-up pipe through these globals, and only use async-signal-safe calls (write, tcsetattr,
// signal, raise).
nonisolated(unsafe) private var savedTerminalSettings = termios()
nonisolated(unsafe) private var terminalIsRaw = false
nonisolated(unsafe) private var signalPipe: (read: Int32, write: Int32) = (-1, -1)

/// The escape sequences that undo what ``Terminal/enter()`` did: show the cursor, leave the
/// alternate screen, reset colours.
private let restoreSequence: [UInt8] = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)

/// Puts the terminal back as it was; safe to call from a signal handler.
private func restoreTerminalFromSignal() {
  guard terminalIsRaw else { return }
  terminalIsRaw = false
  restoreSequence.withUnsafeBytes { bytes in
    _ = write(STDOUT_FILENO, bytes.baseAddress, bytes.count)
  }
  _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &savedTerminalSettings)
}

/// Signals that end the process with a crash: the terminal is restored, then the signal is
/// delivered again with its default action, so the process still dies of it.
private let crashSignals: [Int32] = [SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP]

/// A signal the main loop must act on.
enum TerminalEvent: Equatable {
  /// Bytes typed by the user.
  case input([UInt8])
  /// SIGTERM or SIGHUP: the system wants the app gone; treated like the Home button.
  case terminate
  /// SIGWINCH: the window changed size.
  case resize
  /// The terminal closed (end of input).
  case endOfInput
}

/// The controlling terminal, in raw mode on the alternate screen while the app runs.
final class Terminal {
  /// Whether both standard input and output are terminals.
  static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

  /// Switches to raw mode and the alternate screen, and installs the signal handlers.
  ///
  /// - Throws: ``TerminalError`` when the terminal cannot be configured.
  func enter() throws(TerminalError) {
    guard tcgetattr(STDIN_FILENO, &savedTerminalSettings) == 0 else {
      throw TerminalError(
        message: "cannot read the terminal settings: \(String(cString: strerror(errno)))")
    }
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else {
      throw TerminalError(message: "cannot create a pipe: \(String(cString: strerror(errno)))")
    }
    for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    signalPipe = (fds[0], fds[1])

    var raw = savedTerminalSettings
    cfmakeraw(&raw)
    // Keep output post-processing so "\n" still returns the carriage.
    raw.c_oflag |= tcflag_t(OPOST)
    guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else {
      throw TerminalError(
        message: "cannot switch the terminal to raw mode: \(String(cString: strerror(errno)))")
    }
    terminalIsRaw = true
    write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")

    // A parent may have left these blocked (the mask is inherited); the app relies on them.
    var handled = sigset_t()
    sigemptyset(&handled)
    for signalNumber in [SIGTERM, SIGHUP, SIGWINCH] + crashSignals {
      sigaddset(&handled, signalNumber)
    }
    sigprocmask(SIG_UNBLOCK, &handled, nil)

    for signalNumber in [SIGTERM, SIGHUP, SIGWINCH] {
      signal(signalNumber) { number in
        var byte = UInt8(truncatingIfNeeded: number)
        _ = posixWrite(signalPipe.write, &byte, 1)
      }
    }
    for signalNumber in crashSignals {
      signal(signalNumber) { number in
        restoreTerminalFromSignal()
        signal(number, SIG_DFL)
        raise(number)
      }
    }
  }

  /// Leaves raw mode and the alternate screen.
  func leave() {
    restoreTerminalFromSignal()
  }

  /// The window size in columns and lines.
  var size: (width: Int, height: Int) {
    var window = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0
    else { return (80, 24) }
    return (Int(window.ws_col), Int(window.ws_row))
  }

  /// Waits for input or a signal.
  func nextEvent() -> TerminalEvent {
    while true {
      var descriptors = [
        pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
        pollfd(fd: signalPipe.read, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&descriptors, 2, -1)
      if ready < 0 {
        if errno == EINTR { continue }
        return .endOfInput
      }
      if descriptors[1].revents & Int16(POLLIN) != 0 {
        var byte: UInt8 = 0
        if read(signalPipe.read, &byte, 1) == 1 {
          return Int32(byte) == SIGWINCH ? .resize : .terminate
        }
      }
      if descriptors[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(STDIN_FILENO, &buffer, buffer.count)
        if count > 0 { return .input(Array(buffer.prefix(count))) }
        if count < 0, errno == EINTR || errno == EAGAIN { continue }
        return .endOfInput
      }
    }
  }

  /// Waits up to `milliseconds` for more input, for the rest of an escape sequence.
  func hasInput(within milliseconds: Int32) -> Bool {
    var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, milliseconds) > 0
  }

  /// Draws lines, highlighting some in reverse video.
  func draw(_ lines: [String], highlighted: Set<Int>) {
    var output = "\u{1B}[H"
    for (index, line) in lines.enumerated() {
      if index > 0 { output += "\r\n" }
      output += highlighted.contains(index) ? "\u{1B}[7m\(line)\u{1B}[0m" : line
      output += "\u{1B}[K"
    }
    output += "\u{1B}[J"
    write(output)
  }

  /// Writes text to standard output.
  func write(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeMutableBytes { buffer in
        posixWrite(STDOUT_FILENO, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
      }
      if count < 0 {
        if errno == EINTR { continue }
        return
      }
      offset += count
    }
  }
}

/// `write(2)`, under a name the ``Terminal/write(_:)`` method does not shadow.
private func posixWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}

/// The terminal could not be set up.
struct TerminalError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}

/// Pauses the process.
func sleep(milliseconds: Int) {
  var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
  var remaining = timespec()
  while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
}

/// Writes a line to standard error.
func printError(_ message: String) {
  let bytes = Array((message + "\n").utf8)
  bytes.withUnsafeBytes { buffer in _ = write(STDERR_FILENO, buffer.baseAddress, buffer.count) }
}
