import Foundation
import PostgresNIO
import RaonCore
import RaonStore

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
  ///   ``SnapshotStore/Error`` (`cannotOpen`, `newerSchema`, `busy`, `migrationFailed`).
  public init(url: String, environment: [String: String], readOnly: Bool = false) throws {
    address = try PostgresAddress(url: url, environment: environment)
    let address = self.address
    try withConnection(SnapshotStore.Error.cannotOpen) { connection in
      if readOnly {
        guard let version = try PostgresSchema.installedVersion(connection, address) else {
          throw SnapshotStore.Error.cannotOpen(
            path: address.redacted,
            reason: "there is no Raon store in the schema \(address.schema) yet; record a snapshot first with 'raon snapshot FILE'")
        }
        if version > PostgresSchema.schemaVersion {
          throw SnapshotStore.Error.newerSchema(
            path: address.redacted, found: version, supported: PostgresSchema.schemaVersion)
        }
        if version < PostgresSchema.schemaVersion {
          throw SnapshotStore.Error.migrationFailed(
            path: address.redacted,
            reason: "it was made by an older Raon and this command only reads; run 'raon report' once to upgrade it")
        }
      } else {
        try PostgresSchema.migrate(connection, address)
      }
    }
  }

  // MARK: - Connections and errors

  /// Runs `body` on a connection of its own (an idle one, or a new one), turning what it
  /// throws into the store's errors (`wrap` for failures of the work itself) with the
  /// password scrubbed.
  func withConnection<T>(
    _ wrap: (_ path: String, _ reason: String) -> SnapshotStore.Error,
    _ body: (BlockingConnection) throws -> T
  ) throws -> T {
    let connection: BlockingConnection
    do {
      connection = try pool.take() ?? BlockingConnection(address)
    } catch {
      throw SnapshotStore.Error.cannotOpen(path: location, reason: reason(error))
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
    _ error: Swift.Error, _ wrap: (_ path: String, _ reason: String) -> SnapshotStore.Error
  ) -> Swift.Error {
    switch error {
    case let error as SnapshotStore.Error:
      return error
    case let error as PSQLError where error.serverInfo?[.sqlState] == "55P03":
      // lock_timeout: another writer held the lock for the whole busy timeout.
      return SnapshotStore.Error.busy(path: location, seconds: Int(SnapshotStore.busyTimeout))
    case let error as PSQLError:
      return wrap(location, reason(error))
    case let error as ConnectionClosed:
      return wrap(location, error.description)
    case let error as DecodingFailure:
      return SnapshotStore.Error.corrupt(path: location, detail: error.description)
    case let error as PostgresDecodingError:
      return SnapshotStore.Error.corrupt(path: location, detail: "a column has an unexpected type (\(error.columnName))")
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
  func reading<T>(_ body: (BlockingConnection) throws -> T) throws -> T {
    try withConnection(SnapshotStore.Error.readFailed) { connection in
      try connection.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
        try body(connection)
      }
    }
  }

  // MARK: - Snapshots

  public func snapshots() throws -> [SnapshotInfo] {
    try reading { connection in try Self.snapshotRows(connection, id: nil).map { try $0.info() } }
  }

  /// The snapshot rows, all or the one with `id`, in id order.
  static func snapshotRows(_ connection: BlockingConnection, id: Int64?) throws -> [SnapshotRecord] {
    let rows =
      if let id {
        try connection.query(
          """
          SELECT id, taken_at, source, source_total, program_count, input_sha256
          FROM snapshot WHERE id = \(id)
          """)
      } else {
        try connection.query(
          """
          SELECT id, taken_at, source, source_total, program_count, input_sha256
          FROM snapshot ORDER BY id
          """)
      }
    return try rows.map { row in
      let (id, takenAt, source, total, count, sha) = try row.decode(
        (Int64, String, String, Int64?, Int64, String?).self)
      return SnapshotRecord(
        id: id, takenAt: takenAt, source: source, sourceTotal: total.map(Int.init),
        programCount: Int(count), inputSHA256: sha)
    }
  }

  public func unchangedSince(snapshot id: Int64) throws -> Int64? {
    try reading { connection in try Self.unchangedSince(id, connection) }
  }

  static func unchangedSince(_ id: Int64, _ connection: BlockingConnection) throws -> Int64? {
    let previous = try connection.query("SELECT max(id) FROM snapshot WHERE id < \(id)")
      .first?.decode(Int64?.self)
    guard let previous = previous ?? nil else { return nil }
    // Every interval reaching the previous snapshot goes on into this one, and none begins
    // here: the same versions, the same number of times.
    let differs = try connection.query(
      """
      SELECT EXISTS (SELECT 1 FROM presence WHERE first_snapshot_id = \(id))
        OR EXISTS (SELECT 1 FROM presence WHERE last_snapshot_id = \(previous))
      """
    ).first?.decode(Bool.self) ?? true
    return differs ? nil : previous
  }

  public func foldLog() -> String? { nil }  // a committed transaction is the server's
}

/// A row of `snapshot`.
struct SnapshotRecord {
  var id: Int64
  var takenAt: String
  var source: String
  var sourceTotal: Int?
  var programCount: Int
  var inputSHA256: String?

  func info() throws -> SnapshotInfo {
    guard let date = ISOTimestamp.parse(takenAt) else {
      throw DecodingFailure("snapshot \(id) has taken_at '\(takenAt)', not ISO 8601 UTC")
    }
    return SnapshotInfo(
      id: id, takenAt: date, source: source, programCount: programCount, sourceTotal: sourceTotal)
  }
}
