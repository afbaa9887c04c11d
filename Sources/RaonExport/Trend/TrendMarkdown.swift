import RaonAnalytics
import RaonCore

/// The weekly trend in Markdown: a table and a line chart (SVG), the same in `trend.md`
/// and in the weekly report's trend section.
///
/// ```swift
/// let section = TrendMarkdown.section(points: trend, labels: options.labels)
/// md += section.markdown                   // links charts/trend.svg
/// charts.append((path: section.chartPath, svg: section.svg))
/// ```
public enum TrendMarkdown {
  /// Where the chart goes, relative to the Markdown file.
  public static let chartPath = "charts/trend.svg"

  /// The trend section: heading, what the figures count, the range, the chart and the table.
  ///
  /// - Parameters:
  ///   - points: The trend, oldest first (``WeeklyTrend/points(_:)``).
  ///   - labels: The report's words.
  ///   - headingLevel: 2 for `## 추이` (a document's section); 0 for none (the report's
  ///     attachment has its own heading).
  ///   - chartPath: The chart's path relative to the Markdown file.
  /// - Returns: The Markdown (ending in a blank line), the chart's path and its SVG.
  public static func section(
    points: [WeeklyTrendPoint], labels: ReportLabels, headingLevel: Int = 2,
    chartPath: String = TrendMarkdown.chartPath
  ) -> (markdown: String, chartPath: String, svg: String) {
    let L = labels
    var md = headingLevel > 0 ? String(repeating: "#", count: headingLevel) + " \(L.trendTitle)\n\n" : ""
    md += MarkdownText.inline(L.trendDefinition) + "\n\n"
    let svg = chart(points: points, labels: L)
    guard let first = points.first, let last = points.last else {
      md += L.trendEmpty + "\n\n"
      return (md, chartPath, svg)
    }
    let range = (weekText(first, L), weekText(last, L))
    md += L.trendRange(from: range.0, to: range.1, weeks: points.count)
    md += "\n\n"
    md += "![\(MarkdownText.inline(L.trendChartTitle(from: range.0, to: range.1)))](\(chartPath))\n\n"
    md += table(points: points, labels: L)
    md += "\n"
    return (md, chartPath, svg)
  }

  /// The table alone: the week (its dates), the day the data was collected, then the
  /// figures; added and removed are `—` for the first point. Snapshot ids and ISO week codes
  /// stay in the CSV, JSON and workbook.
  public static func table(points: [WeeklyTrendPoint], labels L: ReportLabels) -> String {
    var table = MarkdownTable(
      [(L.trendWeekTitle, .left), (L.trendCollectedOn, .left)]
        + L.trendFigureHeaders.map { ($0, MarkdownTable.Alignment.right) })
    for point in points {
      table.add(
        [
          weekText(point, L),
          OfficialDates.programDates(
            CalendarDay(koreaDateOf: point.takenAt), CalendarDay(koreaDateOf: point.takenAt), L.language),
          point.programCount.formatted(), point.current.formatted(), point.running.formatted(),
          point.starting.formatted(), point.registered.formatted(),
          point.added.map { $0.formatted() } ?? "—", point.removed.map { $0.formatted() } ?? "—",
        ])
    }
    return table.render()
  }

  /// The line chart: current and running in one panel; starting, registered, added and
  /// removed (weekly flows, much smaller) in a second. The catalog's size (all programs,
  /// ended ones included, ten times the rest) is in the table only: on a shared axis it
  /// flattened every other line.
  public static func chart(points: [WeeklyTrendPoint], labels L: ReportLabels) -> String {
    let title =
      points.isEmpty
      ? L.trendTitle
      : L.trendChartTitle(from: weekText(points[0], L), to: weekText(points[points.count - 1], L))
    return SVGLineChart(
      title: title, xLabels: points.map { mondayText($0.isoWeek, L) },
      panels: [
        .init(
          title: L.trendSizePanel,
          series: [
            .init(name: L.trendCurrent, values: points.map(\.current)),
            .init(name: L.trendRunning, values: points.map(\.running)),
          ]),
        .init(
          title: L.trendFlowPanel,
          series: [
            .init(name: L.trendStarting, values: points.map(\.starting)),
            .init(name: L.trendRegistered, values: points.map(\.registered)),
            .init(name: L.trendAdded, values: points.map(\.added)),
            .init(name: L.trendRemoved, values: points.map(\.removed)),
          ]),
      ], emptyText: L.trendEmpty
    ).render()
  }

  /// A point's week as people write it: `2024. 9. 9. ~ 9. 15.`.
  static func weekText(_ point: WeeklyTrendPoint, _ L: ReportLabels) -> String {
    OfficialDates.programDates(point.isoWeek.start, point.isoWeek.end, L.language)
  }

  /// A week on the chart's axis, by its Monday: `9. 9.` / `9 Sep`.
  static func mondayText(_ week: ISOWeek, _ L: ReportLabels) -> String {
    let monday = week.start
    return L.language == .ko ? "\(monday.month).\u{A0}\(monday.day)." : OfficialDates.dayMonth(monday)
  }

  /// `trend.md`: the trend as a document of its own, with the attribution.
  public static func document(points: [WeeklyTrendPoint], labels L: ReportLabels) -> (
    markdown: String, chartPath: String, svg: String
  ) {
    var document = Self.section(points: points, labels: L, headingLevel: 2)
    document.markdown =
      "# \(L.trendDocumentTitle)\n\n" + document.markdown + "---\n\n\(L.attribution)\n"
    return document
  }
}
