import ArgumentParser
import Foundation
import RaonErrors
import RaonWorkflow

/// The process's entry: runs ``Raon`` and turns every outcome into one line on standard
/// error and an exit status, in the manner of `diff(1)` and `sysexits(3)`.
///
/// | status | meaning |
/// |---|---|
/// | 0 | success |
/// | 1 | failure; for `raon diff --fail-if-changed`, "changed" |
/// | 2 | `raon diff`: failure (so it is never mistaken for "changed") |
/// | 64 | usage: an unknown option or a bad option value |
/// | 69 | `raon weekly`: another run holds the lock; nothing was done |
/// | 75 | `raon weekly`: published, but deliveries are pending or refused; `raon runs`: deliveries pending |
/// | 78 | the config file is wrong |
/// | 130, 143 | interrupted by SIGINT, SIGTERM (what the run staged is removed) |
///
/// The executable (`Sources/raon/main.swift`) only calls ``main()``.
public enum RaonMain {
  public static func main() async {
    FreedMemory.limitHeaps()
    Console.install()
    SignalGuard.install()
    switch await outcome(of: Array(CommandLine.arguments.dropFirst())) {
    // --help, --version and the like: ArgumentParser prints them.
    case .printedByArgumentParser(let error): Raon.exit(withError: error)
    case .finished(let status, nil): Foundation.exit(status)
    case .finished(let status, let message?): fail(message, status: status)
    }
  }

  /// How a run ends, before anything is printed about it.
  enum Outcome {
    /// `--help`, `--version` and the like, which ArgumentParser prints from the error.
    case printedByArgumentParser(any Error)
    /// The exit status, and the one-line error message when the run failed.
    case finished(status: Int32, error: String?)
  }

  /// Parses `arguments`, runs the command and says how it ended: what ``main()`` prints
  /// and exits with (tests run it in-process with the environment they give ``Console``).
  static func outcome(of arguments: [String]) async -> Outcome {
    var command: any ParsableCommand
    do {
      command = try Raon.parseAsRoot(arguments)
    } catch {
      if Raon.exitCode(for: error) == .success { return .printedByArgumentParser(error) }
      return .finished(status: StatusCode.usage, error: "\(Raon.message(for: error)) — see '\(helpHint(arguments))'")
    }
    do {
      if var asyncCommand = command as? any AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch let exit as ExitCode {
      return .finished(status: exit.rawValue, error: nil)
    } catch {
      // `--help` and `--version` arrive here as errors of ArgumentParser's own help command.
      if Raon.exitCode(for: error) == .success { return .printedByArgumentParser(error) }
      Console.endProgress()
      let status = StatusCode.of(error, command: command)
      if status == StatusCode.usage, error is ValidationError {
        return .finished(status: status, error: "\(error) — see '\(helpHint(arguments))'")
      }
      return .finished(status: status, error: String(describing: error))
    }
    return .finished(status: 0, error: nil)
  }

  /// Prints one line and exits.
  static func fail(_ message: String, status: Int32) -> Never {
    if SignalGuard.isStopping { SignalGuard.waitForTheHandler() }
    Console.error("Error: " + message)
    Foundation.exit(status)
  }

  /// `raon report --help` for the subcommand the arguments name, else `raon --help`.
  private static func helpHint(_ arguments: [String]) -> String {
    let names = Raon.configuration.subcommands.map { $0.configuration.commandName ?? "" }
    if let first = arguments.first, names.contains(first) { return "raon \(first) --help" }
    return "raon --help"
  }
}

/// The exit statuses of `raon` (documented in `raon --help` and the README).
enum StatusCode {
  static let diffChanged: Int32 = 1
  static let usage: Int32 = 64

  /// The status for an error thrown by `command`: the one a Raon error gives
  /// (``RaonError/exitStatus``).
  ///
  /// Every error type of Raon's modules is a `RaonError` (the build refuses one that is not,
  /// see `Plugins/ErrorStatusCheck`), so the last case is only for the errors of the system
  /// and the libraries that reach here unwrapped (Foundation's, GRDB's): the work failed.
  static func of(_ error: any Error, command: any ParsableCommand) -> Int32 {
    let status: ExitStatus =
      switch error {
      case let error as any RaonError: error.exitStatus
      case is ValidationError: .usage  // ArgumentParser's, for a value `validate()` refuses
      default: .failure
      }
    switch status {
    case .usage: return usage
    case .config: return 78
    case .busy: return 69
    case .pending: return 75
    case .stale: return 66
    case .held: return 65
    // diff(1): 1 means "changed", so a failure is 2.
    case .failure: return command is DiffCommand ? 2 : 1
    }
  }
}
