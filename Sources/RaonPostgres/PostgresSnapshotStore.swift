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
/// Each operation opens its own connection (a few milliseconds on a local network), so
/// the store is a value that any thread may use, as the SQLite store is.
public struct PostgresSnapshotStore: SnapshotStoring {
  let address: PostgresAddress
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

  /// Runs `body` on a new connection, closed afterwards, turning what it throws into the
  /// store's errors (`wrap` for failures of the work itself) with the password scrubbed.
  func withConnection<T>(
    _ wrap: (_ path: String, _ reason: String) -> SnapshotStore.Error,
    _ body: (BlockingConnection) throws -> T
  ) throws -> T {
    let connection: BlockingConnection
    do {
      connection = try BlockingConnection(address)
    } catch {
      throw SnapshotStore.Error.cannotOpen(path: location, reason: reason(error))
    }
    defer { connection.close() }
    do {
      return try body(connection)
    } catch let error as SnapshotStore.Error {
      throw error
    } catch let error as PSQLError where error.serverInfo?[.sqlState] == "55P03" {
      // lock_timeout: another writer held the lock for the whole busy timeout.
      throw SnapshotStore.Error.busy(path: location, seconds: Int(SnapshotStore.busyTimeout))
    } catch let error as DecodingFailure {
      throw SnapshotStore.Error.corrupt(path: location, detail: error.description)
    } catch let error as PSQLError {
      throw wrap(location, reason(error))
    } catch let error as PostgresDecodingError {
      throw SnapshotStore.Error.corrupt(path: location, detail: "a column has an unexpected type (\(error.columnName))")
    } catch {
      throw error
    }
  }

  /// One line saying what PostgreSQL or the network said, never the password.
  func reason(_ error: Swift.Error) -> String {
    let text: String
    if let error = error as? PSQLError {
      if let message = error.serverInfo?[.message] {
        let state = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
        text = message + state
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
