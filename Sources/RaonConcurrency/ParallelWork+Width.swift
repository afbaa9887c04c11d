import Synchronization

extension ParallelWork {
  /// `body(i)` for every `i` in `0..<count`, on at most `width` threads at once (the
  /// calling thread is one of them), in index order as far as the threads go. For a few
  /// slow items each worth a thread (pages printed by one browser's tabs); with a width of
  /// one, a plain loop on the calling thread.
  ///
  /// Once an item fails no further item starts; of the items that failed, the error of the
  /// lowest index is thrown, after every started item has ended.
  public static func forEach(
    _ count: Int, width: Int, _ body: @escaping @Sendable (Int) throws -> Void
  ) throws {
    let width = max(1, min(width, count))
    guard width > 1 else {
      for i in 0..<count { try body(i) }
      return
    }
    let queue = IndexQueue(count: count)
    let work: @Sendable () -> Void = {
      while let i = queue.take() {
        do { try body(i) } catch { queue.fail(i, error) }
      }
    }
    let helpers = (1..<width).map { _ in PendingResult.start(work) }
    work()
    for helper in helpers { _ = helper.wait() }
    if let error = queue.firstFailure { throw error }
  }
}

/// The next index to run and the failures so far, for ``ParallelWork/forEach(_:width:_:)``.
private final class IndexQueue: Sendable {
  private struct State {
    var next = 0
    var failures: [(index: Int, error: any Error)] = []
  }

  private let count: Int
  private let state = Guarded(State())

  init(count: Int) {
    self.count = count
  }

  /// The next index, or `nil` when all have started or one failed.
  func take() -> Int? {
    state.withLock { state in
      guard state.next < count, state.failures.isEmpty else { return nil }
      state.next += 1
      return state.next - 1
    }
  }

  func fail(_ index: Int, _ error: any Error) {
    state.withLock { $0.failures.append((index, error)) }
  }

  var firstFailure: (any Error)? {
    state.withLock { $0.failures.min { $0.index < $1.index }?.error }
  }
}
