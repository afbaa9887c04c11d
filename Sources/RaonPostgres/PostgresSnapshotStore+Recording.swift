import Foundation
import RaonCore
import RaonStoreCore

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
  ///   ``StoreError`` (`recordFailed`, `busy` after the busy timeout).
  public func recordingTogether<T>(_ body: (_ recorder: any SnapshotRecording) throws -> T) throws -> T {
    let address = self.address
    let shrinkGuard = self.shrinkGuard
    var passThrough: Swift.Error?
    do {
      return try withConnection(StoreError.recordFailed) { connection in
        try connection.transaction {
          try PostgresSchema.lockWriters(connection, address)
          let store = PostgresStoreConnection(connection)
          let recorder = StoreRecorder(location: address.redacted, shrinkGuard: shrinkGuard) {
            try PostgresVersions(store)
          }
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
