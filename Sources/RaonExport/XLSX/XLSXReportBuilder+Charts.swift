import CXlsxWriter
import RaonAnalytics
import RaonCore
import RaonDocument

/// Native charts: drawn over the rows of a table the workbook already holds, so each chart
/// keeps its cached values and reads the same figures as its table.
extension XLSXReportBuilder {
  /// Where a chart's groups are in the workbook: the sheet, the row of the first, and the
  /// column of their keys (their counts in the next).
  struct ChartRows {
    var sheet: String
    var firstRow: Int
    var keyCol: Int
  }

  /// `chart`, described once (``Chart``), drawn natively at `row` of `sheet` over its
  /// groups' rows (`data`): a band scale as columns, every band; a ranking as bars read
  /// top-down, its first groups (the chart's top N) with a note under it naming the rest,
  /// never drawn as one long bar. The title names what the chart counts by, and the set
  /// counted when it is not the whole catalog. On a table sheet (`pageRows` given) a
  /// ranking starts a new printed page when it would not fit under the table on the first:
  /// a chart is never cut in two. Nothing when there is nothing to draw.
  func draw(
    _ chart: Chart, at row: Int, on sheet: XLSXSheet, over data: ChartRows, scale: (Double, Double)? = nil,
    pageRows: Int? = nil
  ) throws {
    guard case .bars(let bars) = chart.content else { return }
    let title = bars.set.map { labels.wbChartTitle(bars.subject, $0) } ?? bars.subject
    func source(_ count: Int, horizontal: Bool) -> ChartSource {
      ChartSource(
        title: title, sheet: data.sheet, firstRow: data.firstRow, rowCount: count, keyCol: data.keyCol,
        valueCol: data.keyCol + 1, horizontal: horizontal)
    }
    if bars.isScale { return try insertCharts(on: sheet, row: row, [source(bars.rows.count, horizontal: false)], scale: scale) }
    let shown = Self.shownBars(bars)
    guard shown > 0 else { return }
    if let pageRows, row + Self.chartRows(shown) + 1 > pageRows { try sheet.pageBreak(beforeRow: row) }
    try insertCharts(on: sheet, row: row, [source(shown, horizontal: true)], scale: scale)
    if bars.rows.count > shown, let rest = labels.wbRestOf(Array(bars.rows.dropFirst(shown)), unit: bars.unit, sheet: data.sheet) {
      // Under the chart as drawn: a scale of its own (요약's) makes it shorter.
      let height = scale.map { $0.1 > 0 ? Self.rows(yScale: $0.1) : Self.chartRows(shown) } ?? Self.chartRows(shown)
      try sheet.string(row + height, 0, rest, formats.note)
    }
  }

  /// How many groups of a ranking the workbook's chart draws: its first N (at least one).
  static func shownBars(_ bars: Chart.Bars) -> Int { min(bars.rows.count, max(bars.keep, 1)) }

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
  static func chartRows(_ bars: Int) -> Int { rows(yScale: chartScale(rows: bars)) }

  /// Rows of 20 px a chart of y scale `y` (of 288 px) covers, and one more.
  static func rows(yScale y: Double) -> Int { Int((288 * y / 20).rounded(.up)) + 1 }
}
