import Foundation
import GRDB
import RaonCore
import RaonPostgres
import RaonStore
import RaonStoreCore
import Testing
import TestSupport

/// A version column added after the first release is migrated from its ``VersionColumn``
/// entry alone (``StoreSchema/addColumn(_:_:_:)``): its statement is valid in both
/// databases, rows recorded before it hold its default, and the shared recording and reads
/// (by column name) go on exactly as in a store without it.
@Suite(.serialized) struct AddedColumnMigrationTests {
  /// Columns a later Raon might add: one of each kind, with and without a default.
  static let additions: [(name: String, added: VersionColumn.Addition)] = [
    ("extra_text", .init(.text, default: "''")),
    ("extra_flag", .init(.flag)),
    ("extra_count", .init(.integer, default: "0")),
    ("extra_share", .init(.real)),
  ]

  /// Records the sample, then its next week, then the sample again, in `store`.
  static func recordHistory(_ store: any SnapshotStoring, from day: Int = 0) throws {
    let weeks = [Catalogs.sample, Catalogs.nextWeek, Catalogs.sample]
    for (offset, entries) in weeks.enumerated() where offset >= day {
      _ = try store.record(Catalogs.snapshot(entries, day: offset))
    }
  }

  @Test func anAddedSQLiteColumnKeepsTheStoreAsItWas() throws {
    let folder = try Fixtures.temporaryDirectory("raon-added-column")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("with.sqlite").path
    let plain = try SnapshotStore(path: folder.appendingPathComponent("plain.sqlite").path)
    try Self.recordHistory(plain)
    do {
      let store = try SnapshotStore(path: path)
      for (offset, entries) in [Catalogs.sample, Catalogs.nextWeek].enumerated() {
        _ = try store.record(Catalogs.snapshot(entries, day: offset))
      }
    }
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
      for column in Self.additions { try db.execute(sql: StoreSchema.addColumn(column.name, column.added, .sqlite)) }
    }
    let columns = try queue.read { db in
      try Row.fetchAll(db, sql: "PRAGMA table_info(program_version)").map {
        ($0["name"] as String, $0["type"] as String, $0["notnull"] as Int, $0["dflt_value"] as String?)
      }
    }.filter { $0.0.hasPrefix("extra_") }
    #expect(columns.map(\.0) == Self.additions.map(\.name))
    #expect(columns.map(\.1) == ["TEXT", "INTEGER", "INTEGER", "REAL"])
    #expect(columns.map(\.2) == [1, 0, 1, 0])
    #expect(columns.map(\.3) == ["''", nil, "0", nil])
    let versions = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM program_version") ?? 0 }
    let defaulted = try queue.read {
      try Int.fetchOne(
        $0,
        sql: """
          SELECT count(*) FROM program_version
          WHERE extra_text = '' AND extra_flag IS NULL AND extra_count = 0 AND extra_share IS NULL
          """) ?? 0
    }
    #expect(versions > 0 && defaulted == versions)
    // A flag is 0 or 1 in SQLite, as the first release's flags are.
    #expect(throws: DatabaseError.self) {
      try queue.write { try $0.execute(sql: "UPDATE program_version SET extra_flag = 2 WHERE id = 1") }
    }
    try queue.close()

    let store = try SnapshotStore(path: path)
    try Self.recordHistory(store, from: 2)
    #expect(try StoreContents(store) == StoreContents(plain))
  }

  @Test func anAddedPostgreSQLColumnKeepsTheStoreAsItWas() throws {
    guard let server = PostgresTestServer.available() else { return }
    let schema = PostgresTestServer.freshSchema()
    let plain = try PostgresSnapshotStore(url: server.url(), environment: server.environment)
    try Self.recordHistory(plain)
    do {
      let store = try PostgresSnapshotStore(url: server.url(schema: schema), environment: server.environment)
      for (offset, entries) in [Catalogs.sample, Catalogs.nextWeek].enumerated() {
        _ = try store.record(Catalogs.snapshot(entries, day: offset))
      }
    }
    let statements = Self.additions.map { StoreSchema.addColumn($0.name, $0.added, .postgresql) }
    _ = try server.psql("SET search_path TO \(schema); " + statements.joined(separator: "; "))
    let columns = try server.psql(
      """
      SELECT string_agg(column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '-'), ', '
        ORDER BY ordinal_position)
      FROM information_schema.columns
      WHERE table_schema = '\(schema)' AND table_name = 'program_version' AND column_name LIKE 'extra_%'
      """)
    #expect(
      columns
        == "extra_text text NO ''::text, extra_flag boolean YES -, extra_count bigint NO 0, extra_share double precision YES -\n")
    let defaulted = try server.psql(
      """
      SELECT count(*) FILTER (WHERE extra_text = '' AND extra_flag IS NULL AND extra_count = 0 AND extra_share IS NULL)
        = count(*) AND count(*) > 0
      FROM \(schema).program_version
      """)
    #expect(defaulted == "t\n")

    let store = try PostgresSnapshotStore(url: server.url(schema: schema), environment: server.environment)
    try Self.recordHistory(store, from: 2)
    #expect(try StoreContents(store) == StoreContents(plain))
  }
}
