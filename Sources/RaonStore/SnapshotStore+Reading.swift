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
    return StoreAccess(location: path) { body in try store.reading { try body($0) } }
  }
}
