import Foundation
import GRDB
import RaonCore

// MARK: - Repairing the history

/// What deleting a snapshot removes (or would remove).
public struct SnapshotDeletion: Sendable, Equatable {
  public var snapshot: SnapshotInfo
  /// Program versions held by no other snapshot, removed with it.
  public var versionsRemoved: Int
  /// Presence intervals that held only this snapshot, removed.
  public var intervalsRemoved: Int
  /// Presence intervals that began or ended at this snapshot, shortened.
  public var intervalsShortened: Int
  /// Intervals joined across the gap (a version present just before and just after).
  public var intervalsJoined: Int
  /// Field-name lists used by no remaining version, removed.
  public var fieldSetsRemoved: Int

  package init(
    snapshot: SnapshotInfo, versionsRemoved: Int, intervalsRemoved: Int, intervalsShortened: Int,
    intervalsJoined: Int, fieldSetsRemoved: Int
  ) {
    self.snapshot = snapshot
    self.versionsRemoved = versionsRemoved
    self.intervalsRemoved = intervalsRemoved
    self.intervalsShortened = intervalsShortened
    self.intervalsJoined = intervalsJoined
    self.fieldSetsRemoved = fieldSetsRemoved
  }
}

/// What the store knows about one snapshot, for `raon snapshots show`.
public struct SnapshotDetails: Sendable, Equatable {
  public var snapshot: SnapshotInfo
  /// SHA-256 (lower-case hex) of the input file, when recorded (schema v3 on, files only).
  public var inputSHA256: String?
  /// Distinct program ids.
  public var distinctPrograms: Int
  /// Distinct versions (contents) held.
  public var versionCount: Int
  /// Versions first seen in this snapshot (new or changed since the one before).
  public var versionsFirstSeen: Int
  /// The snapshot before it (by id), when its content is exactly the same.
  public var unchangedSince: Int64?
  /// The raw records' field-name lists, each with how many programs carry it, most first.
  public var fieldSets: [(names: [String], programs: Int)]

  package init(
    snapshot: SnapshotInfo, inputSHA256: String?, distinctPrograms: Int, versionCount: Int,
    versionsFirstSeen: Int, unchangedSince: Int64?, fieldSets: [(names: [String], programs: Int)]
  ) {
    self.snapshot = snapshot
    self.inputSHA256 = inputSHA256
    self.distinctPrograms = distinctPrograms
    self.versionCount = versionCount
    self.versionsFirstSeen = versionsFirstSeen
    self.unchangedSince = unchangedSince
    self.fieldSets = fieldSets
  }

  public static func == (a: SnapshotDetails, b: SnapshotDetails) -> Bool {
    a.snapshot == b.snapshot && a.inputSHA256 == b.inputSHA256
      && a.distinctPrograms == b.distinctPrograms && a.versionCount == b.versionCount
      && a.versionsFirstSeen == b.versionsFirstSeen && a.unchangedSince == b.unchangedSince
      && a.fieldSets.map(\.names) == b.fieldSets.map(\.names)
      && a.fieldSets.map(\.programs) == b.fieldSets.map(\.programs)
  }
}

extension SnapshotStore {
  /// Deletes snapshot `id` and whatever only it referenced, in one transaction: its row,
  /// the presence intervals that held only it (others are shortened, or joined across the
  /// gap), the versions no other snapshot holds, and field sets no version uses any more.
  /// Later reports compare across the gap. Ids are never reused.
  ///
  /// - Parameters:
  ///   - id: The snapshot.
  ///   - dryRun: Count what would be removed and change nothing (the same work, rolled
  ///     back, so the counts are exactly those of a real deletion).
  /// - Throws: ``Error/noSuchSnapshot(id:path:)``, or ``Error/recordFailed(path:reason:)``.
  @discardableResult
  public func deleteSnapshot(id: Int64, dryRun: Bool = false) throws -> SnapshotDeletion {
    var outcome: SnapshotDeletion?
    try translatingErrors(Error.recordFailed) {
      let target = dryRun && writer.configuration.readonly ? try scratchCopy() : writer
      try target.writeWithoutTransaction { db in
        try db.inTransaction(.immediate) {
          outcome = try Self.delete(id, db, path: path)
          return dryRun ? .rollback : .commit
        }
      }
    }
    guard let outcome else { throw Error.noSuchSnapshot(id: id, path: path) }
    return outcome
  }

