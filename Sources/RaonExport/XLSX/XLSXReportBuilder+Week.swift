import CXlsxWriter
import Foundation
import RaonAnalytics
import RaonCore

/// The week's part of the workbook: the headline rows of 요약, the 운영 현황 sheet (running
/// and current by district and category), and one full sheet per list of the week
/// (이번 주 시작, 이번 주 종료, 신규 등록, 새로 추가) with filters.
extension XLSXReportBuilder {
  /// The list sheets, started (added to the workbook, in order) before the programs.
  struct WeekSheets {
    let onNow: XLSXSheet
    let starting, ending, registered, added: XLSXTableStream
    let trend: XLSXSheet
  }

  /// Adds the week's sheets; ``fillWeekSheets(_:_:)`` fills them once the figures are known.
  func addWeekSheets() throws -> WeekSheets {
    let onNow = try workbook.addSheet(labels.whatIsOn)
    func list(_ name: String) throws -> XLSXTableStream {
      // In memory (not streamed): the lists are filled after the programs sheet.
      let stream = XLSXTableStream(
        workbook: workbook, baseName: name, headers: weekListHeaders, headerFormat: formats.header,
        rowLimit: rowLimit, constantMemory: false, printTitle: labels.reportTitle,
        repeatColumns: 0...0, printColumns: 0...7, widthCaps: [36, 14, nil, 20, nil, nil, 18, nil, 24, 24, 24])
      try stream.start()
      return stream
    }
    let starting = try list(labels.startingThisWeek), ending = try list(labels.endingThisWeek)
    let registered = try list(labels.newlyRegistered), added = try list(labels.newlyAdded)
    return WeekSheets(
      onNow: onNow, starting: starting, ending: ending, registered: registered, added: added,
      trend: try workbook.addSheet(labels.trendTitle))
  }

  private var weekListHeaders: [String] {
    [
      labels.title, labels.category, labels.district, labels.place, labels.fieldName("start_date"),
      labels.fieldName("end_date"), labels.fee, labels.id, labels.fieldName("portal_url"),
      // The 2026 layout's fields, after the link: on screen, not on paper.
      labels.fieldName("event_time"), labels.fieldName("inquiry"),
    ]
  }

  func fillWeekSheets(_ sheets: WeekSheets, _ report: ReportData, chartData: XLSXSheet) throws {
    try fillOnNow(sheets.onNow, report.weekView, chartData: chartData)
    try XLSXTrendSheet.add(
      to: workbook, points: report.trend, labels: labels, formats: formats, into: sheets.trend)
    try fillList(sheets.starting, report.lists.starting)
    try fillList(sheets.ending, report.lists.ending)
    try fillList(sheets.registered, report.lists.registered)
    if report.changes != nil {
      try fillList(sheets.added, report.addedInReportOrder)
    } else {
      try sheets.added.nextRow()
      try sheets.added.text(0, labels.noComparison)
      try sheets.added.finish()
    }
  }

  /// One program per row, in report order; the title is the portal link when there is one.
  /// On paper: title … ID (the link stays on screen), long text cut at the column's edge.
  private func fillList(_ stream: XLSXTableStream, _ programs: [Program]) throws {
    for p in programs {
      try stream.nextRow()
      try stream.text(0, p.title)
      try stream.text(1, p.category)
      try stream.text(2, p.district)
      try stream.text(3, p.place)
      try stream.date(4, p.startDate, formats.date)
      try stream.date(5, p.endDate, formats.date)
      try stream.text(6, p.feeText)
      try stream.text(7, p.id)
      try stream.link(8, p.portalURL, portal: true)
      try stream.text(9, p.eventTime)
      try stream.text(10, p.inquiry)
    }
    try stream.finish()
  }

