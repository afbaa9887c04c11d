import Foundation

/// A result made once, on another thread, and waited for by any number of threads.
public final class PendingResult<T: Sendable>: @unchecked Sendable {
  private let condition = NSCondition()
  private var result: Result<T, Error>?

  public init() {}

  /// Starts `work` on a thread of its own; its outcome fulfils the result.
  ///
  /// A new thread rather than a dispatch worker: a recording going on meanwhile spreads its
  /// encoding over every worker (`concurrentPerform`), and work queued behind it would wait
  /// for that to finish (~20 ms on the sample) instead of sharing the cores.
  public static func start(_ work: @escaping @Sendable () throws -> T) -> PendingResult<T> {
    let pending = PendingResult<T>()
    Thread { pending.fulfil(Result { try work() }) }.start()
    return pending
  }

  /// Sets the result (the first call wins) and wakes the waiting threads.
  public func fulfil(_ outcome: Result<T, Error>) {
    condition.lock()
    defer { condition.unlock() }
    guard result == nil else { return }
    result = outcome
    condition.broadcast()
  }

  /// Waits for the result.
  public func wait() -> Result<T, Error> {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let result { return result }
      condition.wait()
    }
  }
}
