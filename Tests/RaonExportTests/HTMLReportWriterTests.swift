import Foundation
@testable import RaonAnalytics
import RaonCore
import TestSupport
import Testing

@testable import RaonDocument
@testable import RaonExport

/// `report.html`: rendered from the document (the Markdown's own sections, no Markdown
/// parsed), self-contained, escaped once. (Rendering in a real Chromium is in
/// RaonCLITests/HTMLReportEndToEndTests.)
@Suite struct HTMLReportWriterTests {
  let fixture = TextExportFixture.self

  /// Every `src="…"` and `href="…"` value in `html`.
  static func references(in html: String) -> [String] {
    var found: [String] = []
    for attribute in ["src=\"", "href=\""] {
      var rest = Substring(html)
      while let start = rest.range(of: attribute) {
        let after = rest[start.upperBound...]
        guard let end = after.firstIndex(of: "\"") else { break }
        found.append(String(after[..<end]))
        rest = after[end...]
      }
    }
    return found
  }

  static func count(_ needle: String, in haystack: String) -> Int {
    haystack.components(separatedBy: needle).count - 1
  }

  @Test func everySectionOfTheMarkdownIsInThePageOnce() throws {
    let options = ExportOptions()
    let md = try MarkdownReportWriter().render(fixture.report, options: options).markdown
    let html = try HTMLReportWriter().render(fixture.report, options: options)
    let headings = md.split(separator: "\n").filter { $0.hasPrefix("## ") || $0.hasPrefix("### ") }
    #expect(headings.count >= 8)
    for heading in headings {
      let level = heading.hasPrefix("### ") ? 3 : 2
      let text = heading.dropFirst(level + 1)
      #expect(Self.count(">\(text)</h\(level)>", in: html) == 1, "section '\(text)' missing or twice")
    }
    // Every `##`, and every `#` after the title (the whole-catalog part opens a section).
    let sections = Self.count("\n## ", in: "\n" + md) + Self.count("\n# ", in: "\n" + md) - 1
    #expect(Self.count("<h1>", in: html) == 1)
    #expect(Self.count("<h2>", in: html) == sections)
    #expect(Self.count("<section id=\"s", in: html) == sections)
    #expect(Self.count("</section>", in: html) == sections)
    // Each section is linked from the contents row.
    for n in 1...sections { #expect(html.contains("<a href=\"#s\(n)\">")) }
    // Tables: as many in the page as in the Markdown (header + delimiter lines).
    let mdTables = md.components(separatedBy: "\n|---").count - 1
    #expect(Self.count("<table>", in: html) + Self.count("<table class=\"stack\">", in: html) == mdTables)
    #expect(Self.count("<thead>", in: html) == mdTables)
  }

  @Test func chartsAreInlineSVGAndNoImageOrFileIsReferenced() throws {
    let options = ExportOptions()
    let document = try MarkdownReportWriter().render(fixture.report, options: options)
    let html = HTMLReportWriter().render(fixture.report, options: options)
    #expect(document.charts.count >= 4)
    #expect(Self.count("<svg ", in: html) == document.charts.count)
    #expect(Self.count("<figure class=\"chart\">", in: html) == document.charts.count)
    #expect(!html.contains("<img"))
    #expect(!html.contains("<?xml"))
    #expect(!html.contains("charts/"))
    for chart in document.charts {
      let svg = chart.svg.hasSuffix("\n") ? String(chart.svg.dropLast()) : chart.svg
      #expect(html.contains("<figure class=\"chart\">\(svg)</figure>"), "chart \(chart.path) not inlined whole")
      // Without ids, no two charts on one page can clash.
      #expect(!chart.svg.contains(" id=\""), "\(chart.path)")
    }
  }

  @Test func thePageIsSelfContainedApartFromPortalLinks() throws {
    let html = try HTMLReportWriter().render(fixture.report, options: ExportOptions())
    let references = Self.references(in: html)
    #expect(references.contains { $0.hasPrefix("https://culture.seoul.go.kr/") })
    #expect(references.contains { $0.hasPrefix("#s") })
    for reference in references {
      let allowed =
        reference.hasPrefix("#") || reference.hasPrefix("https://culture.seoul.go.kr/")
        || reference.hasPrefix("http://culture.seoul.go.kr/")
      #expect(allowed, "reference to \(reference)")
    }
    for banned in ["<script", "<link", "<iframe", "<object", "<embed", "@import", "<img"] {
      #expect(!html.lowercased().contains(banned), "\(banned) in the page")
    }
    // CSS urls only to fragments (none today).
    #expect(!html.replacingOccurrences(of: "url(#", with: "").contains("url("))
  }

  @Test func thePageIsMadeForPhonesDarkModeAndA4() throws {
    let html = try HTMLReportWriter().render(fixture.report, options: ExportOptions())
    #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"ko\">"))
    #expect(html.contains("<meta charset=\"utf-8\">"))
    #expect(html.contains("name=\"viewport\" content=\"width=device-width, initial-scale=1\""))
    #expect(html.contains("prefers-color-scheme: dark"))
    #expect(html.contains("@page { size: A4;"))
    #expect(html.contains("thead { display: table-header-group; }"))
    #expect(html.contains("h2, h3 { break-after: avoid; }"))
    #expect(html.contains("tr, .chart, svg, li { break-inside: avoid; }"))
    #expect(html.contains("font-family: \"Noto Sans CJK KR\", \"Noto Sans KR\","))
    #expect(html.contains("<title>서울시 문화행사 주간 현황 — 2024.\u{A0}9.\u{A0}9.(월) ~ 9.\u{A0}15.(일)</title>"))
    // Every printed page: the title and period at the top, "- n -" at the foot.
    #expect(html.contains("@top-left { content: \"서울시 문화행사 주간 현황\";"))
    #expect(html.contains("@top-right { content: \"2024.\u{A0}9.\u{A0}9.(월) ~ 9.\u{A0}15.(일)\";"))
    #expect(html.contains("@bottom-center { content: \"- \" counter(page) \" -\";"))
  }

  @Test func anEnglishReportIsEnglish() throws {
    let html = try HTMLReportWriter().render(fixture.report, options: ExportOptions(language: .en))
    #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
    #expect(html.contains(">By category</h3>"))
    #expect(html.contains(">Attachment 1. Programs running this week, by district</h2>"))
    #expect(!html.contains(">분류별</h3>"))
  }

  @Test func textFromTheCatalogIsEscapedOnceAndNeverBecomesMarkup() {
    let title = "<햄릿> & \"원작\" <script>alert(1)</script> A|B *x* [y] `z` a_b &amp; 1 < 2"
    let url = "https://culture.seoul.go.kr/v.do?a=1&b=\"2\""
    var table = Table([Table.Column("k", .left), Table.Column("v", .right)])
    table.add([.text(title), .number(1_234)])
    let document = Document(
      language: .ko, title: "T", period: "", front: [
        .list([ListItem([.portalLink(title, url: url)]), ListItem([.code("cult:1"), .text(" & "), .code("a<b>&c")])]),
        .table(table),
      ], sections: [Section(title: "Next", blocks: [.paragraph([.text("after")])])], closing: "끝", charts: [])
    var html = ""
    HTMLRenderer(layout: .fragment).append(document, to: &html)
    #expect(!html.contains("<script"))
    #expect(!html.contains("<햄릿"))
    #expect(html.contains("<h2>Next</h2><p>after</p>"))
    let escaped =
      "&lt;햄릿&gt; &amp; &quot;원작&quot; &lt;script&gt;alert(1)&lt;/script&gt; A|B *x* [y] `z` a_b &amp;amp; 1 &lt; 2"
    #expect(Self.count(escaped, in: html) == 2, "\(html)")
    #expect(html.contains("<a href=\"https://culture.seoul.go.kr/v.do?a=1&amp;b=&quot;2&quot;\">"))
    #expect(html.contains("<code>cult:1</code> &amp; <code>a&lt;b&gt;&amp;c</code>"))
    #expect(html.contains("<td align=\"right\">1,234</td>"))
    #expect(!html.contains("&amp;lt;") && !html.contains("&amp;quot;") && !html.contains("&amp;gt;"))
  }

  /// Line breaks, tabs and runs of spaces read as one space, as in the Markdown; control
  /// characters never reach the page.
  @Test func textKeepsToOneLineAndCarriesNoControlCharacter() {
    #expect(HTMLText.escape("a\r\n\n b\tc   d\u{2028}e") == "a b c d e")
    #expect(HTMLText.escape("x\u{1B}[2J\u{07}y") == "x\u{FFFD}[2J\u{FFFD}y")
    #expect(HTMLText.escape("2024.\u{A0}9.\u{A0}9.") == "2024.\u{A0}9.\u{A0}9.", "no-break spaces stay")
  }

  @Test func aListOfProgramsIsMarkedToStackOnAPhoneWithEveryCellLabelled() {
    let programs = [
      Program(id: "cult:1", title: "A", category: "연극", district: "종로구", place: "극장", feeText: "전석 20,000원",
        startDate: CalendarDay(iso: "2024-09-10"), portalURL: "https://culture.seoul.go.kr/a"),
      Program(id: "cult:2", title: "B", category: "전시", district: "중구", startDate: CalendarDay(iso: "2024-09-11")),
    ]
    var figures = Table([
      Table.Column("분류", .left), Table.Column("건수", .right), Table.Column("비율", .right),
      Table.Column("무료", .right), Table.Column("유료", .right),
    ])
    figures.add([.text("연극"), .number(1), .percent(0.5), .number(0), .number(1)])
    var html = ""
    HTMLRenderer(layout: .page).append(
      [.programs(ProgramTable(programs, showsDistrict: true, labels: ReportLabels(.ko))), .table(figures)], to: &html)
    #expect(html.components(separatedBy: "<table class=\"stack\">").count == 2, "\(html)")
    #expect(html.components(separatedBy: "<table>").count == 2, "the figures table is not a list")
    for label in ["공연/행사명", "분류", "자치구", "장소", "기간", "이용요금"] {
      #expect(html.components(separatedBy: "<td data-label=\"\(label)\"").count == 3, "\(label)")
    }
    // On paper each name column is as wide as its longest name (분류: "연극"/"분류", 4 units
    // + 3 of padding = 7 of the page's 140 → 5%; 자치구: "종로구", 6 + 3 = 9 → 7%), and the
    // other 88% go 34 : 22 : 14 : 14 (35, 23, 14, 14, the 2 left over to the title: 37%).
    // Names are never broken inside.
    #expect(html.hasPrefix("<div class=\"table-wrap\"><table class=\"stack\"><colgroup><col style=\"width:37%\"><col style=\"width:5%\"><col style=\"width:7%\"><col style=\"width:23%\"><col style=\"width:14%\"><col style=\"width:14%\">"), "\(html.prefix(300))")
    #expect(html.contains("</colgroup><thead>"))
    #expect(html.contains("<td data-label=\"분류\" class=\"name\">연극</td>"))
    #expect(html.contains("<td data-label=\"자치구\" class=\"name\">종로구</td>"))
    #expect(html.contains("<td data-label=\"장소\">극장</td>"))
    #expect(html.contains("<td data-label=\"공연/행사명\"><a href=\"https://culture.seoul.go.kr/a\">A</a></td>"))
    #expect(!html.contains("<td data-label=\"\""))
  }

  @Test func anItemAfterANestedListStaysAtTheTopLevel() {
    var html = ""
    HTMLRenderer(layout: .page).append(
      [.list([
        ListItem([.text("a")], children: [[.text("a1")], [.text("a2")]]), ListItem([.text("b")], children: [[.text("b1")]]),
        ListItem([.text("외 3건")]),
      ])], to: &html)
    #expect(html == "<ul><li>a<ul><li>a1</li><li>a2</li></ul></li><li>b<ul><li>b1</li></ul></li><li>외 3건</li></ul>")
  }

  /// The trend's range starts with a year and a full stop (`2024. 9. 9. ~ …`): a paragraph,
  /// where the page made from the Markdown read it as a list numbered from 2024.
  @Test func theTrendsRangeIsAParagraphNotANumberedList() {
    var report = fixture.report
    let day = CalendarDay(iso: "2024-09-09") ?? CalendarDay(dayNumber: 0)
    report.trend = [
      WeeklyTrendPoint(
        isoWeek: ISOWeek(containing: day), snapshotId: 1, takenAt: day.koreaMidnight, programCount: 10,
        current: 5, running: 4, starting: 1, registered: 1, added: nil, removed: nil)
    ]
    let html = HTMLReportWriter().render(report, options: ExportOptions())
    #expect(!html.contains("<ol start"))
    #expect(html.contains("<p>2024.\u{A0}9.\u{A0}9. ~ 9.\u{A0}15. … 2024.\u{A0}9.\u{A0}9. ~ 9.\u{A0}15. · 1주</p>"))
  }

  @Test func theWriterWritesOneFileAndTheComparisonItsOwn() throws {
    let out = try Fixtures.temporaryDirectory("raon-html")
    defer { try? FileManager.default.removeItem(at: out) }
    let writer = HTMLReportWriter()
    #expect(FormatRegistry.standard.entry(.html)?.outputs.map(\.name) == ["report.html", "changes.html"])
    let result = try writer.write(fixture.report, into: out, options: ExportOptions())
    #expect(result.files == ["report.html"])
    let comparison = try writer.writeComparison(
      fixture.diff, from: fixture.previous, to: fixture.snapshot, into: out, options: ExportOptions())
    #expect(comparison.files == ["changes.html"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["changes.html", "report.html"])
    let changes = try String(contentsOf: out.appendingPathComponent("changes.html"), encoding: .utf8)
    let md = MarkdownReportWriter().renderComparison(
      fixture.diff, from: fixture.previous, to: fixture.snapshot, options: ExportOptions())
    #expect(Self.count("<li>", in: changes) == md.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("- ") }.count)
    for reference in Self.references(in: changes) {
      #expect(reference.hasPrefix("#") || reference.hasPrefix("https://culture.seoul.go.kr/"), "\(reference)")
    }
  }

  @Test func theReportFormatsKeepPDFOutOfTheDefaults() {
    let registry = FormatRegistry.standard
    #expect(registry.defaults(for: .report) == [.md, .xlsx, .csv, .json, .html])
    #expect(registry.all(for: .report) == [.md, .xlsx, .csv, .json, .html])
    #expect(registry.formats.contains(.pdf))
  }
}
