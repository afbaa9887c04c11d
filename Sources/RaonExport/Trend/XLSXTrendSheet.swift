import CXlsxWriter
import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument

/// The weekly trend as a worksheet (추이): the table and two native line charts beside it,
/// the same in `trend.xlsx` and in the weekly report's workbook.
///
/// The table starts at A1: 주(ISO), 스냅숏 (the id, a number), 수집 시각 (a real date and
/// time in Korea), then programs, current, running, starting, registered, added and
/// removed as numbers (added and removed empty for the first point). The charts read
/// those cells (categories A2:A…, one series per column) and keep cached values: the
/// sheet is written in libxlsxwriter's default mode, so previewers show the lines too.
/// The first chart holds the large series (programs, current, running), the second the
/// weekly flows, so neither flattens the other.
///
/// ```swift
/// let formats = try XLSXFormats(workbook, language: labels.language)
/// _ = try XLSXTrendSheet.add(to: workbook, points: trend, labels: labels, formats: formats)
/// ```
enum XLSXTrendSheet {
  /// The zero-based column of the first chart (L), right of the table and a gap.
  static let chartColumn = 11

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
    let headers =
      [L.trendWeekColumn, L.trendSnapshotColumn, L.trendTakenAtColumn] + L.trendFigureHeaders
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
      try sheet.string(
        0, col, title, col == 0 || col == 2 ? f.header : col == 1 ? centeredHeader : numberHeader)
    }
    for (i, point) in points.enumerated() {
      let r = i + 1
      try sheet.string(r, 0, point.isoWeek.description)
      try sheet.number(r, 1, Double(point.snapshotId), centered)
      try sheet.datetime(r, 2, XLSXReportBuilder.koreaDateTime(point.takenAt), f.dateTime)
      let figures: [Int?] = [
        point.programCount, point.current, point.running, point.starting, point.registered,
        point.added, point.removed,
      ]
      for (k, value) in figures.enumerated() {
        if let value { try sheet.number(r, 3 + k, Double(value), f.integer) }
      }
    }
    let widths = [10, 8, 24] + L.trendFigureHeaders.map { max(DisplayWidth.of($0), 8) }
    for (col, width) in widths.enumerated() {
      try sheet.setColumn(col, width: Double(XLSXReportBuilder.clampWidth(width)))
    }
    sheet.freezePanes(row: 1, col: 1)
    try sheet.autofilter(
      firstRow: 0, firstCol: 0, lastRow: max(points.count, 1), lastCol: headers.count - 1)
    // Landscape, one page wide, its header row on every page (the charts sit beside it).
    try sheet.setUpPrinting(
      XLSXPrintSetUp(landscape: true, repeatRows: 0...0, title: L.reportTitle))
    if points.isEmpty {
      try sheet.string(2, 0, L.trendEmpty, f.note)
      return sheet
    }
    guard case .lines(let lines) = chart.content, let first = lines.xCodes.first, let last = lines.xCodes.last
    else { return sheet }
    // A panel's series are the table's columns of the same names (the figures start in D).
    for (k, panel) in lines.panels.enumerated() {
      let columns = panel.series.compactMap { series in L.trendFigureHeaders.firstIndex(of: series.name).map { 3 + $0 } }
      try addChart(
        to: workbook, on: sheet, row: 20 * k, title: "\(panel.title) · \(first) … \(last)", columns: columns,
        names: panel.series.map(\.name), rows: points.count)
    }
    return sheet
  }

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
      chart_series_set_line(series, &line)
      if rows <= 60 {
        chart_series_set_marker_type(series, UInt8(LXW_CHART_MARKER_CIRCLE.rawValue))
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
    try sheet.insertChart(row, chartColumn, chart, xScale: 1.5, yScale: 1.35)
  }

  /// `#0b5cad` → 0x0B5CAD.
  private static func color(_ hex: String) -> lxw_color_t {
    lxw_color_t(UInt32(hex.dropFirst(), radix: 16) ?? 0x1F2328)
  }
}
