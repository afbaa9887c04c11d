import Foundation
import PostgresNIO
import RaonStoreCore

// MARK: - Schema
//
// The same tables and columns as the SQLite store (`SCHEMA.md`), with PostgreSQL's types,
// in a schema of their own (`raon` by default), documented in `SCHEMA-postgresql.md`. Only
// that schema is ever created or changed: a database holding other tables keeps them as
// they are. A migration, once released, is never edited; changes come as new ones.

enum PostgresSchema {
  /// The first of the advisory-lock keys of Raon's writers ("RAON"); the second is the
  /// schema name's hash, so stores in two schemas of one database never wait for each other.
  static let lockKey: Int32 = 0x5241_4F4E

  /// The migrations, oldest first; `store_info.schema_version` is the number applied.
  /// The store's catalog, then the ledger of weekly runs (and its second migration, the
  /// gates'), come before the added version columns: none was released before them, and
  /// each one added later is appended after.
  static let migrations: [String] =
    [
      v1, StoreCatalog.migration(.postgresql), StoreSchema.ledgerTables(.postgresql),
      StoreSchema.ledgerGates(.postgresql),
    ]
    + StoreSchema.addedColumns(.postgresql).map(\.sql)

  static var schemaVersion: Int { migrations.count }

  /// Takes the store's writer lock until the transaction ends (see
  /// ``PostgresSnapshotStore/recordingTogether(_:)`` for why a lock).
  static func lockWriters(_ connection: BlockingConnection, _ address: PostgresAddress) throws {
    // A writer waits as long as SQLite's busy timeout, then fails as `busy`.
    try connection.run("SET LOCAL lock_timeout = '\(Int(StoreError.busyTimeout))s'")
    try connection.query("SELECT pg_advisory_xact_lock(\(lockKey), hashtext(\(address.schema)))")
  }

  /// What the schema holds: `nil` when it has no Raon store (the schema may not exist),
  /// else the store's schema version.
  ///
  /// - Throws: ``SnapshotStore/Error/cannotOpen(path:reason:)`` when the schema holds
  ///   tables but no Raon store: it belongs to someone else.
  static func installedVersion(_ connection: BlockingConnection, _ address: PostgresAddress) throws -> Int? {
    let rows = try connection.query(
      """
      SELECT (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE n.nspname = \(address.schema)),
             to_regclass(\(address.quotedSchema + ".store_info")) IS NOT NULL
      """)
    guard let row = rows.first else { return nil }
    let (objects, hasInfo) = try row.decode((Int64, Bool).self)
    if !hasInfo {
      guard objects == 0 else {
        throw StoreError.cannotOpen(
          path: address.redacted,
          reason: "the schema \(address.schema) holds tables that are not a Raon store; Raon leaves them alone — choose another ?schema=")
      }
      return nil
    }
    let info = try connection.query(
      "SELECT value FROM store_info WHERE key = 'application' OR key = 'schema_version' ORDER BY key")
    let values = try info.map { try $0.decode(String.self) }
    guard values.count == 2, values[0] == "raon", let version = Int(values[1]) else {
      throw StoreError.cannotOpen(
        path: address.redacted,
        reason: "the schema \(address.schema) is not a Raon store (its store_info says otherwise) — choose another ?schema=")
    }
    return version
  }

  /// Creates the store, or brings an older one up to date, in one transaction under the
  /// writers' lock (checked again under it): processes opening a new store at once create
  /// it once. `target` is the version to reach (tests make old stores with a lower one).
  static func migrate(
    _ connection: BlockingConnection, _ address: PostgresAddress, upTo target: Int = schemaVersion
  ) throws {
    // Up to date (the usual case): no lock, so opening never waits for a recording.
    let found = try installedVersion(connection, address)
    if found == target { return }
    if let found, found > schemaVersion {
      throw StoreError.newerSchema(path: address.redacted, found: found, supported: schemaVersion)
    }
    try connection.transaction {
      try lockWriters(connection, address)
      let installed = try installedVersion(connection, address) ?? 0
      if installed > schemaVersion {
        throw StoreError.newerSchema(
          path: address.redacted, found: installed, supported: schemaVersion)
      }
      guard installed < target else { return }
      if installed == 0 {
        try connection.run("CREATE SCHEMA IF NOT EXISTS \(address.quotedSchema)")
      }
      for migration in migrations[installed..<target] {
        // One statement at a time: the extended protocol takes no lists of statements.
        for statement in migration.components(separatedBy: ";\n") {
          let sql = statement.trimmingCharacters(in: .whitespacesAndNewlines)
          if !sql.isEmpty { try connection.run(sql) }
        }
      }
      try connection.query(
        """
        INSERT INTO store_info (key, value) VALUES ('schema_version', \(String(target)))
        ON CONFLICT (key) DO UPDATE SET value = excluded.value
        """)
    }
  }

  /// Version 1: SQLite's v1–v4 (snapshots, field sets, versions, presence, the view, the
  /// input's SHA-256, a free flag that may be unknown), plus `store_info` and
  /// `snapshot_sequence`.
  private static let v1 = """
    -- What this schema is: application = raon, schema_version = N.
    CREATE TABLE store_info (
      key text PRIMARY KEY,
      value text NOT NULL
    );
    INSERT INTO store_info (key, value) VALUES ('application', 'raon');

    -- The highest snapshot id ever given, so an id is never reused even after the newest
    -- snapshot is deleted (SQLite's AUTOINCREMENT). Updated in the recording transaction,
    -- so a recording rolled back uses up no id.
    CREATE TABLE snapshot_sequence (
      last_id bigint NOT NULL
    );
    INSERT INTO snapshot_sequence (last_id) VALUES (0);

    -- One row per recorded catalog.
    CREATE TABLE snapshot (
      id bigint PRIMARY KEY CHECK (id > 0),
      taken_at text NOT NULL,
      source text NOT NULL,
      source_total bigint,
      program_count bigint NOT NULL CHECK (program_count >= 0),
      input_sha256 text
    );

    \(StoreSchema.tables(.postgresql, freeFlagKnown: false))

    -- The programs of every snapshot, one row per (snapshot, version), for analysts.
    \(StoreSchema.snapshotProgramView)
    """
}