  /// A copy of the store in memory: a read-only connection refuses even changes that are
  /// rolled back, so a dry run on a read-only store counts in the copy.
  private func scratchCopy() throws -> any DatabaseWriter {
    var configuration = Configuration()
    configuration.foreignKeysEnabled = true
    let copy = try DatabaseQueue(configuration: configuration)
    // SQLite copies into memory only between equal page sizes.
    let pageSize = try writer.read { try Int.fetchOne($0, sql: "PRAGMA page_size") } ?? 4096
    try copy.writeWithoutTransaction { try $0.execute(sql: "PRAGMA page_size = \(pageSize)") }
    try writer.backup(to: copy)
    return copy
  }

  private static func delete(_ id: Int64, _ db: Database, path: String) throws -> SnapshotDeletion {
    guard let row = try SnapshotRow.fetchOne(db, key: id) else {
      throw Error.noSuchSnapshot(id: id, path: path)
    }
    let info = try row.info()
    let previous = try Int64.fetchOne(db, sql: "SELECT max(id) FROM snapshot WHERE id < ?", arguments: [id])
    let next = try Int64.fetchOne(db, sql: "SELECT min(id) FROM snapshot WHERE id > ?", arguments: [id])

    // Versions whose every interval is this snapshot alone go with it.
    let onlyHere = try Int64.fetchAll(
      db,
      sql: """
        SELECT version_id FROM presence WHERE first_snapshot_id = ?1 AND last_snapshot_id = ?1
        EXCEPT SELECT version_id FROM presence WHERE NOT (first_snapshot_id = ?1 AND last_snapshot_id = ?1)
        """, arguments: [id])
    try db.execute(
      sql: "DELETE FROM presence WHERE first_snapshot_id = ?1 AND last_snapshot_id = ?1",
      arguments: [id])
    let intervalsRemoved = db.changesCount
    var shortened = 0
    if let next {
      try db.execute(
        sql: "UPDATE presence SET first_snapshot_id = ? WHERE first_snapshot_id = ?",
        arguments: [next, id])
      shortened += db.changesCount
    }
    if let previous {
      try db.execute(
        sql: "UPDATE presence SET last_snapshot_id = ? WHERE last_snapshot_id = ?",
        arguments: [previous, id])
      shortened += db.changesCount
    }
    // Intervals first = last = id are gone, and with no later (earlier) snapshot none can
    // begin (end) at id without ending (beginning) there too.
    var joined = 0
    if let previous, let next {
      // A version present just before and just after the gap, as often, is one interval
      // again — as if the deleted snapshot had never been recorded.
      let pairs = try Row.fetchAll(
        db,
        sql: """
          SELECT a.version_id, a.first_snapshot_id, b.last_snapshot_id
          FROM presence a JOIN presence b
            ON b.version_id = a.version_id AND b.first_snapshot_id = ?2 AND b.copies = a.copies
          WHERE a.last_snapshot_id = ?1
          """, arguments: [previous, next])
      for pair in pairs {
        let version: Int64 = pair[0]
        let first: Int64 = pair[1]
        let last: Int64 = pair[2]
        try db.execute(
          sql: "DELETE FROM presence WHERE version_id = ? AND first_snapshot_id = ?",
          arguments: [version, next])
        try db.execute(
          sql: "UPDATE presence SET last_snapshot_id = ? WHERE version_id = ? AND first_snapshot_id = ?",
          arguments: [last, version, first])
      }
      joined = pairs.count
    }
    try db.execute(sql: "DELETE FROM snapshot WHERE id = ?", arguments: [id])
    let ids = "[" + onlyHere.map(String.init).joined(separator: ",") + "]"
    try db.execute(
      sql: "DELETE FROM program_version WHERE id IN (SELECT value FROM json_each(?))", arguments: [ids])
    let versionsRemoved = db.changesCount
    try db.execute(
      sql: "DELETE FROM field_set WHERE id NOT IN (SELECT DISTINCT field_set_id FROM program_version)")
    let fieldSetsRemoved = db.changesCount
    let stray = try Int.fetchOne(
      db, sql: "SELECT count(*) FROM presence WHERE first_snapshot_id = ?1 OR last_snapshot_id = ?1",
      arguments: [id]) ?? 0
    guard stray == 0 else {
      throw DecodingFailure("\(stray) presence intervals still refer to snapshot \(id)")
    }
    return SnapshotDeletion(
      snapshot: info, versionsRemoved: versionsRemoved, intervalsRemoved: intervalsRemoved,
      intervalsShortened: shortened, intervalsJoined: joined,
      fieldSetsRemoved: fieldSetsRemoved)
  }

