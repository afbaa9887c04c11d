import Foundation
@testable import RaonAnalytics
import RaonCore
import TestSupport
import Testing

@testable import RaonDocument
@testable import RaonExport

/// A chart is described once (``Chart``) and drawn from that description by the SVG
/// (Markdown, HTML) and by the workbook's native chart: a new chart is a new description,
/// with nothing added to any renderer.
@Suite struct ChartDescriptionTests {
  let fixture = TextExportFixture.self

  /// A chart the report does not have: its description alone, put in a section.
  static func newChart() -> Chart {
    let rows = [BandCount(key: "무료", count: 7), BandCount(key: "유료", count: 3), BandCount(key: "미상", count: 1)]
    let bars = Chart.Bars(
      subject: "요금별", set: "이번 주 운영", rows: rows,
      bars: rows.prefix(2).map { Chart.Bar(label: $0.key, value: $0.count, valueText: "\($0.count)") }, keep: 2,
      unit: "구분", isScale: false, note: "그 외 1개 구분 1건")
    return Chart(file: "running_by_fee", title: "새 차트 제목", alt: "새 차트", emptyText: "없음", content: .bars(bars))
  }

  @Test func aNewChartInTheDocumentIsDrawnInTheMarkdownAndThePageWithNoRendererChanged() throws {
    var report = fixture.report.weekly()
    let chart = Self.newChart()
    report.document.sections[4].blocks.append(.chart(chart))
    report.document.charts.append(chart)
    let files = try MarkdownReportWriter().files(for: .report(report), options: ExportOptions())
    let markdown = try #require(files.first?.text)
    #expect(markdown.contains("![새 차트](charts/running_by_fee.svg)\n\n그 외 1개 구분 1건\n\n"))
    let svg = try #require(files.first { $0.path == "charts/running_by_fee.svg" }?.text)
    #expect(svg.contains("<title>새 차트 제목</title>"))
    // The bars the description names, with their texts, and nothing else.
    #expect(svg.components(separatedBy: "<rect x=\"").count - 1 == 1 + 2)
    #expect(svg.contains(">무료</text>") && svg.contains(">유료</text>") && !svg.contains(">미상</text>"))
    let html = HTMLReportWriter().render(report.document)
    #expect(html.contains("<figure class=\"chart\">" + svg.dropLast() + "</figure><p>그 외 1개 구분 1건</p>"))
  }

  /// The workbook draws any description of bars over rows it holds: its title from the
  /// description's subject and set, its first groups, and a note naming the rest.
  @Test func theWorkbookDrawsADescriptionOverTheRowsItHolds() throws {
    let dir = try Fixtures.temporaryDirectory("raon-chart-description")
    defer { try? FileManager.default.removeItem(at: dir) }
    let url = dir.appendingPathComponent("chart.xlsx")
    let workbook = try XLSXWorkbook(url: url, zip64: false)
    let builder = try XLSXReportBuilder(
      workbook: workbook, options: ExportOptions(), rowLimit: XLSXLimits.rowsPerSheet, streamLargeSheets: false)
    let sheet = try workbook.addSheet("표")
    guard case .bars(let bars) = Self.newChart().content else { return }
    for (i, row) in bars.rows.enumerated() {
      try sheet.string(i + 1, 0, row.key)
      try sheet.number(i + 1, 1, Double(row.count))
    }
    try builder.draw(
      Self.newChart(), at: 6, on: sheet, over: XLSXReportBuilder.ChartRows(sheet: "표", firstRow: 1, keyCol: 0))
    try workbook.close()
    let check = try XLSXCheck(url)
    let chart = try #require(check.charts.first)
    #expect(check.charts.count == 1)
    #expect(chart["title"] as? String == "요금별 이번 주 운영 행사 수")
    let formulas = chart["formulas"] as? [String] ?? []
    #expect(formulas.contains("'표'!$A$2:$A$3") && formulas.contains("'표'!$B$2:$B$3"), "\(formulas)")
    let notes = check.rows("표").flatMap { $0.compactMap { $0["v"] as? String } }.filter { $0.hasPrefix("그 외") }
    #expect(notes == ["그 외 1개 구분 1건은 차트에서 뺐습니다 (전체 표: '표' 시트)."])
  }
}
