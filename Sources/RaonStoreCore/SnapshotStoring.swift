import Foundation
import RaonCore

/// What Raon's jobs need of a snapshot store, whatever keeps it: an SQLite file
/// (`SnapshotStore` in RaonStore) or a PostgreSQL database (`PostgresSnapshotStore` in RaonPostgres).
///
/// Both give the same snapshot ids, the same programs in the same order and the same
/// errors (``StoreError``), and both keep the same promises: a snapshot commits in
/// one transaction or not at all, writers never interleave, and a reader never sees a
/// snapshot half recorded. How a store overlaps its work (threads, read-ahead) is its own
/// business and is not part of this protocol.
public protocol SnapshotStoring: Sendable {
  /// Where the store is, for messages: a path, or a URL without its password.
  var location: String { get }

  /// When set, a recording that loses too many current programs is refused.
  var shrinkGuard: ShrinkGuard? { get set }

  /// How the shared reads reach the store (its read transaction); the reads below come
  /// with it, written once for every store.
  var storeAccess: StoreAccess { get }

  /// Every snapshot, in ascending id (insertion) order.
  func snapshots() throws -> [SnapshotInfo]

  /// Everything `raon snapshots show` prints about one snapshot.
  func details(snapshot id: Int64) throws -> SnapshotDetails

  /// Deletes one snapshot and whatever only it referenced (with `dryRun`, only says what).
  func deleteSnapshot(id: Int64, dryRun: Bool) throws -> SnapshotDeletion

  /// The snapshot before `id` when `id` holds exactly its content, else `nil`.
  func unchangedSince(snapshot id: Int64) throws -> Int64?

  /// The programs of a snapshot, exactly as recorded, sorted by id (a program's versions
  /// in the order they were first stored).
  func programs(inSnapshot id: Int64) throws -> [Program]

  /// The raw records of a snapshot, in the same order as ``programs(inSnapshot:)``.
  func rawRecords(inSnapshot id: Int64) throws -> [StoredRawRecord]

  /// Both at once, each stored row read once (a reading that relines a snapshot gives its own).
  func programsAndRawRecords(inSnapshot id: Int64) throws -> (programs: [Program], records: [StoredRawRecord])

  /// The programs of a snapshot, read from the store chunk by chunk on every pass.
  func programChunks(inSnapshot id: Int64, chunkSize: Int) throws -> ProgramChunks

  /// A snapshot's programs with only the fields statistics read, chunk by chunk.
  func programColumnChunks(inSnapshot id: Int64, chunkSize: Int) throws -> ProgramChunks

  /// The programs whose versions differ between two snapshots, each side sorted by id.
  func programsThatDiffer(old: Int64, new: Int64) throws -> (old: [Program], new: [Program])

  /// A series of snapshots as the versions entering and leaving at each step.
  func trendSteps(_ snapshots: [SnapshotInfo]) throws -> [TrendStep]

  /// Records any number of snapshots in one transaction: all of them or none. While
  /// `body` runs no other writer can record (see each store's comment for how).
  func recordingTogether<T>(_ body: (_ recorder: any SnapshotRecording) throws -> T) throws -> T

  /// After a recording: `nil` when everything committed is where a copy of the store
  /// would find it, else why not (SQLite: a write-ahead log that could not be folded).
  func foldLog() -> String?
}

/// Records snapshots inside one transaction of ``SnapshotStoring/recordingTogether(_:)``.
public protocol SnapshotRecording {
  /// Records one snapshot of `catalog`; `produce` hands its entries to the sink, in source
  /// order, and returns the source's own count. It commits with the others of the
  /// transaction. A store holds one catalog: the first recording sets it, another
  /// catalog's is refused (``StoreError/otherCatalog(path:stored:asked:)``) before
  /// `produce` runs.
  @discardableResult
  func record(
    takenAt date: Date, source: String, catalog: CatalogProfile.Name,
    _ produce: (_ sink: any SnapshotReceiving) throws -> Int?
  ) throws -> SnapshotInfo
}

