import CXlsxWriter
import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument

/// Builds the sheets of one workbook. One instance per file; not `Sendable`.
final class XLSXReportBuilder {
  let workbook: XLSXWorkbook
  let options: ExportOptions
  let labels: ReportLabels
  let formats: XLSXFormats
  let rowLimit: Int
  let streamLargeSheets: Bool
  /// Limit counts from every sheet, for the warnings.
  var counts = XLSXCellCounts()
  var splitTables: [(table: String, sheets: Int)] = []
  /// Flag names by flag set, for the programs sheet's 품질 표시 column.
  var flagNameCache: [UInt32: String] = [:]

  init(workbook: XLSXWorkbook, options: ExportOptions, rowLimit: Int, streamLargeSheets: Bool) throws {
    self.workbook = workbook
    self.options = options
    self.labels = options.labels
    self.formats = try XLSXFormats(workbook, language: options.language)
    self.rowLimit = rowLimit
    self.streamLargeSheets = streamLargeSheets
  }

  // MARK: - Files

  func writeReport(_ report: WeeklyReport, programs: ProgramChunks) throws {
    // A pack leaves out 자치구별 (one row) and 분류×자치구 (one column): its own district is
    // the whole of both, and a sheet of one row or one column prints a page saying nothing.
    let sheets = try addReportSheets(pack: report.figures.district != nil)
    // The changes come before the programs: a table continued on more sheets adds them
    // as it goes, and the workbook keeps sheets in the order they were added.
    try fillChangesTable(
      sheets.changes, report.figures.changes, day: report.figures.snapshot.koreaDay, fieldsOnPaper: true)
    try writePrograms(programs)
    try fillReportSheets(sheets, report)
  }

  /// The sheets of a report, added in their final order before any is filled.
  struct ReportSheets {
    let summary: XLSXSheet
    let week: WeekSheets
    let category: XLSXSheet
    /// `nil` in a pack's workbook (``writeReport(_:programs:)``).
    let district: XLSXSheet?
    let fee, duration: XLSXSheet
    let cross: XLSXSheet?
    let quality: XLSXSheet
    /// The catalog's extra tables (``ReportExtra``: the national data's 요금정보 and 입장연령),
    /// a sheet each.
    let extras: [XLSXSheet]
    let changes: XLSXTableStream
  }

  /// Starts a report before its figures are known: adds every sheet and writes the
  /// programs, then the changes. ``finishReport(_:_:)`` fills the rest.
  ///
  /// - Returns: `nil`, writing nothing, when the changes need more than one sheet: a
  ///   continued table would add its sheets after the programs'.
  func startReport(programs: ProgramChunks, changes: SnapshotDiff?, day: CalendarDay) throws -> ReportSheets? {
    let sheets = try addReportSheets()
    guard sheets.changes.fitsFirstSheet(rows: Self.changeRows(changes)) else { return nil }
    try writePrograms(programs)
    try fillChangesTable(sheets.changes, changes, day: day, fieldsOnPaper: true)
    return sheets
  }

  /// Fills the sheets ``startReport(programs:changes:day:)`` left: everything but the
  /// programs and the changes, which are `report`'s.
  func finishReport(_ report: WeeklyReport, _ sheets: ReportSheets) throws {
    try fillReportSheets(sheets, report)
  }

  /// `pack`: without 자치구별 and 분류×자치구. A report started before its figures are known
  /// (``startReport(programs:changes:day:)``) has them.
  private func addReportSheets(pack: Bool = false) throws -> ReportSheets {
    let summary = try workbook.addSheet(labels.summary)
    let week = try addWeekSheets()
    let category = try workbook.addSheet(labels.byCategory)
    let district = pack ? nil : try workbook.addSheet(labels.byDistrict)
    let fee = try workbook.addSheet(labels.byFee)
    let duration = try workbook.addSheet(labels.byDuration)
    let extras = try options.profile.extras.map { try workbook.addSheet(labels.say($0.title)) }
    let cross = pack ? nil : try workbook.addSheet(labels.categoryByDistrict)
    let quality = try workbook.addSheet(labels.quality)
    let changes = changesStream(preamble: nil)
    try changes.start()
    return ReportSheets(
      summary: summary, week: week, category: category, district: district, fee: fee, duration: duration,
      cross: cross, quality: quality, extras: extras, changes: changes)
  }

