import Foundation
import GRDB
import RaonCore
import RaonStoreCore

// MARK: - Repairing the history

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
          outcome = try StoreQueries.delete(id, SQLiteConnection(db: db), location: path)
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
}
