import Foundation
import RaonConcurrency
import GRDB
import RaonCore

// MARK: - Recording

extension SnapshotStore {
  /// Records a catalog as a new snapshot, in one transaction: all of it or nothing.
  ///
  /// Versions already stored (same raw record, same program) are reused; intervals that
  /// reach the previous snapshot are extended, others opened. Duplicate records — one
  /// program id twice, even the very same record twice — are all kept: every distinct
  /// version is present, and an identical record repeated `n` times is present with
  /// `copies = n`, so ``programs(inSnapshot:)`` returns as many programs as there were
  /// entries.
  ///
  /// - Parameter snapshot: The catalog and where it came from.
  /// - Returns: The new snapshot, its time rounded to the millisecond as stored.
  /// - Throws: ``Error/recordFailed(path:reason:)`` or ``Error/busy(path:seconds:)``;
  ///   the store is then as it was before.
  @discardableResult
  public func record(_ snapshot: NewSnapshot) throws -> SnapshotInfo {
    try record(takenAt: snapshot.takenAt, source: snapshot.source) { sink in
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
  /// malformed file) rolls everything back and is rethrown unchanged. The producer may set
  /// ``SnapshotSink/inputSHA256``.
  ///
  /// The write lock is held while `produce` runs, so other raon processes wait for the
  /// whole ingestion.
  ///
  /// - Throws: What `produce` throws, ``ShrinkRefused`` (with ``shrinkGuard`` set), or
  ///   ``Error``.
  @discardableResult
  public func record(
    takenAt date: Date, source: String,
    _ produce: (_ sink: any SnapshotReceiving) throws -> Int?
  ) throws -> SnapshotInfo {
    try recordingTogether { recorder in
      try recorder.record(takenAt: date, source: source, produce)
    }
  }

  /// Records several snapshots in one transaction: all of them or none.
  ///
  /// ```swift
  /// let infos = try store.recordingTogether { recorder in
  ///   try files.map { file in try recorder.record(takenAt: file.time, source: file.name) { … } }
  /// }
  /// ```
  ///
  /// Each ``SnapshotRecorder/record(takenAt:source:_:)`` sees the ones recorded before it in
  /// the same call as the latest snapshots. Anything thrown — by a producer, by `body`, by
  /// the store, or ``ShrinkRefused`` — rolls every one of them back and is rethrown (store
  /// failures as ``Error``). A process killed meanwhile leaves the store as it was.
  public func recordingTogether<T>(_ body: (_ recorder: any SnapshotRecording) throws -> T) throws -> T {
    var passThrough: Swift.Error?
    do {
      return try translatingErrors(Error.recordFailed) {
        try writer.writeWithoutTransaction { db in
          var result: T?
          try db.inTransaction(.immediate) {
            let recorder = SnapshotRecorder(db: db, path: path, shrinkGuard: shrinkGuard)
            do {
              result = try body(recorder)
            } catch {
              // The store's own (database) failures are translated below; anything else
              // (a producer's, a refusal) goes out unchanged.
              if !recorder.storeFailed { passThrough = error }
              throw error
            }
            return .commit
          }
          guard let result else { throw DecodingFailure("the recording returned nothing") }
          return result
        }
      }
    } catch {
      if let passThrough { throw passThrough }
      throw error
    }
  }

  /// `date` as a snapshot stores it (to the millisecond): the `takenAt` that ``record(_:)``
  /// returns for it; `nil` outside the years 1-9999.
  public static func storedTime(_ date: Date) -> Date? {
    ISOTimestamp.format(date).flatMap(ISOTimestamp.parse)
  }

  /// The distinct versions of the entries, in order of first appearance, with how many
  /// entries each one stands for.
  package static func distinctVersions(of entries: [NewSnapshot.Entry]) -> ([ProgramVersion], [Int]) {
    // Encoding is pure: done over the cores, then grouped in entry order.
    let encoded = ParallelWork.map(entries.count) {
      ProgramVersion(program: entries[$0].program, raw: entries[$0].raw)
    }
    // Grouping by `==` through hash chains (hash → first distinct version with it, each
    // linked to the next with the same hash) rather than a `[ProgramVersion: Int]`, whose
    // keys would be a second copy of every version; when all are distinct, as they nearly
    // always are, `encoded` itself is returned.
    var firstWithHash: [Int: Int] = [:]
    firstWithHash.reserveCapacity(encoded.count)
    var nextWithSameHash: [Int] = []
    var distinct: [Int] = []
    var copies: [Int] = []
    nextWithSameHash.reserveCapacity(encoded.count)
    distinct.reserveCapacity(encoded.count)
    copies.reserveCapacity(encoded.count)
    for (i, version) in encoded.enumerated() {
      let hash = version.hashValue
      let head = firstWithHash[hash] ?? -1
      var candidate = head
      while candidate >= 0, encoded[distinct[candidate]] != version {
        candidate = nextWithSameHash[candidate]
      }
      if candidate >= 0 {
        copies[candidate] += 1
      } else {
        firstWithHash[hash] = distinct.count
        nextWithSameHash.append(head)
        distinct.append(i)
        copies.append(1)
      }
    }
    let versions = distinct.count == encoded.count ? encoded : distinct.map { encoded[$0] }
    return (versions, copies)
  }

}

/// Receives the entries of a snapshot being recorded, chunk by chunk (see
/// ``SnapshotStore/record(takenAt:source:_:)``). Valid only inside that call.
public final class SnapshotSink: SnapshotReceiving {
  private let db: Database
  /// The latest snapshot before this one, if any.
  let previousID: Int64?
  /// SHA-256 (lower-case hex) of the input file, stored with the snapshot.
  public var inputSHA256: String?
  private let storeIsEmpty: Bool
  private let find: Statement
  private let add: Statement
  private var fieldSets = FieldSetCache()
  // Version ids of this snapshot, with their copies (summed: two entries that differ only
  // in where they were read from are one version, and a duplicate in a later chunk finds
  // the version an earlier chunk inserted).
  private var copiesByVersionID: [Int64: Int] = [:]
  private var orderedVersionIDs: [Int64] = []
  /// How many entries have been appended.
  public private(set) var entryCount = 0
  /// The id the snapshot being recorded will get when it commits: nobody else can add a
  /// snapshot meanwhile, since the recording holds the store's write lock. A report can
  /// start on it while the entries are still being stored.
  let snapshotID: Int64

  init(_ db: Database) throws {
    self.db = db
    previousID = try Int64.fetchOne(db, sql: "SELECT max(id) FROM snapshot")
    // AUTOINCREMENT gives max(sequence, largest id) + 1.
    let sequence = try Int64.fetchOne(
      db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'snapshot'") ?? 0
    snapshotID = max(sequence, previousID ?? 0) + 1
    // A version is found by its exact content through the program_id index, so the
    // SHA-256 content hash is computed only for versions not stored yet (the unchanged
    // 99% of a daily catalog costs no hashing). Comparing the program too means a record
    // normalised differently (a newer Raon) makes a new version, so every snapshot
    // returns exactly the programs recorded with it.
    find = try db.cachedStatement(
      sql: """
        SELECT id FROM program_version
        WHERE program_id = ? AND title = ? AND category = ? AND district = ? AND is_free IS ?
          AND fee_min_krw IS ? AND fee_max_krw IS ? AND start_date IS ? AND end_date IS ?
          AND latitude IS ? AND longitude IS ? AND quality_flags = ? AND program_text = ?
          AND field_set_id = ? AND raw_values = ? AND invalid_bytes_replaced = ?
        LIMIT 1
        """)
    add = try db.cachedStatement(
      sql: """
        INSERT INTO program_version (program_id, title, category, district, is_free,
          fee_min_krw, fee_max_krw, start_date, end_date, latitude, longitude, quality_flags,
          program_text, field_set_id, raw_values, invalid_bytes_replaced, raw_hash)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
    storeIsEmpty = try Int64.fetchOne(db, sql: "SELECT id FROM program_version LIMIT 1") == nil
  }

  /// Encodes, hashes and inserts the next entries of the snapshot, in source order.
  ///
  /// Encoding is pure and the database belongs to this thread: each chunk is encoded on a
  /// thread of its own while the chunk before it is inserted here, so a file recorded chunk
  /// by chunk overlaps the two (the last chunk is inserted by ``finish(_:)``).
  public func append(_ entries: [NewSnapshot.Entry]) throws {
    guard !entries.isEmpty else { return }
    entryCount += entries.count
    let hashAll = hashesUpFront
    let next = PendingResult.start { SnapshotSink.encode(entries, hashingAll: hashAll) }
    try insertEncoded()
    encoding = next
  }

  /// The chunk being encoded, inserted by the next ``append(_:)`` or by ``finish(_:)``.
  private var encoding: PendingResult<EncodedChunk>?

  /// Waits for the chunk being encoded, if any, and inserts it.
  private func insertEncoded() throws {
    guard let pending = encoding else { return }
    encoding = nil
    try append(pending.wait().get())
  }

  /// Entries encoded as versions, ready to insert.
  struct EncodedChunk: Sendable {
    let entryCount: Int
    let versions: [ProgramVersion]
    let copies: [Int]
    let hashes: [Data]?
  }

  /// Whether ``encode(_:hashingAll:)`` should hash every version up front: into an empty
  /// store (a first import) nearly every version is new.
  var hashesUpFront: Bool { storeIsEmpty }

  /// Encodes entries (pure, over the cores); with `hashingAll`, also their content hashes.
  /// The hash is a pure function of the raw record, so this changes when it is
  /// computed, not what is stored.
  static func encode(_ entries: [NewSnapshot.Entry], hashingAll: Bool) -> EncodedChunk {
    let (versions, copies) = SnapshotStore.distinctVersions(of: entries)
    let hashes: [Data]? =
      hashingAll ? ParallelWork.map(versions.count) { RawContent.hash(of: versions[$0].rawRecord) } : nil
    return EncodedChunk(entryCount: entries.count, versions: versions, copies: copies, hashes: hashes)
  }

  /// Inserts the next encoded entries of the snapshot, in source order.
  func append(_ chunk: EncodedChunk) throws {
    do {
      try insert(chunk)
    } catch {
      failed = true
      throw error
    }
  }

  /// Whether an ``append(_:)`` failed (the error is then the store's, not the producer's).
  private(set) var failed = false

  /// The sink's database, for the recorder's checks after ``finish(_:)``.
  var database: Database { db }

  private func insert(_ chunk: EncodedChunk) throws {
    guard chunk.entryCount > 0 else { return }
    let precomputedHashes = chunk.hashes
    for (index, (version, count)) in zip(chunk.versions, chunk.copies).enumerated() {
      let content: [(any DatabaseValueConvertible)?] = [
        version.programID, version.title, version.category, version.district, version.isFree,
        version.feeMinKRW, version.feeMaxKRW, version.startDate, version.endDate,
        version.latitude, version.longitude, version.qualityFlags, version.programText,
        try fieldSets.id(for: version.fieldNames, db), version.rawJSON,
        version.invalidBytesReplaced,
      ]
      let id: Int64
      if let found = try Int64.fetchOne(find, arguments: StatementArguments(content)) {
        id = found
      } else {
        let hash = precomputedHashes?[index] ?? RawContent.hash(of: version.rawRecord)
        try add.execute(arguments: StatementArguments(content + [hash]))
        id = db.lastInsertedRowID
      }
      if let existing = copiesByVersionID[id] {
        copiesByVersionID[id] = existing + count
      } else {
        copiesByVersionID[id] = count
        orderedVersionIDs.append(id)
      }
    }
  }

  /// Inserts the snapshot row and its presence intervals.
  func finish(_ snapshot: SnapshotRow) throws -> SnapshotInfo {
    try insertEncoded()
    var row = snapshot
    row.inputSHA256 = inputSHA256
    try row.insert(db)
    guard let snapshotID = row.id, snapshotID == self.snapshotID else {
      throw DecodingFailure("the new snapshot got id \(row.id ?? 0), not the \(self.snapshotID) announced")
    }

    // Intervals that reach the previous snapshot continue when the version is still here
    // the same number of times; anything else opens a new interval.
    var open: [Int64: (first: Int64, copies: Int)] = [:]
    if let previousID {
      let rows = try Row.fetchCursor(
        db,
        sql: """
          SELECT version_id, first_snapshot_id, copies FROM presence WHERE last_snapshot_id = ?
          """,
        arguments: [previousID])
      while let row = try rows.next() {
        open[row[0]] = (row[1], row[2])
      }
    }
    let start = try db.cachedStatement(
      sql: """
        INSERT INTO presence (version_id, first_snapshot_id, last_snapshot_id, copies)
        VALUES (?, ?, ?, ?)
        """)
    var extended: [Int64] = []
    extended.reserveCapacity(orderedVersionIDs.count)
    for id in orderedVersionIDs {
      let count = copiesByVersionID[id] ?? 1
      if let interval = open[id], interval.copies == count {
        extended.append(id)
      } else {
        try start.execute(arguments: [id, snapshotID, snapshotID, count])
      }
    }
    if let previousID, !extended.isEmpty {
      // One statement for the intervals that go on (nearly all of a daily catalog)
      // rather than an UPDATE each: SQLite walks the ids itself. A version has one
      // interval reaching the previous snapshot, so exactly these rows change.
      let ids = "[" + extended.map(String.init).joined(separator: ",") + "]"
      try db.execute(
        sql: """
          UPDATE presence SET last_snapshot_id = ?
          WHERE last_snapshot_id = ? AND version_id IN (SELECT value FROM json_each(?))
          """,
        arguments: [snapshotID, previousID, ids])
      guard db.changesCount == extended.count else {
        throw DecodingFailure(
          "\(db.changesCount) presence intervals reached snapshot \(previousID) for \(extended.count) versions")
      }
    }
    return try row.info()
  }
}

/// Field-set ids by field names, looked up once per distinct list in a recording.
private struct FieldSetCache {
  private var byIdentity: [ObjectIdentifier: Int64] = [:]
  private var byNames: [FieldNames: Int64] = [:]

  mutating func id(for names: FieldNames, _ db: Database) throws -> Int64 {
    // All records of one source share one FieldNames object: the identity lookup spares
    // hashing 20-odd names per record.
    if let id = byIdentity[ObjectIdentifier(names)] { return id }
    let id: Int64
    if let known = byNames[names] {
      id = known
    } else {
      let text = CompactJSON.array(names.names)
      if let stored = try Int64.fetchOne(
        db, sql: "SELECT id FROM field_set WHERE names = ?", arguments: [text])
      {
        id = stored
      } else {
        try db.execute(sql: "INSERT INTO field_set (names) VALUES (?)", arguments: [text])
        id = db.lastInsertedRowID
      }
      byNames[names] = id
    }
    byIdentity[ObjectIdentifier(names)] = id
    return id
  }
}
