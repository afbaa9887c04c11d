import Foundation
import RaonCore
import RaonStore

/// The programs of the snapshot a new recording will be compared with, read on another
/// thread while the input file is parsed: parsing keeps one core busy, and reading the
/// comparison only afterwards would hold up the report (`bench/PROFILING.md`).
struct ComparisonPrefetch: Sendable {
  /// The snapshot being read.
  let info: SnapshotInfo
  private let read: PendingResult<ProgramChunks>

  /// Starts reading what `--compare-to reference` will choose for a snapshot taken at
  /// `takenAt` after `snapshots`; `nil` when that is nothing, or more than `limit` programs
  /// (those are read from the store chunk by chunk anyway).
  static func start(
    reference: String?, takenAt: Date, after snapshots: [SnapshotInfo], store: SnapshotStore,
    limit: Int
  ) -> ComparisonPrefetch? {
    guard let time = SnapshotStore.storedTime(takenAt) else { return nil }
    // The new snapshot's id is not known yet, only that no snapshot so far has it.
    let next = SnapshotInfo(
      id: (snapshots.map(\.id).max() ?? 0) + 1, takenAt: time, source: "", programCount: 0)
    // A reference that fails here fails again, with its message, when the report chooses.
    guard
      let info = try? SnapshotSelection.chooseComparison(reference, for: next, in: snapshots, store: ""),
      info.programCount <= limit
    else { return nil }
    let read = PendingResult.start {
      try SnapshotReading.comparedPrograms(of: info, in: store, limit: limit)
    }
    return ComparisonPrefetch(info: info, read: read)
  }

  /// The programs of `snapshot` when they are the ones read, once read; `nil` for another
  /// snapshot or when the read failed (the caller then reads them itself, and meets the
  /// error there).
  func programs(of snapshot: SnapshotInfo) -> ProgramChunks? {
    guard snapshot == info, case .success(let programs) = read.wait() else { return nil }
    return programs
  }
}
