import CXlsxWriter
import Foundation
import RaonAnalytics
import RaonCore

/// Builds the sheets of one workbook. One instance per file; not `Sendable`.
final class XLSXReportBuilder {
  let workbook: XLSXWorkbook
  let options: ExportOptions
  let labels: ReportLabels
  let formats: XLSXFormats
  let rowLimit: Int
  let streamLargeSheets: Bool
  /// Limit counts from every sheet, for the warnings.
  private(set) var counts = XLSXCellCounts()
  private var splitTables: [(table: String, sheets: Int)] = []
  /// The first programs of each quality flag, collected while the programs sheet is
  /// written, for the 데이터 품질 sheet (the Markdown shows the same ones).
  private var qualityExamples = QualityExamples(perFlag: XLSXReportBuilder.qualityExamplesPerFlag)
  /// Flag names by flag set, for the programs sheet's 품질 표시 column.
  private var flagNameCache: [UInt32: String] = [:]
  /// Example programs per flag on the 데이터 품질 sheet: as many as the Markdown shows.
  static let qualityExamplesPerFlag = QualityExamples.standardPerFlag

  init(workbook: XLSXWorkbook, options: ExportOptions, rowLimit: Int, streamLargeSheets: Bool) throws {
    self.workbook = workbook
    self.options = options
    self.labels = options.labels
    self.formats = try XLSXFormats(workbook, language: options.language)
    self.rowLimit = rowLimit
    self.streamLargeSheets = streamLargeSheets
  }

  // MARK: - Files

  func writeReport(_ report: ReportData) throws {
    let sheets = try addReportSheets()
    // The changes come before the programs: a table continued on more sheets adds them
    // as it goes, and the workbook keeps sheets in the order they were added.
    try fillChangesTable(sheets.changes, report.changes, day: report.snapshot.koreaDay)
    try writePrograms(report.programs)
    try fillReportSheets(sheets, report)
  }

  /// The sheets of a report, added in their final order before any is filled.
  struct ReportSheets {
    let summary: XLSXSheet
    let week: WeekSheets
    let category, district, fee, duration, cross, quality: XLSXSheet
    let changes: XLSXTableStream
  }

  /// Starts a report before its figures are known: adds every sheet and writes the
  /// programs sheet, the bulk of the workbook. ``finishReport(_:_:)`` fills the rest.
  func startReport(programs: ProgramChunks) throws -> ReportSheets {
    let sheets = try addReportSheets()
    try writePrograms(programs)
    return sheets
  }

  /// Fills the sheets ``startReport(programs:)`` added.
  ///
  /// - Returns: `false`, writing nothing, when the changes need more than one sheet: the
  ///   sheets continuing them would come after the programs, so the caller should write
  ///   the workbook again with ``writeReport(_:)``.
  func finishReport(_ report: ReportData, _ sheets: ReportSheets) throws -> Bool {
    guard sheets.changes.fitsFirstSheet(rows: Self.changeRows(report.changes)) else { return false }
    try fillChangesTable(sheets.changes, report.changes, day: report.snapshot.koreaDay)
    try fillReportSheets(sheets, report)
    return true
  }

  private func addReportSheets() throws -> ReportSheets {
    let summary = try workbook.addSheet(labels.summary)
    let week = try addWeekSheets()
    let category = try workbook.addSheet(labels.byCategory)
    let district = try workbook.addSheet(labels.byDistrict)
    let fee = try workbook.addSheet(labels.byFee)
    let duration = try workbook.addSheet(labels.byDuration)
    let cross = try workbook.addSheet(labels.categoryByDistrict)
    let quality = try workbook.addSheet(labels.quality)
    let changes = changesStream(preamble: nil)
    try changes.start()
    return ReportSheets(
      summary: summary, week: week, category: category, district: district, fee: fee, duration: duration,
      cross: cross, quality: quality, changes: changes)
  }

