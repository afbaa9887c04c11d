import Foundation

extension ProgramChunks {
  /// The same chunks, each produced on another thread while the one before is in use:
  /// for chunks that are costly to make, such as programs decoded from the store, so that
  /// decoding and writing overlap.
  ///
  /// At most one chunk waits ready beside the one in use and the one being made. Stopping
  /// early (``scan(_:)`` returning `false`) or an error on either side stops the producer,
  /// and a pass returns only once the producer has finished.
  public func readingAhead() -> ProgramChunks {
    let inner = self
    return ProgramChunks(count: count) { body in
      let queue = ChunkQueue()
      Thread {
        do {
          try inner.scan { queue.push($0) }
          queue.finish(throwing: nil)
        } catch {
          queue.finish(throwing: error)
        }
      }.start()
      defer {
        queue.stop()
        queue.waitUntilFinished()
      }
      while let chunk = try queue.pop() {
        guard try body(chunk) else { return }
      }
    }
  }
}

/// A one-slot hand-over between the producing thread and the consumer.
private final class ChunkQueue: @unchecked Sendable {
  private let condition = NSCondition()
  private var ready: [[Program]] = []
  private var finished = false
  private var stopped = false
  private var failure: Error?

  /// Waits for the slot to be free; `false` once the consumer has stopped.
  func push(_ chunk: [Program]) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while !ready.isEmpty && !stopped { condition.wait() }
    guard !stopped else { return false }
    ready.append(chunk)
    condition.broadcast()
    return true
  }

  func finish(throwing error: Error?) {
    condition.lock()
    finished = true
    failure = error
    condition.broadcast()
    condition.unlock()
  }

  /// The next chunk, `nil` at the end; the producer's error once the chunks before it
  /// have been taken.
  func pop() throws -> [Program]? {
    condition.lock()
    defer { condition.unlock() }
    while ready.isEmpty && !finished { condition.wait() }
    if !ready.isEmpty {
      let chunk = ready.removeFirst()
      condition.broadcast()
      return chunk
    }
    if let failure { throw failure }
    return nil
  }

  func stop() {
    condition.lock()
    stopped = true
    condition.broadcast()
    condition.unlock()
  }

  func waitUntilFinished() {
    condition.lock()
    while !finished { condition.wait() }
    condition.unlock()
  }
}
