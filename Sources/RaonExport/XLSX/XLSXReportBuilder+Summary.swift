import CXlsxWriter
import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument

/// 요약, the page an official puts on top: the title, the week's headline beside the
/// previous week's, the change counts and the charts of what is on.
extension XLSXReportBuilder {
  /// 요약, the page an official puts on top, as page 1 of the PDF has it (``PageOne``, the
  /// document's own text, not written again here): the title, the period and the data's
  /// 기준 시각, the report's date and the office, the summary's sentences, the headline
  /// table (구분, this week, the previous week, ▲/▼); then the change counts and charts of
  /// this week's running programs by district and by category (the current ones when
  /// nothing runs; a sentence when there are none), read from 운영 현황's tables. Snapshot
  /// ids and file names are on 자료 정보.
  func writeSummary(_ sheet: XLSXSheet, _ weekly: WeeklyReport, onNow: OnNowTables) throws {
    let f = formats, report = weekly.figures, charts = weekly.charts, page = weekly.pageOne
    for (col, width) in Self.summaryWidths.enumerated() { try sheet.setColumn(col, width: width) }
    // Portrait, on one page: the text and the two charts read top to bottom.
    try sheet.setUpPrinting(XLSXPrintSetUp(landscape: false, onePage: true, title: printTitle))

    try sheet.string(0, 0, page.title, f.title)
    try sheet.setRow(0, height: 24)
    try sheet.string(1, 0, "\(page.period)  |  \(page.dataAsOf)", f.subtitle)
    try sheet.string(2, 0, ([page.reportedOn] + page.office).joined(separator: " · "), f.subtitle)
    var r = 3
    try sheet.string(r, 0, page.summaryHeading, f.section)
    r += 1
    // Each sentence across the table's width, wrapped, its row as tall as its lines.
    let across = Self.summaryWidths.reduce(0, +)
    for sentence in page.sentences {
      try sheet.wrappedNote(r, 0...(Self.summaryWidths.count - 1), fit(sentence), width: across, f.wrapped)
      r += 1
    }
    r = try writeHeadline(sheet, page, row: r + 1) + 1
    r = try writeChangeCounts(sheet, report, row: r) + 1

    let v = report.weekView
    let (byDistrict, byCategory) =
      v.running > 0
      ? ((charts.runningByDistrict, onNow.runningByDistrict), (charts.runningByCategory, onNow.runningByCategory))
      : ((charts.currentByDistrict, onNow.currentByDistrict), (charts.currentByCategory, onNow.currentByCategory))
    if v.running == 0 && v.current == 0 {
      try sheet.string(r, 0, labels.wbNothingToChart, f.note)
      r += 2
    } else {
      if v.running == 0 {
        try sheet.string(r, 0, labels.wbChartsShowCurrent, f.note)
        r += 1
      }
      if byDistrict.1.rows.count > 1 {
        r = try insertSummaryChart(sheet, row: r, byDistrict.0, over: byDistrict.1)
      } else {
        // One district (a pack): one bar says nothing; a sentence says why there is none.
        try sheet.string(r, 0, labels.wbOneDistrictNoChart(labels.named(report.district?.name ?? byDistrict.1.rows.first?.key ?? "")), f.note)
        r += 2
      }
      if byCategory.1.rows.count > 1 {
        r = try insertSummaryChart(sheet, row: r, byCategory.0, over: byCategory.1)
      } else if let only = byCategory.1.rows.first {
        try sheet.string(r, 0, labels.wbOneCategoryNoChart(labels.named(only.key), count: only.count), f.note)
        r += 2
      }
    }
    try sheet.string(r, 0, page.source, f.note)
  }

  /// 요약's columns: the headline's 구분, then its three figures.
  static let summaryWidths: [Double] = [30, 14, 14, 14]

