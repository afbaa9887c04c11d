import GRDB

@testable import RaonStore

extension SnapshotStore {
  /// A new empty store in memory.
  static func inMemory() throws -> SnapshotStore {
    try SnapshotStore(writer: DatabaseQueue(configuration: configuration()), path: ":memory:", fileURL: nil)
  }

  /// The lines of SQLite's `PRAGMA integrity_check`: `["ok"]` for a sound store.
  func integrityCheck() throws -> [String] {
    try writer.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
  }
}