  /// Everything but the changes and programs, in a fixed order (it decides the order of
  /// the workbook's shared strings, so the file does not depend on how it was started).
  private func fillReportSheets(_ sheets: ReportSheets, _ report: ReportData) throws {
    try setProperties(
      subject: "\(labels.reportTitle) \(report.week)", created: report.snapshot.takenAt)
    let tables = report.tables
    let onNow = try fillWeekSheets(sheets.week, report)
    // The whole catalog's tables, each with its chart underneath (the first N rows of the
    // table itself; the rest is named in a note, never drawn as one long bar).
    let categoryEnd = try fillGroupSheet(sheets.category, keyTitle: labels.category, tables.byCategory, total: tables.total)
    try insertTopChart(
      on: sheets.category, row: categoryEnd + 2, title: labels.byCategory, table: sheets.category.name,
      keyCol: 0, firstRow: 1, rows: tables.byCategory.map(\.keyCount),
      rest: labels.wbRestOfCategories, pageRows: Self.landscapePageRows)
    let districtEnd = try fillGroupSheet(sheets.district, keyTitle: labels.district, tables.byDistrict, total: tables.total)
    if tables.byDistrict.count > 1 {
      try insertTopChart(
        on: sheets.district, row: districtEnd + 2, title: labels.byDistrict, table: sheets.district.name,
        keyCol: 0, firstRow: 1, rows: tables.byDistrict.map(\.keyCount),
        rest: labels.wbRestOfDistricts, pageRows: Self.landscapePageRows)
    }
    try fillBandSheet(sheets.fee, keyTitle: labels.feeBand, tables.byFee, total: tables.total, label: labels.feeBand(_:))
    try fillBandSheet(sheets.duration, keyTitle: labels.durationBand, tables.byDuration, total: tables.total, label: labels.durationBand(_:))
    for (sheet, title, count) in [
      (sheets.fee, labels.byFee, tables.byFee.count), (sheets.duration, labels.byDuration, tables.byDuration.count),
    ] {
      try insertCharts(
        on: sheet, row: count + 3,
        [ChartSource(title: title, sheet: sheet.name, firstRow: 1, rowCount: count, keyCol: 0, valueCol: 1, horizontal: false)])
    }
    try fillCrossSheet(sheets.cross, tables.categoryByDistrict)
    try fillQualitySheet(sheets.quality, tables.quality, total: tables.total)
    try writeSummary(sheets.summary, report, onNow: onNow)
    try writeDataInfo(try workbook.addSheet(labels.wbDataInfo), report)
    // Every printed page says which report, which week and (in a pack) which district.
    try workbook.setPageHeaders(
      XLSXPrintSetUp.header(
        title: labels.reportTitle, period: labels.officialPeriod(report.week), district: report.district?.name))
  }

  /// A bar chart of the first ``ExportOptions/chartTopN`` rows of a ranked table (key in
  /// `keyCol`, count beside it) at `row`, and under it a note naming what was left out.
  /// Nothing when the table is empty. On a table sheet (`pageRows` given) the chart starts
  /// a new printed page when it would not fit under the table on the first one: a chart is
  /// never cut in two.
  func insertTopChart(
    on sheet: XLSXSheet, row: Int, title: String, table: String, keyCol: Int, firstRow: Int,
    rows: [BandCount], rest: (Int, Int, String) -> String, scale: (Double, Double)? = nil,
    pageRows: Int? = nil
  ) throws {
    let shown = min(rows.count, max(options.chartTopN, 1))
    guard shown > 0 else { return }
    if let pageRows, row + Self.chartRows(shown) + 1 > pageRows { try sheet.pageBreak(beforeRow: row) }
    try insertCharts(
      on: sheet, row: row,
      [ChartSource(title: title, sheet: table, firstRow: firstRow, rowCount: shown, keyCol: keyCol, valueCol: keyCol + 1, horizontal: true)],
      scale: scale)
    if rows.count > shown {
      let left = rows.dropFirst(shown)
      try sheet.string(
        row + Self.chartRows(shown), 0, rest(left.count, left.reduce(0) { $0 + $1.count }, table),
        formats.note)
    }
  }

  func writeComparison(_ diff: SnapshotDiff, from: SnapshotInfo, to: SnapshotInfo) throws {
    try setProperties(subject: "\(labels.changes) #\(from.id) → #\(to.id)", created: to.takenAt)
    let stream = changesStream { [self] sheet in
      try sheet.string(0, 0, labels.changes, formats.title)
      try sheet.string(1, 0, labels.xlsxFrom, formats.label)
      try sheet.string(1, 1, snapshotLine(from))
      try sheet.string(2, 0, labels.xlsxTo, formats.label)
      try sheet.string(2, 1, snapshotLine(to))
      try sheet.string(3, 0, labels.xlsxChangeCounts, formats.label)
      // Split as the report splits them (D = the newer snapshot's day).
      let kinds = ChangeKinds.classify(diff, day: to.koreaDay)
      try sheet.string(
        3, 1,
        [
          (labels.added, diff.added.count), (labels.removedEnded, kinds.removedEnded),
          (labels.removedWithdrawn, kinds.removedWithdrawn), (labels.changedMaterial, kinds.changedMaterial),
          (labels.changedMinor, kinds.changedMinor),
        ].map { "\($0.0) \($0.1.formatted())" }.joined(separator: " · "))
      return 5
    }
    try stream.start()
    try fillChangesTable(stream, diff, day: to.koreaDay)
    try workbook.setPageHeaders(
      XLSXPrintSetUp.header(
        title: labels.changes,
        period: "\(labels.officialDay(from.koreaDay)) → \(labels.officialDay(to.koreaDay))"))
  }

