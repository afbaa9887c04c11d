import Foundation
import GRDB
import RaonConcurrency
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
      writeTransaction: { body in try store.writingLedger { try body($0) } },
      runLock: { try store.runLock() })
  }

  /// The store's run lock (``RunLedger/takeRunLock()``): `flock(2)` on the database file
  /// itself, so every path and link to the file is one lock, and the kernel lets it go when
  /// the process ends. SQLite's own locks are `fcntl(2)` locks, which `flock(2)` leaves alone
  /// (on Linux; a store on a network file system is not supported, as WAL mode is not).
  func runLock() throws -> StoreRunLock? {
    guard let fileURL else { return nil }
    let lock: RunLock
    do {
      lock = try RunLock.acquire(onFileOf: fileURL.path)
    } catch is RunLock.Held {
      throw StoreRunLock.Held(location: path)
    } catch let failure as RunLock.Unavailable {
      throw Error.cannotOpen(path: path, reason: "its run lock cannot be taken: \(failure.reason)")
    }
    return StoreRunLock { withExtendedLifetime(lock) {} }
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
