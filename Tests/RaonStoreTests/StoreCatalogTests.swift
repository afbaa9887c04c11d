import Foundation
import GRDB
import RaonCore
import Testing
import TestSupport

@testable import RaonStore

/// A store holds one catalog (issue 36): the first recording sets it, another catalog's
/// recording is refused in one line and records nothing, and a store made before the
/// catalog was recorded holds Seoul's.
@Suite("The store's catalog")
struct StoreCatalogTests {
  static func entry(_ catalog: CatalogProfile.Name, _ n: Int) -> NewSnapshot.Entry {
    if catalog == .seoul {
      let raw = RawRecord([
        "분류": "전시/미술", "자치구": "종로구", "공연/행사명": "전시 \(n)", "장소": "미술관",
        "문화포털상세URL": "https://culture.seoul.go.kr/view.do?cultcode=\(n)",
      ])
      return NewSnapshot.Entry(program: ProgramNormalizer.normalize(raw), raw: raw)
    }
    let raw = RawRecord([
      "행사명": "공연 \(n)", "장소": "홀", "행사시작일자": "2025-03-01", "제공기관명": "경상북도 안동시",
    ])
    return NewSnapshot.Entry(program: NationalNormalizer.normalize([raw])[0], raw: raw)
  }

  static func snapshot(_ catalog: CatalogProfile.Name, at seconds: TimeInterval) -> NewSnapshot {
    NewSnapshot(
      takenAt: Date(timeIntervalSince1970: seconds), source: "\(catalog).csv", sourceTotal: 2,
      entries: [entry(catalog, 1), entry(catalog, 2)], catalog: catalog)
  }

  @Test func theFirstRecordingSetsTheCatalogAndAnotherIsRefused() throws {
    let (store, _, folder) = try temporaryStore("raon-catalog")
    defer { remove(folder) }
    #expect(try store.catalog() == nil)
    let first = try store.record(Self.snapshot(.national, at: 1_700_000_000))
    #expect(try store.catalog() == .national)
    #expect(throws: StoreError.otherCatalog(path: store.location, stored: "national", asked: "seoul")) {
      try store.record(Self.snapshot(.seoul, at: 1_700_100_000))
    }
    #expect(try store.snapshots() == [first])
    let message = StoreError.otherCatalog(path: "x", stored: "national", asked: "seoul").description
    #expect(!message.contains("\n") && message.contains("--catalog national"))
    // The same catalog records on.
    try store.record(Self.snapshot(.national, at: 1_700_200_000))
    #expect(try store.snapshots().count == 2)
  }

  @Test func aStoreFromBeforeHoldsSeoulsCatalogWhenItHasSnapshots() throws {
    let folder = try Fixtures.temporaryDirectory("raon-catalog-v4")
    defer { try? FileManager.default.removeItem(at: folder) }
    for withSnapshot in [true, false] {
      let path = folder.appendingPathComponent("\(withSnapshot).sqlite").path
      do {
        let pool = try DatabasePool(path: path, configuration: SnapshotStore.configuration())
        let old = try SnapshotStore(writer: pool, path: path, fileURL: URL(fileURLWithPath: path), schemaVersion: 4)
        if withSnapshot { try old.record(Self.snapshot(.seoul, at: 1_600_000_000)) }
      }
      let store = try SnapshotStore(path: path)
      #expect(try store.count("PRAGMA user_version") == SnapshotStore.schemaVersion)
      #expect(try store.catalog() == (withSnapshot ? .seoul : nil))
      if withSnapshot {
        #expect(throws: StoreError.self) { try store.record(Self.snapshot(.national, at: 1_700_000_000)) }
      } else {
        try store.record(Self.snapshot(.national, at: 1_700_000_000))
        #expect(try store.catalog() == .national)
      }
    }
  }

  @Test func theNationalCatalogsEventsKeepEveryRow() throws {
    let (store, _, folder) = try temporaryStore("raon-catalog-rows")
    defer { remove(folder) }
    let rows = [
      RawRecord(["행사명": "공연", "장소": "홀", "행사시작일자": "2025-03-01", "행사시작시각": "14:00", "제공기관명": "경상북도 안동시"]),
      RawRecord(["행사명": "공연", "장소": "홀", "행사시작일자": "2025-03-01", "행사시작시각": "19:00", "제공기관명": "경상북도 안동시"]),
    ]
    let programs = NationalNormalizer.normalize(rows)
    let info = try store.record(
      NewSnapshot(
        takenAt: Date(timeIntervalSince1970: 1_700_000_000), source: "n.csv", sourceTotal: 2,
        entries: zip(programs, rows).map { NewSnapshot.Entry(program: $0, raw: $1) }, catalog: .national))
    #expect(info.programCount == 2)
    let raws = try store.rawRecords(inSnapshot: info.id)
    #expect(Set(raws.map(\.record)) == Set(rows))
    #expect(Set(raws.map(\.programID)) == [programs[0].id])
  }
}
