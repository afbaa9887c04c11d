import Foundation
@testable import RaonAnalytics
import RaonCore
import TestSupport
import Testing

@testable import RaonDocument
@testable import RaonExport

@Suite("Trend writers: trend.md + SVG, trend.xlsx, trend.csv, trend.json")
struct TrendWritersTests {
  /// Four weekly points, the first without added/removed.
  static let points: [WeeklyTrendPoint] = (0..<4).map { i in
    let day =
      CalendarDay(year: 2024, month: 9, day: 9)?.adding(days: 7 * i) ?? CalendarDay(dayNumber: 0)
    return WeeklyTrendPoint(
      isoWeek: ISOWeek(containing: day), snapshotId: Int64(10 + i),
      takenAt: day.koreaMidnight.addingTimeInterval(9 * 3_600), programCount: 4_998 + 12 * i,
      current: 1_200 - 30 * i, running: 640 + i, starting: 80 + 5 * i, registered: 40 - i,
      added: i == 0 ? nil : 20 + i, removed: i == 0 ? nil : 8 - i)
  }

  static func written(_ formats: [ReportFormat], _ options: ExportOptions = ExportOptions()) throws
    -> (URL, ExportResult)
  {
    let dir = try Fixtures.temporaryDirectory("raon-trend")
    let trend = ReportDocument.trend(points, options: options.document)
    return (dir, try TrendWriters.write(trend, formats: formats, into: dir, options: options))
  }

  @Test func jsonHasTheReportTrendShapeWithNullsFirst() throws {
    let (dir, result) = try Self.written([.json])
    #expect(result.files == ["trend.json"])
    let data = try Data(contentsOf: dir.appendingPathComponent("trend.json"))
    let array = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    #expect(array.count == 4)
    #expect(array[0]["added"] is NSNull && array[0]["removed"] is NSNull)
    #expect(array[0]["isoWeek"] as? String == "2024-W37")
    #expect(array[0]["takenAt"] as? String == "2024-09-09T00:00:00Z")
    #expect(array[1]["added"] as? Int == 21 && array[3]["removed"] as? Int == 5)
    let text = String(decoding: data, as: UTF8.self)
    let keys = [
      "isoWeek", "snapshotId", "takenAt", "programCount", "current", "running", "starting",
      "registered", "added", "removed",
    ]
    let positions = keys.compactMap { text.range(of: "\"\($0)\"")?.lowerBound }
    #expect(positions.count == keys.count && positions == positions.sorted())
  }

