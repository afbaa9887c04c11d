import Foundation
import RaonCore
import RaonPostgres
import RaonStore
import Testing
import TestSupport

/// One catalog a store, alike in SQLite and PostgreSQL (issue 36): the first recording sets
/// it, the other catalog's is refused and records nothing, and a PostgreSQL store from
/// before (schema 1) holding snapshots holds Seoul's.
@Suite(.serialized) struct StoreCatalogParityTests {
  static func national(day: Int) -> NewSnapshot {
    let rows = [
      RawRecord(["행사명": "공연", "장소": "홀", "행사시작일자": "2025-03-01", "행사시작시각": "14:00", "제공기관명": "경상북도 안동시"]),
      RawRecord(["행사명": "공연", "장소": "홀", "행사시작일자": "2025-03-01", "행사시작시각": "19:00", "제공기관명": "경상북도 안동시"]),
    ]
    let programs = NationalNormalizer.normalize(rows)
    return NewSnapshot(
      takenAt: Date(timeIntervalSince1970: 1_740_000_000 + Double(day) * 86_400), source: "national.csv",
      sourceTotal: 2, entries: zip(programs, rows).map { NewSnapshot.Entry(program: $0, raw: $1) },
      catalog: .national)
  }

  @Test(arguments: Backend.allCases)
  func theFirstRecordingSetsTheCatalogAndTheOtherIsRefused(backend: Backend) throws {
    guard let store = try backend.makeStore() else { return }
    #expect(try store.catalog() == nil)
    let first = try store.record(Self.national(day: 0))
    #expect(try store.catalog() == .national)
    #expect(throws: StoreError.otherCatalog(path: store.location, stored: "national", asked: "seoul")) {
      try store.record(Catalogs.snapshot(Array(Catalogs.sample.prefix(10)), day: 1))
    }
    #expect(try store.snapshots() == [first])
    try store.record(Self.national(day: 2))
    #expect(try store.snapshots().count == 2)
  }

  @Test func aPostgreSQLStoreFromBeforeWithSnapshotsHoldsSeouls() throws {
    guard let server = PostgresTestServer.available() else { return }
    let schema = PostgresTestServer.freshSchema()
    do {
      let store = try PostgresSnapshotStore(url: server.url(schema: schema), environment: server.environment)
      try store.record(Catalogs.snapshot(Array(Catalogs.sample.prefix(10)), day: 0))
    }
    // As schema 1 left it: no store_catalog, and no ledger of raon weekly (schema 3).
    _ = try server.psql(
      "DROP TABLE \(schema).store_catalog; DROP TABLE \(schema).weekly_delivery, \(schema).weekly_message, "
        + "\(schema).weekly_run CASCADE; UPDATE \(schema).store_info SET value = '1' WHERE key = 'schema_version'")
    let store = try PostgresSnapshotStore(url: server.url(schema: schema), environment: server.environment)
    #expect(try store.catalog() == .seoul)
    #expect(throws: StoreError.self) { try store.record(Self.national(day: 1)) }
  }
}
