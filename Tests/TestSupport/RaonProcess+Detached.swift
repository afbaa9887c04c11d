import Foundation

extension RaonProcess {
  /// `run`, off Swift's cooperative thread pool: waiting for a child process blocks a
  /// thread, and an async test that blocks pool threads can starve the in-process
  /// `LoopbackAPIServer` the child is talking to (seen under AddressSanitizer, where a
  /// child's API requests then timed out).
  public static func runDetached(
    _ arguments: [String], in directory: URL, environment: [String: String] = [:]
  ) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread {
        continuation.resume(
          with: Swift.Result { try run(arguments, in: directory, environment: environment) })
      }
    }
  }

  /// The sanitizer options of the test process (`ASAN_OPTIONS`, …), which a child started
  /// with a minimal environment would otherwise lose (e.g. `detect_leaks=0`).
  public static var sanitizerEnvironment: [String: String] {
    ProcessInfo.processInfo.environment.filter { $0.key.hasSuffix("SAN_OPTIONS") }
  }
}
