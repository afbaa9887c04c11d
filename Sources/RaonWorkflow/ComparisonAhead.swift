import Foundation
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

  /// The compared snapshot's programs, decoded on a thread of their own while the input
  /// is still being read (one core is otherwise idle then): a chunk or two ahead, handed
  /// over to the comparison once it starts (``start(_:_:plan:job:readAhead:)``).
  struct ReadingAhead: Sendable {
    let compared: SnapshotInfo
    let feed: HandOver<[Program]>
    let reading: PendingResult<Void>

    /// Stops the read, if still going (nothing compared it, or another snapshot is
    /// compared), and waits for its thread.
    func finish() {
      feed.stop()
      _ = reading.wait()
    }
  }

  /// Starts decoding the snapshot the input will be compared with when the report is about
  /// one small file of Seoul's catalog (what ``ReportJob/read(_:takenAt:)`` holds), before
  /// that file is read.
  static func readAhead(_ request: ReportRequest, plan: ReportPlan, job: ReportJob) throws -> ReadingAhead? {
    guard job.profile.identity != .naturalKey, request.snapshot == nil, request.pulled == nil, !request.useAPI,
      request.inputs.count == 1,
      (try? SnapshotJob(store: job.store, environment: job.environment, profile: job.profile)
        .smallFile(request.inputs[0])) != nil,
      let compared = try choose(request, takenAt: plan.takenAt, job: job)
    else { return nil }
    let feed = HandOver<[Program]>()
    let reading = PendingResult<Void>.start(named: "raon-compare-read") { [store = job.store] in
      do {
        try store.programChunks(inSnapshot: compared.id, chunkSize: Self.chunkSize).scan { feed.push($0) }
        feed.finish(throwing: nil)
      } catch {
        feed.finish(throwing: error)
      }
    }
    return ReadingAhead(compared: compared, feed: feed, reading: reading)
  }

  /// The snapshot a held input taken at `takenAt` is compared with, chosen among those
  /// stored as ``ReportJob/select(_:plan:after:)`` will choose once it is recorded; `nil`
  /// for none, or one too large to hold.
  private static func choose(_ request: ReportRequest, takenAt: Date, job: ReportJob) throws -> SnapshotInfo? {
    let stored = try job.store.snapshots()
    // The snapshot about to be recorded: taken at the plan's time, with an id above all.
    let recording = SnapshotInfo(
      id: .max, takenAt: SnapshotStore.storedTime(takenAt) ?? takenAt, source: "", programCount: 0)
    guard
      let compared = try SnapshotSelection.chooseComparison(
        request.compareTo, for: recording, in: stored, store: job.storePath),
      compared.programCount <= job.reading.inMemoryLimit
    else { return nil }
    return compared
  }

  /// Starts reading and comparing when the report is about a held input and compares it
  /// with a stored snapshot small enough to hold: Seoul's by program id, the compared
  /// programs decoded ahead (`readAhead`) used when they are that snapshot's (else the read
  /// is stopped); the national data's event by event (``national(_:compared:day:job:)``).
  static func start(
    _ request: ReportRequest, _ input: ReportInput, plan: ReportPlan, job: ReportJob,
    readAhead: ReadingAhead? = nil
  ) throws -> ComparisonAhead? {
    guard let held = input.held, let compared = try choose(request, takenAt: plan.takenAt, job: job) else {
      readAhead?.finish()
      return nil
    }
    let day = CalendarDay(koreaDateOf: SnapshotStore.storedTime(plan.takenAt) ?? plan.takenAt)
    if job.profile.identity == .naturalKey {
      readAhead?.finish()
      return ComparisonAhead(
        compared: compared, day: day, result: national(held, compared: compared, day: day, job: job), early: false)
    }
    let old: ProgramChunks
    if let readAhead, readAhead.compared == compared {
      old = ProgramChunks.fed(by: readAhead.feed, count: compared.programCount)
    } else {
      readAhead?.finish()
      old = try job.store.programChunks(inSnapshot: compared.id, chunkSize: Self.chunkSize)
    }
    let programs = held.programs
    let result = PendingResult<(programs: ProgramChunks, changes: SnapshotDiff)>.start(named: "raon-compare") {
      // However the comparison ends, the read ahead (if any) has stopped when it has.
      defer { readAhead?.finish() }
      // The changes from the compared snapshot's whole programs, a chunk at a time (holding
      // them all would cost 50 MB at 20,000 programs), and from the same chunks what
      // statistics read of them (as the store path reads them by columns, without a
      // second read).
      var statistics: [Program] = []
      statistics.reserveCapacity(compared.programCount)
      let changes = try SnapshotComparison.diff(old: old, new: programs) { chunk in
        statistics.append(contentsOf: chunk.lazy.map(\.statisticsColumns))
      }
      return (ProgramChunks(statistics), changes)
    }
    return ComparisonAhead(compared: compared, day: day, result: result, early: true)
  }

  /// The national data's comparison: the stored snapshot's events (named as on `day`) and
  /// the changes, event by event, from its rows to the held input's rows.
  static func national(
    _ held: HeldInput, compared: SnapshotInfo, day: CalendarDay, job: ReportJob
  ) -> PendingResult<(programs: ProgramChunks, changes: SnapshotDiff)> {
    let entries = held.prepared.entries
    return PendingResult.start(named: "raon-compare") {
      [store = job.store, profile = job.profile, checks = job.reading.checksLineage] in
      // The held rows are digested while the stored ones are read.
      let new = PendingResult.start(named: "raon-compare-new") {
        EventComparison.events(
          programs: entries.map(\.program), rows: entries.map { ($0.program.id, $0.raw) }, profile: profile)
      }
      let old = try SnapshotReading.events(of: compared, in: store, profile: profile)
      let held = try new.wait().get()
      if checks {
        try LineageFound.check(
          old: old.events, new: held, profile: profile, compared: compared, reported: day, store: store)
      }
      let changes = EventComparison.diff(old: old.events, new: held, profile: profile)
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
