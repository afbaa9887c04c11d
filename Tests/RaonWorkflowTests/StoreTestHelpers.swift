import GRDB

@testable import RaonStore

extension SnapshotStore {
  /// The lines of SQLite's `PRAGMA integrity_check`: `["ok"]` for a sound store.
  func integrityCheck() throws -> [String] {
    try writer.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
  }
}