  /// The running programs by district and by category as native bar charts (the first N
  /// and 기타, as in the Markdown, read from the hidden chart-data sheet), then four ranked
  /// tables side by side, each titled with the set it counts. Charts lead so that a printed
  /// page never cuts one; the tables' titles and headers repeat on every page.
  private func fillOnNow(_ sheet: XLSXSheet, _ v: WeekView, chartData: XLSXSheet) throws {
    let f = formats
    try sheet.string(0, 0, labels.whatIsOn, f.title)
    try sheet.string(1, 0, labels.weekDefinitions, f.note)
    // Columns 0–1 of the chart data hold the catalog's district chart.
    let byDistrict = try writeTopNBlock(chartData, v.runningByDistrict, keyCol: 3)
    let byCategory = try writeTopNBlock(chartData, v.runningByCategory, keyCol: 6)
    try insertCharts(
      on: sheet, row: 3,
      [
        ChartSource(
          title: "\(labels.onNow) — \(labels.byDistrict)", sheet: chartData.name, firstRow: 1,
          rowCount: byDistrict, keyCol: 3, valueCol: 4, horizontal: true),
        ChartSource(
          title: "\(labels.onNow) — \(labels.byCategory)", sheet: chartData.name, firstRow: 1,
          rowCount: byCategory, keyCol: 6, valueCol: 7, horizontal: true),
      ], gridColumns: (0, 8))
    // A chart is 1.45 × 15 rows of 20 px (``insertCharts``); the tables start below it.
    let top = 3 + 23
    var printed: [Double] = []
    let blocks: [(String, String, [BandCount], Int)] = [
      ("\(labels.onNow) — \(labels.byDistrict)", labels.district, v.runningByDistrict, v.running),
      ("\(labels.onNow) — \(labels.byCategory)", labels.category, v.runningByCategory, v.running),
      ("\(labels.currentSection) — \(labels.byDistrict)", labels.district, v.currentByDistrict, v.current),
      ("\(labels.currentSection) — \(labels.byCategory)", labels.category, v.currentByCategory, v.current),
    ]
    for (i, (title, key, rows, total)) in blocks.enumerated() {
      let c = i * 4
      try sheet.string(top, c, title, f.section)
      try sheet.string(top + 1, c, key, f.header)
      try sheet.string(top + 1, c + 1, labels.count, f.header)
      try sheet.string(top + 1, c + 2, labels.share, f.header)
      var width = max(DisplayWidth.of(key), 8)
      for (r, row) in rows.enumerated() {
        try sheet.string(top + 2 + r, c, row.key)
        try sheet.number(top + 2 + r, c + 1, Double(row.count), f.integer)
        try sheet.number(top + 2 + r, c + 2, Percentage.rounded(Self.share(row.count, of: total)), f.percent)
        width = max(width, DisplayWidth.of(row.key))
      }
      let last = top + 2 + rows.count
      try sheet.string(last, c, labels.total, f.total)
      try sheet.number(last, c + 1, Double(total), f.totalInteger)
      try sheet.setColumn(c, width: Double(Self.clampWidth(width)))
      try sheet.setColumn(c + 1, width: 9)
      try sheet.setColumn(c + 2, width: 9)
      try sheet.setColumn(c + 3, width: 3)
      printed += [Double(Self.clampWidth(width)), 9, 9, 3]
    }
    // Four tables side by side: one page wide, their titles and headers on every page.
    try sheet.setUpPrinting(
      XLSXPrintSetUp(
        landscape: XLSXPrintSetUp.isWide(printed), repeatRows: top...(top + 1),
        title: labels.reportTitle))
  }

  /// The week's headline on 요약: this week beside the previous week's report, with signed
  /// changes; returns the next free row.
  func writeWeekHeadline(_ sheet: XLSXSheet, _ report: ReportData, row: Int) throws -> Int {
    let f = formats
    var r = row
    try sheet.string(r, 0, labels.xlsxHeadlines, f.section)
    r += 1
    let previous = report.previousWeek.flatMap { v in report.compareTo.map { (v, $0) } }
    var titles = [labels.key, "\(labels.thisWeek) (\(labels.weekAndSnapshot(report.week, report.snapshot.id)))"]
    if let (view, info) = previous {
      titles += ["\(labels.previousWeek) (\(labels.weekAndSnapshot(view.isoWeek, info.id)))", labels.change]
    }
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
      if let (view, _) = previous {
        try sheet.number(r, 2, Double(value(view)), f.integer)
        try sheet.number(r, 3, Double(value(now) - value(view)), f.signedInteger)
      }
      r += 1
    }
    try sheet.string(r, 0, labels.freeShareRunning, f.label)
    let share = Self.share(now.runningFree, of: now.running)
    try sheet.number(r, 1, Percentage.rounded(share), f.percent)
    if let (view, _) = previous {
      let old = Self.share(view.runningFree, of: view.running)
      try sheet.number(r, 2, Percentage.rounded(old), f.percent)
      try sheet.number(r, 3, Double(Percentage.tenths(share - old) ?? 0) / 10, f.signedPoints)
    }
    r += 1
    try sheet.string(r, 0, labels.programCount, f.label)
    try sheet.number(r, 1, Double(report.tables.total), f.integer)
    if let then = report.compareTables, previous != nil {
      try sheet.number(r, 2, Double(then.total), f.integer)
      try sheet.number(r, 3, Double(report.tables.total - then.total), f.signedInteger)
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
