import RaonAnalytics
import RaonCore
import RaonStore

/// How the jobs read snapshots for analysis: the one place that decides between holding a
/// catalog in memory and reading it from the store on every pass.
enum SnapshotReading {
  /// When a catalog is held and how large chunks are: one policy value, so a job and its
  /// tests agree on every read.
  struct Policy: Sendable {
    /// Catalogs up to this many programs are read once and held (fast for today's
    /// 20,000-program catalog); larger ones are read from the store chunk by chunk on each
    /// pass, so a million programs never sit in memory at once (`bench/RESULTS.md`).
    var inMemoryLimit = 100_000
    /// Programs per chunk when reading from the store.
    var chunkSize = 20_000
    /// Whether a national comparison checks its keys against the lineage found in the data
    /// and the one in force (``LineageFound``); the site, which follows the stored keys
    /// week by week, does not.
    var checksLineage = true

    /// A snapshot's programs for a report, sorted by id.
    func programs(of snapshot: SnapshotInfo, in store: any SnapshotStoring) throws -> ProgramChunks {
      if snapshot.programCount <= inMemoryLimit {
        return ProgramChunks(try store.programs(inSnapshot: snapshot.id))
      }
      // Decoding the next chunk overlaps with using this one (writing the workbook's rows).
      return try store.programChunks(inSnapshot: snapshot.id, chunkSize: chunkSize).readingAhead()
    }

    /// A compared snapshot's programs for the city report: they only count in statistics,
    /// so they are read by columns (2.5× faster than whole programs at 20,000), held when
    /// small enough.
    func comparedStatistics(of snapshot: SnapshotInfo, in store: any SnapshotStoring) throws -> ProgramChunks {
      let columns = try store.programColumnChunks(inSnapshot: snapshot.id)
      return snapshot.programCount <= inMemoryLimit ? ProgramChunks(try columns.collect()) : columns
    }

    /// A compared snapshot's whole programs, for district packs (their changes are
    /// computed field by field from them).
    func comparedPrograms(of snapshot: SnapshotInfo, in store: any SnapshotStoring) throws -> ProgramChunks {
      if snapshot.programCount <= inMemoryLimit {
        return ProgramChunks(try store.programs(inSnapshot: snapshot.id))
      }
      return try store.programColumnChunks(inSnapshot: snapshot.id)
    }
  }

  /// `diff(old: from, new: to)`, computed from the programs that differ alone (the store
  /// finds them by version): the same result as from both whole catalogs.
  ///
  /// A catalog without ids (the national data) is compared event by event
  /// (``EventComparison``): each event's rows are all its versions, so both snapshots are
  /// read whole (the whole country is some ten thousand rows).
  static func diff(
    from old: SnapshotInfo, to new: SnapshotInfo, in store: any SnapshotStoring,
    profile: CatalogProfile = .seoul
  ) throws -> SnapshotDiff {
    if profile.identity == .naturalKey {
      return EventComparison.diff(
        old: try events(of: old, in: store, profile: profile).events,
        new: try events(of: new, in: store, profile: profile).events, profile: profile)
    }
    let differing = try store.programsThatDiffer(old: old.id, new: new.id)
    return SnapshotComparison.diff(old: differing.old, new: differing.new)
  }

  /// A snapshot of a catalog without ids, as ``EventComparison`` reads it (its programs, a
  /// row each, and its raw rows), with those programs.
  static func events(of snapshot: SnapshotInfo, in store: any SnapshotStoring, profile: CatalogProfile) throws
    -> (programs: [Program], events: EventComparison.Snapshot)
  {
    let (programs, records) = try store.programsAndRawRecords(inSnapshot: snapshot.id)
    return (programs, EventComparison.events(programs: programs, rows: records.map { ($0.programID, $0.record) }, profile: profile))
  }
}
