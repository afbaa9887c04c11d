import Foundation
import RaonAnalytics
import RaonCore
import RaonStore

/// What a report is compared with: the compared snapshot (said in the report's items),
/// what statistics read of its programs, and the changes from it to the reported snapshot.
struct Compared: Sendable {
  var info: SnapshotInfo
  var programs: ProgramChunks
  var changes: SnapshotDiff

  var figures: (info: SnapshotInfo, programs: ProgramChunks, changes: SnapshotDiff) { (info, programs, changes) }
}

extension ReportJob {
  /// The reported snapshot compared with `selection`'s, from the store: the changes from
  /// the programs whose versions differ, the compared programs by columns.
  func comparison(_ selection: ReportSelection) throws -> Compared? {
    guard let info = selection.compareTo else { return nil }
    if profile.countsEvents { return try nationalComparison(info, to: selection.snapshot) }
    return Compared(
      info: info, programs: try reading.comparedStatistics(of: info, in: store),
      changes: try SnapshotReading.diff(from: info, to: selection.snapshot, in: store))
  }

  /// The stored snapshot a held input is compared with, read whole (its programs, and a
  /// catalog compared event by event its rows), beside the input's own reading.
  func readCompared(_ info: SnapshotInfo) throws -> StoredSnapshot {
    if profile.countsEvents {
      let read = try SnapshotReading.events(of: info, in: store, profile: profile)
      return StoredSnapshot(info: info, programs: read.programs, events: read.events)
    }
    return StoredSnapshot(info: info, programs: try store.programs(inSnapshot: info.id), events: nil)
  }

  /// A held input compared with a stored snapshot (nothing of the input is read from the
  /// store, so this may run while it is recorded).
  ///
  /// - Throws: ``LineageFound`` (national data), as ``nationalComparison(_:to:)`` does.
  ///
  /// - Parameters:
  ///   - programs: The held programs, in id order.
  ///   - entries: The held input's entries (a catalog of sessions is compared by its raw rows).
  ///   - day: The held snapshot's day in Korea.
  func comparison(held programs: [Program], entries: [NewSnapshot.Entry], on day: CalendarDay, with old: StoredSnapshot)
    throws -> Compared
  {
    if let events = old.events { return try nationalComparison(entries, on: day, with: old, events: events) }
    return Compared(
      info: old.info, programs: ProgramChunks(old.programs.map(\.statisticsColumns)),
      changes: SnapshotComparison.diff(old: old.programs, new: programs))
  }
}

/// A stored snapshot read whole for a held input's comparison (``ReportJob/readCompared(_:)``).
struct StoredSnapshot: Sendable {
  var info: SnapshotInfo
  /// Its programs, a row each, in id order.
  var programs: [Program]
  /// Its events and rows, for a catalog compared event by event.
  var events: EventComparison.Snapshot?
}
