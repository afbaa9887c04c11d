import Foundation
@testable import RaonAnalytics
import RaonCore
@testable import RaonDocument
import RaonExport
import Testing

/// The site's pages as text: what a catalog may hold is escaped, only http(s) links go
/// out, every page forbids loading anything, and the search page's script is the one its
/// policy allows.
struct SitePagesTests {
  static let weeks = [
    SiteWeek(
      week: ISOWeek(year: 2024, week: 37)!,
      snapshot: SnapshotInfo(id: 1, takenAt: Date(timeIntervalSince1970: 1_725_840_000), source: "a.csv", programCount: 1),
      point: nil)
  ]

  static func history(_ p: Program) -> ProgramHistory {
    var b = ProgramHistory.Builder()
    b.start([p])
    return b.finish()[p.id]!
  }

  @Test func catalogTextIsEscapedAndOnlyHTTPLinksGoOut() {
    let hostile = Program(
      id: "cult:1", title: "<script>alert(1)</script>", category: "\"><img src=x>", district: "종로구",
      place: "A & B", organizer: "<b>주최</b>", portalURL: "javascript:alert(1)")
    let pages = SitePages(weeks: Self.weeks, language: .ko)
    let html = pages.program(Self.history(hostile))
    #expect(!html.contains("<script>alert"))
    #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    #expect(!html.contains("<img src=x>"))
    #expect(!html.contains("<b>주최</b>"))
    #expect(html.contains("A &amp; B"))
    #expect(!html.contains("javascript:"))
    #expect(html.contains("default-src 'none'"))
    #expect(html.contains("<html lang=\"ko\">"))
    var linked = hostile
    linked.portalURL = "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=1"
    #expect(pages.program(Self.history(linked)).contains("href=\"https://culture.seoul.go.kr/"))
  }

  @Test func theSearchPagesScriptIsTheOneItsPolicyAllowsAndItsDataCannotCloseIt() throws {
    let p = Program(id: "cult:2", title: "</script><script>alert(1)</script>", district: "중구")
    let html = SitePages(weeks: Self.weeks, language: .en).search([Self.history(p)])
    #expect(!html.contains("</script><script>alert"))
    let start = try #require(html.range(of: "<script>"))
    let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
    var hash = SHA256()
    hash.update(String(html[start.upperBound..<end.lowerBound]))
    let digest = Data(hash.finalize()).base64EncodedString()
    #expect(html.contains("script-src 'sha256-\(digest)'"))
    #expect(html.contains("<html lang=\"en\">"))
  }

