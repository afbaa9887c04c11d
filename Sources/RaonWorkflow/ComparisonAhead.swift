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

  /// Starts reading and comparing when the report is about a held input and compares it
  /// with a stored snapshot small enough to hold: Seoul's by program id, the national
  /// data's event by event (``national(_:compared:day:job:)``).
  static func start(
    _ request: ReportRequest, _ input: ReportInput, plan: ReportPlan, job: ReportJob
  ) throws -> ComparisonAhead? {
    guard let held = input.held else { return nil }
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
    if job.profile.identity == .naturalKey {
      return ComparisonAhead(
        compared: compared, day: recording.koreaDay,
        result: national(held, compared: compared, day: recording.koreaDay, job: job), early: false)
    }
    let programs = held.programs
    let result = PendingResult<(programs: ProgramChunks, changes: SnapshotDiff)>.start(named: "raon-compare") {
      [store = job.store, reading = job.reading] in
      // What statistics read of the compared programs (as the store path reads them), and
      // the changes from its whole programs a chunk at a time: holding them all would cost
      // 50 MB at 20,000 programs.
      let statistics = try reading.comparedStatistics(of: compared, in: store)
      let changes = try SnapshotComparison.diff(
        old: store.programChunks(inSnapshot: compared.id, chunkSize: Self.chunkSize), new: programs)
      return (statistics, changes)
    }
    return ComparisonAhead(compared: compared, day: recording.koreaDay, result: result, early: true)
  }

  /// The national data's comparison: the stored snapshot's events (named as on `day`) and
  /// the changes, event by event, from its rows to the held input's rows.
  static func national(
    _ held: HeldInput, compared: SnapshotInfo, day: CalendarDay, job: ReportJob
  ) -> PendingResult<(programs: ProgramChunks, changes: SnapshotDiff)> {
    let entries = held.prepared.entries
    return PendingResult.start(named: "raon-compare") { [store = job.store, profile = job.profile] in
      // The held rows are digested while the stored ones are read.
      let new = PendingResult.start(named: "raon-compare-new") {
        EventComparison.events(
          programs: entries.map(\.program), rows: entries.map { ($0.program.id, $0.raw) }, profile: profile)
      }
      let old = try SnapshotReading.events(of: compared, in: store, profile: profile)
      let changes = EventComparison.diff(old: old.events, new: try new.wait().get(), profile: profile)
      return (
        ProgramChunks(try NationalWeek.events(ProgramChunks(old.programs), profile: profile, on: day)),
        NationalAnalysis.named(changes, profile: profile, on: day))
    }
  }

  /// Whether a workbook may write the changes sheet before the figures are computed
  /// (Seoul's; the national sheet is written with the report).
  let startsEarly: Bool

  init(
    compared: SnapshotInfo, day: CalendarDay,
    result: PendingResult<(programs: ProgramChunks, changes: SnapshotDiff)>, early: Bool
  ) {
    self.compared = compared
    self.day = day
    self.result = result
    self.startsEarly = early
  }

  /// The changes, for a workbook to start on before the figures are computed.
  var early: EarlyChanges? {
    guard startsEarly else { return nil }
    return EarlyChanges(day: day) { [result] in try? result.wait().get().changes }
  }

  /// Whether `selection` is the one guessed: the recorded snapshot compared with ``compared``.
  func matches(_ selection: ReportSelection, recorded: [SnapshotInfo]) -> Bool {
    selection.compareTo?.id == compared.id && recorded.last?.id == selection.snapshot.id
  }
}
