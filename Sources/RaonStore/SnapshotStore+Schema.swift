import GRDB
import RaonStoreCore
import RaonCore

// MARK: - Schema
//
// The tables are a public interface: analysts read them with Python's `sqlite3`, so
// names are plain snake_case and `SCHEMA.md` documents every column. A migration, once
// released, is never edited: changes come as new migrations, so a store made by an older
// Raon upgrades in place when a newer one opens it.

extension SnapshotStore {
  /// `PRAGMA application_id` of a Raon store ("RAON"), so Raon can tell its files from
  /// other SQLite databases, and so can `file(1)`.
  static let applicationID: Int32 = 0x5241_4F4E

  /// The migrations, oldest first. `PRAGMA user_version` is set to each one's number, so
  /// a reader without GRDB can tell the schema version too.
  static let migrations: [(identifier: String, migrate: @Sendable (Database) throws -> Void)] = [
    ("v1-snapshots-versions-presence", migrateV1),
    ("v2-snapshot-program-view", migrateV2),
    ("v3-snapshot-input-sha256", migrateV3),
    ("v4-free-flag-unknown", migrateV4),
    ("v5-store-catalog", { try $0.execute(sql: StoreCatalog.migration(.sqlite)) }),
    ("v6-weekly-ledger", { try $0.execute(sql: StoreSchema.ledgerTables(.sqlite)) }),
    ("v7-weekly-gates", { try $0.execute(sql: StoreSchema.ledgerGates(.sqlite)) }),
  ] + StoreSchema.addedColumns(.sqlite).map { added in (added.identifier, { try $0.execute(sql: added.sql) }) }

  /// The schema version this Raon writes.
  static var schemaVersion: Int { migrations.count }

  /// The migrator, up to and including migration number `version` (all by default).
  static func migrator(upTo version: Int = schemaVersion) -> DatabaseMigrator {
    var migrator = DatabaseMigrator()
    for (number, migration) in migrations.prefix(version).enumerated() {
      migrator.registerMigration(migration.identifier) { db in
        try migration.migrate(db)
        try db.execute(sql: "PRAGMA user_version = \(number + 1)")
      }
    }
    return migrator
  }

  private static func migrateV1(_ db: Database) throws {
    try db.execute(sql: "PRAGMA application_id = \(applicationID)")
    try db.execute(
      sql: """
        -- One row per recorded catalog. AUTOINCREMENT so an id is never reused, even
        -- after the newest snapshot is deleted by hand.
        CREATE TABLE snapshot (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          taken_at TEXT NOT NULL,
          source TEXT NOT NULL,
          source_total INTEGER,
          program_count INTEGER NOT NULL CHECK (program_count >= 0)
        );

        \(StoreSchema.tables(.sqlite, freeFlagKnown: true))
        """)
  }

  private static func migrateV2(_ db: Database) throws {
    try db.execute(
      sql: """
        -- The programs of every snapshot, one row per (snapshot, version), for analysts.
        \(StoreSchema.snapshotProgramView)
        """)
  }

  private static func migrateV3(_ db: Database) throws {
    try db.execute(
      sql: """
        -- SHA-256 (lower-case hex) of the input file's bytes; NULL for the Open API and for
        -- snapshots recorded before v3.
        ALTER TABLE snapshot ADD COLUMN input_sha256 TEXT;
        """)
  }

  /// `is_free` becomes three-valued: NULL for a program whose source has no 유무료 (or an
  /// unrecognised one) and whose fee text is not unambiguous (``FreeFlagParser/fromFeeText(saysFree:highestAmount:)``).
  /// SQLite cannot relax a NOT NULL column in place, so the table is rebuilt with the same
  /// rows and ids; then the versions an older Raon counted as paid only for want of a flag
  /// get NULL. Snapshots, presence and content hashes are untouched: history is not rewritten.
  private static func migrateV4(_ db: Database) throws {
    try db.execute(
      sql: """
        DROP VIEW snapshot_program;
        CREATE TABLE program_version_v4 (
          \(StoreSchema.programVersionColumns(.sqlite, freeFlagKnown: false))
        );
        INSERT INTO program_version_v4 SELECT id, raw_hash, program_id, title, category,
          district, is_free, fee_min_krw, fee_max_krw, start_date, end_date, latitude,
          longitude, quality_flags, program_text, field_set_id, raw_values,
          invalid_bytes_replaced FROM program_version;
        DROP TABLE program_version;
        ALTER TABLE program_version_v4 RENAME TO program_version;
        CREATE INDEX program_version_by_program_id ON program_version(program_id);
        """)
    try migrateV2(db)  // the view, as it was
    // Versions recorded as paid without a recognised flag: decide again from the fee text.
    let fieldSets = try Row.fetchAll(db, sql: "SELECT id, names FROM field_set")
    for row in fieldSets {
      let names = try CompactJSON.parseArray(row["names"] as String).map { $0 ?? "" }
      let freeAt = names.firstIndex { CanonicalField(sourceName: $0) == .isFree }
      let feeAt = names.firstIndex { CanonicalField(sourceName: $0) == .feeText }
      let versions = try Row.fetchCursor(
        db, sql: "SELECT id, raw_values FROM program_version WHERE field_set_id = ? AND is_free = 0",
        arguments: [row["id"] as Int64])
      var unknown: [Int64] = []
      while let version = try versions.next() {
        let values = try CompactJSON.parseArray(version["raw_values"] as String)
        let flag = freeAt.flatMap { $0 < values.count ? values[$0] : nil } ?? ""
        if FreeFlagParser.parse(flag) != nil { continue }
        let fee = feeAt.flatMap { $0 < values.count ? values[$0] : nil } ?? ""
        let text = CatalogText.trimmed(fee)
        let implied = FreeFlagParser.fromFeeText(
          saysFree: FeeParser.saysFree(text), highestAmount: FeeParser.range(in: text)?.max)
        if implied == nil { unknown.append(version["id"]) }
      }
      for id in unknown {
        try db.execute(sql: "UPDATE program_version SET is_free = NULL WHERE id = ?", arguments: [id])
      }
    }
  }
}