  @Test func programFileNamesCarryTheIdAndNeverCollide() {
    #expect(SitePaths.programFile("cult:154024") == "cult-154024.html")
    #expect(SitePaths.programFile("h:ab/../c") == "h-ab_2F_2E_2E_2Fc.html")
    #expect(SitePaths.programFile("a_b") != SitePaths.programFile("a-b"))
    #expect(SitePaths.link(from: "weeks/2024-W37/districts/종로구/report.html", to: "programs/cult-1.html")
      == "../../../../programs/cult-1.html")
    #expect(SitePaths.link(from: "index.html", to: "districts/중구.html") == "districts/%EC%A4%91%EA%B5%AC.html")
  }

  // MARK: - Issue 37: one link rule

  /// The site's program page asked a looser rule than report.html (any http(s) address
  /// became "포털에서 보기"). Now every address the reports refuse is refused here too.
  @Test(arguments: [
    "https://evil.example/x?cultcode=910001", "http://127.0.0.1:9/x?cultcode=1",
    "https://culture.seoul.go.kr.evil.example/x", "https://culture.seoul.go.kr@evil.example/x",
    "https://culture.seoul.go.kr:8443/x", "  https://culture.seoul.go.kr/x", " https://evil.example/x",
    "https://evil.example\\@culture.seoul.go.kr/x", "https://culture.seoul.go.kr\\@evil.example/x",
    "https://culture.seoul.go.kr", "https://culture.seoul.go.kr./x", "https://culture.seoul.go.kr\t/x",
    "javascript://culture.seoul.go.kr/", "//culture.seoul.go.kr/x", "ftp://culture.seoul.go.kr/x",
  ])
  func aProgramPageLinksNoAddressTheReportsRefuse(_ url: String) {
    #expect(!PortalLink.isProgramPage(url))
    let p = Program(id: "cult:910001", title: "행사", district: "종로구", portalURL: url)
    let html = SitePages(weeks: Self.weeks, language: .ko).program(Self.history(p))
    #expect(!html.contains("href=\"http"), "\(url) is linked")
    #expect(!html.contains("evil.example") && !html.contains("127.0.0.1"))
  }

  @Test(arguments: [
    "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=1",
    "http://www.culture.seoul.go.kr/view.do?cultcode=2", "HTTPS://Culture.Seoul.GO.KR/v?cultcode=3",
  ])
  func aProgramPageLinksThePortalsPages(_ url: String) {
    #expect(PortalLink.isProgramPage(url))
    let p = Program(id: "cult:1", title: "행사", district: "종로구", portalURL: url)
    let html = SitePages(weeks: Self.weeks, language: .ko).program(Self.history(p))
    #expect(html.contains("href=\"\(url)\""))
  }

  /// The rule is a value: its hosts are data (a catalog profile can carry its own).
  @Test func theLinkRuleTakesItsHostsAsData() {
    let rule = PortalLink(hosts: ["Example.ORG"])
    #expect(rule.links("https://example.org/a"))
    #expect(!rule.links("https://culture.seoul.go.kr/a"))
    #expect(PortalLink.seoul.hosts == ["culture.seoul.go.kr", "www.culture.seoul.go.kr"])
  }

  // MARK: - Issue 37: long ids

  @Test func aLongIdsFileNameIsBoundedUniqueAndStable() {
    let long = "cult:" + String(repeating: "9", count: 3_000)
    let name = SitePaths.programFile(long)
    #expect(name.utf8.count <= 255)
    #expect(name.hasPrefix("cult-" + String(repeating: "9", count: 75) + "~"))
    #expect(name == SitePaths.programFile(long))
    #expect(name != SitePaths.programFile(long + "8"))
    // Right at the bound the name is kept as it is; one byte more, it is hashed.
    let atBound = "cult:" + String(repeating: "1", count: SitePaths.longestProgramName - 5)
    #expect(SitePaths.programFile(atBound) == "cult-" + String(repeating: "1", count: SitePaths.longestProgramName - 5) + ".html")
    #expect(SitePaths.programFile(atBound + "1").contains("~"))
    // A cut never splits an escape: after `h-a`, the 80th byte falls inside a `_XX`.
    let hangul = SitePaths.programFile("h:a" + String(repeating: "가", count: 60))
    let kept = String(hangul.split(separator: "~")[0])
    #expect(kept.range(of: "_[0-9A-F]?$", options: .regularExpression) == nil, "\(kept)")
  }

  // MARK: - Issue 34: district page, search order, last details

  static func day(_ text: String) -> CalendarDay { CalendarDay(iso: text)! }

  /// Two weeks: 2024-W37 (D = Mon 9 Sep) and 2024-W38 (D = Mon 16 Sep).
  static let twoWeeks = [
    SiteWeek(
      week: ISOWeek(year: 2024, week: 37)!,
      snapshot: SnapshotInfo(id: 1, takenAt: Date(timeIntervalSince1970: 1_725_840_000), source: "a.csv", programCount: 4),
      point: nil),
    SiteWeek(
      week: ISOWeek(year: 2024, week: 38)!,
      snapshot: SnapshotInfo(id: 2, takenAt: Date(timeIntervalSince1970: 1_726_444_800), source: "b.csv", programCount: 4),
      point: nil),
  ]

  static func program(_ id: String, _ start: String?, _ end: String?, district: String = "종로구") -> Program {
    Program(
      id: id, title: "행사 \(id)", category: "전시/미술", district: district,
      startDate: start.map(day), endDate: end.map(day))
  }

  @Test func aDistrictPageListsItsProgramsOfTheLatestWeekWithPeriodAndState() {
    let programs = [
      Self.program("cult:1", "2024-01-01", "2024-03-31"),  // ended months ago: not listed
      Self.program("cult:2", "2024-09-01", "2024-09-30"),  // running
      Self.program("cult:3", "2024-10-01", "2024-10-05"),  // upcoming
      Self.program("cult:4", "2024-09-01", nil),  // no end: running
    ]
    let pages = SitePages(weeks: Self.twoWeeks, language: .ko)
    let listed = SitePages.weekPrograms(programs, week: Self.twoWeeks[1].week, day: Self.day("2024-09-16"))
    #expect(listed.map(\.program.id) == ["cult:2", "cult:4", "cult:3"])
    #expect(listed.map(\.state) == [.running, .running, .upcoming])
    let html = pages.district("종로구", trend: [], programs: programs)
    #expect(html.contains("최근 주의 행사 (3건)"))
    #expect(!html.contains("cult-1.html"))
    #expect(html.contains("<td class=\"state\" data-label=\"상태\">예정</td>"))
    #expect(html.contains("<td class=\"period\" data-label=\"기간\">\(OfficialDates.programDates(Self.day("2024-10-01"), Self.day("2024-10-05"), .ko))</td>"))
    #expect(html.contains("search.html?d=%EC%A2%85%EB%A1%9C%EA%B5%AC"))
  }

  /// Ended within the latest week but before its snapshot day: still the week's, 종료.
  @Test func aProgramEndedWithinTheWeekIsListedAsEnded() {
    let week = ISOWeek(year: 2024, week: 38)!
    let listed = SitePages.weekPrograms(
      [Self.program("cult:5", "2024-09-01", "2024-09-17")], week: week, day: Self.day("2024-09-19"))
    #expect(listed.map(\.state) == [.ended])
  }

  @Test func searchListsCurrentProgramsFirstThenTheMostRecentlyGone() {
    var b = ProgramHistory.Builder()
    let old = Self.program("cult:1", "2020-01-01", "2020-02-01")  // long ended, still listed
    let gone = Self.program("cult:2", "2024-09-01", "2024-12-31")  // withdrawn in W38
    let endedLastWeek = Self.program("cult:3", "2024-08-01", "2024-09-08")  // ended, then left
    let running = Self.program("cult:9", "2024-09-01", "2024-09-30")
    let upcoming = Self.program("cult:8", "2024-11-01", "2024-11-30")
    b.start([old, gone, endedLastWeek, running, upcoming])
    b.step(SnapshotDiff(added: [], removed: [endedLastWeek, gone], changed: []), day: Self.day("2024-09-16"))
    let histories = b.finish().values.sorted { $0.id < $1.id }
    let pages = SitePages(weeks: Self.twoWeeks, language: .ko)
    #expect(pages.ranked(histories).map(\.id) == ["cult:9", "cult:8", "cult:2", "cult:3", "cult:1"])
    let html = pages.search(histories)
    let order = ["cult-9", "cult-8", "cult-2", "cult-3", "cult-1"].compactMap { html.range(of: "\"\($0).html\"")?.lowerBound }
    #expect(order.count == 5 && order == order.sorted())
  }

  @Test func aRemovedProgramsPageHeadsItsDataLastDetails() {
    var b = ProgramHistory.Builder()
    let gone = Self.program("cult:2", "2024-09-01", "2024-12-31")
    let kept = Self.program("cult:3", "2024-09-01", "2024-12-31")
    b.start([gone, kept])
    b.step(SnapshotDiff(added: [], removed: [gone], changed: []), day: Self.day("2024-09-16"))
    let h = b.finish()
    let pages = SitePages(weeks: Self.twoWeeks, language: .ko)
    let left = pages.program(h["cult:2"]!)
    #expect(left.contains("<h2>마지막 정보</h2>") && !left.contains("현재 정보"))
    #expect(left.contains("목록에서 마지막으로 본 주"))
    let listed = pages.program(h["cult:3"]!)
    #expect(listed.contains("<h2>현재 정보</h2>") && !listed.contains("마지막 정보"))
    #expect(SitePages(weeks: Self.twoWeeks, language: .en).program(h["cult:2"]!).contains("<h2>Last details</h2>"))
  }
}
