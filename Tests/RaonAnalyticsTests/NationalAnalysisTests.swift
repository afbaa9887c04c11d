import Foundation
import RaonCore
import Testing

@testable import RaonAnalytics

/// The national data as a report on one day sees it: events once, regions named as on the
/// day, stale reference dates, fee kinds and age bands.
@Suite("National analysis")
struct NationalAnalysisTests {
  @Test func eventsAreCountedOnceAndNamedAsOnTheReportsDay() throws {
    let event = Program(
      id: "n:1", category: "대구 군위군", district: "경북", theme: "유료",
      registeredOn: CalendarDay(iso: "2021-12-31"))
    let programs = [event, event, Program(id: "n:2", category: "@{강원}교육청 X", district: "강원", theme: "무료", registeredOn: CalendarDay(iso: "2023-01-01"))]
    let early = NationalAnalysis.events(programs, profile: .national, on: try #require(CalendarDay(iso: "2023-01-01")))
    #expect(early.map(\.id) == ["n:1", "n:2"])
    #expect(early[0].district == "경상북도" && early[0].category == "경상북도 군위군")
    #expect(early[1].district == "강원도" && early[1].category == "강원도교육청 X")
    #expect(early[0].qualityFlags.contains(.referenceDateStale) && !early[1].qualityFlags.contains(.referenceDateStale))
    let late = NationalAnalysis.events(programs, profile: .national, on: try #require(CalendarDay(iso: "2024-02-01")))
    #expect(late[0].district == "대구광역시" && late[0].category == "대구광역시 군위군")
    #expect(late[1].district == "강원특별자치도" && late[1].category == "강원특별자치도교육청 X")
    #expect(late[1].qualityFlags.contains(.referenceDateStale))
  }

  @Test func feeKindsAndAgeBandsCountEveryEvent() {
    let events = [
      Program(id: "a", audience: "초등학생 이상", theme: "무료"),
      Program(id: "b", audience: "48개월 이상", theme: "유료"),
      Program(id: "c", audience: "전체관람가", theme: "혼합"),
      Program(id: "d", audience: "만 15세 이상", theme: ""),
      Program(id: "e", audience: "7세 이하", theme: "유료"),
      Program(id: "f", audience: "", theme: "유료"),
    ]
    // The national profile's extras (report extras as data): 요금정보, then 입장연령.
    let tables = ReportExtras.tables(CatalogProfile.national.extras, events)
    #expect(tables.map(\.extra.jsonKey) == ["byFeeKind", "byAge"])
    #expect(tables[0].rows.map(\.key) == ["free", "paid", "mixed", "unknown"])
    #expect(tables[0].rows.map(\.count) == [1, 3, 1, 1])
    #expect(tables[1].rows.map(\.key) == ["all", "0-6", "7-12", "13-18", "19+", "unknown"])
    #expect(tables[1].rows.map(\.count) == [1, 2, 1, 1, 0, 1])
    #expect(ReportExtras.tables(CatalogProfile.seoul.extras, events).isEmpty)
  }

  @Test func ageBandsReadTheFirstAge() {
    #expect(AgeBand("8세 이상(2018.12.31 이전 출생자)") == .from7To12)
    #expect(AgeBand("24개월이상") == .upTo6)
    #expect(AgeBand("중고교생") == .from13To18)
    #expect(AgeBand("성인") == .adults)
    #expect(AgeBand("제한없음") == .all)
    #expect(AgeBand("19세 이상 관람가") == .adults)
    #expect(AgeBand("홈페이지 참조") == .unknown)
  }
}
