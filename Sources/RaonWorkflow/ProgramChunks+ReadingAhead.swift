import Foundation
import RaonConcurrency

import RaonCore

extension ProgramChunks {
  /// The same chunks, each produced on another thread while the one before is in use:
  /// for chunks that are costly to make, such as programs decoded from the store, so that
  /// decoding and writing overlap.
  ///
  /// At most one chunk waits ready beside the one in use and the one being made. Stopping
  /// early (``scan(_:)`` returning `false`) or an error on either side stops the producer,
  /// and a pass returns only once the producer has finished.
  func readingAhead() -> ProgramChunks {
    let inner = self
    return ProgramChunks(count: count) { body in
      try HandOver<[Program]>.overlapping(
        make: { push in try inner.scan { push($0) } },
        use: body)
    }
  }
}

extension ProgramChunks {
  /// The same programs, whose first pass takes the chunks another pass over them pushes
  /// into `feed` (so that one reading from the store serves both); any later pass reads
  /// `self` again.
  ///
  /// The first pass stops `feed` when it ends, however it ends, and fails if the feed
  /// finished before handing over ``count`` programs rather than pass fewer.
  func fedOnce(by feed: HandOver<[Program]>) -> ProgramChunks {
    let first = FirstTime()
    let again = self
    let count = self.count
    return ProgramChunks(count: count) { body in
      guard first.claim() else { return try again.scan(body) }
      defer { feed.stop() }
      var handed = 0
      while let chunk = try feed.pop() {
        handed += chunk.count
        guard try body(chunk) else { return }
      }
      guard handed == count else {
        throw FeedFailure(description: "the pass feeding this one handed over \(handed) of \(count) programs")
      }
    }
  }

  struct FeedFailure: Error, CustomStringConvertible {
    var description: String
  }
}
