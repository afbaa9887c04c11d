import RaonAnalytics
import RaonConcurrency
import RaonCore
import RaonExport
import RaonStore

/// The comparison of a held input, worked out while the input is recorded.
///
/// A report about the file it records compares it with a snapshot already stored (the one
/// before it, by default). That snapshot's programs can be read, and compared with the held
/// programs, on a thread of their own while the recording goes on, instead of reading both
/// sides back once it is done: the comparison leaves the job's critical path, which matters
/// most when most programs differ (two downloads a year apart: `bench/RESULTS-round4.md`).
///
/// The comparison is chosen before recording, as ``ReportJob/select(_:plan:after:)`` will
/// choose it after; ``matches(_:)`` checks that it did, and the job reads the store as
/// usual when not (a recording that returned an earlier snapshot, say).
struct ComparisonAhead: Sendable {
  /// The snapshot compared with, as chosen before recording.
  let compared: SnapshotInfo
  /// The day in Korea of the snapshot being recorded.
  let day: CalendarDay
  /// What statistics read of its programs, and the changes from them to the held programs.
  let result: PendingResult<(programs: ProgramChunks, changes: SnapshotDiff)>

  /// Old programs compared at a time.
  static let chunkSize = 4_000

  /// Starts reading and comparing when the report is about a held input of Seoul's catalog
  /// (compared by program id) and compares it with a stored snapshot small enough to hold.
  static func start(
    _ request: ReportRequest, _ input: ReportInput, plan: ReportPlan, job: ReportJob
  ) throws -> ComparisonAhead? {
    guard let held = input.held, job.profile.identity != .naturalKey else { return nil }
    let stored = try job.store.snapshots()
    // The snapshot about to be recorded: taken at the plan's time, with an id above all.
    let recording = SnapshotInfo(
      id: .max, takenAt: SnapshotStore.storedTime(plan.takenAt) ?? plan.takenAt, source: "",
      programCount: held.programs.count)
    guard
      let compared = try SnapshotSelection.chooseComparison(
        request.compareTo, for: recording, in: stored, store: job.storePath),
      compared.programCount <= job.reading.inMemoryLimit
    else { return nil }
    let programs = held.programs
    let result = PendingResult<(programs: ProgramChunks, changes: SnapshotDiff)>.start(named: "raon-compare") {
      [store = job.store] in
      // The changes from the compared snapshot's whole programs, a chunk at a time (holding
      // them all would cost 50 MB at 20,000 programs), and from the same chunks what
      // statistics read of them (as the store path reads them by columns, without a
      // second read).
      var statistics: [Program] = []
      statistics.reserveCapacity(compared.programCount)
      let changes = try SnapshotComparison.diff(
        old: store.programChunks(inSnapshot: compared.id, chunkSize: Self.chunkSize), new: programs
      ) { chunk in statistics.append(contentsOf: chunk.lazy.map(\.statisticsColumns)) }
      return (ProgramChunks(statistics), changes)
    }
    return ComparisonAhead(compared: compared, day: recording.koreaDay, result: result)
  }

  /// The changes, for a workbook to start on before the figures are computed.
  var early: EarlyChanges {
    EarlyChanges(day: day) { [result] in try? result.wait().get().changes }
  }

  /// Whether `selection` is the one guessed: the recorded snapshot compared with ``compared``.
  func matches(_ selection: ReportSelection, recorded: [SnapshotInfo]) -> Bool {
    selection.compareTo?.id == compared.id && recorded.last?.id == selection.snapshot.id
  }
}