  /// One-line warnings for what Excel's limits changed.
  func warnings(file: String) -> [String] {
    var out: [String] = []
    let truncated = counts.truncatedCells + workbook.cutTextCells
    if truncated > 0 { out.append(labels.xlsxTruncatedWarning(truncated, file: file)) }
    let asText = counts.linksNotLinkable + counts.linksOverSheetLimit
    if counts.linksOverSheetLimit > 0 { out.append(labels.xlsxLinksAsTextWarning(asText, file: file)) }
    for split in splitTables { out.append(labels.xlsxSplitWarning(split.sheets, file: file, table: split.table)) }
    return out
  }

  private func setProperties(subject: String, created: Date) throws {
    try workbook.setProperties(
      title: labels.reportTitle, subject: subject, author: "Raon",
      keywords: labels.language == .ko
        ? "서울시, 문화행사, 서울 열린데이터광장, Raon" : "Seoul, cultural events, open data, Raon",
      comments: labels.attribution, created: created)
  }

  // MARK: - Summary

  /// 요약, the page an official puts on top: the title with the week in official form and
  /// the data's 기준 시각, the week's headline (this week, the previous week, ▲/▼), the
  /// change counts, and charts of this week's running programs by district and by
  /// category (the current ones when nothing runs; a sentence when there are none), read
  /// from 운영 현황's tables. Snapshot ids and file names are on 자료 정보.
  private func writeSummary(_ sheet: XLSXSheet, _ report: ReportData, onNow: OnNowTables) throws {
    let f = formats
    for (col, width) in [30.0, 14, 14, 14].enumerated() { try sheet.setColumn(col, width: width) }
    // Portrait, on one page: the text and the two charts read top to bottom.
    try sheet.setUpPrinting(XLSXPrintSetUp(landscape: false, onePage: true, title: printTitle))

    try sheet.string(
      0, 0, report.district.map { "\(labels.reportTitle) — \($0.name)" } ?? labels.reportTitle, f.title)
    try sheet.setRow(0, height: 24)
    try sheet.string(
      1, 0, "\(labels.officialPeriod(report.week))  |  \(labels.collectedAt(report.snapshot.takenAt))", f.subtitle)
    var r = try writeWeekHeadline(sheet, report, row: 3) + 1

    let v = report.weekView
    let (byDistrict, byCategory, set): (OnNowTables.Table, OnNowTables.Table, String) =
      v.running > 0
      ? (onNow.runningByDistrict, onNow.runningByCategory, labels.runningThisWeek)
      : (onNow.currentByDistrict, onNow.currentByCategory, labels.currentPrograms)
    if v.running == 0 && v.current == 0 {
      try sheet.string(r, 0, labels.wbNothingToChart, f.note)
      r += 2
    } else {
      if v.running == 0 {
        try sheet.string(r, 0, labels.wbChartsShowCurrent, f.note)
        r += 1
      }
      if byDistrict.rows.count > 1 {
        r = try insertSummaryChart(
          sheet, row: r, byDistrict, title: labels.wbChartTitle(labels.byDistrict, set), rest: labels.wbRestOfDistricts)
      } else {
        // One district (a pack): one bar says nothing; a sentence says why there is none.
        try sheet.string(r, 0, labels.wbOneDistrictNoChart(report.district?.name ?? byDistrict.rows.first?.key ?? ""), f.note)
        r += 2
      }
      if byCategory.rows.count > 1 {
        r = try insertSummaryChart(
          sheet, row: r, byCategory, title: labels.wbChartTitle(labels.byCategory, set), rest: labels.wbRestOfCategories)
      } else if let only = byCategory.rows.first {
        try sheet.string(r, 0, labels.wbOneCategoryNoChart(only.key, count: only.count), f.note)
        r += 2
      }
    }
    try sheet.string(r, 0, labels.attribution, f.note)
  }

  /// 요약's chart of an on-now table (its rows on the week sheet); returns the row after the
  /// chart and its note.
  private func insertSummaryChart(
    _ sheet: XLSXSheet, row: Int, _ t: OnNowTables.Table, title: String, rest: (Int, Int, String) -> String
  ) throws -> Int {
    try insertTopChart(
      on: sheet, row: row, title: title, table: labels.whatIsOn, keyCol: t.col, firstRow: t.firstRow,
      rows: t.rows, rest: rest, scale: (1.1, 0.0))
    return row + Self.chartRows(min(t.rows.count, max(options.chartTopN, 1))) + 2
  }

