import CXlsxWriter
import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument

/// 요약, the page an official puts on top: the title, the week's headline beside the
/// previous week's, the change counts and the charts of what is on.
extension XLSXReportBuilder {
  /// 요약, the page an official puts on top: the title with the week in official form and
  /// the data's 기준 시각, the week's headline (this week, the previous week, ▲/▼), the
  /// change counts, and charts of this week's running programs by district and by
  /// category (the current ones when nothing runs; a sentence when there are none), read
  /// from 운영 현황's tables. Snapshot ids and file names are on 자료 정보.
  func writeSummary(_ sheet: XLSXSheet, _ report: ReportData, charts: WeeklyCharts, onNow: OnNowTables) throws {
    let f = formats
    for (col, width) in [30.0, 14, 14, 14].enumerated() { try sheet.setColumn(col, width: width) }
    // Portrait, on one page: the text and the two charts read top to bottom.
    try sheet.setUpPrinting(XLSXPrintSetUp(landscape: false, onePage: true, title: printTitle))

    try sheet.string(
      0, 0, report.district.map { "\(labels.reportTitle) — \(labels.named($0.name))" } ?? labels.reportTitle, f.title)
    try sheet.setRow(0, height: 24)
    try sheet.string(
      1, 0, "\(labels.officialPeriod(report.week))  |  \(labels.collectedAt(report.snapshot.takenAt))", f.subtitle)
    var r = try writeWeekHeadline(sheet, report, row: 3) + 1

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
    try sheet.string(r, 0, labels.attribution, f.note)
  }

  /// 요약's chart of what is on, over its table on 운영 현황; returns the row after the
  /// chart and its note.
  func insertSummaryChart(_ sheet: XLSXSheet, row: Int, _ chart: Chart, over t: OnNowTables.Table) throws -> Int {
    try draw(
      chart, at: row, on: sheet, over: ChartRows(sheet: labels.whatIsOn, firstRow: t.firstRow, keyCol: t.col),
      scale: (1.1, 0.0))
    guard case .bars(let bars) = chart.content else { return row }
    return row + Self.chartRows(Self.shownBars(bars)) + 2
  }

  /// The week's headline on 요약: this week beside the previous week's report, with
  /// changes marked ▲/▼; a share of nothing (0 of 0) is "–". Returns the next free row.
  func writeWeekHeadline(_ sheet: XLSXSheet, _ report: ReportData, row: Int) throws -> Int {
    let f = formats
    var r = row
    try sheet.string(r, 0, labels.xlsxHeadlines, f.section)
    r += 1
    let against = ComparedWith.of(report)
    let previous = report.previousWeek.flatMap { v in against.map { _ in v } }
    var titles = [labels.key, labels.thisWeek]
    if let against, previous != nil { titles += [labels.comparedHeader(against), labels.change] }
    for (col, title) in titles.enumerated() { try sheet.string(r, col, title, f.header) }
    r += 1
    let now = report.weekView
    let counts: [(String, (WeekView) -> Int)] = [
      (labels.currentPrograms, \.current), (labels.runningThisWeek, \.running),
      (labels.startingThisWeek, \.starting), (labels.endingThisWeek, \.ending),
      (labels.registeredThisWeek, \.registered),
    ]
    for (title, value) in counts {
      try sheet.string(r, 0, title, f.label)
      try sheet.number(r, 1, Double(value(now)), f.integer)
      if let view = previous {
        try sheet.number(r, 2, Double(value(view)), f.integer)
        try sheet.number(r, 3, Double(value(now) - value(view)), f.signedInteger)
      }
      r += 1
    }
    try sheet.string(r, 0, labels.freeShareRunning, f.label)
    // A share of no running program is no share at all: "–", not 0.0%.
    func share(_ v: WeekView) -> Double? { v.running > 0 ? Self.share(v.runningFree, of: v.running) : nil }
    func write(_ col: Int, _ value: Double?, _ format: XLSXWorkbook.Format) throws {
      if let value {
        try sheet.number(r, col, value, format)
      } else {
        try sheet.string(r, col, labels.notApplicable, f.rightAligned)
      }
    }
    let shareNow = share(now)
    try write(1, shareNow.map(Percentage.rounded), f.percent)
    if let view = previous {
      let old = share(view)
      try write(2, old.map(Percentage.rounded), f.percent)
      let delta = shareNow.flatMap { s in old.map { Double(Percentage.tenths(s - $0) ?? 0) / 10 } }
      try write(3, delta, f.signedPoints)
    }
    r += 2

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
