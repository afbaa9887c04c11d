import Foundation
#if canImport(Glibc)
  import Glibc
#endif
import RaonWorkflow

/// Standard error, and progress that shows only when standard error is a terminal.
enum Console {
  static let isTerminal = isatty(STDERR_FILENO) == 1

  /// Standard error as it was at start-up. While a workbook is saved, descriptor 2 points
  /// at a temporary file that captures libxlsxwriter's own messages; what Raon says — an
  /// interrupt's message above all — must still reach the user. (``install()`` makes it.)
  private static let standardError: Int32 = {
    let copy = dup(STDERR_FILENO)
    return copy >= 0 ? copy : STDERR_FILENO
  }()

  /// Takes the copy of standard error; call first, before any work.
  static func install() { _ = standardError }

  /// One line on standard error. Control characters (a newline in a file name, an ESC
  /// or BEL byte quoted from a file or a server) are shown as `\n`, `\u{1B}`, … so a
  /// message is always one line and never drives the terminal.
  static func error(_ line: String) {
    write(TerminalText.oneLine(line) + "\n")
  }

  /// Writes all of `text` to the start-up standard error (retrying short writes).
  private static func write(_ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let n = bytes.withUnsafeBytes { Glibc.write(standardError, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return }
      bytes = bytes.dropFirst(n)
    }
  }

  static func warning(_ line: String) {
    error("warning: " + line)
  }

  /// Progress on one self-overwriting terminal line; nothing when not a terminal.
  static func progress(_ line: String) {
    guard isTerminal else { return }
    write("\r\u{1B}[2K\(line)")
  }

  /// Clears the progress line before normal output.
  static func endProgress() {
    guard isTerminal else { return }
    write("\r\u{1B}[2K")
  }

  /// The environment the jobs run in: the real clock, the process environment, this console;
  /// or the one a test gives (``injected``).
  static func environment() -> RaonEnvironment {
    injected ?? RaonEnvironment(progress: { progress($0) }, warn: { warning($0) })
  }

  /// The environment of commands run in-process by tests (their variables, working
  /// directory and warnings), for the task that runs them.
  @TaskLocal static var injected: RaonEnvironment?
}
