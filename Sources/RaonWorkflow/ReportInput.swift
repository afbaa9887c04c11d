import Foundation
import RaonConcurrency
import RaonCore
import RaonStore

/// The input of `raon report`, read into memory before it is recorded when it is small.
enum ReportInput {
  /// An input the report can be written from while it is recorded.
  case held(HeldInput)
  /// An input to record first, then read back from the store: one already read (a catalog
  /// whose ids repeat, or a report about another snapshot), or `nil` when there is nothing
  /// in memory (files are streamed into the store, or there is nothing to record).
  case prepared(PreparedSnapshot?)

  /// `prepared` held when the report is about it (`reportsIt`), it fits the reading
  /// policy's memory limit and no program id repeats (or ids are events' natural keys,
  /// `sessions`); else to be recorded first.
  init(
    _ prepared: PreparedSnapshot, takenAt: Date, reportsIt: Bool, reading: SnapshotReading.Policy,
    sessions: Bool = false
  ) {
    guard reportsIt, prepared.entries.count <= reading.inMemoryLimit,
      let held = HeldInput(prepared, takenAt: takenAt, sessions: sessions)
    else {
      self = .prepared(prepared)
      return
    }
    self = .held(held)
  }

  /// The input held in memory, if it is.
  var held: HeldInput? {
    if case .held(let held) = self { return held }
    return nil
  }
}

/// A normalised catalog about to be recorded whose programs are already what the store
/// will give back for its snapshot.
///
/// The store returns a snapshot's programs exactly as recorded, sorted by id (by bytes, as
/// SQLite compares text), and orders programs that share an id by their versions' history;
/// with no id repeated, that order is the ids' alone, so sorting here gives the same
/// array. Reporting from it lets the workbook (most of a report's time) start while the
/// input is recorded, instead of after the store has been read back: at 20,000 programs
/// the weekly job takes ~0.3 s less (`bench/bench.py --weekly 4`).
///
/// A catalog of sessions (the national data) repeats an id once per row of an event, and
/// every row carries the same program (the event's, ``NationalNormalizer``): the store's
/// order among them is its own, but the rows are equal, so the events read from either
/// are the same.
final class HeldInput {
  private(set) var prepared: PreparedSnapshot
  /// The programs, sorted by id.
  private(set) var programs: [Program]
  let takenAt: Date

  /// The day in Korea of the snapshot it is recorded as.
  var day: CalendarDay { CalendarDay(koreaDateOf: SnapshotStore.storedTime(takenAt) ?? takenAt) }

  /// `nil` when a program id repeats in a catalog of programs (or the time cannot be stored).
  init?(_ prepared: PreparedSnapshot, takenAt: Date, sessions: Bool = false) {
    guard SnapshotStore.storedTime(takenAt) != nil else { return nil }
    // The ids are sorted, then the programs put in their order: sorting the programs
    // themselves copied each several times (~15 ms at 20,000, perf).
    let entries = prepared.entries
    let ids = entries.map(\.program.id)
    let order = ids.indices.sorted { ids[$0].utf8.lexicographicallyPrecedes(ids[$1].utf8) }
    let programs = order.map { entries[$0].program }
    for (a, b) in zip(programs, programs.dropFirst()) where a.id == b.id && !sessions { return nil }
    self.prepared = prepared
    self.programs = programs
    self.takenAt = takenAt
  }

  /// Gives the raw records to ``Disposal`` once they are recorded and compared: the report
  /// is written from the programs alone, and the records are most of an input's memory
  /// (docs/PERFORMANCE.md).
  func releaseRecords() {
    let entries = prepared.entries
    prepared.entries = []
    Disposal.release(consume entries)
  }

  /// Gives the records and programs to ``Disposal`` once the report is written: freeing
  /// them is the last thing a weekly job would otherwise wait for.
  func releaseOffThread() {
    let records = prepared.entries
    let sorted = programs
    prepared.entries = []
    programs = []
    Disposal.release((consume records, consume sorted))
  }
}