  /// 자료 정보, the last sheet: which snapshots the figures come from (ids, times, source
  /// files, counts), the ISO week, what each figure counts, and the source.
  private func writeDataInfo(_ sheet: XLSXSheet, _ report: ReportData) throws {
    let f = formats
    try sheet.setColumn(0, width: 22)
    try sheet.setColumn(1, width: 60)
    try sheet.setUpPrinting(XLSXPrintSetUp(landscape: false, title: printTitle))
    try sheet.string(0, 0, labels.wbDataInfo, f.title)
    var r = 2
    try sheet.string(r, 0, labels.isoWeek, f.label)
    try sheet.string(r, 1, "\(report.week) (\(report.week.start) ~ \(report.week.end))")
    r += 2
    try sheet.string(r, 0, labels.snapshot, f.section)
    r = try writeSnapshotBlock(sheet, r + 1, report.snapshot) + 1
    try sheet.string(r, 0, labels.comparedTo, f.section)
    r += 1
    if let compare = report.compareTo {
      r = try writeSnapshotBlock(sheet, r, compare)
    } else {
      try sheet.string(r, 0, labels.noComparison)
      r += 1
    }
    r += 1
    try sheet.string(r, 0, labels.wbDefinitions, f.section)
    try sheet.string(r + 1, 0, labels.weekDefinitions, f.note)
    try sheet.string(r + 2, 0, labels.wholeCatalogNote, f.note)
    try sheet.string(r + 3, 0, labels.wbProgramsNotPrinted(labels.programs, count: report.programs.count), f.note)
    try sheet.string(r + 5, 0, labels.attribution, f.note)
  }

  private func writeSnapshotBlock(_ sheet: XLSXSheet, _ row: Int, _ info: SnapshotInfo) throws -> Int {
    var r = row
    try sheet.string(r, 0, labels.xlsxSnapshotID, formats.label)
    try sheet.string(r, 1, "#\(info.id)")
    r += 1
    try sheet.string(r, 0, labels.takenAt, formats.label)
    try sheet.datetime(r, 1, Self.koreaDateTime(info.takenAt), formats.dateTime)
    r += 1
    try sheet.string(r, 0, labels.source, formats.label)
    try sheet.string(r, 1, fit(info.source))
    r += 1
    try sheet.string(r, 0, labels.programCount, formats.label)
    try sheet.number(r, 1, Double(info.programCount), formats.integer)
    return r + 1
  }

  private func snapshotLine(_ info: SnapshotInfo) -> String {
    let t = Self.koreaDateTime(info.takenAt)
    let time = String(format: "%04d-%02d-%02d %02d:%02d KST", t.year, t.month, t.day, t.hour, t.min)
    return "#\(info.id) · \(time) · \(info.source) · \(labels.programCount) \(info.programCount.formatted())"
  }

  // MARK: - Charts

  struct ChartSource {
    var title: String
    var sheet: String
    var firstRow: Int
    var rowCount: Int
    var keyCol: Int
    var valueCol: Int
    var horizontal: Bool
  }

  /// Native charts in a 2 × 2 grid to the right of nothing else: below the summary text,
  /// so the printed page reads top to bottom.
  ///
  /// `scale` is the chart's (x, y) scale; a y of 0 (or no scale) sizes a bar chart to its
  /// bars (``chartScale(rows:)``).
  func insertCharts(
    on sheet: XLSXSheet, row: Int, _ sources: [ChartSource], gridColumns: (Int, Int) = (0, 4),
    scale: (Double, Double)? = nil
  ) throws {
    for (i, source) in sources.enumerated() where source.rowCount > 0 {
      let chart = try workbook.addChart(source.horizontal ? LXW_CHART_BAR : LXW_CHART_COLUMN)
      guard let series = chart_add_series(chart, nil, nil) else {
        throw XLSXExportError.libraryCall(
          what: "adding a chart series for '\(source.title)'", sheet: sheet.name, code: -1,
          message: "out of memory")
      }
      let last = source.firstRow + source.rowCount - 1
      // Sheet names go in as arguments: libxlsxwriter quotes them ('분류별'!$A$2:$A$9).
      source.sheet.withCString {
        chart_series_set_categories(
          series, $0, lxw_row_t(source.firstRow), lxw_col_t(source.keyCol), lxw_row_t(last),
          lxw_col_t(source.keyCol))
        chart_series_set_values(
          series, $0, lxw_row_t(source.firstRow), lxw_col_t(source.valueCol), lxw_row_t(last),
          lxw_col_t(source.valueCol))
      }
      labels.count.withCString { chart_series_set_name(series, $0) }
      chart_series_set_labels(series)
      chart_series_set_fill(series, nil)
      labels.xlsxChartTitle(source.title).withCString { chart_title_set_name(chart, $0) }
      var titleFont = lxw_chart_font()
      titleFont.size = 12
      titleFont.bold = 1
      chart_title_set_name_font(chart, &titleFont)
      chart_legend_set_position(chart, UInt8(LXW_CHART_LEGEND_NONE.rawValue))
      if source.horizontal {
        // Bars read top-down in table order (largest first) instead of Excel's bottom-up.
        // In libxlsxwriter's bar charts y_axis is the category axis; crossing at its
        // maximum keeps the value labels at the bottom once it is reversed.
        chart_axis_set_reverse(chart.pointee.y_axis)
        chart_axis_set_crossing_max(chart.pointee.y_axis)
        chart_set_series_gap(chart, 60)
      } else {
        chart_set_series_gap(chart, 80)
      }
      // The value axis: x in bar charts, y in column charts.
      chart_axis_set_num_format(source.horizontal ? chart.pointee.x_axis : chart.pointee.y_axis, "#,##0")
      let gridRow = row + (i / 2) * 22
      let gridCol = i % 2 == 0 ? gridColumns.0 : gridColumns.1
      let y = scale.map { $0.1 > 0 ? $0.1 : Self.chartScale(rows: source.rowCount) } ?? Self.chartScale(rows: source.rowCount)
      try sheet.insertChart(gridRow, gridCol, chart, xScale: scale?.0 ?? 1.05, yScale: y)
    }
  }