extension SnapshotRecording {
  /// Records one snapshot of Seoul's catalog (see ``record(takenAt:source:catalog:_:)``).
  @discardableResult
  public func record(
    takenAt date: Date, source: String, _ produce: (_ sink: any SnapshotReceiving) throws -> Int?
  ) throws -> SnapshotInfo {
    try record(takenAt: date, source: source, catalog: .seoul, produce)
  }
}

/// Receives the entries of a snapshot being recorded, chunk by chunk. Valid only inside
/// ``SnapshotRecording/record(takenAt:source:_:)``.
public protocol SnapshotReceiving: AnyObject {
  /// SHA-256 (lower-case hex) of the input file, stored with the snapshot.
  var inputSHA256: String? { get set }
  /// How many entries have been appended.
  var entryCount: Int { get }
  /// Stores the next entries of the snapshot, in source order.
  func append(_ entries: [NewSnapshot.Entry]) throws
}

/// A recorder that can leave snapshot ids unused, so that `raon store copy` keeps the ids
/// of a history with gaps (snapshots deleted). Package-only: not part of the store's API.
package protocol SnapshotIDReserving {
  /// Makes the next snapshot id at least `id`: the ids below it are never given.
  func reserveIDs(below id: Int64) throws
}

extension SnapshotStoring {
  /// Records a catalog as a new snapshot, in one transaction: all of it or nothing.
  ///
  /// Versions already stored (same raw record, same program) are reused; intervals that
  /// reach the previous snapshot are extended, others opened. Duplicate records — one
  /// program id twice, even the very same record twice — are all kept: every distinct
  /// version is present, and an identical record repeated `n` times is present with
  /// `copies = n`, so ``programs(inSnapshot:)`` returns as many programs as there were
  /// entries.
  ///
  /// - Returns: The new snapshot, its time rounded to the millisecond as stored.
  @discardableResult
  public func record(_ snapshot: NewSnapshot) throws -> SnapshotInfo {
    try record(takenAt: snapshot.takenAt, source: snapshot.source, catalog: snapshot.catalog) { sink in
      sink.inputSHA256 = snapshot.inputSHA256
      try sink.append(snapshot.entries)
      return snapshot.sourceTotal
    }
  }

  /// Records a catalog delivered in chunks as one new snapshot, in one transaction: all of
  /// it or nothing.
  ///
  /// `produce` hands the entries to the sink in source order, chunk by chunk, and returns
  /// the source's own count (`sourceTotal`). Each chunk is encoded, hashed and inserted
  /// when it arrives, so a large catalog is never held whole. The result is the same as
  /// ``record(_:)`` with all the entries at once. An error thrown by `produce` (e.g. a
  /// malformed file) rolls everything back and is rethrown unchanged. The writers' lock is
  /// held while `produce` runs, so other writers wait for the whole ingestion.
  ///
  /// - Throws: What `produce` throws, ``ShrinkRefused`` (with ``shrinkGuard`` set), or
  ///   ``StoreError``.
  @discardableResult
  public func record(
    takenAt date: Date, source: String, catalog: CatalogProfile.Name = .seoul,
    _ produce: (_ sink: any SnapshotReceiving) throws -> Int?
  ) throws -> SnapshotInfo {
    try recordingTogether { recorder in
      try recorder.record(takenAt: date, source: source, catalog: catalog, produce)
    }
  }

  /// ``programChunks(inSnapshot:chunkSize:)`` in chunks of 20,000.
  public func programChunks(inSnapshot id: Int64) throws -> ProgramChunks {
    try programChunks(inSnapshot: id, chunkSize: 20_000)
  }

  /// ``programColumnChunks(inSnapshot:chunkSize:)`` in chunks of 50,000.
  public func programColumnChunks(inSnapshot id: Int64) throws -> ProgramChunks {
    try programColumnChunks(inSnapshot: id, chunkSize: 50_000)
  }
}
