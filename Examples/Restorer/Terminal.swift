import StateRestoration
import StateRestorationStorage
import StateRestorationUI

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
nonisolated(unsafe) private var rawTerminalSettings = termios()
nonisolated(unsafe) private var terminalIsRaw = false
/// Whether a stop signal left raw mode, so that the continue signal must enter it again.
nonisolated(unsafe) private var reenterOnContinue = false
nonisolated(unsafe) private var signalPipe: (read: Int32, write: Int32) = (-1, -1)
/// A line written to standard error when a fatal signal ends the process (where the debug log
/// is); allocated up front, since a signal handler must not allocate.
nonisolated(unsafe) private var fatalSignalNote: (bytes: UnsafeMutablePointer<CChar>?, count: Int) =
  (nil, 0)

/// The escape sequences that undo what ``Terminal/enter()`` did: show the cursor, leave the
/// alternate screen, reset colours.
private let restoreSequence: [UInt8] = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)

/// The escape sequences that switch to the alternate screen, hide the cursor and clear.
private let enterSequence: [UInt8] = Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J".utf8)

/// Puts the terminal back as it was; safe to call from a signal handler.
private func restoreTerminalFromSignal() {
  guard terminalIsRaw else { return }
  terminalIsRaw = false
  restoreSequence.withUnsafeBytes { bytes in
    _ = write(STDOUT_FILENO, bytes.baseAddress, bytes.count)
  }
  _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &savedTerminalSettings)
}

/// Switches back to raw mode and the alternate screen after a stop; safe in a signal handler.
private func reenterTerminalFromSignal() {
  guard !terminalIsRaw else { return }
  _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &rawTerminalSettings)
  enterSequence.withUnsafeBytes { bytes in
    _ = write(STDOUT_FILENO, bytes.baseAddress, bytes.count)
  }
  terminalIsRaw = true
}

/// Wakes the main loop with the signal's number; safe in a signal handler.
private func notifyMainLoop(_ number: Int32) {
  var byte = UInt8(truncatingIfNeeded: number)
  _ = posixWrite(signalPipe.write, &byte, 1)
}

/// Signals that end the process with a crash or by their default action (SIGQUIT, a stray
/// SIGUSR1, a broken pipe, an alarm nobody set): the terminal is restored, then the signal is
/// delivered again with its default action, so the process still dies of it, with the status
/// a shell expects.
private let fatalSignals: [Int32] = [
  SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE,
  SIGALRM, SIGVTALRM, SIGXCPU, SIGXFSZ,
]

/// Signals that ask the app to go, as the system asks a suspended app.
///
/// They are treated like the Home button, so the state is preserved. SIGINT only comes from
/// outside (`kill -INT`): in raw mode Ctrl-C is a key, which does the same.
private let homeSignals: [Int32] = [SIGTERM, SIGHUP, SIGINT]

/// Restores the terminal, writes the note, and dies of the signal by its default action.
private func fatalSignalHandler(_ number: Int32) {
  restoreTerminalFromSignal()
  if let bytes = fatalSignalNote.bytes {
    _ = write(STDERR_FILENO, bytes, fatalSignalNote.count)
  }
  signal(number, SIG_DFL)
  // Blocked while this handler runs: delivered as soon as it returns.
  raise(number)
}

/// Installs the handlers of ``fatalSignals``, which restore the terminal (when the app put it
/// in raw mode) and write `note` (when given) before the process dies.
///
/// - Parameter note: A line for standard error, such as where the debug log is.
func installFatalSignalHandlers(note: String?) {
  if let note {
    let line = note + "\n"
    fatalSignalNote = (strdup(line), line.utf8.count)
  }
  var handled = sigset_t()
  sigemptyset(&handled)
  for signalNumber in fatalSignals { sigaddset(&handled, signalNumber) }
  // A parent may have left these blocked (the mask is inherited).
  sigprocmask(SIG_UNBLOCK, &handled, nil)
  for signalNumber in fatalSignals {
    signal(signalNumber) { number in fatalSignalHandler(number) }
  }
}

/// A signal the main loop must act on.
enum TerminalEvent: Equatable {
  /// Bytes typed by the user.
  case input([UInt8])
  /// SIGTERM, SIGHUP or SIGINT: the system wants the app gone; treated like the Home button.
  case terminate
  /// SIGWINCH or SIGCONT: the window changed size, or the app continues after a stop; redraw.
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
  /// - Parameter fatalSignalNote: A line written to standard error if a fatal signal ends the
  ///   process, such as where the debug log is.
  /// - Throws: ``TerminalError`` when the terminal cannot be configured.
  func enter(fatalSignalNote: String? = nil) throws(TerminalError) {
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

    // The handlers go in before raw mode, so no signal finds the terminal raw and unguarded.
    installSignalHandlers(fatalSignalNote: fatalSignalNote)

    var raw = savedTerminalSettings
    cfmakeraw(&raw)
    // Keep output post-processing so "\n" still returns the carriage.
    raw.c_oflag |= tcflag_t(OPOST)
    rawTerminalSettings = raw
    guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else {
      throw TerminalError(
        message: "cannot switch the terminal to raw mode: \(String(cString: strerror(errno)))")
    }
    terminalIsRaw = true
    write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
  }

  private func installSignalHandlers(fatalSignalNote: String?) {
    // A parent may have left these blocked or ignored (the mask and ignored signals are
    // inherited; a shell ignores SIGINT in background jobs); the app relies on them.
    var handled = sigset_t()
    sigemptyset(&handled)
    for signalNumber in homeSignals + [SIGWINCH, SIGTSTP, SIGCONT] {
      sigaddset(&handled, signalNumber)
    }
    sigprocmask(SIG_UNBLOCK, &handled, nil)

    for signalNumber in homeSignals + [SIGWINCH] {
      signal(signalNumber) { number in notifyMainLoop(number) }
    }
    // A stop (`kill -TSTP`) gives the terminal back to the shell; SIGSTOP rather than the
    // default action of SIGTSTP, which the kernel drops for an orphaned process group (a
    // program started by tmux or a script), leaving the app running on a cooked terminal.
    signal(SIGTSTP) { _ in
      reenterOnContinue = terminalIsRaw
      restoreTerminalFromSignal()
      raise(SIGSTOP)
    }
    // On continue, raw mode and the alternate screen come back and the main loop redraws.
    signal(SIGCONT) { number in
      if reenterOnContinue {
        reenterOnContinue = false
        reenterTerminalFromSignal()
      }
      notifyMainLoop(number)
    }
    installFatalSignalHandlers(note: fatalSignalNote)
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
          // A continue after a stop redraws, as a resize does: the screen was the shell's.
          return Int32(byte) == SIGWINCH || Int32(byte) == SIGCONT ? .resize : .terminate
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
      // The lines' text comes from restored state: no escape sequence of its own gets through.
      let text = LaunchSnapshot.printable(line)
      output += highlighted.contains(index) ? "\u{1B}[7m\(text)\u{1B}[0m" : text
      output += "\u{1B}[K"
    }
    output += "\u{1B}[J"
    write(output)
  }

  /// Writes text to standard output.
  func write(_ text: String) {
    // A failed write to the terminal has nowhere to be reported.
    _ = Array(text.utf8).withUnsafeBytes { writeFully($0, to: STDOUT_FILENO) }
  }
}

/// `write(2)`, under a name the ``Terminal/write(_:)`` method does not shadow, for the signal
/// handler.
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