  /// A chart's height (as libxlsxwriter's y scale of its 288-pixel default) for `rows`
  /// bars: about 25 px a bar, so labels keep their size and three bars are not a wall.
  static func chartScale(rows: Int) -> Double { min(max(0.6 + 0.085 * Double(rows), 0.9), 2.0) }

  /// Rows of 20 px a landscape A4 page holds at 100 % (the group sheets print landscape).
  static let landscapePageRows = 30

  /// Rows of 20 px a chart of `bars` bars covers, and one more.
  static func chartRows(_ bars: Int) -> Int { Int((288 * chartScale(rows: bars) / 20).rounded(.up)) + 1 }

  // MARK: - Tables

  /// Returns the total row.
  @discardableResult
  private func fillGroupSheet(_ sheet: XLSXSheet, keyTitle: String, _ groups: [GroupStats], total: Int) throws -> Int {
    let f = formats
    // 유무료 미상 only when some program's free flag is unknown (catalogs before 2024).
    let showUnknown = groups.contains { $0.unknown > 0 }
    let headers = [keyTitle, labels.count, labels.share, labels.free, labels.paid, labels.medianDurationDays, labels.medianFeeMinKrw]
      + (showUnknown ? [labels.freeUnknown] : [])
    try writeHeader(sheet, headers)
    var widths = headers.map { DisplayWidth.of($0) }
    var r = 1
    for g in groups {
      try sheet.string(r, 0, fit(g.key))
      widths[0] = max(widths[0], DisplayWidth.of(g.key))
      try sheet.number(r, 1, Double(g.count), f.integer)
      try sheet.number(r, 2, Percentage.rounded(g.share), f.percent)
      try sheet.number(r, 3, Double(g.free), f.integer)
      try sheet.number(r, 4, Double(g.paid), f.integer)
      if let m = g.medianDurationDays { try sheet.number(r, 5, m, f.decimal) }
      if let m = g.medianFeeMinKrw { try sheet.number(r, 6, m, f.integer) }
      if showUnknown { try sheet.number(r, 7, Double(g.unknown), f.integer) }
      r += 1
    }
    try sheet.string(r, 0, labels.total, f.total)
    try sheet.number(r, 1, Double(total), f.totalInteger)
    try sheet.number(r, 2, total > 0 ? 1 : 0, f.totalPercent)
    try sheet.number(r, 3, Double(groups.reduce(0) { $0 + $1.free }), f.totalInteger)
    try sheet.number(r, 4, Double(groups.reduce(0) { $0 + $1.paid }), f.totalInteger)
    for col in 5...6 { try sheet.string(r, col, "", f.total) }
    if showUnknown { try sheet.number(r, 7, Double(groups.reduce(0) { $0 + $1.unknown }), f.totalInteger) }
    try finishTable(sheet, widths: widths, lastRow: r - 1, lastCol: headers.count - 1)
    return r
  }

  private func fillBandSheet(_ sheet: XLSXSheet, keyTitle: String, _ bands: [BandCount], total: Int, label: (String) -> String) throws {
    let headers = [keyTitle, labels.count, labels.share]
    try writeHeader(sheet, headers)
    var widths = headers.map { DisplayWidth.of($0) }
    var r = 1
    for band in bands {
      let text = label(band.key)
      try sheet.string(r, 0, fit(text))
      widths[0] = max(widths[0], DisplayWidth.of(text))
      try sheet.number(r, 1, Double(band.count), formats.integer)
      try sheet.number(r, 2, Percentage.rounded(Self.share(band.count, of: total)), formats.percent)
      r += 1
    }
    try sheet.string(r, 0, labels.total, formats.total)
    try sheet.number(r, 1, Double(bands.reduce(0) { $0 + $1.count }), formats.totalInteger)
    try sheet.number(r, 2, total > 0 ? 1 : 0, formats.totalPercent)
    try finishTable(sheet, widths: widths, lastRow: r - 1, lastCol: headers.count - 1)
  }

