import Foundation
import RaonCore
import RaonMail
import Testing

@Suite struct WeeklyMailBodyTests {
  static let summary = WeeklySummary(
    language: "ko", title: "서울시 문화행사 주간 현황 — 종로구", period: "2025.\u{00A0}8.\u{00A0}18.(월) ~ 8.\u{00A0}24.(일)",
    dataAsOf: "2025.\u{00A0}8.\u{00A0}18.(월)\u{00A0}07:00 수집 기준", sentencesHeading: "□ 주간 요약",
    sentences: ["종로구에서 이번 주 운영 중인 문화행사는 306건입니다.", "<script>alert(1)</script> & \"따옴표\""],
    headlineHeading: "□ 주요 지표",
    headline: .init(
      header: ["구분", "이번 주", "전주", "증감"],
      rows: [["운영 중·예정", "1,234", "1,200", "▲ 34"], ["무료 비율(이번 주 운영)", "61.2%", "60.0%", "▲ 1.2%p"]]),
    attachmentsHeading: "붙임", sourceLine: "출처: 서울 열린데이터광장 「서울시 문화행사 정보」(공공누리 제1유형)")

  @Test func thePlainTextTableLinesUpWithKoreanCountedTwoColumnsWide() {
    let text = WeeklyMailBody.text(
      Self.summary, attachments: [.init(fileName: "a.pdf", bytes: 1_234_567)], footer: "자동 발송")
    let lines = text.split(separator: "\n").map(String.init)
    let header = lines.firstIndex { $0.hasPrefix("구분") } ?? -1
    #expect(header >= 0)
    let table = Array(lines[header..<(header + 4)])
    // Every row of the table is as wide as the header, and each figure ends where its title does.
    let widths = table.map { DisplayWidth.of($0) }
    #expect(Set(widths).count == 1, "\(table)")
    #expect(table[2].hasSuffix("▲ 34"))
    #expect(text.contains("2025. 8. 18.(월) ~ 8. 24.(일)"), "no-break spaces are plain in the text body")
    #expect(text.contains("1. a.pdf (1.2 MB)"))
    #expect(text.hasSuffix("-- \n자동 발송\n"))
  }

  @Test func theHTMLBodyEscapesEveryTextAndLoadsNothing() {
    let html = WeeklyMailBody.html(Self.summary, attachments: [.init(fileName: "<b>.pdf", bytes: 999)], footer: "자동 발송")
    #expect(!html.contains("<script>"))
    #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;따옴표&quot;"))
    #expect(html.contains("&lt;b&gt;.pdf (999 B)"))
    #expect(!html.contains("src="), "no image or script is loaded")
    #expect(!html.contains("http"))
    #expect(html.components(separatedBy: "<tr>").count - 1 == 3, "the header and two rows")
    #expect(html.contains("<th style=\"border:1px solid #999;padding:4px 8px;background:#eee;text-align:right\">증감</th>"))
  }

  @Test func sizesReadAsMailClientsShowThem() {
    #expect(WeeklyMailBody.size(512) == "512 B")
    #expect(WeeklyMailBody.size(1_499) == "1 KB")
    #expect(WeeklyMailBody.size(340_400) == "340 KB")
    #expect(WeeklyMailBody.size(10_240_000) == "10.2 MB")
  }

  @Test func theSummaryRoundTripsThroughJSONAsTheLedgerKeepsIt() throws {
    let data = try JSONEncoder().encode(Self.summary)
    #expect(try JSONDecoder().decode(WeeklySummary.self, from: data) == Self.summary)
  }
}
