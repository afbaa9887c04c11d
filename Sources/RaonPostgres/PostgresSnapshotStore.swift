import Foundation
import PostgresNIO
import RaonCore
import RaonStoreCore

/// The snapshot store in a PostgreSQL database: the SQLite store's tables, ids, programs,
/// errors and guarantees, for a history several machines share.
///
/// ```swift
/// let store = try PostgresSnapshotStore(
///   url: "postgresql://raon@db.example:5432/culture", environment: ProcessInfo.processInfo.environment)
/// let info = try store.record(snapshot)
/// ```
///
/// - A snapshot commits in one transaction or not at all; a process killed meanwhile
///   drops its connection and the server rolls the transaction back.
/// - Writers take a transaction-scoped advisory lock first (see ``recordingTogether(_:)``),
///   so two recordings never interleave, from however many machines.
/// - Every read runs in one `REPEATABLE READ READ ONLY` transaction: it sees the store as
///   it was when it began, never a recording half done.
///
/// Each operation has a connection to itself (an idle one of this store's, or a new one:
/// ``ConnectionPool``), so the store is a value that any thread may use, as the SQLite
/// store is.
public struct PostgresSnapshotStore: SnapshotStoring {
  let address: PostgresAddress
  /// Shared by the copies of this value (see ``ConnectionPool``).
  let pool = ConnectionPool()
  public var shrinkGuard: ShrinkGuard?

  /// The URL without its password.
  public var location: String { address.redacted }

  /// Connects, and creates the store's schema or brings it up to date (unless `readOnly`).
  ///
  /// - Parameters:
  ///   - url: `postgresql://user@host:port/database[?schema=NAME&sslmode=MODE]`.
  ///   - environment: Where `PGPASSWORD`, `PGPASSFILE` and `HOME` are read.
  ///   - readOnly: Create and change nothing; a database without a store is refused.
  /// - Throws: ``PostgresAddressError`` for a URL that cannot be used, else
  ///   ``StoreError`` (`cannotOpen`, `newerSchema`, `busy`, `migrationFailed`).
  public init(url: String, environment: [String: String], readOnly: Bool = false) throws {
    address = try PostgresAddress(url: url, environment: environment)
    let address = self.address
    try withConnection(StoreError.cannotOpen) { connection in
      if readOnly {
        guard let version = try PostgresSchema.installedVersion(connection, address) else {
          throw StoreError.cannotOpen(
            path: address.redacted,
            reason: "there is no Raon store in the schema \(address.schema) yet; record a snapshot first with 'raon snapshot FILE'")
        }
        if version > PostgresSchema.schemaVersion {
          throw StoreError.newerSchema(
            path: address.redacted, found: version, supported: PostgresSchema.schemaVersion)
        }
        if version < PostgresSchema.schemaVersion {
          throw StoreError.migrationFailed(
            path: address.redacted,
            reason: "it was made by an older Raon and this command only reads; run 'raon report' once to upgrade it")
        }
      } else {
        try PostgresSchema.migrate(connection, address)
      }
    }
  }

  /// A store brought only to schema `version`: tests make an older Raon's store with it.
  init(url: String, environment: [String: String], schemaVersion version: Int) throws {
    address = try PostgresAddress(url: url, environment: environment)
    let address = self.address
    try withConnection(StoreError.cannotOpen) { try PostgresSchema.migrate($0, address, upTo: version) }
  }

  // MARK: - Connections and errors

  /// Runs `body` on a connection of its own (an idle one, or a new one), turning what it
  /// throws into the store's errors (`wrap` for failures of the work itself) with the
  /// password scrubbed.
  func withConnection<T>(
    _ wrap: (_ path: String, _ reason: String) -> StoreError,
    _ body: (BlockingConnection) throws -> T
  ) throws -> T {
    let connection: BlockingConnection
    do {
      connection = try pool.take() ?? BlockingConnection(address)
    } catch {
      throw StoreError.cannotOpen(path: location, reason: reason(error))
    }
    do {
      let result = try body(connection)
      pool.giveBack(connection)
      return result
    } catch {
      connection.close()
      throw translated(error, wrap)
    }
  }

