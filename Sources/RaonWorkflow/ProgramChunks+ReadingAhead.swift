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
