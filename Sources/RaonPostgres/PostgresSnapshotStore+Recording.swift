import Foundation
import PostgresNIO
import RaonCore
import RaonStore

// MARK: - Recording

extension PostgresSnapshotStore {
  /// Records several snapshots in one transaction: all of them or none.
  ///
  /// Writers serialise on a transaction-scoped advisory lock
  /// (`pg_advisory_xact_lock`, one fixed key per store schema), taken before anything is
  /// read. Why a lock rather than `SERIALIZABLE`: a recording reads the latest snapshot,
  /// the highest ids and the open intervals, then writes rows that depend on all of them;
  /// under `SERIALIZABLE` two recordings at once would both run to the end and one would
  /// then fail and have to be redone whole (a large file read again), while with the lock
  /// the second simply waits, exactly as with SQLite's `BEGIN IMMEDIATE`. The lock ends
  /// with the transaction, so a killed writer never leaves it held. Readers take no lock:
  /// their own transaction shows them only committed snapshots.
  ///
  /// - Throws: What `body` throws (unchanged), ``ShrinkRefused``, or
  ///   ``SnapshotStore/Error`` (`recordFailed`, `busy` after the busy timeout).
  public func recordingTogether<T>(_ body: (_ recorder: any SnapshotRecording) throws -> T) throws -> T {
    let address = self.address
    let shrinkGuard = self.shrinkGuard
    var passThrough: Swift.Error?
    do {
      return try withConnection(SnapshotStore.Error.recordFailed) { connection in
        try connection.transaction {
          try PostgresSchema.lockWriters(connection, address)
          let recorder = PostgresRecorder(connection, address: address, shrinkGuard: shrinkGuard)
          do {
            return try body(recorder)
          } catch {
            // The store's own failures are worded by `withConnection`; anything else (a
            // producer's, a refusal) goes out unchanged.
            if !recorder.storeFailed { passThrough = error }
            throw error
          }
        }
      }
    } catch {
      if let passThrough { throw passThrough }
      throw error
    }
  }
}

/// Records snapshots inside one transaction of ``PostgresSnapshotStore/recordingTogether(_:)``.
final class PostgresRecorder: SnapshotRecording, SnapshotIDReserving {
  private let connection: BlockingConnection
  private let address: PostgresAddress
  private let shrinkGuard: ShrinkGuard?
  private(set) var storeFailed = false

  init(_ connection: BlockingConnection, address: PostgresAddress, shrinkGuard: ShrinkGuard?) {
    self.connection = connection
    self.address = address
    self.shrinkGuard = shrinkGuard
  }

  @discardableResult
  func record(
    takenAt date: Date, source: String, _ produce: (_ sink: any SnapshotReceiving) throws -> Int?
  ) throws -> SnapshotInfo {
    guard let takenAt = ISOTimestamp.format(date) else {
      throw SnapshotStore.Error.recordFailed(
        path: address.redacted,
        reason: "the snapshot time \(date.timeIntervalSince1970) s since 1970 is outside the years 1-9999; give a real --taken-at")
    }
    let sink: PostgresSink
    do {
      sink = try PostgresSink(connection)
    } catch {
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
    let info: SnapshotInfo
    do {
      info = try sink.finish(takenAt: takenAt, source: source, sourceTotal: sourceTotal)
    } catch {
      storeFailed = true
      throw error
    }
    if let shrinkGuard, let previous = sink.previousID {
      let counts: (previous: Int, new: Int)
      do {
        let monday = SnapshotRecorder.monday(of: date)
        counts = (
          try currentCount(previous, monday: monday.description),
          try currentCount(info.id, monday: monday.description)
        )
      } catch {
        storeFailed = true
        throw error
      }
      try shrinkGuard.check(
        source: source, previousID: previous, previousCurrent: counts.previous,
        newCurrent: counts.new, monday: SnapshotRecorder.monday(of: date))
    }
    return info
  }

  /// Makes the next snapshot id at least `id` (see ``SnapshotIDReserving``).
  func reserveIDs(below id: Int64) throws {
    do {
      try connection.query("UPDATE snapshot_sequence SET last_id = greatest(last_id, \(id - 1))")
    } catch {
      storeFailed = true
      throw error
    }
  }

  /// The current programs (end day missing, or on or after `monday`) of a snapshot.
  private func currentCount(_ id: Int64, monday: String) throws -> Int {
    let count = try connection.query(
      """
      SELECT coalesce(sum(p.copies), 0)::bigint FROM presence p
      JOIN program_version v ON v.id = p.version_id
      WHERE p.first_snapshot_id <= \(id) AND p.last_snapshot_id >= \(id)
        AND (v.end_date IS NULL OR v.end_date COLLATE "C" >= \(monday))
      """
    ).first?.decode(Int64.self)
    return Int(count ?? 0)
  }
}