  private func fillCrossSheet(_ sheet: XLSXSheet, _ table: CrossTable) throws {
    let f = formats
    // District names run top to bottom in the header (stacked, as Korean reads), so the
    // 26 count columns stay narrow and the printed page keeps a readable font.
    try sheet.string(0, 0, labels.xlsxCategoryDistrictCorner, f.header)
    for (c, key) in (table.columnKeys + [labels.total]).enumerated() {
      try sheet.string(0, c + 1, key, f.verticalHeader)
    }
    let longest = (table.columnKeys + [labels.total]).map(\.count).max() ?? 2
    try sheet.setRow(0, height: Double(max(longest, 3)) * 15 + 8)
    var firstWidth = DisplayWidth.of(labels.xlsxCategoryDistrictCorner)
    var largest = 0
    for (i, key) in table.rowKeys.enumerated() {
      let r = i + 1
      try sheet.string(r, 0, fit(key), f.label)
      firstWidth = max(firstWidth, DisplayWidth.of(key))
      let row = i < table.counts.count ? table.counts[i] : []
      for c in table.columnKeys.indices {
        let value = c < row.count ? row[c] : 0
        largest = max(largest, value)
        try sheet.number(r, c + 1, Double(value), f.integer)
      }
      try sheet.number(r, table.columnKeys.count + 1, Double(row.reduce(0, +)), f.totalInteger)
    }
    let totalRow = table.rowKeys.count + 1
    try sheet.string(totalRow, 0, labels.total, f.total)
    let columnTotals = table.columnTotals
    for c in table.columnKeys.indices {
      try sheet.number(totalRow, c + 1, Double(columnTotals[c]), f.totalInteger)
      largest = max(largest, columnTotals[c])
    }
    let grandTotal = columnTotals.reduce(0, +)
    try sheet.number(totalRow, table.columnKeys.count + 1, Double(grandTotal), f.totalInteger)
    if !table.rowKeys.isEmpty && !table.columnKeys.isEmpty {
      try sheet.zeroToMaxColorScale(firstRow: 1, firstCol: 1, lastRow: table.rowKeys.count, lastCol: table.columnKeys.count)
    }
    var widths = [Double(Self.clampWidth(firstWidth))]
    // Room for the largest count with its separator, and a little padding.
    let countWidth = Double(max(Self.groupedWidth(largest) + 2, 5))
    widths += Array(repeating: countWidth, count: table.columnKeys.count)
    widths.append(Double(max(Self.groupedWidth(grandTotal) + 2, 7)))
    for (c, w) in widths.enumerated() { try sheet.setColumn(c, width: w) }
    sheet.freezePanes(row: 1, col: 1)
    try sheet.setUpPrinting(
      XLSXPrintSetUp(
        landscape: XLSXPrintSetUp.isWide(widths), repeatRows: 0...0, repeatColumns: 0...0,
        title: printTitle))
  }

  /// The flags with their names, explanations, counts and codes, then up to three example
  /// programs per flag (title linked to the portal), as the Markdown lists them.
  private func fillQualitySheet(_ sheet: XLSXSheet, _ quality: [QualityCount], total: Int) throws {
    let headers = [labels.flag, labels.xlsxDescription, labels.count, labels.share, labels.xlsxFlagCode]
    try writeHeader(sheet, headers)
    var widths = headers.map { DisplayWidth.of($0) }
    for (i, q) in quality.enumerated() {
      let name = labels.flagName(q.key), explanation = labels.flagExplanation(q.key)
      try sheet.string(i + 1, 0, fit(name))
      try sheet.string(i + 1, 1, fit(explanation))
      try sheet.number(i + 1, 2, Double(q.count), formats.integer)
      try sheet.number(i + 1, 3, Percentage.rounded(Self.share(q.count, of: total)), formats.percent)
      try sheet.string(i + 1, 4, fit(q.key), formats.code)
      widths[0] = max(widths[0], DisplayWidth.of(name))
      widths[1] = max(widths[1], DisplayWidth.of(explanation))
      widths[4] = max(widths[4], DisplayWidth.of(q.key))
    }

    // The examples below the table: flag, title (a link to the portal), id, district.
    var r = quality.count + 2
    let withExamples = quality.filter { !qualityExamples[$0.key].isEmpty }
    if !withExamples.isEmpty {
      try sheet.string(r, 0, labels.xlsxQualityExamplesTitle(Self.qualityExamplesPerFlag), formats.section)
      r += 1
      for (col, title) in [labels.flag, labels.title, labels.id, labels.district].enumerated() {
        try sheet.string(r, col, title, formats.header)
      }
      r += 1
      for q in withExamples {
        let name = labels.flagName(q.key)
        for p in qualityExamples[q.key] {
          try sheet.string(r, 0, fit(name))
          let title = fit(p.title)
          if !XLSXTableStream.isLinkable(p.portalURL) || !PortalLink.isProgramPage(p.portalURL)
            || sheet.link(r, 1, p.portalURL, text: title) != LXW_NO_ERROR {
            try sheet.string(r, 1, title)
          }
          try sheet.string(r, 2, fit(p.id))
          try sheet.string(r, 3, fit(p.district))
          widths[1] = max(widths[1], min(DisplayWidth.of(p.title), 60))
          widths[2] = max(widths[2], DisplayWidth.of(p.id))
          r += 1
        }
      }
    }
    try finishTable(sheet, widths: widths, lastRow: quality.count, lastCol: headers.count - 1)
  }

