import RaonAnalytics
import RaonCore
import RaonStore

/// How the jobs read snapshots for analysis: the one place that decides between holding a
/// catalog in memory and reading it from the store on every pass.
enum SnapshotReading {
  /// Catalogs up to this many programs are read once and held (fast for the usual
  /// 5,000-program catalog); larger ones are read from the store chunk by chunk on each
  /// pass, so a million programs never sit in memory at once (`bench/RESULTS.md`).
  static let inMemoryLimit = 100_000

  /// Programs per chunk when reading from the store.
  static let chunkSize = 20_000

  /// A snapshot's programs for a report, sorted by id.
  static func programs(
    of snapshot: SnapshotInfo, in store: SnapshotStore, limit: Int = inMemoryLimit,
    chunkSize: Int = chunkSize
  ) throws -> ProgramChunks {
    if snapshot.programCount <= limit {
      return ProgramChunks(try store.programs(inSnapshot: snapshot.id))
    }
    // Decoding the next chunk overlaps with using this one (writing the workbook's rows).
    return try store.programChunks(inSnapshot: snapshot.id, chunkSize: chunkSize).readingAhead()
  }

  /// What statistics read of a snapshot whose programs are `programs`: the same when they
  /// are held, else the store's column-only programs (several times cheaper to read).
  static func statistics(
    of snapshot: SnapshotInfo, programs: ProgramChunks, in store: SnapshotStore
  ) throws -> ProgramChunks {
    if programs.held != nil { return programs }
    return try store.programColumnChunks(inSnapshot: snapshot.id)
  }

  /// A compared snapshot's programs: they only count in statistics (and, while the new
  /// snapshot is being recorded, in an in-memory diff), so a large one is read by columns.
  static func comparedPrograms(
    of snapshot: SnapshotInfo, in store: SnapshotStore, limit: Int = inMemoryLimit
  ) throws -> ProgramChunks {
    if snapshot.programCount <= limit {
      return ProgramChunks(try store.programs(inSnapshot: snapshot.id))
    }
    return try store.programColumnChunks(inSnapshot: snapshot.id)
  }

  /// Programs just recorded, in the order the store reads them back: by id, which is that
  /// order exactly when no id repeats (the store orders repeated ids by version, which a
  /// caller holding only the programs cannot know); `nil` when an id repeats.
  static func inStoreOrder(_ programs: [Program]) -> [Program]? {
    let sorted = programs.sorted { $0.id < $1.id }
    for i in sorted.indices.dropFirst() where sorted[i - 1].id == sorted[i].id { return nil }
    return sorted
  }

  /// `diff(old: from, new: to)`, computed from the programs that differ alone (the store
  /// finds them by version): the same result as from both whole catalogs.
  static func diff(from old: SnapshotInfo, to new: SnapshotInfo, in store: SnapshotStore) throws
    -> SnapshotDiff
  {
    let differing = try store.programsThatDiffer(old: old.id, new: new.id)
    return SnapshotComparison.diff(old: differing.old, new: differing.new)
  }
}