  /// A failure as the store reports it; what is not the store's (a producer's error, a
  /// refusal) stays as it is.
  private func translated(
    _ error: Swift.Error, _ wrap: (_ path: String, _ reason: String) -> StoreError
  ) -> Swift.Error {
    switch error {
    case let error as StoreError:
      return error
    case let error as PSQLError where error.serverInfo?[.sqlState] == "55P03":
      // lock_timeout: another writer held the lock for the whole busy timeout.
      return StoreError.busy(path: location, seconds: Int(StoreError.busyTimeout))
    case let error as PSQLError:
      return wrap(location, reason(error))
    case let error as ConnectionClosed:
      return wrap(location, error.description)
    case let error as DecodingFailure:
      return StoreError.corrupt(path: location, detail: error.description)
    case let error as PostgresDecodingError:
      return StoreError.corrupt(path: location, detail: "a column has an unexpected type (\(error.columnName))")
    default:
      return error
    }
  }

  /// One line saying what PostgreSQL or the network said, never the password.
  func reason(_ error: Swift.Error) -> String {
    let text: String
    if let error = error as? PSQLError {
      if let message = error.serverInfo?[.message] {
        let state = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
        text = message + state
      } else if error.code == .serverClosedConnection || error.code == .uncleanShutdown
        || error.code == .clientClosedConnection
      {
        text = ConnectionClosed().description
      } else if error.code == .authMechanismRequiresPassword {
        text = "the server asks for a password and none was found in the URL, PGPASSWORD or ~/.pgpass"
      } else if error.code == .connectionError, let underlying = error.underlying {
        let detail = "\(underlying)"
        let short = detail.contains("Connection refused") ? "connection refused (is the server running, and listening there?)" : detail
        text = "cannot connect to \(address.host):\(address.port): \(short)"
      } else if let underlying = error.underlying {
        text = "\(error.code): \(underlying)"
      } else {
        text = "\(error.code)"
      }
    } else {
      text = String(describing: error)
    }
    return address.scrub(text.split(whereSeparator: \.isNewline).joined(separator: " "))
  }

  /// Runs `body` in one read-only transaction that sees one moment of the store.
  func reading<T>(_ body: (PostgresStoreConnection) throws -> T) throws -> T {
    try withConnection(StoreError.readFailed) { connection in
      try connection.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
        try body(PostgresStoreConnection(connection))
      }
    }
  }

  // MARK: - Snapshots

  public var storeAccess: StoreAccess {
    let store = self
    return StoreAccess(
      location: location, transaction: { body in try store.reading { try body($0) } },
      writeTransaction: { body in
        try store.withConnection(StoreError.recordFailed) { connection in
          try connection.transaction { try body(PostgresStoreConnection(connection)) }
        }
      },
      runLock: { try store.runLock() })
  }

  /// Deletes a snapshot as the SQLite store does (see ``StoreQueries/delete(_:_:location:)``),
  /// under the writers' lock; a dry run does the same work and rolls it back.
  public func deleteSnapshot(id: Int64, dryRun: Bool) throws -> SnapshotDeletion {
    let address = self.address
    let location = self.location
    return try withConnection(StoreError.recordFailed) { connection in
      try connection.run("BEGIN")
      do {
        try PostgresSchema.lockWriters(connection, address)
        let outcome = try StoreQueries.delete(id, PostgresStoreConnection(connection), location: location)
        try connection.run(dryRun ? "ROLLBACK" : "COMMIT")
        return outcome
      } catch {
        try? connection.run("ROLLBACK")
        throw error
      }
    }
  }

  public func foldLog() -> String? { nil }  // a committed transaction is the server's
}
