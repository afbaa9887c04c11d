import Foundation
import RaonPostgres
import RaonStore

/// Opens the store an address names, SQLite or PostgreSQL, for the jobs.
public enum StoreOpening {
  /// Opens a store: creating it if needed, or, for commands that only read, never
  /// creating or writing anything.
  ///
  /// - Parameters:
  ///   - readOnly: Create and change nothing; a missing store is an error.
  ///   - readOnlyIfUnwritable: An existing SQLite store on a read-only file or mount is
  ///     opened for reading (a report that records nothing needs no more).
  /// - Returns: The store; its ``SnapshotStoring/location`` is what messages print.
  public static func open(
    _ address: StoreAddress, environment: RaonEnvironment, readOnly: Bool = false,
    readOnlyIfUnwritable: Bool = false
  ) throws -> any SnapshotStoring {
    switch address {
    case .postgres(let url):
      return try PostgresSnapshotStore(url: url, environment: environment.variables, readOnly: readOnly)
    case .sqlite(let url):
      let exists = FileManager.default.fileExists(atPath: url.path)
      if readOnly && !exists { throw WorkflowError.noStore(path: url.path) }
      let unwritable =
        exists
        && (access(url.path, W_OK) != 0 || access(url.deletingLastPathComponent().path, W_OK) != 0)
      return try SnapshotStore(path: url.path, readOnly: readOnly || (readOnlyIfUnwritable && unwritable))
    }
  }
}
