import Foundation
import Ink
import RaonAnalytics
import RaonCore
import TestSupport
import Testing

@testable import RaonDocument
@testable import RaonExport

/// `report.html`: built from the Markdown, self-contained, escaped once, and what Ink gets
/// wrong put right. (Rendering in a real Chromium is in RaonCLITests/HTMLReportEndToEndTests.)
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
    let html = HTMLReportWriter.page(
      markdown: document.markdown,
      charts: document.charts.map { ("\($0.path)", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + $0.svg) },
      language: .ko, header: .init(title: "제목", period: "기간"))
    #expect(document.charts.count >= 4)
    #expect(Self.count("<svg ", in: html) == document.charts.count)
    #expect(Self.count("<figure class=\"chart\">", in: html) == document.charts.count)
    #expect(!html.contains("<img"))
    #expect(!html.contains("<?xml"))
    #expect(!html.contains("charts/"))
    for chart in document.charts {
      let title = chart.svg.components(separatedBy: "<title>").dropFirst().first?
        .components(separatedBy: "</title>").first ?? "?"
      #expect(html.contains("<title>\(title)</title>"), "chart \(chart.path) not inlined")
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
    let md = """
      # T

      - \(MarkdownText.link(title, url: "https://culture.seoul.go.kr/v.do?a=1&b=\"2\""))
      - `cult:1` & `a<b>&c`

      | k | v |
      |---|---:|
      | \(MarkdownText.inline(title)) | 1,234 |

      ## Next

      after
      """
    let html = MarkdownHTML.fragment(md)
    #expect(!html.contains("<script"))
    #expect(!html.contains("<햄릿"))
    // The document goes on after the title (Ink alone swallows it into one list item).
    #expect(html.contains("<h2>Next</h2><p>after</p>"))
    let escaped =
      "&lt;햄릿&gt; &amp; &quot;원작&quot; &lt;script&gt;alert(1)&lt;/script&gt; A|B *x* [y] `z` a_b &amp;amp; 1 &lt; 2"
    #expect(Self.count(escaped, in: html) == 2, "\(html)")
    #expect(html.contains("<a href=\"https://culture.seoul.go.kr/v.do?a=1&amp;b=&quot;2&quot;\">"))
    #expect(html.contains("<code>cult:1</code> &amp; <code>a&lt;b&gt;&amp;c</code>"))
    #expect(html.contains("<td align=\"right\">1,234</td>"))
    #expect(!html.contains("&amp;lt;") && !html.contains("&amp;quot;") && !html.contains("&amp;gt;"))
  }

  @Test func theWritersOwnSubTagStaysATagAndCatalogTextNeverMakesOne() {
    let md = "<sub>정의: *running* & 1 < 2</sub>\n\n- " + MarkdownText.inline("<sub>x</sub> <sub onclick=\"a\">")
      + "\n- <subway> <br/>\n"
    let html = MarkdownHTML.fragment(md)
    #expect(html.hasPrefix("<p><sub>정의: <em>running</em> &amp; 1 &lt; 2</sub></p>"), "\(html)")
    #expect(html.contains("<li>&lt;sub&gt;x&lt;/sub&gt; &lt;sub onclick=&quot;a&quot;&gt;</li>"), "\(html)")
    #expect(html.contains("<li>&lt;subway&gt; <br></li>"), "\(html)")
    #expect(!html.contains("\u{E000}") && !html.contains("\u{E001}"))
  }

  @Test func aListOfProgramsIsMarkedToStackOnAPhoneWithEveryCellLabelled() {
    let md = """
      | 공연/행사명 | 분류 | 자치구 | 장소 | 기간 | 이용요금 |
      |---|---|---|---|---|---|
      | [A](https://culture.seoul.go.kr/a) | 연극 | 종로구 | 극장 | 2024-09-10 | 전석 20,000원 |
      | B | 전시 | 중구 |  | 2024-09-11 |  |

      | 분류 | 건수 | 비율 | 무료 | 유료 |
      |---|---:|---:|---:|---:|
      | 연극 | 1 | 50% | 0 | 1 |
      """
    let html = HTMLReportWriter.wrapTables(MarkdownHTML.fragment(md))
    #expect(html.components(separatedBy: "<table class=\"stack\">").count == 2, "\(html)")
    #expect(html.components(separatedBy: "<table>").count == 2, "the figures table is not a list")
    for label in ["공연/행사명", "분류", "자치구", "장소", "기간", "이용요금"] {
      #expect(html.components(separatedBy: "<td data-label=\"\(label)\"").count == 3, "\(label)")
    }
    #expect(html.hasPrefix("<div class=\"table-wrap\"><table class=\"stack\"><thead>"))
    #expect(!html.contains("<td data-label=\"\""))
  }

  /// The page is parsed a section at a time to hold one section's parse tree; its HTML is
  /// checked against Ink parsing each document whole.
  @Test func parsingSectionBySectionGivesTheWholeDocumentsHTML() throws {
    func whole(_ md: String) -> String {
      MarkdownHTML.restoreTags(MarkdownParser().html(from: MarkdownHTML.prepare(md)))
    }
    var documents = [
      // A heading right after a paragraph, a list or a table line is no cut.
      "para\n# H\n\ntext\n- a\n# H2\n\n| a |\n|---|\n| 1 |\n## H3\n\nend\n",
      // A '#' line inside fenced code is no cut either.
      "intro\n\n```\n\n# not a heading\n```\n\n# H\n\n---\n\n# After a rule\n",
      "- a\n  - a1\n- b\n\n## H <sub>x</sub>\n\n| a | b |\n|---|---:|\n| [t](https://x/?a=1&b=2) | 1 |\n\n### H3\n",
      "\n\n# Starts with empty lines\n\n\n\n## Many empty lines\n\n",
    ]
    for language in [ReportLanguage.ko, .en] {
      let options = ExportOptions(language: language)
      documents.append(try MarkdownReportWriter().render(fixture.report, options: options).markdown)
    }
    for name in ["report.md", "en/report.md"] {
      let url = Golden.directory.appendingPathComponent(name)
      documents.append(try String(contentsOf: url, encoding: .utf8))
    }
    for md in documents {
      #expect(MarkdownHTML.fragment(md) == whole(md), "\(md.prefix(80))")
      #expect(MarkdownHTML.sections(of: md).joined() == md)
    }
    // The reports are really cut (one section per heading after an empty line).
    let report = documents[documents.count - 2]
    let headings = report.components(separatedBy: "\n\n#").count - 1
    #expect(headings >= 8)
    #expect(MarkdownHTML.sections(of: report).count == headings + 1)
  }

  @Test func anItemAfterANestedListStaysAtTheTopLevel() {
    let md = "- a\n  - a1\n  - a2\n- b\n  - b1\n- 외 3건\n"
    let html = MarkdownHTML.fragment(md)
    #expect(html == "<ul><li>a<ul><li>a1</li><li>a2</li></ul></li><li>b<ul><li>b1</li></ul></li><li>외 3건</li></ul>")
  }

  @Test func chartIdsArePrefixedSoTwoChartsNeverShareOne() {
    let svg = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE svg>
      <svg xmlns="http://www.w3.org/2000/svg"><defs><linearGradient id="g"/><clipPath id="g2"/></defs>
      <rect fill="url(#g)" clip-path="url(#g2)"/><use href="#g"/><use xlink:href="#g2"/></svg>
      """
    let a = InlineSVG.embed(svg, idPrefix: "chart1-")
    let b = InlineSVG.embed(svg, idPrefix: "chart2-")
    #expect(a.hasPrefix("<svg "))
    #expect(InlineSVG.identifiers(in: a) == ["chart1-g", "chart1-g2"])
    #expect(InlineSVG.identifiers(in: a).isDisjoint(with: InlineSVG.identifiers(in: b)))
    #expect(a.contains("fill=\"url(#chart1-g)\" clip-path=\"url(#chart1-g2)\""))
    #expect(a.contains("<use href=\"#chart1-g\"/><use xlink:href=\"#chart1-g2\"/>"))
  }

  @Test func theWriterWritesOneFileAndTheComparisonItsOwn() throws {
    let out = try Fixtures.temporaryDirectory("raon-html")
    defer { try? FileManager.default.removeItem(at: out) }
    let writer = HTMLReportWriter()
    #expect(writer.outputEntries == ["report.html", "changes.html"])
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
    #expect(ReportFormat.defaults == [.md, .xlsx, .csv, .json, .html])
    #expect(ReportFormat.allCases.contains(.pdf))
  }
}