  /// 요약's chart of what is on, over its table on 운영 현황; returns the row after the
  /// chart and its note.
  func insertSummaryChart(_ sheet: XLSXSheet, row: Int, _ chart: Chart, over t: OnNowTables.Table) throws -> Int {
    guard case .bars(let bars) = chart.content else { return row }
    // Bars a little thinner than on the table sheets (about 20 px): with page 1's sentences
    // above them, 요약 still prints on one page in type of 7.5 pt or more.
    let y = Self.summaryChartScale(bars: Self.shownBars(bars))
    try draw(
      chart, at: row, on: sheet, over: ChartRows(sheet: labels.whatIsOn, firstRow: t.firstRow, keyCol: t.col),
      scale: (1.1, y))
    return row + Self.rows(yScale: y) + 2
  }

  /// 요약's chart height (libxlsxwriter's y scale of 288 px) for `bars` bars.
  static func summaryChartScale(bars: Int) -> Double { min(max(0.45 + 0.07 * Double(bars), 0.8), 1.6) }

  /// Page 1's headline table on 요약, under its heading: its own columns (구분 …) and
  /// cells, counts as numbers. Returns the next free row.
  func writeHeadline(_ sheet: XLSXSheet, _ page: PageOne, row: Int) throws -> Int {
    let f = formats
    var r = row
    try sheet.string(r, 0, page.figuresHeading, f.section)
    // The heading's rule runs across the table to its units, as on paper.
    let last = page.headline.columns.count - 1
    for col in 1..<max(last, 1) { try sheet.string(r, col, "", f.section) }
    try sheet.string(r, last, page.figuresUnit, f.unit)
    r += 1
    for (col, column) in page.headline.columns.enumerated() {
      try sheet.string(r, col, column.header, f.header)
    }
    r += 1
    for cells in page.headline.rows {
      for (col, cell) in cells.enumerated() {
        if col == 0 {
          try sheet.string(r, col, cell.text, f.label)
        } else {
          try writeFigure(sheet, r, col, cell)
        }
      }
      r += 1
    }
    return r
  }

  /// A headline figure as a number Excel can sum, formatted as page 1 prints it (`▲ 5`,
  /// `77.1%`, `▼ 0.9%p`); a share of nothing as page 1's `–`.
  func writeFigure(_ sheet: XLSXSheet, _ r: Int, _ col: Int, _ cell: Cell) throws {
    let f = formats
    switch cell {
    case .number(let n): try sheet.number(r, col, Double(n), f.integer)
    case .change(let n): try sheet.number(r, col, Double(n), f.signedInteger)
    case .share(let part, let whole) where whole > 0:
      try sheet.number(r, col, Percentage.rounded(Self.share(part, of: whole)), f.percent)
    case .percent(let fraction): try sheet.number(r, col, Percentage.rounded(fraction), f.percent)
    case .pointChange(let delta?, _):
      try sheet.number(r, col, Double(Percentage.tenths(delta) ?? 0) / 10, f.signedPoints)
    case .strong(let inner): try writeFigure(sheet, r, col, inner)
    default: try sheet.string(r, col, cell.text, f.rightAligned)
    }
  }

  /// The change counts by kind (or the sentence that there is no comparison). Returns the
  /// next free row.
  func writeChangeCounts(_ sheet: XLSXSheet, _ report: ReportData, row: Int) throws -> Int {
    let f = formats
    var r = row
    try sheet.string(r, 0, labels.xlsxChangeCounts, f.section)
    r += 1
    if let changes = report.changes, let kinds = report.changeKinds {
      let rows: [(String, Int)] = [
        (labels.added, changes.added.count), (labels.removedEnded, kinds.removedEnded),
        (labels.removedWithdrawn, kinds.removedWithdrawn), (labels.changedMaterial, kinds.changedMaterial),
        (labels.changedMinor, kinds.changedMinor),
      ]
      for (title, n) in rows {
        try sheet.string(r, 0, title, f.label)
        try sheet.number(r, 1, Double(n), f.integer)
        r += 1
      }
    } else {
      try sheet.string(r, 0, labels.noComparison)
      r += 1
    }
    return r
  }
}
