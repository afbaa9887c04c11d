import Foundation
import RaonWorkflow

/// Standard error, and progress that shows only when standard error is a terminal.
enum Console {
  static let isTerminal = isatty(STDERR_FILENO) == 1

  static func error(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
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
