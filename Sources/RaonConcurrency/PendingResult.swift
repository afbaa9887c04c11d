import Foundation

/// A result made once, on another thread, and waited for by any number of threads.
public final class PendingResult<T: Sendable>: @unchecked Sendable {
  private let result = Monitor<Result<T, Error>?>(nil)

  public init() {}

  /// Starts `work` on a thread of its own; its outcome fulfils the result.
  ///
  /// A new thread rather than a dispatch worker: a recording going on meanwhile spreads its
  /// encoding over every worker (`concurrentPerform`), and work queued behind it would wait
  /// for that to finish (~20 ms on the sample) instead of sharing the cores.
  /// - Parameter name: The thread's name, as debuggers and `/proc` show it.
  public static func start(named name: String? = nil, _ work: @escaping @Sendable () throws -> T) -> PendingResult<T> {
    let pending = PendingResult<T>()
    Thread {
      // Named from inside: on Linux a name given before the start does not reach the thread.
      // Foundation names the system's thread only once `start()` has stored its handle, which
      // the new thread can outrun (seen under the thread sanitizer: the thread kept its
      // creator's name), so the system's name is also written directly, as prctl would.
      if let name {
        Thread.current.name = name
        try? String(name.utf8.prefix(15))?.write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
      }
      pending.fulfil(Result { try work() })
    }.start()
    return pending
  }

  /// Sets the result (the first call wins) and wakes the waiting threads.
  public func fulfil(_ outcome: Result<T, Error>) {
    result.withLock { if $0 == nil { $0 = outcome } }
  }

  /// Waits for the result.
  public func wait() -> Result<T, Error> {
    result.wait { $0 }
  }
}
