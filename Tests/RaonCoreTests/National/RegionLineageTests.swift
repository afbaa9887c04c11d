import Foundation
import RaonCore
import TestSupport
import Testing

/// The region lineage (issue 36): every provider of the real download read as the
/// documented rules read it (an independent Python reading), and renames, moves and
/// mergers keeping one provider whatever its name of the day.
@Suite("Region lineage")
struct RegionLineageTests {
  let lineage = RegionLineage.shipped

  @Test func everyProviderOfTheRealDownloadIsTheOnePythonReads() throws {
    let download = try NationalDownload.read()
    let names = FieldNames(download.header)
    let records = download.records
    var ids: Set<String> = []
    for (i, record) in records.enumerated() {
      let provider = lineage.provider(name: record[.provider] ?? "", code: record[.providerCode] ?? "")
      #expect(provider.id == download.providers[i], "row \(i + 2): \(record[.provider] ?? "")")
      let province = provider.province
        ?? lineage.province(ofAddress: record[.roadAddress] ?? "")
        ?? lineage.province(ofAddress: record[.lotAddress] ?? "") ?? RegionLineage.otherBodies
      #expect(province == download.provinces[i], "row \(i + 2)")
      ids.insert(provider.id)
    }
    #expect(names.fields.contains(.provider))
    #expect(ids.count == 222)
    // Every local government names its own 시·도; the other bodies are found by address.
    let others = ids.filter { $0.hasPrefix("@") }
    #expect(!others.isEmpty && others.count < 20, "\(others)")
    #expect(download.provinces.allSatisfy { lineage.provinceIDs.contains($0) || $0 == RegionLineage.otherBodies })
  }

