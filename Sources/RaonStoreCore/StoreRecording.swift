import Foundation
import RaonConcurrency
import RaonCore

/// What each database does its own way when recording: finding the versions already
/// stored and inserting the new ones (SQLite one at a time through the `program_id` index,
/// PostgreSQL a chunk per statement). Everything else of a recording is ``StoreRecorder``'s.
package protocol VersionStoring: AnyObject {
  associatedtype Connection: StoreConnection
  var connection: Connection { get }
  /// Whether encoding should hash every version up front rather than only the new ones.
  var hashesEveryVersion: Bool { get }
  /// The id of each version of `chunk` (`fieldSetIDs[i]` is the id of its field names):
  /// a stored version with exactly its content, else a new one inserted.
  func store(_ chunk: EncodedChunk, fieldSetIDs: [Int64]) throws -> [Int64]
}

/// Entries encoded as versions, ready to store.
package struct EncodedChunk: Sendable {
  package let entryCount: Int
  package let versions: [ProgramVersion]
  package let copies: [Int]
  /// Every version's content hash, when hashed up front.
  package let hashes: [Data]?

  /// Encodes entries (pure, over the cores); with `hashingAll`, also their content hashes.
  /// The hash is a pure function of the raw record, so this changes when it is computed,
  /// not what is stored.
  package init(_ entries: [NewSnapshot.Entry], hashingAll: Bool) {
    let (versions, copies) = VersionCoding.distinctVersions(of: entries)
    entryCount = entries.count
    self.versions = versions
    self.copies = copies
    hashes = hashingAll ? ParallelWork.map(versions.count) { RawContent.hash(of: versions[$0].rawRecord) } : nil
  }

  /// Version `i`'s content hash.
  package func hash(_ i: Int) -> Data {
    hashes?[i] ?? RawContent.hash(of: versions[i].rawRecord)
  }
}

/// Records snapshots inside one writing transaction of a store (its
/// `recordingTogether(_:)`), on either database. Valid only inside that call.
package final class StoreRecorder<Versions: VersionStoring>: SnapshotRecording, SnapshotIDReserving {
  private let location: String
  private let shrinkGuard: ShrinkGuard?
  private let makeVersions: () throws -> Versions
  /// Whether the store has `store_catalog` (a store opened at an older schema version, as
  /// the migrations' tests make, has not: it records as it did then).
  private let recordsCatalog: Bool
  /// Whether a failure came from the database (it is then translated into the store's
  /// error) rather than from a producer or a refusal.
  package private(set) var storeFailed = false

  /// - Parameter versions: Makes the version store of one snapshot (called at its start).
  package init(
    location: String, shrinkGuard: ShrinkGuard?, recordsCatalog: Bool = true,
    versions: @escaping () throws -> Versions
  ) {
    self.location = location
    self.shrinkGuard = shrinkGuard
    self.recordsCatalog = recordsCatalog
    makeVersions = versions
  }

  /// Runs store work, marking a failure as the store's.
  private func storing<T>(_ work: () throws -> T) throws -> T {
    do {
      return try work()
    } catch {
      storeFailed = true
      throw error
    }
  }

  /// Records one snapshot; it commits with the others of the transaction.
  ///
  /// - Throws: What `produce` throws, ``ShrinkRefused``, or the store's errors.
  @discardableResult
  package func record(
    takenAt date: Date, source: String, catalog: CatalogProfile.Name,
    _ produce: (_ sink: any SnapshotReceiving) throws -> Int?
  ) throws -> SnapshotInfo {
    guard let takenAt = ISOTimestamp.format(date) else {
      throw StoreError.recordFailed(
        path: location,
        reason: "the snapshot time \(date.timeIntervalSince1970) s since 1970 is outside the years 1-9999; give a real --taken-at")
    }
    let sink = try storing { try StoreSink(try makeVersions()) }
    do {
      if recordsCatalog { try StoreCatalog.claim(catalog, sink.versions.connection, location: location) }
    } catch StoreCatalog.Failure.database(let error) {
      storeFailed = true
      throw error
    }
    let sourceTotal: Int?
    do {
      sourceTotal = try produce(sink)
    } catch {
      if sink.failed { storeFailed = true }
      throw error
    }
    let info = try storing { try sink.finish(takenAt: takenAt, source: source, sourceTotal: sourceTotal) }
    if let shrinkGuard, let previous = sink.previousID {
      let monday = Self.monday(of: date)
      let connection = sink.versions.connection
      let counts = try storing {
        (
          try StoreQueries.currentCount(previous, monday: monday, connection),
          try StoreQueries.currentCount(info.id, monday: monday, connection)
        )
      }
      try shrinkGuard.check(
        source: source, previousID: previous, previousCurrent: counts.0, newCurrent: counts.1,
        monday: monday)
    }
    return info
  }

  /// The Monday of the ISO week (Korea time) of `date`.
  package static func monday(of date: Date) -> CalendarDay {
    ISOWeek(containing: CalendarDay(koreaDateOf: date)).start
  }

  /// Makes the next snapshot id at least `id` (see ``SnapshotIDReserving``).
  package func reserveIDs(below id: Int64) throws {
    try storing {
      let connection = try makeVersions().connection
      for sql in connection.dialect.reserveSnapshotIDs {
        try connection.execute(sql, [.integer(id - 1)])
      }
    }
  }
}

