import Foundation
import GRDB
import RaonCore
import TestSupport

@testable import RaonStore

/// A store in a new temporary folder, and its path.
func temporaryStore(_ label: String = "raon-store") throws -> (store: SnapshotStore, path: String) {
  let path = try Fixtures.temporaryDirectory(label).appendingPathComponent("raon.sqlite").path
  return (try SnapshotStore(path: path), path)
}

extension SnapshotStore {
  /// A number from SQL, read straight from the tables (independently of the store's API).
  func count(_ sql: String, _ arguments: StatementArguments = []) throws -> Int {
    try writer.read { try Int.fetchOne($0, sql: sql, arguments: arguments) ?? -1 }
  }

  /// Folds the WAL into the file and returns the file plus WAL size.
  func bytesOnDiskAfterCheckpoint() throws -> Int {
    try checkpoint()
    return try statistics().fileBytes ?? -1
  }
}

/// Programs sorted as the store returns them: by id, stable.
func sortedByID(_ programs: [Program]) -> [Program] {
  programs.enumerated().sorted { ($0.element.id, $0.offset) < ($1.element.id, $1.offset) }
    .map(\.element)
}
