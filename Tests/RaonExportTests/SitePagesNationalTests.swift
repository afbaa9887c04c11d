import Foundation
import RaonAnalytics
import RaonCore
import RaonExport
import Testing

/// The national data's site pages (pure): a page per 시·도 followed by its lineage id, each
/// week's pack linked under that week's name, no link to a week where the 시·도 had no event,
/// and the national words.
struct SitePagesNationalTests {
  static func week(_ n: Int, _ regions: [String: String]) -> SiteWeek {
    let week = ISOWeek(year: 2023, week: n)!
    return SiteWeek(
      week: week, snapshot: SnapshotInfo(id: Int64(n), takenAt: Date(timeIntervalSince1970: 1_672_000_000 + Double(n) * 604_800), source: "n.csv", programCount: 1),
      point: nil, regions: regions)
  }

  /// 강원 is 강원도 in week 20, has no event in week 21, and is 강원특별자치도 in week 30.
  static let pages = SitePages(
    weeks: [
      week(20, ["세종": "세종특별자치시", "강원": "강원도"]), week(21, ["세종": "세종특별자치시"]),
      week(30, ["세종": "세종특별자치시", "강원": "강원특별자치도"]),
    ],
    language: .ko, profile: .national,
    regions: [SiteRegion(id: "세종", name: "세종특별자치시"), SiteRegion(id: "강원", name: "강원특별자치도")])

  static let report = "<!DOCTYPE html>\n<html lang=\"ko\">\n<head>\n<meta charset=\"utf-8\">\n<style>\n</style>\n</head>\n<body>\n<main>\n</main>\n</body>\n</html>\n"

  @Test func aRegionsPageLinksEachWeeksPackUnderThatWeeksName() {
    let html = Self.pages.district("강원", trend: [], programs: [])
    #expect(html.contains("<h1>강원특별자치도</h1>"))
    #expect(html.contains("href=\"../weeks/2023-W20/regions/\(SitePaths.encode("강원도"))/report.html\""))
    #expect(html.contains("href=\"../weeks/2023-W30/regions/\(SitePaths.encode("강원특별자치도"))/report.html\""))
    #expect(!html.contains("2023-W21/regions"))
    #expect(!html.contains("자치구") && !html.contains("서울"))
  }

  @Test func theIndexAndWeekPagesSayTheCountryAndLinkOnlyPacksThatExist() {
    let index = Self.pages.index()
    #expect(index.contains("<h1>전국 공연·행사 기록</h1>"))
    #expect(index.contains("href=\"regions/\(SitePaths.encode("강원특별자치도")).html\""))
    #expect(!index.contains("districts/") && !index.contains("자치구") && !index.contains("서울"))
    #expect(index.contains("공공데이터포털"))

    // 강원's week 30 pack: no previous week (none in week 21), its page under today's name.
    let pack = Self.pages.weekPage(report: Self.report, week: 2, district: "강원", files: ["report.html"], programs: [])
    #expect(!pack.contains("← 이전 주"))
    #expect(pack.contains("강원특별자치도 · 주별 보고서"))
    #expect(pack.contains(">전국</a>"))
    // Week 20's pack says its own name, and links the page of today's.
    let old = Self.pages.weekPage(report: Self.report, week: 0, district: "강원", files: ["report.html"], programs: [])
    #expect(old.contains("강원도 · 주별 보고서") && old.contains("regions/\(SitePaths.encode("강원특별자치도")).html"))
    #expect(!old.contains("다음 주 →"))
    // The country's week 21 lists only the 시·도 with a pack that week.
    let country = Self.pages.weekPage(report: Self.report, week: 1, district: nil, files: ["report.html"], programs: [])
    #expect(country.contains("2023-W21/regions/\(SitePaths.encode("세종특별자치시"))/report.html"))
    #expect(!country.contains("2023-W21/regions/\(SitePaths.encode("강원"))"))
  }

  /// A page per provider (issue 46): its events of the latest week, its 시·도's page, the
  /// search on it; the 시·도's page lists its providers; Seoul's categories get none.
  @Test func eachProviderHasAPageAndSeoulsCategoriesNone() throws {
    let day = CalendarDay(iso: "2023-07-01")!
    let events = [
      Program(id: "n:1", title: "하회 탈춤", category: "강원특별자치도 춘천시", district: "강원특별자치도", place: "공연장",
        startDate: day, endDate: CalendarDay(iso: "2023-12-31")),
      Program(id: "n:2", title: "봄 음악회", category: "강원특별자치도 춘천시", district: "강원특별자치도", place: "홀",
        startDate: CalendarDay(iso: "2023-01-01"), endDate: CalendarDay(iso: "2023-01-02")),
      Program(id: "n:3", title: "전시", category: "세종특별자치시", district: "세종특별자치시", place: "관"),
    ]
    let pages = Self.pages.groupPages(latest: events)
    #expect(pages.map(\.path) == ["providers/강원특별자치도 춘천시.html", "providers/세종특별자치시.html"])
    let chuncheon = try #require(pages.first?.html)
    #expect(chuncheon.contains("<h1>강원특별자치도 춘천시</h1>"))
    #expect(chuncheon.contains("href=\"../regions/\(SitePaths.encode("강원특별자치도")).html\""))
    #expect(chuncheon.contains("search.html?c=\(SitePaths.queryValue("강원특별자치도 춘천시"))"))
    // The week's events: the one current in the latest week (2023-W30), not the one ended in January.
    #expect(chuncheon.contains("하회 탈춤") && !chuncheon.contains("봄 음악회"))
    let region = Self.pages.district("강원", trend: [], programs: Array(events.prefix(2)))
    #expect(region.contains("href=\"../providers/\(SitePaths.encode("강원특별자치도 춘천시")).html\">강원특별자치도 춘천시</a> (2건)"))
    var builder = ProgramHistory.Builder()
    builder.start([events[0]])
    let program = Self.pages.program(try #require(builder.finish()["n:1"]))
    #expect(program.contains("href=\"../providers/\(SitePaths.encode("강원특별자치도 춘천시")).html\""))

    let seoul = SitePages(weeks: Self.pages.weeks, language: .ko)
    #expect(seoul.groupPages(latest: events).isEmpty && seoul.groupFolder == nil)
    #expect(!seoul.district("종로구", trend: [], programs: events).contains("providers/"))
  }

  /// A provider's name becomes a file name of its own: never a folder, never hidden, never
  /// longer than a file name may be.
  @Test func aProvidersNameIsAFileName() {
    #expect(SitePaths.fileName("경상북도 안동시") == "경상북도 안동시")
    #expect(SitePaths.fileName("문화/예술 재단") == "문화／예술 재단")
    #expect(SitePaths.fileName("..") == "．.")
    let long = String(repeating: "가", count: 70)
    let name = SitePaths.fileName(long)
    #expect(name.utf8.count <= SitePaths.longestProgramName && name.contains("~"))
    #expect(name != SitePaths.fileName(long + "나"))
  }
}