  private func writeHeader(_ sheet: XLSXSheet, _ headers: [String]) throws {
    for (col, title) in headers.enumerated() {
      try sheet.string(0, col, title, formats.header)
    }
  }

  private func finishTable(_ sheet: XLSXSheet, widths: [Int], lastRow: Int, lastCol: Int) throws {
    var printed: [Double] = []
    for (col, w) in widths.enumerated() {
      // Number columns: at least room for "1,234,567" and the header.
      let width = Double(Self.clampWidth(max(w, col == 0 ? 0 : 10)))
      try sheet.setColumn(col, width: width)
      printed.append(width)
    }
    sheet.freezePanes(row: 1, col: 0)
    try sheet.autofilter(firstRow: 0, firstCol: 0, lastRow: max(lastRow, 0), lastCol: lastCol)
    try sheet.setUpPrinting(
      XLSXPrintSetUp(landscape: XLSXPrintSetUp.isWide(printed), repeatRows: 0...0, title: printTitle))
  }

  /// The report's title for printed page headers.
  private var printTitle: String { labels.reportTitle }

  // MARK: - Changes

  private func changesStream(preamble: ((XLSXSheet) throws -> Int)?) -> XLSXTableStream {
    let headers = [
      labels.xlsxChangeKind, labels.id, labels.title, labels.field, labels.oldValue, labels.newValue,
      labels.category, labels.district, labels.fieldName("start_date"), labels.fieldName("end_date"),
      labels.changeKindTitle, labels.minor,
    ]
    return XLSXTableStream(
      workbook: workbook, baseName: labels.changes, headers: headers, headerFormat: formats.header,
      rowLimit: rowLimit, constantMemory: streamLargeSheets, preamble: preamble,
      printTitle: printTitle, repeatColumns: 0...2, widthCaps: [nil, nil, 36, nil, 40, 40])
  }

  /// Rows of the changes table: one per added or removed program and per changed field;
  /// one saying there is no comparison.
  static func changeRows(_ diff: SnapshotDiff?) -> Int {
    guard let diff else { return 1 }
    return diff.added.count + diff.removed.count + diff.changed.reduce(0) { $0 + $1.fields.count }
  }

  /// Writes the changes into a started stream (its sheet is already in the workbook): one
  /// row per added or removed program and per changed field, each with the program's
  /// category, district and dates, its kind (ended/withdrawn, material/minor) and, per
  /// field, whether that change is minor.
  private func fillChangesTable(_ stream: XLSXTableStream, _ diff: SnapshotDiff?, day: CalendarDay) throws {
    func program(_ change: String, _ p: Program, kind: String) throws {
      try stream.nextRow()
      try stream.text(0, change)
      try stream.text(1, p.id)
      try stream.text(2, p.title)
      try stream.text(6, p.category)
      try stream.text(7, p.district)
      try stream.date(8, p.startDate, formats.date)
      try stream.date(9, p.endDate, formats.date)
      try stream.text(10, kind)
    }
    if let diff {
      for p in diff.added { try program(labels.added, p, kind: "") }
      for p in diff.removed {
        try program(labels.removed, p, kind: labels.removal(ChangeKinds.removal(of: p, day: day)))
      }
      for c in diff.changed {
        let kind = labels.change(ChangeKinds.kind(of: c))
        for field in c.fields {
          try program(labels.changed, c.new, kind: kind)
          try stream.text(3, labels.fieldName(field.field))
          try stream.text(4, field.old)
          try stream.text(5, field.new)
          try stream.text(11, ChangeKinds.isMinor(field, of: c) ? labels.minor : "")
        }
      }
    } else {
      try stream.nextRow()
      try stream.text(0, labels.noComparison)
    }
    try stream.finish()
    absorb(stream, table: labels.changes)
  }

  // MARK: - Programs