  /// The snapshot before `id` when `id` holds exactly its content (the same versions, as
  /// often), else `nil`.
  public func unchangedSince(snapshot id: Int64) throws -> Int64? {
    try translatingErrors(Error.readFailed) {
      try writer.read { db in try Self.unchangedSince(id, db) }
    }
  }

  private static func unchangedSince(_ id: Int64, _ db: Database) throws -> Int64? {
    guard
      let previous = try Int64.fetchOne(
        db, sql: "SELECT max(id) FROM snapshot WHERE id < ?", arguments: [id])
    else { return nil }
    // Every interval reaching the previous snapshot goes on into this one, and none begins
    // here: the same versions, the same number of times.
    let differs = try Bool.fetchOne(
      db,
      sql: """
        SELECT EXISTS (SELECT 1 FROM presence WHERE first_snapshot_id = ?1)
          OR EXISTS (SELECT 1 FROM presence WHERE last_snapshot_id = ?2)
        """, arguments: [id, previous]) ?? true
    return differs ? nil : previous
  }

  /// Everything `raon snapshots show` prints about snapshot `id`.
  ///
  /// - Throws: ``Error/noSuchSnapshot(id:path:)`` or ``Error/readFailed(path:reason:)``.
  public func details(snapshot id: Int64) throws -> SnapshotDetails {
    let found: SnapshotDetails? = try translatingErrors(Error.readFailed) {
      try writer.read { db in
        guard let row = try SnapshotRow.fetchOne(db, key: id) else { return nil }
        let inSnapshot = "p.first_snapshot_id <= ?1 AND p.last_snapshot_id >= ?1"
        let distinct = try Int.fetchOne(
          db,
          sql: """
            SELECT count(DISTINCT v.program_id) FROM presence p
            JOIN program_version v ON v.id = p.version_id WHERE \(inSnapshot)
            """, arguments: [id]) ?? 0
        let versions = try Int.fetchOne(
          db, sql: "SELECT count(*) FROM presence p WHERE \(inSnapshot)", arguments: [id]) ?? 0
        let firstSeen = try Int.fetchOne(
          db,
          sql: """
            SELECT count(*) FROM presence p WHERE p.first_snapshot_id = ?1
              AND NOT EXISTS (SELECT 1 FROM presence q
                WHERE q.version_id = p.version_id AND q.first_snapshot_id < ?1)
            """, arguments: [id]) ?? 0
        let sets = try Row.fetchAll(
          db,
          sql: """
            SELECT f.names, sum(p.copies) FROM presence p
            JOIN program_version v ON v.id = p.version_id
            JOIN field_set f ON f.id = v.field_set_id
            WHERE \(inSnapshot) GROUP BY f.id ORDER BY 2 DESC, f.id
            """, arguments: [id])
        let fieldSets: [(names: [String], programs: Int)] = try sets.map { set in
          let text: String = set[0]
          guard let names = try? JSONDecoder().decode([String].self, from: Data(text.utf8)) else {
            throw DecodingFailure("a field set is not a JSON list of names")
          }
          return (names, set[1])
        }
        return SnapshotDetails(
          snapshot: try row.info(), inputSHA256: row.inputSHA256, distinctPrograms: distinct,
          versionCount: versions, versionsFirstSeen: firstSeen,
          unchangedSince: try Self.unchangedSince(id, db), fieldSets: fieldSets)
      }
    }
    guard let found else { throw Error.noSuchSnapshot(id: id, path: path) }
    return found
  }
}
