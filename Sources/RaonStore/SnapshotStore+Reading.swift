import Foundation
import GRDB
import RaonCore
import RaonStoreCore

// MARK: - Reading (the shared statements of ``StoreQueries``, in one read transaction each)

extension SnapshotStore {
  /// Runs shared statements in one read transaction, with the store's errors.
  func reading<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
    try translatingErrors(Error.readFailed) {
      try writer.read { db in try body(SQLiteConnection(db: db)) }
    }
  }

  /// The programs of a snapshot, exactly as recorded, sorted by id.
  ///
  /// Programs that share an id (a source that repeats a record, or gives two versions of
  /// one program) all appear, ordered by when their version was first stored; a record
  /// repeated `n` times appears `n` times.
  ///
  /// - Throws: ``Error/noSuchSnapshot(id:path:)`` when there is no such snapshot.
  public func programs(inSnapshot id: Int64) throws -> [Program] {
    var result: [Program] = []
    try reading { c in
      try StoreQueries.forEachVersionChunk(
        inSnapshot: id, chunkSize: 20_000, c, location: path, reserve: { result.reserveCapacity($0) }
      ) {
        result.append(contentsOf: try VersionCoding.programs(of: $0))
        return true
      }
    }
    return result
  }

  /// The programs of a snapshot (as ``programs(inSnapshot:)``), read from the store chunk
  /// by chunk on every pass rather than held in memory: for catalogs too large to hold.
  ///
  /// Snapshots never change once recorded, so every pass reads the same programs.
  ///
  /// - Throws: ``Error/noSuchSnapshot(id:path:)`` when there is no such snapshot (now; a
  ///   pass throws the store's errors as ``programs(inSnapshot:)`` does).
  public func programChunks(inSnapshot id: Int64, chunkSize: Int = 20_000) throws -> ProgramChunks {
    guard let info = try snapshot(id: id) else { throw Error.noSuchSnapshot(id: id, path: path) }
    let store = self
    return ProgramChunks(count: info.programCount) { body in
      try store.reading { c in
        try StoreQueries.forEachVersionChunk(inSnapshot: id, chunkSize: chunkSize, c, location: store.path) {
          try body(try VersionCoding.programs(of: $0))
        }
      }
    }
  }

  /// A snapshot's programs with only the fields stored in columns: id, title, category,
  /// district, free flag, fees, dates, coordinates and quality flags, and the registration
  /// day (the other text fields are empty). That is all statistics read, and it reads
  /// several times faster than whole programs: no JSON, no raw values. Sorted and repeated
  /// as ``programs(inSnapshot:)``, read from the store on every pass.
  ///
  /// - Throws: ``Error/noSuchSnapshot(id:path:)`` when there is no such snapshot.
  public func programColumnChunks(inSnapshot id: Int64, chunkSize: Int = 50_000) throws
    -> ProgramChunks
  {
    guard let info = try snapshot(id: id) else { throw Error.noSuchSnapshot(id: id, path: path) }
    let store = self
    return ProgramChunks(count: info.programCount) { body in
      try store.reading { c in
        try StoreQueries.forEachColumnChunk(
          inSnapshot: id, programCount: info.programCount, chunkSize: chunkSize, c, body)
      }
    }
  }

  /// The programs of two snapshots that are not in both alike: for each program id whose
  /// versions (or copies) differ between `old` and `new`, every program with that id in
  /// each snapshot, sorted as ``programs(inSnapshot:)``.
  ///
  /// Versions are content, so an id outside these lists has exactly the same programs in
  /// both snapshots: comparing the two lists finds every addition, removal and change
  /// while reading only what changed.
  ///
  /// - Throws: ``Error/noSuchSnapshot(id:path:)`` when either snapshot does not exist.
  public func programsThatDiffer(old: Int64, new: Int64) throws -> (old: [Program], new: [Program]) {
    try reading { c in
      var sides: [[Program]] = [[], []]
      for (side, (id, other)) in [(old, new), (new, old)].enumerated() {
        try StoreQueries.forEachVersionChunk(
          inSnapshot: id, differingFrom: other, chunkSize: 20_000, c, location: path
        ) {
          sides[side].append(contentsOf: try VersionCoding.programs(of: $0))
          return true
        }
      }
      return (sides[0], sides[1])
    }
  }

  /// The raw records of a snapshot, exactly as the source gave them: every field name in
  /// source order, every value, nulls as `nil`.
  ///
  /// In the same order as ``programs(inSnapshot:)``: the n-th raw record is the source of
  /// the n-th program.
  ///
  /// - Throws: ``Error/noSuchSnapshot(id:path:)`` when there is no such snapshot.
  public func rawRecords(inSnapshot id: Int64) throws -> [StoredRawRecord] {
    var result: [StoredRawRecord] = []
    try reading { c in
      try StoreQueries.forEachVersionChunk(inSnapshot: id, chunkSize: 20_000, c, location: path) {
        result.append(contentsOf: try VersionCoding.rawRecords(of: $0))
        return true
      }
    }
    return result
  }

  /// A series of snapshots as the changes between consecutive ones, read from the
  /// validity intervals alone (see ``StoreQueries/trendSteps(_:_:location:)``).
  ///
  /// ```swift
  /// let chosen = WeeklyTrend.choosePoints(try store.snapshots(), weeks: .max)
  /// for step in try store.trendSteps(chosen) { … }
  /// ```
  ///
  /// - Throws: ``Error/noSuchSnapshot(id:path:)`` when a snapshot is not in the store;
  ///   ``Error/corrupt(path:detail:)`` when a stored day does not read.
  public func trendSteps(_ snapshots: [SnapshotInfo]) throws -> [TrendStep] {
    try reading { c in try StoreQueries.trendSteps(snapshots, c, location: path) }
  }

  /// The snapshot before `id` when `id` holds exactly its content (the same versions, as
  /// often), else `nil`.
  public func unchangedSince(snapshot id: Int64) throws -> Int64? {
    try reading { c in try StoreQueries.unchangedSince(id, c) }
  }

  /// Everything `raon snapshots show` prints about snapshot `id`.
  ///
  /// - Throws: ``Error/noSuchSnapshot(id:path:)`` or ``Error/readFailed(path:reason:)``.
  public func details(snapshot id: Int64) throws -> SnapshotDetails {
    guard let found = try reading({ c in try StoreQueries.details(id, c) }) else {
      throw Error.noSuchSnapshot(id: id, path: path)
    }
    return found
  }
}
