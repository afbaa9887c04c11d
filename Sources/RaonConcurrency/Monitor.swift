import Foundation

/// A value that threads share and wait on: a thread waits until the value satisfies it
/// (an answer arrived, the connection closed), and every change wakes the waiting threads
/// to look again. A monitor, in the classic sense: one lock and one condition variable.
///
/// ```swift
/// let state = Monitor(State())
/// state.withLock { $0.answers[id] = answer }          // another thread, then wakes the waiters
/// let answer = state.wait(until: deadline) { $0.answers.removeValue(forKey: id) }
/// ```
public final class Monitor<Value>: @unchecked Sendable {
  private let condition = NSCondition()
  private var value: Value

  public init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with the value under the lock, then wakes the threads waiting on it.
  ///
  /// `body` must not use this monitor again (it holds its lock).
  public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    condition.lock()
    defer {
      condition.broadcast()
      condition.unlock()
    }
    return try body(&value)
  }

  /// Waits until `body` gives an answer.
  ///
  /// `body` runs under the lock at once and again after every change, and may change the
  /// value (take the answer it found, say).
  public func wait<Answer>(for body: (inout Value) throws -> Answer?) rethrows -> Answer {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let answer = try body(&value) { return answer }
      condition.wait()
    }
  }

  /// Waits until `body` gives an answer, or `deadline` passes.
  ///
  /// `body` runs as for ``wait(for:)``.
  /// - Returns: `body`'s answer; `nil` when there was none by the deadline (`body` is asked
  ///   once more then, so an answer that came with the deadline is not missed).
  public func wait<Answer>(until deadline: Date, for body: (inout Value) throws -> Answer?) rethrows -> Answer? {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let answer = try body(&value) { return answer }
      guard condition.wait(until: deadline) else { return try body(&value) }
    }
  }
}
