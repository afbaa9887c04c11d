import Foundation
import GRDB
import RaonCore
import RaonStoreCore

// MARK: - Reading
//
// The reads themselves are ``SnapshotStoring``'s, written once for both stores (the shared
// statements of ``StoreQueries``); here is only how they reach the file: one read
// transaction each (WAL: it never waits for a writer and sees only committed snapshots).

extension SnapshotStore {
  /// Runs shared statements in one read transaction, with the store's errors.
  func reading<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
    try translatingErrors(Error.readFailed) {
      try writer.read { db in try body(SQLiteConnection(db: db)) }
    }
  }

  public var storeAccess: StoreAccess {
    let store = self
    return StoreAccess(
      location: path, transaction: { body in try store.reading { try body($0) } },
      writeTransaction: { body in try store.writingLedger { try body($0) } })
  }

  /// Runs shared statements in one writing transaction (`BEGIN IMMEDIATE`), with the store's
  /// errors: the ledger's writes (``RunLedger``).
  func writingLedger<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
    try translatingErrors(Error.recordFailed) {
      try writer.writeWithoutTransaction { db in
        var result: T?
        try db.inTransaction(.immediate) {
          result = try body(SQLiteConnection(db: db))
          return .commit
        }
        guard let result else { throw DecodingFailure("the write returned nothing") }
        return result
      }
    }
  }
}