  @Test func aRenamedProvinceKeepsItsProvidersAndIsNamedAsOnTheDay() throws {
    let before = lineage.provider(name: "강원도 춘천시", code: "4180000")
    let after = lineage.provider(name: "강원특별자치도  춘천시", code: "4181000")
    #expect(before == after)
    #expect(before.id == "강원 춘천시" && before.province == "강원")
    #expect(lineage.providerName(before.id, on: try #require(CalendarDay(iso: "2023-06-10"))) == "강원도 춘천시")
    #expect(lineage.providerName(before.id, on: try #require(CalendarDay(iso: "2023-06-11"))) == "강원특별자치도 춘천시")
    let jeonbuk = lineage.provider(name: "전라북도 군산시", code: "")
    #expect(jeonbuk == lineage.provider(name: "전북특별자치도 군산시", code: ""))
    #expect(lineage.provinceName("전북", on: try #require(CalendarDay(iso: "2024-01-17"))) == "전라북도")
    #expect(lineage.provinceName("전북", on: try #require(CalendarDay(iso: "2024-01-18"))) == "전북특별자치도")
    // A 시·도 office itself, and a body named after it.
    #expect(lineage.provider(name: "전라북도", code: "6450000").id == lineage.provider(name: "전북특별자치도", code: "6540000").id)
    #expect(lineage.provider(name: "강원도교육청 강원학생교육원", code: "").id
      == lineage.provider(name: "강원특별자치도교육청 강원학생교육원", code: "").id)
  }

  @Test func aMovedCountyKeepsItsEventsAndChangesProvinceOnTheDay() throws {
    let gyeongbuk = lineage.provider(name: "경상북도 군위군", code: "5140000")
    let daegu = lineage.provider(name: "대구광역시 군위군", code: "5141000")
    #expect(gyeongbuk.id == daegu.id)
    #expect(lineage.province(ofProvider: daegu.id, on: try #require(CalendarDay(iso: "2023-06-30"))) == "경북")
    #expect(lineage.province(ofProvider: daegu.id, on: try #require(CalendarDay(iso: "2023-07-01"))) == "대구")
    #expect(lineage.providerName(daegu.id, on: try #require(CalendarDay(iso: "2023-01-01"))) == "경상북도 군위군")
    #expect(lineage.providerName(daegu.id, on: try #require(CalendarDay(iso: "2025-01-01"))) == "대구광역시 군위군")
    // 인천 남구 → 미추홀구 (2018).
    #expect(lineage.provider(name: "인천광역시 남구", code: "").id == lineage.provider(name: "인천광역시 미추홀구", code: "").id)
  }

  @Test func mergedBodiesShareTheKeyOfWhatTheyBecame() throws {
    let dong = lineage.provider(name: "인천광역시 동구", code: "3500000")
    let jung = lineage.provider(name: "인천광역시 중구", code: "")
    let merged = lineage.provider(name: "인천광역시 제물포구", code: "3501000")
    #expect(Set([dong.id, jung.id, merged.id]).count == 3)
    #expect(lineage.keyLineage(of: dong.id) == merged.id)
    #expect(lineage.keyLineage(of: jung.id) == merged.id)
    #expect(lineage.keyLineage(of: merged.id) == merged.id)
    #expect(lineage.providerName(dong.id, on: try #require(CalendarDay(iso: "2026-06-30"))) == "인천광역시 동구")
    #expect(lineage.providerName(dong.id, on: try #require(CalendarDay(iso: "2026-07-01"))) == "인천광역시 제물포구")
    // Addresses read the same across a rename or a merger.
    #expect(lineage.addressKey("강원도 춘천시 중앙로 1") == lineage.addressKey("강원특별자치도  춘천시 중앙로 1"))
    #expect(lineage.addressKey("인천광역시 동구 금곡로 1") == lineage.addressKey("인천광역시 제물포구 금곡로 1"))
    #expect(lineage.addressKey("서울특별시 강남구 a") != lineage.addressKey("서울특별시 강북구 a"))
  }

  @Test func variantsOfOneProviderAreOne() {
    #expect(lineage.provider(name: "경기도 수원특례시", code: "").id == lineage.provider(name: "경기도 수원시", code: "").id)
    #expect(lineage.provider(name: "서울특별시 강남구청", code: "").id == "서울 강남구")
    #expect(lineage.provider(name: "서울 강남구", code: "").id == "서울 강남구")
    // The name decides; a code is read only when the name is empty.
    #expect(lineage.provider(name: "", code: "6530000").id == "강원")
    #expect(lineage.provider(name: "광주교통공사", code: "B555073").province == nil)
  }

  @Test func theConfigAddsRenamesAndMergers() throws {
    let day = try #require(CalendarDay(iso: "2027-01-01"))
    let renamed = try lineage.renaming("경기도 화성시", to: "경기도 화성특별시", since: day)
    let old = renamed.provider(name: "경기도 화성시", code: "")
    #expect(renamed.provider(name: "경기도 화성특별시", code: "").id == old.id)
    #expect(renamed.providerName(old.id, on: day) == "경기도 화성특별시")
    #expect(renamed.providerName(old.id, on: day.adding(days: -1)) == "경기도 화성시")
    // Another body's new name.
    let body = try lineage.renaming("국립박물관문화재단", to: "국립중앙박물관문화재단", since: nil)
    #expect(body.provider(name: "국립중앙박물관문화재단", code: "").id == body.provider(name: "국립박물관문화재단", code: "").id)
    let merged = try lineage.merging("경기도 동두천시", into: "경기도 양주시", on: day)
    #expect(merged.keyLineage(of: "경기 동두천시") == "경기 양주시")
    #expect(throws: RegionLineage.ExtensionError.self) { try lineage.merging("경기도 양주시", into: "경기도 양주시", on: day) }
  }

  @Test func aTableLineThatDoesNotReadIsNamed() {
    #expect(throws: RegionLineage.TableError(line: 2, message: "'2023-13-01' is not a YYYY-MM-DD day")) {
      try RegionLineage(table: "province\t서울\t서울특별시\t\t\t\t\nprovince\t강원\t강원도\t2023-13-01\t\t\t")
    }
    #expect(throws: RegionLineage.TableError.self) { try RegionLineage(table: "county\tx\ty") }
  }
}
