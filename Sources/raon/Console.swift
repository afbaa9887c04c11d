import Foundation
import RaonWorkflow

/// Standard error, and progress that shows only when standard error is a terminal.
enum Console {
  static let isTerminal = isatty(STDERR_FILENO) == 1

  /// One line on standard error. Control characters (a newline in a file name, an ESC
  /// or BEL byte quoted from a file or a server) are shown as `\n`, `\u{1B}`, … so a
  /// message is always one line and never drives the terminal.
  static func error(_ line: String) {
    FileHandle.standardError.write(Data((TerminalText.oneLine(line) + "\n").utf8))
  }

  static func warning(_ line: String) {
    error("warning: " + line)
  }

  /// Progress on one self-overwriting terminal line; nothing when not a terminal.
  static func progress(_ line: String) {
    guard isTerminal else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[2K\(line)".utf8))
  }

  /// Clears the progress line before normal output.
  static func endProgress() {
    guard isTerminal else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
  }

  /// The environment the jobs run in: the real clock, the process environment, this console.
  static func environment() -> RaonEnvironment {
    RaonEnvironment(progress: { progress($0) }, warn: { warning($0) })
  }
}
