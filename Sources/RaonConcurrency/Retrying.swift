/// Trying a step again after a failure that may pass (a service down at 07:00), waiting
/// longer each time, for as long as a configured time allows: the one place a job waits
/// between attempts.
public enum Retrying {
  /// When to wait after each failure: `first`, then doubled each time up to `maximum`.
  public static func wait(after attempt: Int, first: Duration, maximum: Duration) -> Duration {
    var wait = first
    for _ in 1..<max(attempt, 1) {
      wait = min(wait * 2, maximum)
      if wait == maximum { break }
    }
    return min(wait, maximum)
  }

  /// Calls `body` until it succeeds, throws an error `isRetryable` refuses, or the next
  /// wait would end after `total` from the start; the last error is then thrown.
  ///
  /// - Parameters:
  ///   - onRetry: Told of each failure that is tried again, and the wait before the next attempt.
  ///   - sleep: Waits (injected so tests need not wait); default `Task.sleep`.
  public static func run<T>(
    for total: Duration, first: Duration, maximum: Duration,
    isRetryable: (any Error) -> Bool,
    onRetry: (_ error: any Error, _ attempt: Int, _ wait: Duration) -> Void = { _, _, _ in },
    sleep: (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
    _ body: () async throws -> T
  ) async throws -> T {
    let clock = ContinuousClock()
    let start = clock.now
    var attempt = 0
    var slept = Duration.zero
    while true {
      attempt += 1
      do {
        return try await body()
      } catch {
        guard isRetryable(error) else { throw error }
        let wait = Self.wait(after: attempt, first: first, maximum: maximum)
        // Real time, and the time slept (a test's sleep may not take any).
        let elapsed = max(clock.now - start, slept)
        guard elapsed + wait <= total else { throw error }
        onRetry(error, attempt, wait)
        try await sleep(wait)
        slept += wait
      }
    }
  }
}
