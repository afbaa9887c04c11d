import Foundation
import RaonCore
import RaonStore

/// The input of `raon report`, read into memory before it is recorded when it is small.
enum ReportInput {
  /// An input the report is written from as it is, once recorded.
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

  /// The catalog read into memory, if any, to be recorded.
  var prepared: PreparedSnapshot? {
    switch self {
    case .held(let held): return held.prepared
    case .prepared(let prepared): return prepared
    }
  }
}

/// A normalised catalog about to be recorded whose programs are already what the store
/// will give back for its snapshot.
///
/// The store returns a snapshot's programs exactly as recorded, sorted by id (by bytes, as
/// SQLite compares text), and orders programs that share an id by their versions' history;
/// with no id repeated, that order is the ids' alone, so sorting here gives the same
/// array, and the report is written from it without reading the store back (what that
/// saves: docs/PERFORMANCE.md, the cost ledger).
///
/// A catalog of sessions (the national data) repeats an id once per row of an event, and
/// every row carries the same program (the event's, ``NationalNormalizer``): the store's
/// order among them is its own, but the rows are equal, so the events read from either
/// are the same.
final class HeldInput {
  private(set) var prepared: PreparedSnapshot
  /// The programs, sorted by id.
  let programs: [Program]
  let takenAt: Date
  /// The stored snapshot it is compared with, read beside it (``ReportJob/read(_:plan:)``).
  var compared: StoredSnapshot?

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

  /// ``compared``, let go here: once compared, it is only memory.
  func takeCompared() -> StoredSnapshot? {
    defer { compared = nil }
    return compared
  }

  /// Lets the raw records go once they are recorded and the figures computed: the report
  /// is written from the programs alone, and the records are most of an input's memory.
  func releaseRecords() {
    prepared.entries = []
  }
}
