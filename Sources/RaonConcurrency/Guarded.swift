import Synchronization

/// A value that threads share, reached only under its lock.
///
/// ```swift
/// private let idle = Guarded<[Connection]>([])
/// let next = idle.withLock { $0.popLast() }
/// ```
///
/// The lock is the standard library's `Mutex`; this is the one name the other modules use
/// for it, so that every lock of Raon is spelled here.
///
/// On Linux `Mutex` waits with futexes, which the thread sanitizer does not see: under it
/// every value behind the lock looked raced. The lock tells the sanitizer what it does
/// (``ThreadSanitizer``), so `scripts/test-tsan.sh` reports real races only.
public struct Guarded<Value>: ~Copyable, Sendable {
  private let mutex: Mutex<Value>
  /// This lock's identity for the thread sanitizer.
  private let token = ThreadSanitizer.Token()

  public init(_ value: sending Value) {
    mutex = Mutex(value)
  }

  /// Runs `body` with the value, which no other thread can reach meanwhile.
  ///
  /// `body` must not take this value's lock again (it would wait for itself).
  public borrowing func withLock<Result, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    let token = self.token
    return try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
      ThreadSanitizer.acquired(token)
      defer { ThreadSanitizer.releasing(token) }
      return try body(&value)
    }
  }
}