  private func writePrograms(_ programs: ProgramChunks) throws {
    let headers = Program.csvColumns.map(labels.fieldName)
    // The id and title columns repeat on every printed page, as the header row does.
    let stream = XLSXTableStream(
      workbook: workbook, baseName: labels.programs, headers: headers, headerFormat: formats.header,
      rowLimit: rowLimit, constantMemory: streamLargeSheets, printTitle: printTitle,
      repeatColumns: 0...1, printColumns: Self.printedProgramColumns, printHeaderOnly: true,
      widthCaps: ProgramColumn.allCases.map(Self.widthCap))
    try stream.start()
    let free = labels.xlsxFreeValue, paid = labels.xlsxPaidValue
    try programs.forEach { chunk in
      for p in chunk {
        try writeProgram(p, to: stream, free: free, paid: paid)
        qualityExamples.add(p)
      }
    }
    try stream.finish()
    absorb(stream, table: labels.programs)
  }

  /// One row of the programs sheet, cell by cell from the column table.
  private func writeProgram(_ p: Program, to stream: XLSXTableStream, free: String, paid: String) throws {
    let f = formats
    try stream.nextRow()
    for (index, column) in ProgramColumn.allCases.enumerated() {
      let c = index
      switch column.cell(of: p) {
      case .text(let s): try stream.text(c, s)
      case .link(let s): try stream.link(c, s, portal: column == .portalURL)
      case .freeFlag(let isFree): try stream.text(c, isFree.map { $0 ? free : paid } ?? labels.freeUnknown)
      case .integer(let v):
        if let v { try stream.number(c, Double(v), f.integer, displayWidth: Self.groupedWidth(v)) }
      case .day(let d): try stream.date(c, d, f.date)
      case .coordinate(let v):
        // Latitudes print as 37.xxxxxx (10 columns), longitudes as 127.xxxxxx (11).
        if let v { try stream.number(c, v, f.coordinate, displayWidth: column == .latitude ? 10 : 11) }
      case .flags(let flags):
        if !flags.isEmpty { try stream.text(c, flagNames(flags)) }
      }
    }
  }

  /// The programs sheet's columns on paper: ID to 기간(일), what an official reads in a list
  /// (links, coordinates, 신청일 and flags stay on screen). Fitted one page wide, the sample's
  /// 5,000 programs print on about a hundred landscape pages at a readable scale.
  static let printedProgramColumns: ClosedRange<Int> =
    0...(ProgramColumn.allCases.firstIndex(of: .durationDays) ?? ProgramColumn.allCases.count - 1)

  /// The widest a programs column may be: long text is cut at the cell's edge (the whole
  /// value is in the cell), so the printed list keeps a readable scale.
  static func widthCap(_ column: ProgramColumn) -> Int? {
    switch column {
    case .title: return 36
    case .place: return 20
    case .organizer: return 16
    case .audience: return 14
    case .feeText: return 18
    case .category, .theme: return 14
    case .portalURL, .orgLink, .imageURL, .qualityFlags: return 24
    default: return nil
    }
  }

  /// The flags' names in the report's language (`자치구 없음, 좌표 없음`); the CSV keeps the codes.
  private func flagNames(_ flags: QualityFlags) -> String {
    if let cached = flagNameCache[flags.rawValue] { return cached }
    let names = labels.flagNames(flags)
    flagNameCache[flags.rawValue] = names
    return names
  }

  private func absorb(_ stream: XLSXTableStream, table: String) {
    counts.truncatedCells += stream.counts.truncatedCells
    counts.linksNotLinkable += stream.counts.linksNotLinkable
    counts.linksOverSheetLimit += stream.counts.linksOverSheetLimit
    if stream.sheets.count > 1 { splitTables.append((table, stream.sheets.count)) }
  }

  // MARK: - Helpers

  /// Text cut to Excel's cell limit, counted.
  private func fit(_ text: String) -> String {
    let (fitted, cut) = XLSXLimits.fitCell(text)
    if cut { counts.truncatedCells += 1 }
    return fitted
  }

  static func share(_ part: Int, of total: Int) -> Double {
    total > 0 ? Double(part) / Double(total) : 0
  }

  static func clampWidth(_ w: Int) -> Int {
    min(max(w + 2, XLSXTableStream.widthRange.lowerBound), XLSXTableStream.widthRange.upperBound)
  }

  /// Display width of an integer formatted `#,##0`.
  static func groupedWidth(_ v: Int) -> Int {
    var digits = 1, n = v.magnitude
    while n >= 10 {
      n /= 10
      digits += 1
    }
    return digits + (digits - 1) / 3 + (v < 0 ? 1 : 0)
  }

  /// The instant in Korea time as libxlsxwriter's broken-down date and time.
  static func koreaDateTime(_ date: Date) -> lxw_datetime {
    let day = CalendarDay(koreaDateOf: date)
    let local = date.timeIntervalSince1970 + Double(KoreaTime.offsetSeconds)
    var seconds = Int(local.rounded(.down)) % 86_400
    if seconds < 0 { seconds += 86_400 }
    return lxw_datetime(
      year: Int32(day.year), month: Int32(day.month), day: Int32(day.day),
      hour: Int32(seconds / 3600), min: Int32(seconds / 60 % 60), sec: Double(seconds % 60))
  }
}
