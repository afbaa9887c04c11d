import CXlsxWriter
import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument

/// The weekly trend as a worksheet (추이): the table and two native line charts beside it,
/// the same in `trend.xlsx` and in the weekly report's workbook.
///
/// The table starts at A1: the week (its Monday as text, `2024. 9. 9.`), then programs,
/// current, running, starting, registered, added and removed as numbers (added and
/// removed empty for the first point), then — after the print area — 주(ISO), 스냅숏 (the
/// id) and 수집 시각 (a real date and time in Korea). The charts, under the table, read
/// those cells (categories A2:A…, one series per column) and keep cached values: the
/// sheet is written in libxlsxwriter's default mode, so previewers show the lines too.
/// The first chart holds current and running (the catalog's size stays in the table: on
/// the same axis it flattened them), the second the weekly flows.
///
/// ```swift
/// let formats = try XLSXFormats(workbook, language: labels.language)
/// _ = try XLSXTrendSheet.add(to: workbook, points: trend, labels: labels, formats: formats)
/// ```
enum XLSXTrendSheet {
  /// The zero-based column of the charts (A), under the table.
  static let chartColumn = 0

  /// Adds the 추이 sheet (named ``ReportLabels/trendTitle``, made unique if taken).
  ///
  /// - Parameters:
  ///   - workbook: The workbook; sheets are kept in the order they are added.
  ///   - points: The trend, oldest first.
  ///   - chart: The trend's chart, described once (``TrendComposer/chart(_:labels:)``):
  ///     one native line chart per panel, over the table's columns of its series.
  ///   - labels: The words.
  ///   - formats: The workbook's cell formats.
  /// - Returns: The sheet.
  /// - Throws: ``XLSXExportError`` when libxlsxwriter refuses a call.
  @discardableResult
  static func add(
    to workbook: XLSXWorkbook, points: [WeeklyTrendPoint], chart: Chart, labels L: ReportLabels,
    formats f: XLSXFormats, into existing: XLSXSheet? = nil
  ) throws -> XLSXSheet {
    // A report adds the sheet in its place first and fills it once the points are known.
    let sheet = try existing ?? workbook.addSheet(L.trendTitle)
    // On paper: the week (its Monday, as the PDF writes days) and the figures; the ISO
    // week, the snapshot and the time it was taken after the print area, for the screen.
    let headers =
      [L.xlsxTrendWeekStart] + L.trendFigureHeaders + [L.trendWeekColumn, L.trendSnapshotColumn, L.trendTakenAtColumn]
    let codeColumn = 1 + L.trendFigureHeaders.count
    // Number columns get right-aligned headers, so each header sits over its figures.
    let numberHeader = try workbook.addFormat {
      format_set_bold($0)
      format_set_bg_color($0, 0xDDEBF7)
      format_set_bottom($0, UInt8(LXW_BORDER_THIN.rawValue))
      format_set_text_wrap($0)
      format_set_align($0, UInt8(LXW_ALIGN_RIGHT.rawValue))
      format_set_align($0, UInt8(LXW_ALIGN_VERTICAL_CENTER.rawValue))
    }
    let centeredHeader = try workbook.addFormat {
      format_set_bold($0)
      format_set_bg_color($0, 0xDDEBF7)
      format_set_bottom($0, UInt8(LXW_BORDER_THIN.rawValue))
      format_set_align($0, UInt8(LXW_ALIGN_CENTER.rawValue))
    }
    let centered = try workbook.addFormat { format_set_align($0, UInt8(LXW_ALIGN_CENTER.rawValue)) }
    for (col, title) in headers.enumerated() {
      let format =
        col == 0 || col == codeColumn || col == codeColumn + 2
        ? f.header : col == codeColumn + 1 ? centeredHeader : numberHeader
      try sheet.string(0, col, title, format)
    }
    for (i, point) in points.enumerated() {
      let r = i + 1
      try sheet.string(r, 0, weekLabel(point.isoWeek, L))
      let figures: [Int?] = [
        point.programCount, point.current, point.running, point.starting, point.registered,
        point.added, point.removed,
      ]
      for (k, value) in figures.enumerated() {
        if let value { try sheet.number(r, 1 + k, Double(value), f.integer) }
      }
      try sheet.string(r, codeColumn, point.isoWeek.description)
      try sheet.number(r, codeColumn + 1, Double(point.snapshotId), centered)
      try sheet.datetime(r, codeColumn + 2, XLSXReportBuilder.koreaDateTime(point.takenAt), f.dateTime)
    }
    let figureWidths = L.trendFigureHeaders.map { Double(XLSXReportBuilder.clampWidth(max(DisplayWidth.of($0), 8))) }
    let widths = [14.0] + figureWidths + [10, 8, 24]
    // 추가 and 삭제 count against the point before: with none before any point (one week
    // recorded) they are hidden rather than printed as empty columns.
    let flows = points.contains { $0.added != nil || $0.removed != nil }
    let hidden: Set<Int> = flows ? [] : [6, 7]
    for (col, width) in widths.enumerated() {
      if hidden.contains(col) { try sheet.hideColumn(col, width: width) } else { try sheet.setColumn(col, width: width) }
    }
    sheet.freezePanes(row: 1, col: 1)
    try sheet.autofilter(
      firstRow: 0, firstCol: 0, lastRow: max(points.count, 1), lastCol: headers.count - 1)
    // Portrait, one page wide: the week and the figures, the charts under the table.
    let printed = (0..<codeColumn).filter { !hidden.contains($0) }.map { widths[$0] }
    try sheet.setUpPrinting(
      XLSXPrintSetUp(
        landscape: XLSXPrintSetUp.isWide(printed), widths: printed, repeatRows: 0...0,
        printColumns: 0...(codeColumn - 1), title: L.reportTitle))
    if points.isEmpty {
      try sheet.string(2, 0, L.trendEmpty, f.note)
      return sheet
    }
    guard case .lines(let lines) = chart.content, let first = points.first, let last = points.last
    else { return sheet }
    let span = "\(weekLabel(first.isoWeek, L)) … \(weekLabel(last.isoWeek, L))"
    // The charts under the table; a long table puts them on a page of their own.
    let top = points.count + 3
    if points.count > 20 { try sheet.pageBreak(beforeRow: top) }
    // A panel's series are the table's columns of the same names (the figures start in B).
    // The catalog's size (about 5,000) would flatten the weekly counts (hundreds) on one
    // axis: it stays in the table, out of the chart.
    var k = 0
    for panel in lines.panels {
      let series = panel.series.filter { $0.name != L.trendProgramCount }
      let columns = series.compactMap { series in L.trendFigureHeaders.firstIndex(of: series.name).map { 1 + $0 } }
      guard !columns.isEmpty else { continue }
      try addChart(
        to: workbook, on: sheet, row: top + 20 * k, title: "\(panel.title) · \(span)", columns: columns,
        names: series.map(\.name), rows: points.count)
      k += 1
    }
    return sheet
  }

