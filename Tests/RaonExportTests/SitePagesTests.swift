import Foundation
import RaonAnalytics
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
}
