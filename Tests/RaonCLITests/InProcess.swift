import ArgumentParser
import Foundation
import RaonConcurrency
import RaonWorkflow
import TestSupport

@testable import RaonCLI

/// `raon ARGS` run in this process, the way argument-parser's own tests check a command:
/// parsed by ``Raon``, run, and ended as ``RaonMain`` ends it — the exit status and the
/// one line it prints on standard error — without starting the binary. The command sees
/// the environment given here (its variables, its working directory), not the test
/// process's.
///
/// For argument handling and usage, config and failure messages. Where the process itself
/// is the thing tested (the real binary's exit status, a signal, what reaches stdout and
/// stderr), tests run it with ``RaonProcess``.
enum InProcess {
  struct Result: Sendable, CustomStringConvertible {
    var status: Int32
    /// What the binary prints on standard error when the run fails (`Error: …`, one line);
    /// empty otherwise.
    var stderr: String
    /// What ArgumentParser prints for `--help`, `--version` and the like.
    var help: String
    /// The warnings the run gave (each a line the binary prints as `warning: …`).
    var warnings: [String]

    var description: String { "exit \(status): \(stderr)\(help.prefix(200))" }
  }

  /// Runs `raon ARGUMENTS` with a minimal environment (as ``RaonProcess`` gives the binary:
  /// no SEOUL_API_KEY or RAON_DB unless given, HOME in `directory`) plus `environment`.
  static func run(
    _ arguments: [String], in directory: URL, environment: [String: String] = [:]
  ) async -> Result {
    let warnings = Warnings()
    var variables: [String: String] = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      "HOME": directory.path,
      "LANG": "C.UTF-8",
    ]
    variables.merge(environment) { $1 }
    let injected = RaonEnvironment(
      variables: variables, workingDirectory: directory, warn: { warnings.add($0) })
    let outcome = await Console.$injected.withValue(injected) {
      await RaonMain.outcome(of: arguments)
    }
    switch outcome {
    case .printedByArgumentParser(let error):
      return Result(
        status: Raon.exitCode(for: error).rawValue, stderr: "", help: Raon.fullMessage(for: error),
        warnings: warnings.all)
    case .finished(let status, let message):
      // As `RaonMain.fail` prints it.
      let line = message.map { "Error: " + TerminalText.oneLine($0) + "\n" } ?? ""
      return Result(status: status, stderr: line, help: "", warnings: warnings.all)
    }
  }

  /// A folder whose store (`store.sqlite`) holds the sample, recorded as snapshot 1
  /// (2024-09-09), in-process.
  static func folderWithSample(_ label: String) async throws -> URL {
    let dir = try Fixtures.temporaryDirectory(label)
    let recorded = await run(
      ["snapshot", Fixtures.sampleCSV.path, "--taken-at", "2024-09-09", "--db", "store.sqlite"], in: dir)
    guard recorded.status == 0 else { throw Failed(what: "recording the sample", result: recorded) }
    return dir
  }

  struct Failed: Error, CustomStringConvertible {
    var what: String
    var result: Result
    var description: String { "\(what): \(result)" }
  }

  private final class Warnings: Sendable {
    private let lines = Guarded<[String]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
  }
}