  /// A week as the table and charts show it: its Monday (`2024. 9. 9.`; `Mon 9 Sep 2024`).
  static func weekLabel(_ week: ISOWeek, _ L: ReportLabels) -> String {
    let d = week.start
    return L.language == .ko ? "\(d.year). \(d.month). \(d.day)." : L.officialDay(d)
  }

  private static let dashes = [
    LXW_CHART_LINE_DASH_SOLID, LXW_CHART_LINE_DASH_DASH, LXW_CHART_LINE_DASH_ROUND_DOT, LXW_CHART_LINE_DASH_LONG_DASH_DOT,
  ]
  private static let markers = [
    LXW_CHART_MARKER_CIRCLE, LXW_CHART_MARKER_SQUARE, LXW_CHART_MARKER_DIAMOND, LXW_CHART_MARKER_TRIANGLE,
  ]

  /// One line chart over `columns` of rows 2…`rows`+1, categories from column A.
  private static func addChart(
    to workbook: XLSXWorkbook, on sheet: XLSXSheet, row: Int, title: String, columns: [Int],
    names: [String], rows: Int
  ) throws {
    let chart = try workbook.addChart(LXW_CHART_LINE)
    for (s, col) in columns.enumerated() {
      guard let series = chart_add_series(chart, nil, nil) else {
        throw XLSXExportError.libraryCall(
          what: "adding a chart series for '\(names[s])'", sheet: sheet.name, code: -1,
          message: "out of memory")
      }
      sheet.name.withCString {
        chart_series_set_categories(series, $0, 1, 0, lxw_row_t(rows), 0)
        chart_series_set_values(series, $0, 1, lxw_col_t(col), lxw_row_t(rows), lxw_col_t(col))
      }
      names[s].withCString { chart_series_set_name(series, $0) }
      var line = lxw_chart_line()
      line.color = color(SVGLineChart.palette[s % SVGLineChart.palette.count])
      line.width = 2.25
      // Solid, then dashed, as the SVG draws them, each with a marker of its own: lines that
      // coincide (registered and added, in a weekly history) both stay visible on paper.
      line.dash_type = UInt8(Self.dashes[s % Self.dashes.count].rawValue)
      chart_series_set_line(series, &line)
      if rows <= 60 {
        chart_series_set_marker_type(series, UInt8(Self.markers[s % Self.markers.count].rawValue))
        chart_series_set_marker_size(series, 5)
        var fill = lxw_chart_fill()
        fill.color = line.color
        chart_series_set_marker_fill(series, &fill)
        var border = lxw_chart_line()
        border.color = line.color
        chart_series_set_marker_line(series, &border)
      } else {
        chart_series_set_marker_type(series, UInt8(LXW_CHART_MARKER_NONE.rawValue))
      }
    }
    title.withCString { chart_title_set_name(chart, $0) }
    var titleFont = lxw_chart_font()
    titleFont.size = 12
    titleFont.bold = 1
    chart_title_set_name_font(chart, &titleFont)
    chart_legend_set_position(chart, UInt8(LXW_CHART_LEGEND_BOTTOM.rawValue))
    chart_axis_set_num_format(chart.pointee.y_axis, "#,##0")
    chart_axis_set_min(chart.pointee.y_axis, 0)
    chart_axis_set_label_position(
      chart.pointee.x_axis, UInt8(LXW_CHART_AXIS_LABEL_POSITION_LOW.rawValue))
    try sheet.insertChart(row, chartColumn, chart, xScale: 1.4, yScale: 1.2)
  }

  /// `#0b5cad` → 0x0B5CAD.
  private static func color(_ hex: String) -> lxw_color_t {
    lxw_color_t(UInt32(hex.dropFirst(), radix: 16) ?? 0x1F2328)
  }
}