  /// Everything but the changes and programs, in a fixed order (it decides the order of
  /// the workbook's shared strings, so the file does not depend on how it was started).
  private func fillReportSheets(_ sheets: ReportSheets, _ weekly: WeeklyReport) throws {
    let report = weekly.figures, charts = weekly.charts
    try setProperties(
      subject: "\(labels.reportTitle) \(report.week)", created: report.snapshot.takenAt)
    let tables = report.tables
    let onNow = try fillWeekSheets(sheets.week, report, trend: charts.trend)
    // The whole catalog's tables, each with its chart underneath, drawn over the table's own
    // rows.
    func under(_ sheet: XLSXSheet) -> ChartRows { ChartRows(sheet: sheet.name, firstRow: 1, keyCol: 0) }
    let categoryEnd = try fillGroupSheet(sheets.category, keyTitle: labels.category, tables.byCategory, total: tables.total)
    try draw(
      charts.byCategory, at: categoryEnd + 2, on: sheets.category, over: under(sheets.category),
      pageRows: Self.landscapePageRows)
    if let sheet = sheets.district {
      let districtEnd = try fillGroupSheet(sheet, keyTitle: labels.district, tables.byDistrict, total: tables.total)
      if tables.byDistrict.count > 1 {
        try draw(charts.byDistrict, at: districtEnd + 2, on: sheet, over: under(sheet), pageRows: Self.landscapePageRows)
      }
    }
    try fillBandSheet(sheets.fee, keyTitle: labels.feeBand, tables.byFee, total: tables.total, label: labels.feeBand(_:))
    try fillBandSheet(sheets.duration, keyTitle: labels.durationBand, tables.byDuration, total: tables.total, label: labels.durationBand(_:))
    for (sheet, chart, count) in [
      (sheets.fee, charts.byFee, tables.byFee.count), (sheets.duration, charts.byDuration, tables.byDuration.count),
    ] {
      try draw(chart, at: count + 3, on: sheet, over: under(sheet))
    }
    let L = labels
    for (sheet, extra) in zip(sheets.extras, options.profile.extras) {
      let rows = report.extras.first { $0.extra.jsonKey == extra.jsonKey }?.rows ?? []
      try fillBandSheet(
        sheet, keyTitle: L.say(extra.header), rows, total: tables.total, label: { L.say(extra.name(of: $0)) })
    }
    if let sheet = sheets.cross { try fillCrossSheet(sheet, tables.categoryByDistrict) }
    try fillQualitySheet(sheets.quality, tables.quality, total: tables.total, examples: report.qualityExamples)
    try writeSummary(sheets.summary, weekly, onNow: onNow)
    try writeDataInfo(try workbook.addSheet(labels.wbDataInfo), report)
    let ownLine = labels.words.layout.packNameOnOwnLine
    // Every printed page says which report, which week and (in a pack) which district: a
    // pack's own title (`종로구 문화행사 주간 현황`), or a long name on a line of its own.
    let district = report.district.map { labels.named($0.name) }
    try workbook.setPageHeaders(
      XLSXPrintSetUp.header(
        title: ownLine ? labels.reportTitle : labels.documentTitle(district: district),
        period: labels.officialPeriod(report.week), district: ownLine ? district : nil, ownLine: ownLine),
      twoLines: ownLine && report.district != nil)
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

  func setProperties(subject: String, created: Date) throws {
    try workbook.setProperties(
      title: labels.reportTitle, subject: subject, author: "Raon",
      keywords: labels.say(labels.words.keywords),
      comments: labels.attribution, created: created)
  }

  /// The report's title for printed page headers.
  var printTitle: String { labels.reportTitle }

  // MARK: - Helpers

  /// Text cut to Excel's cell limit, counted.
  func fit(_ text: String) -> String {
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
