import Foundation

/// Pure per-item work (encoding, decoding, normalising) spread over the cores, for large
/// snapshots.
public enum ParallelWork {
  /// Below this many items the work runs on the calling thread.
  public static let minimumCount = 2_000

  /// `body(0..<count)` in order. When several items fail, the error of the first failing
  /// index is thrown, as a sequential loop would.
  ///
  /// - Parameters:
  ///   - minimumCount: Below this many items the work runs on the calling thread.
  ///   - body: Pure work on one index: it may run on any thread, and an index that
  ///     failed is run once more on the calling thread to throw its error (so a failure
  ///     costs one item twice, and `body` must fail the same way again).
  public static func map<T>(
    _ count: Int, minimumCount: Int = ParallelWork.minimumCount, _ body: (Int) throws -> T
  ) rethrows -> [T] {
    guard count >= minimumCount else { return try (0..<count).map(body) }
    let chunks = min(ProcessInfo.processInfo.activeProcessorCount * 4, count)
    let chunkSize = (count + chunks - 1) / chunks
    // `nil` where the item failed, or after a failure in its chunk (not computed).
    var results = [T?](repeating: nil, count: count)
    withoutActuallyEscaping(body) { body in
      nonisolated(unsafe) let work = body
      results.withUnsafeMutableBufferPointer { buffer in
        nonisolated(unsafe) let out = buffer
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
          let lower = chunk * chunkSize
          let upper = min(count, lower + chunkSize)
          guard lower < upper else { return }
          for i in lower..<upper {
            guard let value = try? work(i) else { return }
            out[i] = value
          }
        }
      }
      _ = work
    }
    var values: [T] = []
    values.reserveCapacity(count)
    for i in 0..<count {
      // Moved out, not copied: a copy of a program would retain each of its strings here
      // and release them again when `results` goes.
      if let value = results[i].take() {
        values.append(value)
      } else {
        values.append(try body(i))  // the first failure, thrown here as a loop would
      }
    }
    return values
  }
}