  @Test func csvHasBOMHeaderAndEmptyFirstChanges() throws {
    let (dir, _) = try Self.written([.csv])
    let data = try Data(contentsOf: dir.appendingPathComponent("trend.csv"))
    #expect(Array(data.prefix(3)) == [0xEF, 0xBB, 0xBF])
    let lines = String(decoding: data.dropFirst(3), as: UTF8.self).components(separatedBy: "\r\n")
    #expect(
      lines[0]
        == "iso_week,snapshot_id,taken_at,program_count,current,running,starting,registered,added,removed"
    )
    #expect(lines[1] == "2024-W37,10,2024-09-09T00:00:00Z,4998,1200,640,80,40,,")
    #expect(lines[4] == "2024-W40,13,2024-09-30T00:00:00Z,5034,1110,643,95,37,23,5")
    #expect(lines[5] == "" && lines.count == 6)
  }

  @Test func markdownLinksTheChartAndTablesEveryPoint() throws {
    let (dir, result) = try Self.written([.md])
    #expect(result.files == ["trend.md", "charts/trend.svg"])
    let md = try String(contentsOf: dir.appendingPathComponent("trend.md"), encoding: .utf8)
    #expect(md.hasPrefix("# 서울시 문화행사 주간 추이\n\n## 추이\n"))
    #expect(md.contains("](charts/trend.svg)"))
    // Weeks and days in official form (no-break spaces inside a date); ids and ISO codes
    // stay in the CSV, JSON and workbook.
    #expect(md.contains("| 2024.\u{A0}9.\u{A0}9. ~ 9.\u{A0}15. | 2024.\u{A0}9.\u{A0}9. | 4,998 | 1,200 | 640 | 80 | 40 | — | — |"))
    #expect(md.contains("| 2024.\u{A0}9.\u{A0}30. ~ 10.\u{A0}6. | 2024.\u{A0}9.\u{A0}30. | 5,034 | 1,110 | 643 | 95 | 37 | 23 | 5 |"))
    #expect(!md.contains("2024-W3") && !md.contains("#10"))
    let svg = try String(
      contentsOf: dir.appendingPathComponent("charts/trend.svg"), encoding: .utf8)
    #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
    // Current and running, then the four weekly flows; the catalog's size is in the table
    // only (on one axis with the rest it flattened them).
    #expect(svg.components(separatedBy: "<polyline").count - 1 == 6)
    #expect(!svg.contains("전체 행사") && svg.contains("신규 등록") && svg.contains("운영 중·예정"))
    // Lines that may coincide are drawn in different dashes.
    #expect(svg.components(separatedBy: "stroke-dasharray=").count - 1 >= 6)
    // Deterministic, and the reusable section is what the document holds.
    let L = ReportLabels(.ko)
    let chart = TrendComposer.chart(Self.points, labels: L)
    #expect(SVGChart.draw(chart) == svg && chart.path == "charts/trend.svg")
    var section = ""
    MarkdownRenderer.append(TrendComposer.blocks(Self.points, chart: chart, labels: L), to: &section)
    #expect(md.contains(section))
  }

  @Test func englishLabels() throws {
    let (dir, _) = try Self.written([.md], ExportOptions(language: .en))
    let md = try String(contentsOf: dir.appendingPathComponent("trend.md"), encoding: .utf8)
    #expect(md.contains("## Trend") && md.contains("| Week | Collected | Programs | Current |"))
  }

  @Test func anEmptyTrendSaysSo() throws {
    let L = ReportLabels(.ko)
    let chart = TrendComposer.chart([], labels: L)
    var section = ""
    MarkdownRenderer.append(TrendComposer.blocks([], chart: chart, labels: L), to: &section)
    #expect(section.contains("추이를 그릴 수집 자료가 없습니다."))
    #expect(SVGChart.draw(chart).contains("</svg>"))
    let dir = try Fixtures.temporaryDirectory("raon-trend-empty")
    _ = try TrendWriters.write(
      .trend([], options: DocumentOptions()), formats: FormatRegistry.standard.formats, into: dir, options: ExportOptions())
    #expect(try XLSXCheck(dir.appendingPathComponent("trend.xlsx")).sheets == ["추이"])
  }

  @Test func workbookHasTheTableAndTwoLineChartsWithCachedValues() throws {
    let (dir, _) = try Self.written([.xlsx])
    let check = try XLSXCheck(dir.appendingPathComponent("trend.xlsx"))
    let s = "추이"
    #expect(check.sheets == [s])
    // The week by its Monday, the figures (B…H), then — off the print area — the ISO week,
    // the snapshot and the time it was taken.
    #expect(check.text(s, 0, 0) == "주 (월요일)" && check.text(s, 0, 1) == "전체 행사")
    #expect(check.text(s, 0, 8) == "주(ISO)")
    #expect(check.text(s, 1, 0) == "2024. 9. 9.")
    #expect(check.text(s, 1, 8) == "2024-W37")
    #expect(check.number(s, 1, 9) == 10)
    #expect(check.cell(s, 1, 10)["py"] as? String == "datetime")
    #expect(check.text(s, 1, 10) == "2024-09-09T09:00:00")
    #expect(check.number(s, 4, 1) == 5_034 && check.number(s, 4, 7) == 5)
    #expect(check.cell(s, 1, 6)["py"] as? String == "none")  // added: none for the first point
    #expect(check.map("freeze", s) as? String == "B2")
    let charts = check.charts
    #expect(charts.count == 2)
    let formulas = charts.flatMap { $0["formulas"] as? [String] ?? [] }
    #expect(
      formulas.contains { $0.hasSuffix("!$C$2:$C$5") }
        && formulas.contains { $0.hasSuffix("!$H$2:$H$5") })
    // The catalog's size (B) is not charted: on one axis it flattened the weekly counts.
    #expect(!formulas.contains { $0.hasSuffix("!$B$2:$B$5") })
    #expect(formulas.contains { $0.hasSuffix("!$A$2:$A$5") })
    // 2 + 4 series of 4 points (the first added/removed empty still counts as a point).
    #expect((charts[0]["numCachePoints"] as? Int ?? 0) == 8)
    #expect((charts[1]["numCachePoints"] as? Int ?? 0) >= 14)
    #expect(check.properties["title"] as? String == "서울시 문화행사 주간 추이")
  }

  @Test func reusableSheetGoesIntoAnotherWorkbook() throws {
    let dir = try Fixtures.temporaryDirectory("raon-trend-sheet")
    let url = dir.appendingPathComponent("other.xlsx")
    let workbook = try XLSXWorkbook(url: url, zip64: false)
    let formats = try XLSXFormats(workbook, language: .ko)
    _ = try workbook.addSheet("요약")
    let sheet = try XLSXTrendSheet.add(
      to: workbook, points: Self.points, chart: TrendComposer.chart(Self.points, labels: ReportLabels(.ko)),
      labels: ReportLabels(.ko), formats: formats)
    #expect(sheet.name == "추이")
    try workbook.close()
    let check = try XLSXCheck(url)
    #expect(check.sheets == ["요약", "추이"])
    #expect(check.charts.count == 2)
  }

  @Test func svgTicksAreRound() {
    #expect(SVGLineChart.ticks(max: 0) == [0, 1])
    #expect(SVGLineChart.ticks(max: 7) == [0, 2, 4, 6, 8])
    #expect(SVGLineChart.ticks(max: 4_998) == [0, 1_000, 2_000, 3_000, 4_000, 5_000])
    #expect(SVGLineChart.ticks(max: 20_001) == [0, 5_000, 10_000, 15_000, 20_000, 25_000])
  }
}