/// Receives the entries of a snapshot being recorded, chunk by chunk, and stores them.
///
/// Encoding is pure and the connection belongs to the recording's thread: each chunk is
/// encoded on a thread of its own while the chunk before it is stored here, so a file
/// recorded chunk by chunk overlaps the two (the last chunk is stored by ``finish``).
final class StoreSink<Versions: VersionStoring>: SnapshotReceiving {
  let versions: Versions
  /// The latest snapshot before this one, if any.
  let previousID: Int64?
  /// The id the snapshot gets: nobody else can add one meanwhile, since the recording
  /// holds the store's writer lock. Given as SQLite's AUTOINCREMENT gives it (the largest
  /// id ever given + 1), so one history recorded into either store has the same ids.
  let snapshotID: Int64
  var inputSHA256: String?
  private(set) var entryCount = 0
  private var fieldSets = FieldSetIDs()
  /// Field-name lists already checked against ``StoreLimits``.
  private var checkedNames: Set<ObjectIdentifier> = []
  // Version ids of this snapshot, with their copies (summed: two entries that differ only
  // in where they were read from are one version, and a duplicate in a later chunk finds
  // the version an earlier chunk inserted).
  private var copiesByVersionID: [Int64: Int] = [:]
  private var orderedVersionIDs: [Int64] = []
  /// The chunk being encoded, stored by the next ``append(_:)`` or by ``finish``.
  private var encoding: PendingResult<EncodedChunk>?
  /// Whether storing a chunk failed (the error is then the store's, not the producer's).
  private(set) var failed = false

  init(_ versions: Versions) throws {
    self.versions = versions
    let c = versions.connection
    previousID = try c.value("SELECT max(id) FROM snapshot")
    let sequence: Int64 = try c.value(c.dialect.lastSnapshotID) ?? 0
    snapshotID = max(sequence, previousID ?? 0) + 1
  }

  func append(_ entries: [NewSnapshot.Entry]) throws {
    guard !entries.isEmpty else { return }
    // Before anything of the chunk is written, and the same for both databases.
    try StoreLimits.check(entries, snapshot: snapshotID, checked: &checkedNames)
    entryCount += entries.count
    let hashAll = versions.hashesEveryVersion
    let next = PendingResult.start { EncodedChunk(entries, hashingAll: hashAll) }
    try storeEncoded()
    encoding = next
  }

  /// Waits for the chunk being encoded, if any, and stores it.
  private func storeEncoded() throws {
    guard let pending = encoding else { return }
    encoding = nil
    let chunk = try pending.wait().get()
    do {
      let fieldSetIDs = try chunk.versions.map { try fieldSets.id(for: $0.fieldNames, versions.connection) }
      let ids = try versions.store(chunk, fieldSetIDs: fieldSetIDs)
      for (id, count) in zip(ids, chunk.copies) {
        if let existing = copiesByVersionID[id] {
          copiesByVersionID[id] = existing + count
        } else {
          copiesByVersionID[id] = count
          orderedVersionIDs.append(id)
        }
      }
    } catch {
      failed = true
      throw error
    }
  }

  /// Stores the last chunk, then the snapshot row and its presence intervals.
  func finish(takenAt: String, source: String, sourceTotal: Int?) throws -> SnapshotInfo {
    try storeEncoded()
    let record = SnapshotRecord(
      id: snapshotID, takenAt: takenAt, source: source, sourceTotal: sourceTotal,
      programCount: entryCount, inputSHA256: inputSHA256)
    let c = versions.connection
    try StoreQueries.finishSnapshot(
      record, previousID: previousID, versionIDs: orderedVersionIDs, copies: copiesByVersionID, c)
    if let given = c.dialect.snapshotIDGiven {
      try c.execute(given, [.integer(snapshotID)])
    }
    return try record.info()
  }
}

/// Field-set ids by field names, looked up once per distinct list in a recording. A new
/// list gets the largest id + 1, as SQLite gives it.
private struct FieldSetIDs {
  private var byIdentity: [ObjectIdentifier: Int64] = [:]
  private var byNames: [FieldNames: Int64] = [:]

  mutating func id(for names: FieldNames, _ c: some StoreConnection) throws -> Int64 {
    // All records of one source share one FieldNames object: the identity lookup spares
    // hashing 20-odd names per record.
    if let id = byIdentity[ObjectIdentifier(names)] { return id }
    let id: Int64
    if let known = byNames[names] {
      id = known
    } else {
      let text = StoreValue.text(CompactJSON.array(names.names))
      if let stored: Int64 = try c.value("SELECT id FROM field_set WHERE names = ?1", [text]) {
        id = stored
      } else {
        try c.execute(
          "INSERT INTO field_set (id, names) VALUES ((SELECT coalesce(max(id), 0) + 1 FROM field_set), ?1)",
          [text])
        guard let added: Int64 = try c.value("SELECT id FROM field_set WHERE names = ?1", [text]) else {
          throw DecodingFailure("a new field set got no id")
        }
        id = added
      }
      byNames[names] = id
    }
    byIdentity[ObjectIdentifier(names)] = id
    return id
  }
}
